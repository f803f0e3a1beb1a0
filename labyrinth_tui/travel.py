"""Travel: the known way from where the player stands to a cell it has seen, as the legs a player
would type (a straight walk of counted steps, or a ramp), which the game screen plays one leg a turn,
stopping at once on danger (``Travelling``). Only cells the player has seen are walked, crawlways too
(travel walks); a ramp leads to the other level (rules.md, decision 2: a ramp up always lands on a
ramp down)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from labyrinth.engine import UserInput
from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP
from labyrinth.engine.geometry import HORIZONTAL, RAMP_LEVELS, Pos
from labyrinth.engine.turn import TurnResult

OPEN = (FLOOR, CRAWLWAY, RAMP_UP, RAMP_DOWN)
RAMP_WAYS = {RAMP_UP: "UP RAMP", RAMP_DOWN: "DOWN RAMP"}  # the move each ramp takes
RAMP_KINDS = {"<": RAMP_UP, ">": RAMP_DOWN}  # `travel <` goes to the nearest known ramp up, as the keys < > climb
STOPPED = {"COLLISION": "the way was blocked", "ITEM_SIGHTED": "something caught your eye",
           "ENCOUNTER": "the Minotaur cut the walk short"}  # a leg cut short, by the engine's stop_reason


@dataclass(frozen=True)
class Leg:
    """One turn of a travel: ``steps`` walked straight ``direction`` (a ramp: one step)."""

    direction: str
    steps: int

    @property
    def command(self) -> UserInput:
        return UserInput(command="MOVE", direction=self.direction, steps=self.steps, speed=1)


def _ways(cells: Mapping[Pos, int], at: Pos, climb: bool):
    """The known open cells one step from ``at``, with the direction of the step (up or down a ramp
    only when ``climb``)."""
    x, y, z = at
    for direction, (dx, dy) in HORIZONTAL.items():
        if cells.get((x + dx, y + dy, z)) in OPEN:
            yield direction, (x + dx, y + dy, z)
    if climb and cells.get(at) in RAMP_WAYS:
        direction = RAMP_WAYS[cells[at]]
        yield direction, (x, y, z + RAMP_LEVELS[direction])


def search(cells: Mapping[Pos, int], start: Pos, arrived: Callable[[Pos], bool],
           climb: bool = True) -> list[tuple[str, Pos]] | None:
    """The steps of a shortest known way from ``start`` to the first cell ``arrived`` accepts, or None;
    by the ramps too unless not ``climb`` (the way stays on the level)."""
    came: dict[Pos, tuple[str, Pos] | None] = {start: None}
    queue = deque([start])
    while queue:
        at = queue.popleft()
        if arrived(at):
            steps = []
            while (step := came[at]) is not None:
                direction, before = step
                steps.append((direction, at))
                at = before
            return steps[::-1]
        for direction, to in _ways(cells, at, climb):
            if to not in came:
                came[to] = (direction, at)
                queue.append(to)
    return None


def legs(steps: list[tuple[str, Pos]]) -> list[Leg]:
    """Steps as legs: a run of steps one way is one leg; a ramp is a leg of its own."""
    out: list[Leg] = []
    for direction, _ in steps:
        if out and out[-1].direction == direction and direction in HORIZONTAL:
            out[-1] = Leg(direction, out[-1].steps + 1)
        else:
            out.append(Leg(direction, 1))
    return out


def route(cells: Mapping[Pos, int], start: Pos, goal: Pos) -> list[Leg] | None:
    """The legs of a shortest known way to ``goal`` ([] standing there), or None when none is known."""
    if cells.get(goal) not in OPEN and goal != start:
        return None
    steps = search(cells, start, lambda at: at == goal)
    return None if steps is None else legs(steps)


def nearest(cells: Mapping[Pos, int], start: Pos, kind: int) -> Pos | None:
    """The known cell of ``kind`` (a ramp up or down) nearest by the known ways, or None."""
    steps = search(cells, start, lambda at: cells.get(at) == kind)
    if steps is None:
        return None
    return steps[-1][1] if steps else start


@dataclass
class Travelling:
    """A travel under way: where to, the legs left (the first one being walked), and why it stopped."""

    goal: Pos
    legs: list[Leg]
    stopped: str | None = None
    name, note = "Travel", "travel"  # as the log says it stopped, and marks each leg it played

    def check(self, result: TurnResult, danger: str | None) -> str | None:
        """Why the keys typed ahead go after a leg was played: a danger, or the travel cut short (it
        stops then, and says why; a danger met on arriving ends it as it was going to end)."""
        leg, response = self.legs[0], result.response
        env = response.environment
        if response.status != "SUCCESS" or env.steps_moved != leg.steps:
            self.stopped = danger or STOPPED.get(env.stop_reason, "the leg was cut short")
        elif danger and len(self.legs) > 1:
            self.stopped = danger
        return self.stopped or danger

    def onward(self) -> bool:
        """The leg being walked was walked (and not stopped): whether another follows."""
        self.legs.pop(0)
        return bool(self.legs)
