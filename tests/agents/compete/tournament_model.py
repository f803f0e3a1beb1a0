"""A model of a tournament's outcomes, for simulating the statistics' coverage and power
(tests/agents/compete/test_paired_power.py, test_ratings.py, bench/tournament/interval_coverage.py).

Each seed has a difficulty shared by every match on it (a random effect, normal with
``seed_sd``), and it suits each contestant's style more or less (another, ``style_sd``,
shared by that contestant's matches on the seed): seeds are why matches are not
independent. Each contestant and each opponent has a strength. A match's outcome (win,
draw or loss, scoring 1, 0.5 or 0) is drawn from an ordered logit of its contestant's
strength less its opponent's and the seed's effects: it wins with probability
sigma(eta - cut), loses with sigma(-eta - cut), and draws otherwise.

The truth of a paired difference is the expected per-seed difference averaged over the
seed distribution: the mean over the opponents of each contestant's expected score
there, integrated over the seed's effects (normal, so their sum is too).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from labyrinth.agents.compete.intervals import paired_over_seeds, paired_scores, t_quantile

GRID = 161  # points of the integral over a seed's effects, from -8 to +8 standard deviations (the trapezoid
# rule on a smooth integrand times a normal density is exact to about 1e-12 there)


def sigma(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def outcome(rng: random.Random, eta: float, cut: float) -> float:
    """One match's score for its contestant: 1, 0.5 or 0."""
    u, win = rng.random(), sigma(eta - cut)
    return 1.0 if u < win else 0.0 if u < win + sigma(-eta - cut) else 0.5


def expected(eta: float, cut: float) -> float:
    """A match's expected score at ``eta``: a win plus half a draw."""
    return (sigma(eta - cut) + sigma(eta + cut)) / 2


def averaged(eta: float, cut: float, sd: float) -> float:
    """The expected score at ``eta`` plus a normal effect of spread ``sd``, integrated over that effect."""
    if sd == 0:
        return expected(eta, cut)
    step = 16 / (GRID - 1)
    total = sum(math.exp(-z * z / 2) * expected(eta + sd * z, cut) for z in (-8 + k * step for k in range(GRID)))
    return total * step / math.sqrt(2 * math.pi)


@dataclass(frozen=True)
class Field:
    """Two contestants of one role and the opponents both meet on every seed."""

    first: float  # the first contestant's strength
    second: float
    opponents: tuple[float, ...]  # the opponents' strengths
    seed_sd: float = 1.0  # the spread of a seed's difficulty, shared by every match on it
    style_sd: float = 0.5  # the spread of how a seed suits each contestant, shared by its matches there
    cut: float = 0.6  # the ordered logit's cut: the larger, the more draws

    def truth(self) -> float:
        """The paired difference's true value: E over seeds of the mean over opponents of first's
        expected score less second's."""
        spread = math.hypot(self.seed_sd, self.style_sd)
        return sum(averaged(self.first - o, self.cut, spread) - averaged(self.second - o, self.cut, spread)
                   for o in self.opponents) / len(self.opponents)

    def seed(self, rng: random.Random) -> list[tuple[float, float]]:
        """One seed's pairs: against each opponent, first's score and second's."""
        difficulty = rng.gauss(0, self.seed_sd)
        first = self.first - difficulty + rng.gauss(0, self.style_sd)
        second = self.second - difficulty + rng.gauss(0, self.style_sd)
        return [(outcome(rng, first - o, self.cut), outcome(rng, second - o, self.cut)) for o in self.opponents]

    def tournament(self, rng: random.Random, seeds: int) -> tuple[list[float], bool]:
        """``seeds`` seeds played: each seed's mean difference, and whether every seed was one pair of
        win/loss games (paired.paired_differences's test for Bonett and Price's case)."""
        played = [self.seed(rng) for _ in range(seeds)]
        binary = len(self.opponents) == 1 and all(a in (0.0, 1.0) and b in (0.0, 1.0) for ((a, b),) in played)
        return [sum(a - b for a, b in pairs) / len(pairs) for pairs in played], binary


