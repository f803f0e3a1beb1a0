"""Ratings from a tournament's matches: a pure function of the matches, for
`labyrinth tournament`, the leaderboard and its screen alike.

The ratings are a Bradley-Terry fit (bradley_terry.py) to every valid match at once,
as LMSYS's Chatbot Arena rates its models: a user escaping is a win for the user,
the catch (DEATH) one for the Minotaur, a TIMEOUT half a win for each. Users and
Minotaurs are the two sides of one model, which fixes every difference of strength but
not where the scale starts: each role's ratings are anchored on its reference
contestant, the rule agent "builtin" of that role (no setup), rated 1500 when it played,
so two tournaments with the built-in agents can be compared; a role without it has its
contestants' mean at 1500. Anchored apart, the two roles' scales differ by an offset D
(Standings.offset): a user rated R against a Minotaur rated M is expected to score
1 / (1 + 10^((M - R + D) / 400)) (an escape 1, a draw 0.5). A model that plays both
roles has two ratings: hunting and escaping are different skills.

One fit to all the matches does not depend on their order (unlike a rating updated
match by match, such as Elo or OpenSkill): the same matches give the same figures to
the last digit, however they were handed in.

A game counts once. The engine is deterministic, so two matches of the same contestants
on the same seed with the same digest (the game as played) are the same game, played
again: a --repeats of contestants that do not sample. Only the first in play order is
kept; counting the others would add no information yet narrow every interval as if it
did (Standings.copies says how many were left out, copies_warning in a sentence).

Each rating has a 95% interval from a bootstrap over the seeds (RESAMPLES resamples,
drawn from the fixed seed BOOTSTRAP_SEED, so the same matches give the same interval):
every match of a seed as it was played (its number, ground, difficulty, turn limit and
who learned) goes in or out of a resample together, because the seed's labyrinth makes
all its matches easier or harder at once. Resampling single matches, as before, took that
shared difficulty for independent evidence: where seeds matter it covered the offset
between the roles far less often than 95% (0.70-0.91 in bench/tournament/interval_coverage.py, where
the bootstrap over seeds covers 0.93-0.96), and a contestant's rating too little or too
much depending on how the seed's effect fell (0.90-0.99). With
few seeds a bootstrap's interval is too narrow, so it is stretched as cluster-robust
inference does (bootstrap_intervals); where every seed gave a contestant the same results
it would be a point, and the model's interval is given instead. The anchor's interval is a
point by definition (its Rating says anchor). With one seed there is no interval: the
spread between seeds is not seen. From the intervals, each rating's rank bounds: the best
place is one more than the contestants whose interval lies wholly above its own, the worst
the role's size less those wholly below, so contestants that cannot be told apart share
places. Beside the rating, the raw win rate with its Wilson interval.

A contestant is its name and its setup: for a model, the fingerprint of the requests it
was actually sent (its endpoint and the parameters on the wire, SideRecord.sent_setup),
not of what it was asked for, so two contestants asked differently whose requests were
byte-identical are one; the same name with two setups is two contestants, shown apart by
their setups (``llama-local (3f2a9c)``). A void match (a model that did not play it) is
never rated, whoever hands it in.

Each rating's history is the fit to the matches played so far, in play order
(MatchRow.play_order), at each of its matches, or with more than HISTORY_POINTS
matches at that many evenly spaced points, anchored alike (on the anchor once it has
played); its last point is the rating shown.
"""

from __future__ import annotations

import math
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, NamedTuple

from labyrinth.engine.schemas import OUTCOMES
from labyrinth.saves.results_db import ROLES, MatchRow
from labyrinth.saves.results_terms import ROLE_WORDS, USER_SCORE

from .bradley_terry import (
    CENTRE,
    PRIOR_SD,
    SCALE,
    TENFOLD,
    Cell,
    Group,
    bootstrap,
    deviations,
    fit,
    games_of,
    middle_95,
    points,
    references,
)
from .intervals import Z_95, t_quantile, wilson_interval
from .paired import PairedDifference, Seed, paired_differences, score, seed_of, with_holm

