"""Build game situations by hand for the rule tests: a real seed's world, with
the user, the Minotaur and the items put where a test needs them."""

from __future__ import annotations

import dataclasses

from labyrinth.engine import Game, initial_state
from labyrinth.engine.cells import CRAWLWAY, FLOOR, MINOTAUR_OPEN, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.geometry import HORIZONTAL
from labyrinth.engine.presets import PRESETS

SEED = 11


def scene(seed: int = SEED, preset: str = "standard", **fields) -> Game:
    """A game whose state is the seed's start with ``fields`` replaced; items
    default to none, so nothing interrupts a move unless a test places it."""
    fields.setdefault("items", ())
    state = dataclasses.replace(initial_state(seed, preset), **fields)
    game = Game(state)
    return game


def corridor(game: Game, direction: str, length: int, *, z: int = 100, kinds=(FLOOR,)) -> tuple:
    """A start cell from which exactly ``length`` open cells of ``kinds`` lie
    straight ahead in ``direction``, then rock."""
    dx, dy = HORIZONTAL[direction]
    b = PRESETS[game.state.preset]
    cell = game.world.cell
    for y in range(b.y0 + 8, b.y0 + b.height - 8):
        for x in range(b.x0 + 8, b.x0 + b.width - 8):
            if cell(x, y, z) != FLOOR:
                continue
            ahead = [cell(x + dx * k, y + dy * k, z) for k in range(1, length + 2)]
            if all(k in kinds for k in ahead[:length]) and ahead[length] == ROCK:
                return (x, y, z)
    raise LookupError(f"no {direction} corridor of {length} cells")


def find_cell(game: Game, kind: int, z: int = 100) -> tuple:
    """The first cell of ``kind`` in the hunting ground's level ``z``."""
    b = PRESETS[game.state.preset]
    for y in range(b.y0, b.y0 + b.height):
        for x in range(b.x0, b.x0 + b.width):
            if game.world.cell(x, y, z) == kind:
                return (x, y, z)
    raise LookupError(kind)


def crawlway_entry(game: Game, z: int = 100) -> tuple[tuple, str]:
    """A floor cell next to a crawlway, and the direction into the crawlway."""
    cell = game.world.cell
    x, y, _ = find_cell(game, CRAWLWAY, z)
    for d, (dx, dy) in HORIZONTAL.items():
        if cell(x - dx, y - dy, z) in MINOTAUR_OPEN:
            return (x - dx, y - dy, z), d
    raise LookupError("crawlway without an open side")


RAMPS = {"UP RAMP": RAMP_UP, "DOWN RAMP": RAMP_DOWN}


def move(direction: str, steps: int | None = None, speed: int = 1) -> dict:
    cmd = {"command": "MOVE", "direction": direction, "speed": speed}
    if steps is not None:
        cmd["steps"] = steps
    return cmd


WAIT = {"action": "WAIT"}
CHASE = {"action": "CHASE"}
LOOK = {"command": "LOOK"}


def halt(seconds: int) -> dict:
    return {"command": "HALT", "steps": seconds}
