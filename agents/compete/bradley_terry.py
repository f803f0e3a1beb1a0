"""The Bradley-Terry fit behind the tournament's ratings: strengths from pair counts, put
on an Elo-like scale anchored on a reference contestant, with a bootstrap over seeds. Pure
arithmetic on counts; ratings.py turns matches into counts and counts back into contestants.

Contestant i beats j with probability 1 / (1 + exp(s_j - s_i)). Each pair's games are
summed into (i's score, games), a draw counting half a win for each side (as LMSYS's
Chatbot Arena counts ties), so a fit costs the same for ten matches or ten thousand.
The strengths maximise the likelihood times a weak Gaussian prior, N(0, PRIOR_SD²)
on each strength: without it a contestant that always wins would have an infinite
strength; with it, it is rated high and finite. The prior weighs about as much as one
even game, so a few dozen matches outweigh it. The log-posterior is strictly concave,
so Newton's method (with step halving, which it rarely needs) finds the one maximum in
a handful of steps; with tens of contestants the linear solve is cheap in pure Python.

The scale: the contestants are in groups (a role's, in ratings.py), each with its
reference, rated CENTRE (1500): its anchor contestant, or without one the group's mean.
POINTS = CENTRE + SCALE * (s - the reference's strength), so a difference of 400 points
within a group means odds of 10 to 1, as in Elo ratings; between two groups, their
references' difference in strength is the offset to add (ratings.py states it). The
prior's PRIOR_SD is 400 points.

The bootstrap resamples clusters (ratings.py: the seeds, all of a seed's matches in or
out together), not single matches: matches on one seed share its labyrinth, so they are
not independent, and resampling them one by one would treat a seed's shared difficulty
as many independent observations: an interval too narrow wherever that difficulty moves
the figure (the offset between two groups), and one blind to what pairing on the same
seeds does.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Collection, Mapping, Sequence
from operator import mul

CENTRE = 1500.0  # the rating of each group's reference (its anchor, or without one its mean)
TENFOLD = 400  # the points between two ratings whose odds are 10 to 1 (Elo's)
SCALE = TENFOLD / math.log(10)  # points per unit of strength
PRIOR_SD = math.log(10)  # the prior's spread, in strength: 400 points
TOLERANCE = 1e-7  # Newton stops once no strength moves more than this: it is then within about 1e-14
MAX_STEPS = 100
REDRAWS = 1000  # how often a resample missing an anchor is drawn again before it is kept as it is

Games = Mapping[tuple[int, int], tuple[float, int]]  # (i, j) -> (i's score against j, games they played)
Cell = tuple[int, int, float]  # one kind of match: i, j and i's score in it (1, 0.5 or 0)
Group = tuple[Sequence[int], int | None]  # contestants rated together and their anchor (None: their mean)


def fit(size: int, games: Games, start: Sequence[float] | None = None) -> list[float]:
    """The strengths of contestants 0..size-1 that maximise the posterior given ``games``;
    ``start``: where Newton begins (a nearby fit converges in fewer steps). The pairs are read
    in sorted order, so the same counts give the same floats however they were gathered."""
    pairs = sorted(games.items())
    strengths = list(start) if start is not None else [0.0] * size
    value, gradient, information = _expansion(strengths, pairs)
    for _ in range(MAX_STEPS):
        step = _solve(information, gradient)
        length = 1.0
        while True:  # the full step nearly always raises the posterior; halve it when it does not
            trial = [s + length * d for s, d in zip(strengths, step, strict=True)]
            expansion = _expansion(trial, pairs)
            if expansion[0] >= value - 1e-12 * (1 + abs(value)) or length < 1e-6:
                break
            length /= 2
        strengths, (value, gradient, information) = trial, expansion
        if max((abs(length * d) for d in step), default=0.0) < TOLERANCE:
            break
    return strengths


def references(strengths: Sequence[float], groups: Sequence[Group],
               present: Collection[int] | None = None) -> list[float]:
    """Each group's reference strength, the one rated CENTRE: its anchor's when the anchor is in
    ``present`` (default: everyone), else the mean of its members in ``present`` (0 with none)."""
    found = []
    for members, anchor in groups:
        here = [i for i in members if present is None or i in present]
        if anchor is not None and anchor in here:
            found.append(strengths[anchor])
        else:
            found.append(sum(strengths[i] for i in here) / len(here) if here else 0.0)
    return found


def points(strengths: Sequence[float], groups: Sequence[Group], present: Collection[int] | None = None
           ) -> list[float]:
    """``strengths`` on the rating scale, each group's measured from its reference (references)."""
    rated = [CENTRE] * len(strengths)
    for (members, _), reference in zip(groups, references(strengths, groups, present), strict=True):
        for i in members:
            rated[i] = CENTRE + SCALE * (strengths[i] - reference)
    return rated


def games_of(cells: Mapping[Cell, int]) -> dict[tuple[int, int], tuple[float, int]]:
    """Pair counts from counts of each kind of match."""
    games: dict[tuple[int, int], list[float]] = {}
    for (i, j, score), count in cells.items():
        tally = games.setdefault((i, j), [0.0, 0])
        tally[0] += score * count
        tally[1] += count
    return {pair: (score, int(n)) for pair, (score, n) in games.items()}