RESAMPLES = 200  # bootstrap fits for the intervals: their ends move by a point or two between seeds
BOOTSTRAP_SEED = "ratings:bootstrap"
HISTORY_POINTS = 60  # the most refits a history is drawn from: a chart shows no more
SHOWN_SETUP = 6  # a setup's first characters in a label, more when two of one name would look alike
REFERENCE = "builtin"  # each role's anchor: its rule agent of this name (no setup), rated CENTRE


class Contestant(NamedTuple):
    """Who played one side of a match: its role, name and setup ("" for a rule agent). A tuple:
    thousands of matches hash it several times each."""

    role: str
    name: str
    setup: str = ""


def contestant(row: MatchRow, role: str) -> Contestant:
    """Who played ``role`` in ``row``: its name and, for a model, the fingerprint of what it was sent
    (SideRecord.sent_setup), so that two contestants asked differently whose requests were the same
    bytes (a temperature a server refused, one a reasoning model takes none of) are one; a row that
    recorded no request (older, or nothing answered) by the fingerprint of what it was asked."""
    return Contestant(role, getattr(row, role), row.side(role).sent_setup or getattr(row, f"{role}_setup"))


@dataclass(frozen=True)
class Rating:
    """One contestant in one role: its rating with its interval and rank bounds, and its record."""

    role: str
    name: str
    setup: str
    label: str  # how the tables name it: its name, with its setup when its name has several
    rating: float  # Bradley-Terry, on the Elo-like scale (the module's docstring)
    wins: int
    draws: int
    losses: int
    low: float | None = None  # the rating's 95% bootstrap interval; None when not asked for, or one seed
    high: float | None = None
    history: tuple[float, ...] = ()  # its rating as it stood after its matches, in play order
    history_at: tuple[int, ...] = ()  # how many of its matches it had played at each point of history
    anchor: bool = False  # its role's reference, rated CENTRE by definition: its interval is that point
    rank_best: int = 0  # the best place within its role its interval allows (1-based; its place without one)
    rank_worst: int = 0  # the worst

    @property
    def matches(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The win rate's 95% Wilson interval."""
        return wilson_interval(self.wins, self.matches)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.win_interval
        return {"role": self.role, "name": self.name, "setup": self.setup, "label": self.label,
                "rating": round(self.rating, 3), "low": _rounded(self.low), "high": _rounded(self.high),
                "anchor": self.anchor, "rank_best": self.rank_best, "rank_worst": self.rank_worst,
                "matches": self.matches, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "win_rate": round(self.win_rate, 4), "win_interval": [round(low, 4), round(high, 4)],
                "history": [round(v, 3) for v in self.history], "history_at": list(self.history_at)}


@dataclass(frozen=True)
class HeadToHead:
    """One user against one Minotaur (by their labels): how their matches ended."""

    user: str
    minotaur: str
    escaped: int = 0
    caught: int = 0
    timeouts: int = 0

    @property
    def matches(self) -> int:
        return self.escaped + self.caught + self.timeouts

    def to_dict(self) -> dict[str, Any]:
        return {"user": self.user, "minotaur": self.minotaur, "matches": self.matches, "escaped": self.escaped,
                "caught": self.caught, "timeouts": self.timeouts}


@dataclass(frozen=True)
class Anchor:
    """What one role's ratings are measured from: ``label`` rated ``rating``, or with no label (its
    reference did not play) the mean of the role's contestants."""

    role: str
    label: str | None = None
    rating: float = CENTRE

    def describe(self) -> str:
        """The anchor in words: 'builtin = 1500' or 'the mean of its contestants = 1500'."""
        return f"{self.label or 'the mean of its contestants'} = {self.rating:.0f}"

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "label": self.label, "rating": self.rating}


