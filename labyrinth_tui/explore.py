"""Autoexplore (`o`, or `explore` typed): the known way to the nearest cell of the player's level not
seen yet, walked a leg a turn by the game screen as a travel is, each leg chosen anew from what the
player knows after the last. Only the player's map and senses are read, never the labyrinth itself, and
only cells of the hunting ground are sought: the maze beyond it goes on without end, and nothing lies
there. It picks up nothing. It does not start, nor go on, while the Minotaur is in sight or heard close
(a player moves by hand then, as DCSS refuses with a monster in view); it stops where a travel stops (a
danger, a leg cut short) and where a player would look up from the keys: a stone or the lantern seen
for the first time, a ramp first seen (each of these a stop the player's options may drop:
``[options] explore_stops``); and it ends when the known ways lead to nothing left to see."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from itertools import islice

from labyrinth.engine import events as ev
from labyrinth.engine.cells import RAMP_UP
from labyrinth.engine.geometry import HORIZONTAL, Pos
from labyrinth.engine.items import ITEM, KINDS
from labyrinth.engine.presets import Bounds
from labyrinth.engine.turn import TurnResult

from .knowledge import Knowledge
from .travel import RAMP_WAYS, STOPPED, Leg, legs, search

NOTHING_LEFT = "Explored: nothing left you can reach on this level."
RAMP = "ramp"
STOPS = (*KINDS, RAMP)  # the stops a player may drop ([options] explore_stops): an item of a kind, a ramp, first seen


def refusal(danger: str) -> str:
    """What the player is told when ``danger`` (the Minotaur in sight, or heard close) keeps autoexplore
    from starting."""
    return f"Not while {danger}: move by hand."


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
    ``cells`` (the session's, which learns as the player walks) inside ``ground``; ``known``, what the
    player perceives of the Minotaur; ``stops``, the stops of STOPS the player keeps; ``stopped``, why it
    stopped. The screen drives it as a travel (travel.Travelling): ``check`` after each leg, then ``onward``."""

    cells: dict[Pos, int]
    known: Knowledge
    ground: Bounds
    stops: Collection[str] = STOPS
    legs: list[Leg] = field(default_factory=list)
    stopped: str | None = None
    counted: int = 0  # the cells the map held when the leg began: those after them are new
    name, note = "Exploring", "explore"  # as the log says it stopped, and marks each leg it played

    @classmethod
    def begin(cls, cells: dict[Pos, int], known: Knowledge, ground: Bounds, start: Pos,
              stops: Collection[str] = STOPS) -> Exploring | None:
        """An autoexplore from ``start``, or None when nothing is left to see (the screen refuses one
        while ``known.danger_near`` first)."""
        exploring = cls(cells, known, ground, stops)
        return exploring if exploring._next(start) else None

    def _next(self, start: Pos) -> bool:
        leg = exploring_leg(self.cells, start, self.ground)
        self.legs, self.counted = ([leg] if leg else []), len(self.cells)
        return leg is not None

    def check(self, result: TurnResult, danger: str | None) -> str | None:
        """Why the keys typed ahead go after a leg was played: a danger, or anything that stops the
        autoexplore (it stops then, and ``stopped`` says why: the danger first, with what came into view
        on the same leg)."""
        response, leg = result.response, self.legs[0]
        env = response.environment
        sighted = [e.item for e in result.events if isinstance(e, ev.ItemSighted)]  # seen for the first time
        ramps = [kind for _, kind in islice(reversed(self.cells.items()), len(self.cells) - self.counted)
                 if kind in RAMP_WAYS]  # the map keeps its cells in the order they were seen
        seen = [f"the {item}" for item in sighted if ITEM[item].kind in self.stops]
        if ramps and RAMP in self.stops:
            seen.append(f"a ramp {'up' if ramps[-1] == RAMP_UP else 'down'}")
        danger = danger or self.known.danger_near
        found = f"you see {' and '.join(seen)}" if seen else None
        cut_short = response.status != "SUCCESS" or env.steps_moved != leg.steps
        if danger or found:
            self.stopped = ", and ".join(filter(None, (danger, found)))
        elif cut_short and not (env.stop_reason == "ITEM_SIGHTED" and sighted):  # not by an item of a stop dropped
            self.stopped = STOPPED.get(env.stop_reason, "the leg was cut short")
        return self.stopped

    def onward(self) -> bool:
        """The leg was walked (and nothing stopped it): whether there is a next one (none: nothing is
        left to explore)."""
        at = self.known.response.user_state.position
        return self._next((at.x, at.y, at.z))
