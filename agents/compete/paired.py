"""Paired differences between two contestants of one role: the tournament plays every
pairing on the same seeds, so two users that met the same Minotaur on the same seed
(and repeat, on the same ground and rules) faced the very same labyrinth and hunter.
The difference of their scores there (1 a win, 0.5 a draw, 0 a loss, each from its
own side) leaves out how hard the seed was, which a rating or a win rate cannot.

Each contestant's score against one opponent on one seed is the mean of its games
there (its repeats; a repeat that was a copy of another game was left out before, see
ratings.py, so it counts once). A seed's pairs (one an opponent both met there) share
its labyrinth, so they are not independent: each seed's pairs are averaged into one
difference, and the figure is the mean of those per-seed differences, the seeds being
the independent units. Its 95% interval and two-sided p-value are over the seeds
(intervals.paired_over_seeds): Student's t, or for one pair of win/loss games a seed
Bonett and Price's interval with the exact McNemar test, which were derived for that;
when every seed gave the same difference, an exact bound in place of a t interval's
point. With one seed there is no interval: the spread between seeds is not seen.

Many pairs are tested at once (every two contestants of each role), so some would look
different by chance alone: with_holm gives each pair its p-value adjusted by Holm's
step-down method over all of them, both roles together.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from labyrinth.saves.results_db import ROLES, MatchRow
from labyrinth.saves.results_terms import USER_SCORE

from .intervals import holm, paired_over_seeds

Who = TypeVar("Who", bound=Hashable)  # how the caller knows a contestant
Seed = tuple[int, str, str, int, str]  # a seed as a game is played on it: seed, preset, difficulty, turns, learners


@dataclass(frozen=True)
class PairedDifference:
    """How much better ``first`` did than ``second`` (both of ``role``, shown by their labels)
    where they met the same opponent on the same seed."""

    role: str
    first: str
    second: str
    mean: float  # the mean over seeds of first's score minus second's there: from -1 to 1
    pairs: int  # opponents met by both on a seed, summed over the seeds (each side's repeats there averaged)
    seeds: int  # the seeds those pairs were played on
    low: float | None = None  # the 95% interval (intervals.paired_over_seeds); None with one seed
    high: float | None = None
    p: float | None = None  # the two-sided p-value of no difference, by the same test; None with one seed
    p_holm: float | None = None  # p adjusted by Holm's method over every pair shown (with_holm)
    method: str = ""  # the test: intervals.T_TEST, BONETT_PRICE, ALL_EQUAL or ONE_SEED

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "first": self.first, "second": self.second, "mean": round(self.mean, 4),
                "low": _rounded(self.low), "high": _rounded(self.high), "pairs": self.pairs, "seeds": self.seeds,
                "p": _rounded(self.p, 6), "p_holm": _rounded(self.p_holm, 6), "method": self.method}


def score(row: MatchRow, role: str) -> float:
    """What ``row`` scored for ``role``'s side."""
    user = USER_SCORE[row.outcome]
    return user if role == "user" else 1 - user


def seed_of(row: MatchRow) -> Seed:
    """The seed ``row`` was played on, as a game is played on it: the same number on another ground,
    or under other rules, is another game."""
    return row.seed, row.preset, row.difficulty, row.max_turns, row.learned


def paired_differences(rows: Sequence[MatchRow], sides: Sequence[tuple[Who, Who]], role: str,
                       ranked: Sequence[Who], labels: Mapping[Who, str]) -> tuple[PairedDifference, ...]:
    """Every two of ``ranked`` (``role``'s contestants, best first) that have pairs in ``rows``, the
    better ranked first. ``sides``: each row's user and Minotaur contestants; ``labels``: how each
    contestant is shown. ``p_holm`` is left for with_holm, over every role's pairs."""
    mine, theirs = ROLES.index(role), 1 - ROLES.index(role)
    met: dict[tuple[Who, Seed], dict[Who, list[float]]] = {}  # one opponent on one seed -> each one's scores
    for row, side in zip(rows, sides, strict=True):
        met.setdefault((side[theirs], seed_of(row)), {}).setdefault(side[mine], []).append(score(row, role))
    place = {contestant: i for i, contestant in enumerate(ranked)}
    by_seed: dict[tuple[Who, Who], dict[Seed, list[float]]] = {}  # (first, second) -> seed -> its pairs' differences
    mixed: set[tuple[Who, Who]] = set()  # those with a pair not of one win/loss game each
    for (_, seed), scores in met.items():
        present = sorted(scores, key=place.__getitem__)
        means = [sum(scores[c]) / len(scores[c]) for c in present]
        single = [len(scores[c]) == 1 and scores[c][0] in (0.0, 1.0) for c in present]  # one game, no draw
        for i, first in enumerate(present):
            for j in range(i + 1, len(present)):
                two = (first, present[j])
                by_seed.setdefault(two, {}).setdefault(seed, []).append(means[i] - means[j])
                if not (single[i] and single[j]):
                    mixed.add(two)
    found = []
    for two, seeds in sorted(by_seed.items(), key=lambda item: (place[item[0][0]], place[item[0][1]])):
        pairs = [seeds[s] for s in sorted(seeds)]
        binary = two not in mixed and all(len(here) == 1 for here in pairs)  # Bonett and Price's case
        tested = paired_over_seeds([sum(here) / len(here) for here in pairs], binary)
        found.append(PairedDifference(role, labels[two[0]], labels[two[1]], tested.mean, sum(map(len, pairs)),
                                      len(pairs), tested.low, tested.high, tested.p, None, tested.method))
    return tuple(found)


def with_holm(paired: Mapping[str, Sequence[PairedDifference]]) -> dict[str, tuple[PairedDifference, ...]]:
    """``paired`` (by role) with each pair's ``p_holm`` filled: its p-value adjusted by Holm's method over
    every pair with a p-value, in every role (None where p is None: one seed)."""
    tested = [(role, i) for role, found in paired.items() for i, p in enumerate(found) if p.p is not None]
    adjusted = dict(zip(tested, holm([paired[role][i].p or 0.0 for role, i in tested]), strict=True))
    return {role: tuple(replace(p, p_holm=adjusted.get((role, i))) for i, p in enumerate(found))
            for role, found in paired.items()}


def _rounded(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)