@dataclass(frozen=True)
class Standings:
    """Every contestant's rating, best first within each role; the head-to-head table; each role's
    paired differences; what each role is anchored on and the offset between the two; how many
    matches were copies of another game."""

    ratings: dict[str, tuple[Rating, ...]] = field(default_factory=dict)  # by role
    head_to_head: tuple[HeadToHead, ...] = ()
    paired: dict[str, tuple[PairedDifference, ...]] = field(default_factory=dict)  # by role
    anchors: dict[str, Anchor] = field(default_factory=dict)  # by role
    offset: float = 0.0  # D: a user rated R against a Minotaur rated M is expected to score expected(R, M)
    offset_low: float | None = None  # D's 95% bootstrap interval; None as a rating's
    offset_high: float | None = None
    copies: int = 0  # valid matches left out as copies of another game (the module's docstring)
    seeds: int = 0  # the seeds (as played) of the matches rated: the bootstrap's clusters

    def expected(self, user: float, minotaur: float) -> float:
        """A user rated ``user``'s expected score (an escape 1, a draw 0.5) against a Minotaur rated
        ``minotaur``: 1 / (1 + 10^((M - R + D) / 400))."""
        return 1 / (1 + 10 ** ((minotaur - user + self.offset) / TENFOLD))

    @property
    def copies_warning(self) -> str | None:
        """The copies left out, in a sentence to print; None when there were none."""
        if not self.copies:
            return None
        were = "match was a copy" if self.copies == 1 else "matches were copies"
        return (f"{self.copies} {were} of another game (same contestants, seed and moves) and "
                f"count{'s' if self.copies == 1 else ''} once: a repeat or a rerun of contestants that do not "
                "sample adds no information")

    def label(self, row: MatchRow, role: str) -> str:
        """How the tables name ``row``'s contestant in ``role`` (its name, if it was not rated)."""
        return self.label_of(contestant(row, role))

    def label_of(self, who: Contestant) -> str:
        """How the tables name ``who`` (its name, if it was not rated)."""
        return self._labels.get(who, who.name)

    @cached_property
    def _labels(self) -> dict[Contestant, str]:
        return {Contestant(r.role, r.name, r.setup): r.label for ratings in self.ratings.values() for r in ratings}

    def to_dict(self) -> dict[str, Any]:
        return {"ratings": {role: [r.to_dict() for r in ratings] for role, ratings in self.ratings.items()},
                "head_to_head": [h.to_dict() for h in self.head_to_head],
                "paired": {role: [p.to_dict() for p in found] for role, found in self.paired.items()},
                "anchors": {role: anchor.to_dict() for role, anchor in self.anchors.items()},
                "offset": round(self.offset, 3), "offset_low": _rounded(self.offset_low),
                "offset_high": _rounded(self.offset_high), "copies": self.copies, "seeds": self.seeds}


def rate(matches: Iterable[MatchRow], *, detail: bool = True) -> Standings:
    """The standings drawn from the valid ones of ``matches``, in any order, each game once. ``detail``:
    the ratings' intervals, rank bounds and histories and the paired differences, nearly all the cost
    (measured: 1.3 s of CPU for ten thousand matches of twenty contestants on a hundred seeds, 0.1 s
    without; the bootstrap over single matches it replaced took 1.2-1.5 s on the same machine). A live
    view redrawn as matches end goes without: each Rating's low and high are then None, its rank bounds
    its place and its history empty, and each role's paired differences empty."""
    valid = sorted((m for m in matches if m.void is None), key=lambda m: (m.play_order, m.outcome))
    rows = first_plays(valid)
    sides = [(contestant(row, "user"), contestant(row, "minotaur")) for row in rows]
    everyone = sorted({c for side in sides for c in side})
    index = {c: i for i, c in enumerate(everyone)}
    played = [(index[user], index[minotaur], score(row, "user")) for row, (user, minotaur) in zip(rows, sides)]
    strengths = fit(len(everyone), games_of(Counter(played)))
    groups = [_group(everyone, role) for role in ROLES]
    rated = points(strengths, groups)
    seeds = [seed_of(row) for row in rows]
    spans: Sequence[tuple[float, float] | None] = [None] * len(everyone)
    offset_span = None
    if detail and len(set(seeds)) > 1:
        spans, offset_span = bootstrap_intervals(played, seeds, strengths, groups)
    history: Sequence[tuple[list[float], list[int]] | None] = [None] * len(everyone)
    if detail:
        history = _history(played, len(everyone), rated, groups)
    labels, record = _labels(everyone), _records(played, len(everyone))
    ratings = {role: _ranked(sorted((_rating(c, labels[c], rated[i], record[i], spans[i], history[i],
                                             anchor=i == groups[ROLES.index(role)][1])
                                     for i, c in enumerate(everyone) if c.role == role),
                                    key=lambda r: (-round(r.rating, 9), r.label))) for role in ROLES}
    ranked = {role: [Contestant(role, r.name, r.setup) for r in ratings[role]] for role in ROLES}
    paired = with_holm({role: paired_differences(rows, sides, role, ranked[role], labels) if detail else ()
                        for role in ROLES})
    anchors = {role: Anchor(role, None if anchor is None else labels[everyone[anchor]])
               for role, (_, anchor) in zip(ROLES, groups, strict=True)}
    low, high = offset_span or (None, None)
    return Standings(ratings, _head_to_head(sides, rows, labels), paired, anchors, _offset(strengths, groups),
                     low, high, len(valid) - len(rows), len(set(seeds)))


