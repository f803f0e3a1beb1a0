"""Ratings from a tournament's matches: a pure function of the matches, for
`labyrinth tournament`, the leaderboard and its screen alike.

The ratings are a Bradley-Terry fit (bradley_terry.py) to every valid match at once,
as LMSYS's Chatbot Arena rates its models: a user escaping is a win for the user,
the catch (DEATH) one for the Minotaur, a TIMEOUT half a win for each. Users and
Minotaurs are the two sides of one model: a user rated R_u against a Minotaur rated
R_m is expected to score 1 / (1 + 10^((R_m - R_u) / 400)) (an escape 1, a draw
0.5), so both roles' ratings are on one scale, whose mean over every contestant is
1500. A model that plays both roles has two ratings: hunting and escaping are
different skills.

One fit to all the matches does not depend on their order (unlike a rating updated
match by match, such as Elo or OpenSkill): the same matches give the same figures to
the last digit, however they were handed in. Each rating has a 95% interval from a
bootstrap over the matches (RESAMPLES resamples, drawn from a fixed seed, so the same
matches give the same interval), beside the raw win rate with its Wilson interval.

A contestant is its name and its setup (the fingerprint of a model's endpoint and
sampling settings): the same name with two setups is two contestants, shown apart by
their setups (``llama-local (3f2a9c)``). A void match (a model that did not play it) is
never rated, whoever hands it in.

Each rating's history is the fit to the matches played so far, in play order
(MatchRow.play_order), at each of its matches, or with more than HISTORY_POINTS
matches at that many evenly spaced points; its last point is the rating shown.
"""

from __future__ import annotations

import math
import string
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from labyrinth.saves.results_db import OUTCOMES, ROLES, MatchRow

from .bradley_terry import Cell, bootstrap, fit, games_of, points
from .intervals import wilson_interval
from .paired import PairedDifference, paired_differences, score

RESAMPLES = 200  # bootstrap fits for the intervals: their ends move by a point or two between seeds
BOOTSTRAP_SEED = "ratings:bootstrap"
HISTORY_POINTS = 60  # the most refits a history is drawn from: a chart shows no more
SHOWN_SETUP = 6  # a setup's first characters in a label, more when two of one name would look alike


class Contestant(NamedTuple):
    """Who played one side of a match: its role, name and setup ("" for a rule agent). A tuple:
    thousands of matches hash it several times each."""

    role: str
    name: str
    setup: str = ""


def contestant(row: MatchRow, role: str) -> Contestant:
    return Contestant(role, getattr(row, role), getattr(row, f"{role}_setup"))


@dataclass(frozen=True)
class Rating:
    """One contestant in one role: its rating with its interval, and its record."""

    role: str
    name: str
    setup: str
    label: str  # how the tables name it: its name, with its setup when its name has several
    rating: float  # Bradley-Terry, on the Elo-like scale (the module's docstring)
    wins: int
    draws: int
    losses: int
    low: float | None = None  # the rating's 95% bootstrap interval; None when not asked for
    high: float | None = None
    history: tuple[float, ...] = ()  # its rating as it stood after its matches, in play order
    history_at: tuple[int, ...] = ()  # how many of its matches it had played at each point of history

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
class Standings:
    """Every contestant's rating, best first within each role; the head-to-head table; and each
    role's paired differences."""

    ratings: dict[str, tuple[Rating, ...]] = field(default_factory=dict)  # by role
    head_to_head: tuple[HeadToHead, ...] = ()
    paired: dict[str, tuple[PairedDifference, ...]] = field(default_factory=dict)  # by role

    def label(self, row: MatchRow, role: str) -> str:
        """How the tables name ``row``'s contestant in ``role`` (its name, if it was not rated)."""
        name: str = getattr(row, role)  # the row's user or minotaur field
        return self._labels.get(contestant(row, role), name)

    @cached_property
    def _labels(self) -> dict[Contestant, str]:
        return {Contestant(r.role, r.name, r.setup): r.label for ratings in self.ratings.values() for r in ratings}

    def to_dict(self) -> dict[str, Any]:
        return {"ratings": {role: [r.to_dict() for r in ratings] for role, ratings in self.ratings.items()},
                "head_to_head": [h.to_dict() for h in self.head_to_head],
                "paired": {role: [p.to_dict() for p in found] for role, found in self.paired.items()}}


def rate(matches: Iterable[MatchRow], *, detail: bool = True) -> Standings:
    """The standings drawn from the valid ones of ``matches``, in any order. ``detail``: the ratings'
    intervals and histories and the paired differences, nearly all the cost (measured: 0.8 s for
    ten thousand matches of twenty contestants, 0.13 s without). A live view redrawn as matches end
    goes without: each Rating's low and high are then None and its history empty, and each role's
    paired differences empty."""
    rows = sorted((m for m in matches if m.void is None), key=lambda m: (m.play_order, m.outcome))
    sides = [(contestant(row, "user"), contestant(row, "minotaur")) for row in rows]
    everyone = sorted({c for side in sides for c in side})
    index = {c: i for i, c in enumerate(everyone)}
    played = [(index[user], index[minotaur], score(row, "user")) for row, (user, minotaur) in zip(rows, sides)]
    cells = Counter(played)
    strengths = fit(len(everyone), games_of(cells))
    rated = points(strengths)
    no_detail = [None] * len(everyone)
    spans = bootstrap(len(everyone), cells, strengths, RESAMPLES, BOOTSTRAP_SEED) if detail else no_detail
    history = _history(played, len(everyone), rated) if detail else no_detail
    labels, record = _labels(everyone), _records(played, len(everyone))
    ratings = {role: tuple(sorted((_rating(c, labels[c], rated[i], record[i], spans[i], history[i])
                                   for i, c in enumerate(everyone) if c.role == role),
                                  key=lambda r: (-round(r.rating, 9), r.label))) for role in ROLES}
    ranked = {role: [Contestant(role, r.name, r.setup) for r in ratings[role]] for role in ROLES}
    paired = {role: paired_differences(rows, sides, role, ranked[role], labels) if detail else () for role in ROLES}
    return Standings(ratings, _head_to_head(sides, rows, labels), paired)


def _rating(who: Contestant, label: str, rating: float, record: list[int], span: tuple[float, float] | None,
            history: tuple[list[float], list[int]] | None) -> Rating:
    low, high = span or (None, None)
    values, at = history or ((), ())
    wins, draws, losses = record
    return Rating(who.role, who.name, who.setup, label, rating, wins, draws, losses, low=low, high=high,
                  history=tuple(values), history_at=tuple(at))


def _records(played: list[Cell], size: int) -> list[list[int]]:
    """Each contestant's wins, draws and losses."""
    record = [[0, 0, 0] for _ in range(size)]
    for user, minotaur, escape in played:
        record[user][0 if escape == 1 else 1 if escape == 0.5 else 2] += 1
        record[minotaur][2 if escape == 1 else 1 if escape == 0.5 else 0] += 1
    return record


def _history(played: list[Cell], size: int, final: list[float]) -> list[tuple[list[float], list[int]]]:
    """Each contestant's ratings at the checkpoints after its matches (every match, or HISTORY_POINTS
    evenly spaced), each fitted to the matches before it, and how many of its matches it had played
    at each; the last point is its rating with every match (``final``). ``played``: the matches in
    play order, as cells."""
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
        present = [i for i in range(size) if matches[i]]
        now = points(strengths, present)
        for i in present:
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