def bootstrap(size: int, clusters: Sequence[Mapping[Cell, int]], centre: Sequence[float], resamples: int,
              seed: str, needed: Collection[int] = ()) -> list[list[float]]:
    """The strengths fitted to each of ``resamples`` resamples of ``clusters`` (each a count of kinds
    of match, all played on one seed), drawn with replacement as wholes, as many as there are (a
    contestant drawn no match in one is at the prior's centre there: unknown). A resample without a
    match of a contestant in ``needed`` (an anchor, the scale's zero) is drawn again: its ratings
    would be measured from nothing. ``centre``: the fit to every match, where each resample's Newton
    starts. ``seed`` fixes the draws, so the same matches always give the same strengths."""
    pairs = sorted({(i, j) for cluster in clusters for i, j, _ in cluster})
    column = {pair: k for k, pair in enumerate(pairs)}
    scores = [[0.0] * len(clusters) for _ in pairs]  # pair -> cluster -> i's score against j there
    games = [[0] * len(clusters) for _ in pairs]
    for c, cluster in enumerate(clusters):
        for (i, j, score), count in sorted(cluster.items()):
            scores[column[(i, j)]][c] += score * count
            games[column[(i, j)]][c] += count
    holding = [[c for c, cluster in enumerate(clusters) if any(k in (i, j) for i, j, _ in cluster)]
               for k in sorted(needed)]  # each anchor's clusters: one at least must be drawn
    rng = random.Random(seed)
    fitted = []
    for _ in range(resamples):
        for _ in range(REDRAWS):
            weights = [0] * len(clusters)
            for c in rng.choices(range(len(clusters)), k=len(clusters)):
                weights[c] += 1
            if all(any(weights[c] for c in held) for held in holding if held):
                break
        sample = {pair: (sum(map(mul, weights, scores[k])), sum(map(mul, weights, games[k])))
                  for k, pair in enumerate(pairs)}
        fitted.append(fit(size, {pair: tally for pair, tally in sample.items() if tally[1]}, centre))
    return fitted


def deviations(strengths: Sequence[float], games: Games, contrasts: Sequence[Sequence[float]]) -> list[float]:
    """The posterior standard deviation of each contrast (a weighted sum of the strengths) by the model
    alone, every match independent: sqrt(c' I^-1 c), I the information (the log-posterior's negative
    Hessian) at ``strengths``, the fit to ``games``."""
    _, _, information = _expansion(strengths, sorted(games.items()))
    return [math.sqrt(max(0.0, sum(map(mul, c, _solve(information, list(c)))))) for c in contrasts]


def middle_95(values: Sequence[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of ``values`` (a bootstrap's 95% interval)."""
    cuts = statistics.quantiles(values, n=40, method="inclusive")
    return cuts[0], cuts[-1]


def _expansion(strengths: Sequence[float], pairs: Sequence[tuple[tuple[int, int], tuple[float, int]]]
               ) -> tuple[float, list[float], list[list[float]]]:
    """The log-posterior at ``strengths``, its gradient and its negative Hessian (positive
    definite, thanks to the prior), in one pass over the pairs."""
    size, precision = len(strengths), 1 / PRIOR_SD ** 2
    value = -precision * sum(s * s for s in strengths) / 2
    gradient = [-precision * s for s in strengths]
    information = [[0.0] * size for _ in range(size)]
    for i in range(size):
        information[i][i] = precision
    for (i, j), (score, n) in pairs:
        gap = strengths[i] - strengths[j]
        odds = math.exp(-abs(gap))  # of the less likely winner: never overflows
        soft = math.log1p(odds)
        p = 1 / (1 + odds) if gap >= 0 else odds / (1 + odds)  # that i wins
        value -= score * (soft + max(0.0, -gap)) + (n - score) * (soft + max(0.0, gap))
        surprise, weight = score - n * p, n * p * (1 - p)
        gradient[i] += surprise
        gradient[j] -= surprise
        information[i][i] += weight
        information[j][j] += weight
        information[i][j] -= weight
        information[j][i] -= weight
    return value, gradient, information


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector, for a symmetric positive definite matrix (Cholesky; the sums as
    map(mul), about three times as fast as a generator in pure Python)."""
    size = len(vector)
    lower: list[list[float]] = []
    for i in range(size):
        row: list[float] = []
        for j in range(i + 1):
            total = matrix[i][j] - sum(map(mul, row, lower[j][:j])) if j < i else matrix[i][i] - sum(map(mul, row, row))
            row.append(math.sqrt(total) if i == j else total / lower[j][j])
        lower.append(row)
    forward: list[float] = []
    for i in range(size):
        forward.append((vector[i] - sum(map(mul, lower[i], forward))) / lower[i][i])
    solution = [0.0] * size
    for i in reversed(range(size)):
        solution[i] = (forward[i] - sum(lower[k][i] * solution[k] for k in range(i + 1, size))) / lower[i][i]
    return solution