def first_plays(rows: Sequence[MatchRow]) -> list[MatchRow]:
    """``rows`` (in play order) without the copies: a row of the same contestants on the same seed with
    the same digest as one before it is the same game played again. A row without a digest ("": not
    recorded) is never taken for a copy."""
    seen: set[tuple[Any, ...]] = set()
    kept = []
    for row in rows:
        if row.digest:
            game = (contestant(row, "user"), contestant(row, "minotaur"), seed_of(row), row.digest)
            if game in seen:
                continue
            seen.add(game)
        kept.append(row)
    return kept


def method_text(standings: Standings) -> list[str]:
    """How the figures of ``standings`` were made, a paragraph each (copies, ratings, intervals, places,
    paired differences, history), for the page's method section."""
    anchors = "; ".join(f"{ROLE_WORDS[role]} ratings on {standings.anchors[role].describe()}" for role in ROLES
                        if role in standings.anchors)
    pairs = sum(p.p is not None for found in standings.paired.values() for p in found)
    copies = (f"{standings.copies} matches were copies of another game (same contestants, seed and moves) and "
              "count once; so does every game played again.") if standings.copies else \
        "A game played again (the same contestants, seed and moves: a repeat of contestants that do not sample) " \
        "would count once."
    return [copies,
            ("The ratings are one Bradley-Terry fit to every match (an escape is a win for the user, a catch for the "
             f"Minotaur, a timeout half a win to each), with a weak Gaussian prior of {SCALE * PRIOR_SD:.0f} points "
             f"on each strength. Each role is anchored: {anchors}. On that scale a user rated R against a Minotaur "
             f"rated M is expected to score 1 / (1 + 10^((M - R + D) / 400)), with D = {standings.offset:+.0f}."),
            (f"The 95% interval of a rating is a bootstrap over the {standings.seeds} seeds (all the matches of a "
             f"seed in or out together), {RESAMPLES} resamples drawn from the fixed seed \"{BOOTSTRAP_SEED}\", its "
             "percentile interval stretched about the rating for few seeds (by t(0.975, G - 1) / 1.96 times "
             "sqrt(G / (G - 1)) with G seeds, as cluster-robust inference does); where every seed gave a "
             "contestant the same results, the model's interval with every match independent. The anchor's is a "
             "point, and there is none with one seed."),
            ("A contestant's places run from one more than those whose interval lies wholly above its own to the "
             "role's size less those wholly below: contestants that cannot be told apart share places."),
            ("The paired difference compares two contestants of a role where they met the same opponent on the same "
             "seed: the mean over seeds of first's score minus second's (1 a win, 0.5 a draw), with its 95% "
             "interval and two-sided p-value from Student's t over the seeds (Bonett and Price's interval and the "
             "exact McNemar test where every seed is one win/loss game each; an exact bound where every seed gave "
             f"the same difference). The p-values are adjusted by Holm's method over all {pairs} pairs of both "
             "roles."),
            ("The rating over matches is the fit to the matches played so far, in play order, anchored alike.")]


def _group(everyone: list[Contestant], role: str) -> Group:
    """``role``'s contestants (indices into ``everyone``) and its anchor, the reference if it played."""
    members = [i for i, c in enumerate(everyone) if c.role == role]
    return members, next((i for i in members if everyone[i] == Contestant(role, REFERENCE)), None)


def _offset(strengths: Sequence[float], groups: Sequence[Group]) -> float:
    """D, in points: the Minotaurs' reference's strength less the users'. A user i against a Minotaur j
    wins with 1 / (1 + e^(s_j - s_i)), and s_j - s_i is (M - R) / SCALE plus that difference."""
    user, minotaur = references(strengths, groups)
    return SCALE * (minotaur - user)


