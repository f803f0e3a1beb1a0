"""engine/senses.py's senses that change a state, over a row's region: line of sight (World.line_clear, its
table geometry.LINES as arrays), who sees whom, and how near the hoofbeats sound (senses.proximity, as
senses.NEARNESS ranks it).

Positions come as a row's work vector ``v`` (turn.py's layout) and the cells read are the region's: the turn
checks, each time the user moves, that every cell within MINOTAUR_SIGHT of it lies in the region, in chunks laid
(``near_edge``), so these reads need no check of their own (a line between the two figures lies within sight of the
user).
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.cells import ROCK
from labyrinth.engine.constants import CLOSE_SQ, FAINT_SQ, MINOTAUR_SIGHT, USER_SIGHT, VERY_CLOSE_SQ
from labyrinth.engine.geometry import LINES
from labyrinth.engine.items import SIGHTS

from .jit import jit
from .region import holds

if SIGHTS:
    raise ImportError("an item lends the user sight (engine/items.py): kernel/sight.py has not ported that rule")

REACH = MINOTAUR_SIGHT  # how far any eye sees: LINES' offsets
MARGIN = REACH + 1  # the cells around the user the turn reads: sight, and a step
MINOTAUR_SQ, USER_SQ = MINOTAUR_SIGHT * MINOTAUR_SIGHT, USER_SIGHT * USER_SIGHT


def _line_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LINES as arrays: for offset (dx, dy), its between cells are CELLS[FIRST[dx + REACH, dy + REACH]:][:COUNT]
    (FIRST -1: no line, out of sight)."""
    side = 2 * REACH + 1
    first, count = np.full((side, side), -1, np.int64), np.zeros((side, side), np.int64)
    cells: list[tuple[int, int]] = []
    for (dx, dy), between in sorted(LINES.items()):
        first[dx + REACH, dy + REACH], count[dx + REACH, dy + REACH] = len(cells), len(between)
        cells += between
    return first, count, np.array(cells, dtype=np.int64).reshape(len(cells), 2)


FIRST, COUNT, CELLS = _line_tables()


@jit
def near_edge(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int) -> bool:
    """True when a cell within MARGIN of (x, y) on level z lies outside the region, or in a chunk not laid yet:
    the turn then falls back."""
    return not holds(kinds, origin, x, y, z, MARGIN)


@jit
def line_clear(kinds: np.ndarray, origin: np.ndarray, ax: int, ay: int, az: int, bx: int, by: int, bz: int) -> bool:
    """World.line_clear(a, b)."""
    dx, dy = bx - ax, by - ay
    if abs(dx) > REACH or abs(dy) > REACH or FIRST[dx + REACH, dy + REACH] < 0 or az != bz:
        return False
    first = FIRST[dx + REACH, dy + REACH]
    for i in range(first, first + COUNT[dx + REACH, dy + REACH]):
        if kinds[az - origin[2], ay + CELLS[i, 1] - origin[1], ax + CELLS[i, 0] - origin[0]] == ROCK:
            return False
    return True


@jit
def within(ax: int, ay: int, az: int, bx: int, by: int, bz: int, radius_sq: int) -> bool:
    """senses._near, the radius squared (an argument of one type: numba compiles a function once per constant)."""
    return az == bz and (ax - bx) ** 2 + (ay - by) ** 2 <= radius_sq


@jit
def distance_sq(ax: int, ay: int, az: int, bx: int, by: int, bz: int) -> int:
    """geometry.distance_sq: a level counts two steps."""
    return (ax - bx) ** 2 + (ay - by) ** 2 + (2 * (az - bz)) ** 2


@jit
def minotaur_sees(kinds: np.ndarray, origin: np.ndarray, user: np.ndarray, minotaur: np.ndarray,
                  active: bool) -> bool:
    """senses.minotaur_sees_user."""
    return (active and within(user[0], user[1], user[2], minotaur[0], minotaur[1], minotaur[2], MINOTAUR_SQ)
            and line_clear(kinds, origin, minotaur[0], minotaur[1], minotaur[2], user[0], user[1], user[2]))


@jit
def user_sees(kinds: np.ndarray, origin: np.ndarray, user: np.ndarray, minotaur: np.ndarray, active: bool) -> bool:
    """senses.user_sees_minotaur."""
    return (active and within(user[0], user[1], user[2], minotaur[0], minotaur[1], minotaur[2], USER_SQ)
            and line_clear(kinds, origin, user[0], user[1], user[2], minotaur[0], minotaur[1], minotaur[2]))


@jit
def nearness(user: np.ndarray, minotaur: np.ndarray, paralysis: int, jump_left: int) -> int:
    """senses.NEARNESS of senses.proximity: 3 VERY CLOSE, 2 CLOSE, 1 FAINT, 0 none (or frozen, or out of time)."""
    if paralysis or jump_left:
        return 0
    d2 = distance_sq(user[0], user[1], user[2], minotaur[0], minotaur[1], minotaur[2])
    if d2 <= VERY_CLOSE_SQ:
        return 3
    if d2 <= CLOSE_SQ:
        return 2
    return 1 if d2 <= FAINT_SQ else 0
