"""Paired differences between two contestants of one role: the tournament plays every
pairing on the same seeds, so two users that met the same Minotaur on the same seed
(and repeat, on the same ground and rules) faced the very same labyrinth and hunter.
The difference of their scores there (1 a win, 0.5 a draw, 0 a loss, each from its
own side) leaves out how hard the seed was, which a rating or a win rate cannot.

A seed's pairs (against each opponent, in each repeat) share its labyrinth, so they
are not independent: each seed's pairs are averaged into one difference, and the
figure is the mean of those per-seed differences, with a Student t interval over the
seeds (95%, seeds - 1 degrees of freedom). The t interval is honest with few seeds
(wide, where a bootstrap would be too narrow), needs no random draws, and costs
nothing; with one seed there is no interval.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from labyrinth.saves.results_db import ROLES, MatchRow

Who = TypeVar("Who", bound=Hashable)  # how the caller knows a contestant
Seed = tuple[int, str, str, int, str]  # a seed as a game is played on it: seed, preset, difficulty, turns, learners
USER_SCORE = {"ESCAPED": 1.0, "TIMEOUT": 0.5, "DEATH": 0.0}  # the user's; the Minotaur's is 1 minus it
T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
         2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
Z_975 = 1.959964


@dataclass(frozen=True)
class PairedDifference:
    """How much better ``first`` did than ``second`` (both of ``role``, shown by their labels)
    where they met the same opponent on the same seed."""

    role: str
    first: str
    second: str
    mean: float  # the mean over seeds of first's score minus second's there: from -1 to 1
    pairs: int  # matches of first's with a match of second's against the same opponent on the same seed
    seeds: int  # the seeds those pairs were played on
    low: float | None = None  # the 95% t interval; None with one seed
    high: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "first": self.first, "second": self.second, "mean": round(self.mean, 4),
                "low": None if self.low is None else round(self.low, 4),
                "high": None if self.high is None else round(self.high, 4), "pairs": self.pairs, "seeds": self.seeds}


def score(row: MatchRow, role: str) -> float:
    """What ``row`` scored for ``role``'s side."""
    user = USER_SCORE[row.outcome]
    return user if role == "user" else 1 - user


def paired_differences(rows: Sequence[MatchRow], sides: Sequence[tuple[Who, Who]], role: str,
                       ranked: Sequence[Who], labels: Mapping[Who, str]) -> tuple[PairedDifference, ...]:
    """Every two of ``ranked`` (``role``'s contestants, best first) that have pairs in ``rows``, the
    better ranked first. ``sides``: each row's user and Minotaur contestants; ``labels``: how each
    contestant is shown."""
    mine, theirs = ROLES.index(role), 1 - ROLES.index(role)
    # One opponent on one seed and repeat -> each one's scores.
    met: dict[tuple[Who, int, Seed], dict[Who, list[float]]] = {}
    for row, side in zip(rows, sides, strict=True):
        seed = (row.seed, row.preset, row.difficulty, row.max_turns, row.learned)
        scores = met.setdefault((side[theirs], row.repeat, seed), {})
        scores.setdefault(side[mine], []).append(score(row, role))
    place = {contestant: i for i, contestant in enumerate(ranked)}
    by_seed: dict[tuple[Who, Who], dict[Seed, list[float]]] = {}  # (first, second) -> seed -> its pairs' differences
    for (_, _, seed), scores in met.items():
        present = sorted(scores, key=place.__getitem__)
        means = {c: sum(scores[c]) / len(scores[c]) for c in present}
        for i, first in enumerate(present):
            for second in present[i + 1:]:
                by_seed.setdefault((first, second), {}).setdefault(seed, []).append(means[first] - means[second])
    found = []
    for (first, second), seeds in sorted(by_seed.items(), key=lambda item: (place[item[0][0]], place[item[0][1]])):
        per_seed = [sum(seeds[s]) / len(seeds[s]) for s in sorted(seeds)]
        mean = sum(per_seed) / len(per_seed)
        low, high = _t_interval(per_seed, mean)
        found.append(PairedDifference(role, labels[first], labels[second], mean, sum(map(len, seeds.values())),
                                      len(per_seed), low, high))
    return tuple(found)


def _t_interval(values: list[float], mean: float) -> tuple[float | None, float | None]:
    """The 95% t interval of the mean of ``values``, within the differences' range [-1, 1]."""
    if len(values) < 2:
        return None, None
    half = t_975(len(values) - 1) * statistics.stdev(values, mean) / math.sqrt(len(values))
    return max(-1.0, mean - half), min(1.0, mean + half)


def t_975(freedom: int) -> float:
    """Student's t distribution's 97.5th percentile: the table to 30 degrees of freedom, then the
    Cornish-Fisher expansion around the normal (off by less than 0.001 there)."""
    if freedom <= len(T_975):
        return T_975[freedom - 1]
    z = Z_975
    return z + (z ** 3 + z) / (4 * freedom) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * freedom ** 2)
