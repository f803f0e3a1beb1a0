"""Paired differences between two contestants of one role: the tournament plays every
pairing on the same seeds, so two users that met the same Minotaur on the same seed
(and repeat, on the same ground and rules) faced the very same labyrinth and hunter.
The difference of their scores there (1 a win, 0.5 a draw, 0 a loss, each from its
own side) leaves out how hard the seed was, which a rating or a win rate cannot.

A seed's pairs (against each opponent, in each repeat) share its labyrinth, so they
are not independent: each seed's pairs are averaged into one difference, and the
figure is the mean of those per-seed differences, with a 95% interval over the seeds
(intervals.paired_scores: Bonett and Price's adjusted interval). It needs no random
draws, and it stays honest where a tournament's figures land: few seeds, rare wins,
two contestants who scored alike on every seed (where a t interval was a point, and
missed the truth most of the time). With one seed there is no interval: the spread
between seeds is not seen.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from labyrinth.saves.results_db import ROLES, MatchRow

from .intervals import paired_scores

Who = TypeVar("Who", bound=Hashable)  # how the caller knows a contestant
Seed = tuple[int, str, str, int, str]  # a seed as a game is played on it: seed, preset, difficulty, turns, learners
USER_SCORE = {"ESCAPED": 1.0, "TIMEOUT": 0.5, "DEATH": 0.0}  # the user's; the Minotaur's is 1 minus it


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
    low: float | None = None  # the 95% interval (intervals.paired_scores); None with one seed
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
        low, high = paired_scores(per_seed) if len(per_seed) > 1 else (None, None)
        found.append(PairedDifference(role, labels[first], labels[second], mean, sum(map(len, seeds.values())),
                                      len(per_seed), low, high))
    return tuple(found)