def plain_t(differences: list[float]) -> tuple[float, float]:
    """The textbook paired t interval over the seeds: a point when every seed gave the same difference."""
    n = len(differences)
    mean = sum(differences) / n
    half = t_quantile(0.975, n - 1) * math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1) / n)
    return mean - half, mean + half


def simulate(field: Field, seeds: int, runs: int, purpose: str) -> dict[str, tuple[float, float]]:
    """Over ``runs`` tournaments of ``seeds`` seeds (drawn from the seed string ``purpose``), each
    interval's coverage of the truth and its power (the share of runs it leaves out 0): the one the
    tournament uses (paired_over_seeds, "ours"), the plain t interval and the one it replaced ("old":
    Bonett and Price's pseudo-differences added to per-seed means)."""
    truth, rng = field.truth(), random.Random(purpose)
    found = {"ours": [0, 0], "t": [0, 0], "old": [0, 0]}
    for _ in range(runs):
        differences, binary = field.tournament(rng, seeds)
        tested = paired_over_seeds(differences, binary)
        assert tested.low is not None and tested.high is not None
        for name, (low, high) in (("ours", (tested.low, tested.high)), ("t", plain_t(differences)),
                                  ("old", paired_scores(differences))):
            found[name][0] += low <= truth <= high
            found[name][1] += low > 0 or high < 0
    return {name: (covered / runs, excluded / runs) for name, (covered, excluded) in found.items()}


def with_gap(opponents: Sequence[float], target: float, **more: float) -> Field:
    """A field whose first contestant is stronger than its second (around 0) by the gap that makes the
    true paired difference ``target`` (bisection)."""
    low, high = 0.0, 10.0
    for _ in range(40):
        gap = (low + high) / 2
        if Field(gap / 2, -gap / 2, tuple(opponents), **more).truth() < target:
            low = gap
        else:
            high = gap
    return Field(high / 2, -high / 2, tuple(opponents), **more)


@dataclass(frozen=True)
class League:
    """Users and Minotaurs that all meet on every seed, for the ratings: index 0 of each role is its
    anchor (the built-in agent). A seed's difficulty is shared by all its matches, and its fit to each
    contestant's style by that contestant's matches there."""

    users: tuple[float, ...]
    minotaurs: tuple[float, ...]
    seed_sd: float = 1.0
    style_sd: float = 1.0
    cut: float = 0.6
    games: int = 1  # each pairing's games on a seed (the repeats of contestants that sample)

    @property
    def size(self) -> int:
        return len(self.users) + len(self.minotaurs)

    def groups(self) -> list[tuple[list[int], int]]:
        """Each role's contestants (users first, as indices) and its anchor (bradley_terry.Group)."""
        users = list(range(len(self.users)))
        return [(users, 0), ([len(users) + j for j in range(len(self.minotaurs))], len(users))]

    def expected(self) -> dict[tuple[int, int], float]:
        """Each user's expected score against each Minotaur, over the seeds' effects."""
        spread = math.sqrt(self.seed_sd ** 2 + 2 * self.style_sd ** 2)
        return {(i, len(self.users) + j): averaged(a - b, self.cut, spread)
                for i, a in enumerate(self.users) for j, b in enumerate(self.minotaurs)}

    def seed(self, rng: random.Random) -> list[tuple[int, int, float]]:
        """One seed's matches: every user against every Minotaur ``games`` times, as (user, Minotaur, user's
        score)."""
        difficulty = rng.gauss(0, self.seed_sd)
        users = [a - difficulty + rng.gauss(0, self.style_sd) for a in self.users]
        minotaurs = [b + rng.gauss(0, self.style_sd) for b in self.minotaurs]
        return [(i, len(users) + j, outcome(rng, a - b, self.cut))
                for i, a in enumerate(users) for j, b in enumerate(minotaurs) for _ in range(self.games)]
