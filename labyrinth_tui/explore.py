"""Autoexplore (`o`, or `explore` typed): the known way to the nearest cell of the player's level not
seen yet, walked a leg a turn by the game screen as a travel is, each leg chosen anew from what the
player knows after the last. Only the player's map is read, never the labyrinth itself, and only
cells of the hunting ground are sought: the maze beyond it goes on without end, and nothing lies
there. It picks up nothing. It stops where a travel stops (a danger, a leg cut short) and where a
player would look up from the keys: the Minotaur in sight, a stone or the lantern seen for the first
time, a ramp first seen; and it ends when the known ways lead to nothing left to see."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice

from labyrinth.engine import events as ev
from labyrinth.engine.cells import RAMP_UP
from labyrinth.engine.geometry import HORIZONTAL, Pos
from labyrinth.engine.presets import Bounds
from labyrinth.engine.turn import TurnResult

from .knowledge import Knowledge
from .travel import RAMP_WAYS, STOPPED, Leg, legs, search

NOTHING_LEFT = "Explored: nothing left you can reach on this level."
IN_SIGHT = "the Minotaur is in sight"


def borders_unseen(cells: dict[Pos, int], at: Pos, ground: Bounds) -> bool:
    """Whether ``at`` is next to a cell of the hunting ground the player has not seen."""
    x, y, z = at
    return any((x + dx, y + dy, z) not in cells and ground.contains(x + dx, y + dy, z)
               for dx, dy in HORIZONTAL.values())


def exploring_leg(cells: dict[Pos, int], start: Pos, ground: Bounds) -> Leg | None:
    """The first leg of the shortest known way on the player's level to a cell next to one not seen
    yet (standing there shows it: the player sees every cell next to its own); None when none is known."""
    steps = search(cells, start, lambda at: at != start and borders_unseen(cells, at, ground), climb=False)
    return legs(steps)[0] if steps else None


@dataclass
class Exploring:
    """An autoexplore under way: the leg being walked (``legs``, one), chosen from the player's map
    ``cells`` (the session's, which learns as the player walks) inside ``ground``; ``known`` says whether
    the Minotaur is in sight; ``stopped``, why it stopped. The screen drives it as a travel
    (travel.Travelling): ``check`` after each leg, then ``onward``."""

    cells: dict[Pos, int]
    known: Knowledge
    ground: Bounds
    legs: list[Leg] = field(default_factory=list)
    stopped: str | None = None
    counted: int = 0  # the cells the map held when the leg began: those after them are new
    name, note = "Exploring", "explore"  # as the log says it stopped, and marks each leg it played

    @classmethod
    def begin(cls, cells: dict[Pos, int], known: Knowledge, ground: Bounds, start: Pos) -> Exploring | str:
        """An autoexplore from ``start``, or the words that say why there is none: the Minotaur in
        sight (a player looks up from the keys then), or nothing left to see."""
        if known.sees:
            return f"Not while {IN_SIGHT}."
        exploring = cls(cells, known, ground)
        return exploring if exploring._next(start) else NOTHING_LEFT

    def _next(self, start: Pos) -> bool:
        leg = exploring_leg(self.cells, start, self.ground)
        self.legs, self.counted = ([leg] if leg else []), len(self.cells)
        return leg is not None

    def check(self, result: TurnResult, danger: str | None) -> str | None:
        """Why the keys typed ahead go after a leg was played: a danger, or anything that stops the
        autoexplore (it stops then, and ``stopped`` says why)."""
        response, leg = result.response, self.legs[0]
        env = response.environment
        sighted = [e.item for e in result.events if isinstance(e, ev.ItemSighted)]  # seen for the first time
        ramps = [kind for _, kind in islice(reversed(self.cells.items()), len(self.cells) - self.counted)
                 if kind in RAMP_WAYS]  # the map keeps its cells in the order they were seen
        if danger or self.known.sees:
            self.stopped = danger or IN_SIGHT
        elif sighted:
            self.stopped = f"you see the {' and the '.join(sighted)}"
        elif ramps:
            self.stopped = f"you see a ramp {'up' if ramps[-1] == RAMP_UP else 'down'}"
        elif response.status != "SUCCESS" or env.steps_moved != leg.steps:
            self.stopped = STOPPED.get(env.stop_reason, "the leg was cut short")
        return self.stopped

    def onward(self) -> bool:
        """The leg was walked (and nothing stopped it): whether there is a next one (none: nothing is
        left to explore)."""
        at = self.known.response.user_state.position
        return self._next((at.x, at.y, at.z))