def bootstrap_intervals(played: Sequence[Cell], seeds: Sequence[Seed], strengths: Sequence[float],
                        groups: Sequence[Group]) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """Each contestant's 95% interval and the offset's, from the bootstrap over ``seeds`` (each played
    match's seed; two at least), anchored as the ratings. ``strengths``: the fit to every match.

    The percentile interval of a cluster bootstrap is too narrow with few clusters: its variance is
    that of a sandwich estimator without its small-sample correction, (G - 1) / G of the truth with G
    seeds, and its normal tails ignore that the spread itself is estimated from G seeds. Both are
    corrected as cluster-robust inference does with few clusters (Cameron and Miller 2015): each
    half of the interval is stretched about the estimate by t(0.975, G - 1) / z(0.975) times
    sqrt(G / (G - 1)) (1.23 with twelve seeds, 1.08 with fifty). Simulated (tests/agents/
    compete/test_ratings.py, bench/tournament/interval_coverage.py) the plain percentile interval covered 0.90-0.92 at
    twelve to twenty seeds, with or without seed effects; stretched, 0.93-0.95 on average over a
    tournament's figures (0.92-0.98 each).

    Where every seed gave a contestant the same results against the same opponents (rule agents on
    two or three seeds), every resample rates it alike and the bootstrap's interval is a point, as if
    a few games proved its rating; there its interval is the model's own, every match taken as
    independent evidence (deviations): the spread between seeds is unseen, the games' is not."""
    clusters: dict[Seed, Counter[Cell]] = {}
    for cell, seed in zip(played, seeds, strict=True):
        clusters.setdefault(seed, Counter())[cell] += 1
    anchors = [anchor for _, anchor in groups if anchor is not None]
    fitted = bootstrap(len(strengths), [clusters[s] for s in sorted(clusters)], strengths, RESAMPLES,
                       BOOTSTRAP_SEED, anchors)
    stretch = t_quantile(0.975, len(clusters) - 1) / Z_95 * math.sqrt(len(clusters) / (len(clusters) - 1))
    rated = [[*points(drawn, groups), _offset(drawn, groups)] for drawn in fitted]
    centre = [*points(strengths, groups), _offset(strengths, groups)]
    spans = [_stretched(middle_95([r[i] for r in rated]), centre[i], stretch) for i in range(len(centre))]
    unseen = [i for i, (low, high) in enumerate(spans) if high - low < 1e-6 and i not in anchors]
    contrasts = _contrasts(len(strengths), groups)
    deviation = deviations(strengths, games_of(Counter(played)), [contrasts[i] for i in unseen])
    for i, spread in zip(unseen, deviation, strict=True):
        spans[i] = centre[i] - Z_95 * SCALE * spread, centre[i] + Z_95 * SCALE * spread
    return spans[:-1], spans[-1]


def _contrasts(size: int, groups: Sequence[Group]) -> list[list[float]]:
    """Each contestant's rating and then the offset as weighted sums of the strengths (over SCALE, less
    CENTRE): a contestant's strength less its group's reference, the Minotaurs' reference less the users'."""
    bases = [[float(i == anchor) for i in range(size)] if anchor is not None else
             [1 / len(members) if i in members else 0.0 for i in range(size)] for members, anchor in groups]
    group_of = {i: g for g, (members, _) in enumerate(groups) for i in members}
    return [[float(i == k) - base for i, base in enumerate(bases[group_of[k]])] for k in range(size)] + \
        [[minotaur - user for user, minotaur in zip(*bases, strict=True)]]


def _stretched(span: tuple[float, float], estimate: float, stretch: float) -> tuple[float, float]:
    """``span`` with each of its halves (from ``estimate``) ``stretch`` times as long."""
    low, high = span
    return estimate - stretch * max(0.0, estimate - low), estimate + stretch * max(0.0, high - estimate)


