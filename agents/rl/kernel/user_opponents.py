"""The users the Minotaur's tasks seat against it (agents/rl/tasks.py), deciding in numba (slice 6c of the design
note, kernel/__init__.py): a row's command in turn.command_row's layout, for play_turns, decision for decision the
Python agent's. ``wait`` is naive.Halter (agents/rl/opponents.py), which HALTs every turn; ``random`` is
naive.RandomWalker, which grabs the first item it sees lying within a step, else walks a random way out a random
number of steps (LOOK where there is none), drawing from its own random.Random(f"{seed}:random-walker"), carried
here as an mt.py row (``streams``: at a game's start, from the agent the env seats).

The walker reads its observation (perception's nearby_entities and nearby_terrain): the items in sight
(senses.items_in_sight: on its level, within USER_SIGHT, a clear line; in the state's order) and, of them, those
within a step (interactable), then its ways out (World.user_exits: the four cells beside it not ROCK, in
geometry.HORIZONTAL's order, then the ramp under its feet). All of it is the row's.

A row it does not decide (``decide_rows`` answers work.REASONS' code): KEPT for a row kept whole, LEFT_REGION where
a cell it reads lies outside the region (its own, the four beside it, an item in sight: the line to it lies in
the box of the two). Its stream is then left as it was: the env has the Python agent decide that turn (mt.store
the row into its Random first, mt.load it back after). The built-in user (agents/builtin/builtin_user.py) is not
ported: it stays in Python.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from labyrinth.engine.cells import RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.engine.schemas import UserInput

from ...builtin.naive import MOST_STEPS, RandomWalker
from . import mt
from .jit import jit
from .sight import USER_SQ, line_clear, within
from .state import StateRows
from .turn import command_row
from .walk import OUTSIDE, cell
from .ways import DIRECTIONS, DOWN, DX, DY, UP
from .work import KEPT, LEFT_REGION, PLAYED

OPPONENTS = ("wait", "random")  # the user opponents ported, by their name in tasks.py
WAIT, RANDOM = range(len(OPPONENTS))
# Their commands as command rows, made by command_row from the UserInputs their Actions become; a MOVE's direction
# and steps and a GRAB's target are filled in per decision, in command_row's columns.
HALT_ROW = command_row(UserInput(command="HALT"))
LOOK_ROW = command_row(UserInput(command="LOOK"))
MOVE_ROW = command_row(UserInput(command="MOVE", direction=DIRECTIONS[0], steps=1))
GRAB_ROW = command_row(UserInput(command="GRAB", target=ITEM_ORDER[0]))
C_DIRECTION, C_STEPS, C_TARGET = 1, 2, 4
if MOVE_ROW[C_DIRECTION] != 0 or MOVE_ROW[C_STEPS] != 1 or GRAB_ROW[C_TARGET] != 0:
    raise ImportError("turn.command_row's columns moved: kernel/user_opponents.py fills the old ones")


def streams(walkers: Sequence[RandomWalker]) -> np.ndarray:
    """The walkers' random streams as mt.py rows (len(walkers), mt.STATE), at a game's start."""
    return mt.load([walker.rng for walker in walkers])


def decide_rows(opponent: str, rows: StateRows, rng: np.ndarray, asked: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The command of ``opponent`` (OPPONENTS) in each asked row into ``out`` (n, command_row's width); ``rng``: the
    walkers' streams (``streams``), advanced as each decides. Per row, why it was not decided (work.REASONS; 0:
    decided), its stream and ``out`` then left as they were. Rows not asked answer PLAYED, untouched."""
    why = np.zeros(len(asked), dtype=np.int64)
    asked = np.ascontiguousarray(asked, dtype=np.bool_)
    _decide_all(OPPONENTS.index(opponent), asked, rows.user, rows.items, rows.item_count, rows.kinds, rows.origin,
                rows.kept, rng, out, why)
    return why


@jit
def _decide_all(opponent: int, asked: np.ndarray, user: np.ndarray, items: np.ndarray, item_count: np.ndarray,
                kinds: np.ndarray, origin: np.ndarray, kept: np.ndarray, rng: np.ndarray, out: np.ndarray,
                why: np.ndarray) -> None:
    for i in range(asked.shape[0]):
        if not asked[i]:
            continue
        if opponent == WAIT:  # Halter reads nothing: any row, kept or not
            out[i] = HALT_ROW
            continue
        if kept[i]:
            why[i] = KEPT
            continue
        why[i] = _walk(user[i], items[i], item_count[i], kinds[i], origin[i], rng[i], out[i])


@jit
def _walk(user: np.ndarray, items: np.ndarray, item_count: int, kinds: np.ndarray, origin: np.ndarray,
          rng: np.ndarray, out: np.ndarray) -> int:
    """RandomWalker.decide from the row: GRAB the first item in sight within a step, else MOVE a random way out
    a random number of steps (its stream advanced), else LOOK."""
    x, y, z = user[0], user[1], user[2]
    here = cell(kinds, origin, x, y, z)
    if here == OUTSIDE:
        return LEFT_REGION
    for slot in range(item_count):
        kind, ix, iy, iz = items[slot, 0], items[slot, 1], items[slot, 2], items[slot, 3]
        if not within(x, y, z, ix, iy, iz, USER_SQ):
            continue
        if cell(kinds, origin, ix, iy, iz) == OUTSIDE:  # the line between lies in the box of the two: in the region
            return LEFT_REGION
        if line_clear(kinds, origin, x, y, z, ix, iy, iz) and abs(ix - x) + abs(iy - y) <= 1:
            out[:] = GRAB_ROW
            out[C_TARGET] = kind
            return PLAYED
    ways = np.empty(len(DIRECTIONS), dtype=np.int64)
    count = 0
    for d in range(4):
        kind = cell(kinds, origin, x + DX[d], y + DY[d], z)
        if kind == OUTSIDE:
            return LEFT_REGION
        if kind != ROCK:
            ways[count] = d
            count += 1
    if here == RAMP_UP or here == RAMP_DOWN:
        ways[count] = UP if here == RAMP_UP else DOWN
        count += 1
    if count == 0:
        out[:] = LOOK_ROW
        return PLAYED
    out[:] = MOVE_ROW
    out[C_DIRECTION] = ways[mt.choice(rng, count)]
    out[C_STEPS] = mt.randint(rng, 1, MOST_STEPS)
    return PLAYED
