"""Ratings from a tournament's matches: a pure function of the matches, for
`labyrinth tournament`, the leaderboard and its screen alike.

Each contestant is rated per role (a model that plays both roles has two
ratings: hunting and escaping are different skills) with OpenSkill's
Plackett-Luce model, the Weng-Lin Bayesian rating the `openskill` package
recommends: it is its most accurate model in the package's own benchmarks, it
gives every rating an uncertainty (sigma), so a contestant with three matches is
not ranked above one with three hundred by luck, and a draw (a TIMEOUT) is simply
a tie. A match is one user against one Minotaur: the user wins by escaping, the
Minotaur by the catch (DEATH), and a TIMEOUT is a draw.

OpenSkill's ratings depend on the order the matches are rated in, so they are
rated in one documented order, play order (MatchRow.play_order: tournament runs in
the order they began, within a run seed by seed, as the results database returns
them), whatever order they are handed in. The same order gives each contestant's
rating history, so the history is over time and its last point is the rating
shown. Play order does not depend on how many matches were played at once, so
the same tournaments run in the same order give the same ratings. Shown is the
conservative estimate mu - 3 sigma (``rating``), beside the raw win rate with
its Wilson interval and the head-to-head counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.results_db import OUTCOMES, MatchRow

from .arena import wilson_interval

SIGMAS = 3  # the conservative estimate's distance below the mean: the rating is very likely at least this
WINNER = {"ESCAPED": "user", "DEATH": "minotaur", "TIMEOUT": None}  # who won each outcome (None: a draw)


@dataclass(frozen=True)
class Rating:
    """One contestant in one role: its OpenSkill rating and its record."""

    role: str
    name: str
    mu: float
    sigma: float
    wins: int
    draws: int
    losses: int
    history: tuple[float, ...] = ()  # the conservative rating after each of its matches, in play order

    @property
    def rating(self) -> float:
        """The conservative estimate, mu - 3 sigma: what the leaderboard ranks by."""
        return self.mu - SIGMAS * self.sigma

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

    def to_dict(self) -> dict:
        low, high = self.win_interval
        return {"role": self.role, "name": self.name, "rating": round(self.rating, 3), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "matches": self.matches, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "win_rate": round(self.win_rate, 4),
                "win_interval": [round(low, 4), round(high, 4)]}


@dataclass(frozen=True)
class HeadToHead:
    """One user against one Minotaur: how their matches ended."""

    user: str
    minotaur: str
    escaped: int = 0
    caught: int = 0
    timeouts: int = 0

    @property
    def matches(self) -> int:
        return self.escaped + self.caught + self.timeouts

    def to_dict(self) -> dict:
        return {"user": self.user, "minotaur": self.minotaur, "matches": self.matches, "escaped": self.escaped,
                "caught": self.caught, "timeouts": self.timeouts}


@dataclass(frozen=True)
class Standings:
    """Every contestant's rating, best first within each role, and the head-to-head table."""

    ratings: dict[str, tuple[Rating, ...]] = field(default_factory=dict)  # by role
    head_to_head: tuple[HeadToHead, ...] = ()

    def to_dict(self) -> dict:
        return {"ratings": {role: [r.to_dict() for r in ratings] for role, ratings in self.ratings.items()},
                "head_to_head": [h.to_dict() for h in self.head_to_head]}


def rate(matches: Iterable[MatchRow]) -> Standings:
    """The standings drawn from ``matches`` (in any order: they are rated in play order)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players: dict[tuple[str, str], object] = {}
    record: dict[tuple[str, str], list[int]] = {}  # wins, draws, losses
    history: dict[tuple[str, str], list[float]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}  # escaped, caught, timeouts
    for match in sorted(matches, key=lambda m: m.play_order):
        sides = {role: (role, getattr(match, role)) for role in ROLES}
        for side in sides.values():
            players.setdefault(side, model.rating(name=side[1]))
        winner = WINNER[match.outcome]
        ranks = [1 if winner in (None, role) else 2 for role in ROLES]
        rated = model.rate([[players[sides[role]]] for role in ROLES], ranks=ranks)
        for role, (player,) in zip(ROLES, rated, strict=True):
            players[sides[role]] = player
            tally = record.setdefault(sides[role], [0, 0, 0])
            tally[0 if winner == role else 1 if winner is None else 2] += 1
            history.setdefault(sides[role], []).append(player.mu - SIGMAS * player.sigma)
        pair = pairs.setdefault((match.user, match.minotaur), [0, 0, 0])
        pair[OUTCOMES.index(match.outcome)] += 1
    ratings = {role: tuple(sorted((Rating(role, name, players[(role, name)].mu, players[(role, name)].sigma,
                                          *record[(role, name)], history=tuple(history[(role, name)]))
                                   for r, name in players if r == role), key=lambda r: (-r.rating, r.name)))
               for role in ROLES}
    return Standings(ratings, tuple(HeadToHead(user, minotaur, *counts) for (user, minotaur), counts in
                                    sorted(pairs.items())))