def _ranked(ratings: list[Rating]) -> tuple[Rating, ...]:
    """``ratings`` (one role's, best first) with their rank bounds: from their intervals, or their
    places without."""
    spans = [(r.low, r.high) for r in ratings if r.low is not None and r.high is not None]
    if len(spans) < len(ratings):
        return tuple(replace(r, rank_best=place, rank_worst=place) for place, r in enumerate(ratings, 1))
    return tuple(replace(r, rank_best=1 + sum(low > high for low, _ in spans),
                         rank_worst=len(ratings) - sum(other_high < low for _, other_high in spans))
                 for r, (low, high) in zip(ratings, spans, strict=True))


def _rating(who: Contestant, label: str, rating: float, record: list[int], span: tuple[float, float] | None,
            history: tuple[list[float], list[int]] | None, anchor: bool) -> Rating:
    low, high = span or (None, None)
    values, at = history or ((), ())
    wins, draws, losses = record
    return Rating(who.role, who.name, who.setup, label, rating, wins, draws, losses, low=low, high=high,
                  history=tuple(values), history_at=tuple(at), anchor=anchor)


def _records(played: list[Cell], size: int) -> list[list[int]]:
    """Each contestant's wins, draws and losses."""
    record = [[0, 0, 0] for _ in range(size)]
    for user, minotaur, escape in played:
        column = 0 if escape == USER_SCORE["ESCAPED"] else 1 if escape == USER_SCORE["TIMEOUT"] else 2
        record[user][column] += 1
        record[minotaur][2 - column] += 1
    return record


def _history(played: list[Cell], size: int, final: list[float], groups: list[Group]
             ) -> list[tuple[list[float], list[int]]]:
    """Each contestant's ratings at the checkpoints after its matches (every match, or HISTORY_POINTS
    evenly spaced), each fitted to the matches before it and anchored as the ratings (on a role's
    mean until its anchor has played), and how many of its matches it had played at each; the last
    point is its rating with every match (``final``). ``played``: the matches in play order, as cells."""
    count = len(played)
    checkpoints = {math.ceil(j * count / HISTORY_POINTS) for j in range(1, HISTORY_POINTS + 1)} \
        if count > HISTORY_POINTS else set(range(1, count + 1))
    history: list[tuple[list[float], list[int]]] = [([], []) for _ in range(size)]
    cells: Counter[Cell] = Counter()
    matches = [0] * size  # each contestant's so far
    strengths = None
    for k, cell in enumerate(played, 1):
        cells[cell] += 1
        matches[cell[0]] += 1
        matches[cell[1]] += 1
        if k not in checkpoints:
            continue
        strengths = fit(size, games_of(cells), strengths)
        present = {i for i in range(size) if matches[i]}
        now = points(strengths, groups, present)
        for i in sorted(present):
            values, at = history[i]
            if not at or at[-1] < matches[i]:
                values.append(now[i])
                at.append(matches[i])
    for i, (values, _) in enumerate(history):
        if values:
            values[-1] = final[i]
    return history

def _labels(everyone: list[Contestant]) -> dict[Contestant, str]:
    """Each contestant's name, or for a name with several setups in its role, the name and as much of
    the setup as tells them apart (a fingerprint's first SHOWN_SETUP characters or more)."""
    setups: dict[tuple[str, str], list[str]] = {}
    for c in everyone:
        setups.setdefault((c.role, c.name), []).append(c.setup)
    labels = {}
    for c in everyone:
        alike = setups[(c.role, c.name)]
        if len(alike) == 1:
            labels[c] = c.name
            continue
        longest = max(map(len, alike))  # whole, they differ
        shown = next((n for n in range(SHOWN_SETUP, longest) if len({s[:n] for s in alike}) == len(alike)), longest)
        fingerprint = c.setup and all(ch in string.hexdigits for ch in c.setup)
        labels[c] = f"{c.name} ({c.setup[:shown] if fingerprint else c.setup or 'no setup'})"
    return labels


def _head_to_head(sides: list[tuple[Contestant, Contestant]], rows: list[MatchRow],
                  labels: dict[Contestant, str]) -> tuple[HeadToHead, ...]:
    pairs: dict[tuple[Contestant, Contestant], list[int]] = {}  # escaped, caught, timeouts
    for side, row in zip(sides, rows, strict=True):
        pairs.setdefault(side, [0, 0, 0])[OUTCOMES.index(row.outcome)] += 1
    return tuple(HeadToHead(labels[user], labels[minotaur], *counts)
                 for (user, minotaur), counts in sorted(pairs.items()))


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
