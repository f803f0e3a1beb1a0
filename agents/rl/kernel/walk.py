"""engine/minotaur.py's walk over a row: next_cell (the stride, CHASE's goal, the route and its step), _route,
_chase_goal, _standable and patrol_waypoint, with the A* of astar.py and the patrol words of draws.py.

The path is the turn's working buffer ``path`` (rows PATH_START to PATH_START + PATH_LENGTH of the vector ``v``):
a step moves its start on rather than copying the rest, as the engine's ``path[1:]`` does. A cell read outside
the region, or a search that leaves it, answers LEFT_REGION; the turn then falls back.
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import (
    MINOTAUR_PACE,
    MINOTAUR_SEEING_PACE,
    PATROL_REACH,
    QUARTERS,
    WORLD_LEVELS,
    WORLD_SIZE,
)

from .draws import USED_UP, below
from .jit import jit
from .region import unlaid, want
from .state import PATH_ROWS
from .ways import DX, DY
from .work import (
    GOAL,
    HAS_GOAL,
    HAS_WAYPOINT,
    HEARD_AT,
    LEFT_REGION,
    MINOTAUR,
    NEED_PATH,
    NO_ROUTE,
    PATH_LENGTH,
    PATH_START,
    PATHFIND,
    PATROLS,
    PLAYED,
    SEARCHED,
    SEEN_AT,
    STRIDE,
    T_PLAN,
    T_SEES,
    T_TARGET,
    UNPORTED,
    USER,
    WAYPOINT,
)
from .work import USED_UP as TABLE_USED_UP

# The paths the turn has been given: (start, goal) rows, their lengths (or astar's status), the paths, how many.
Memo = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
OUTSIDE = -1  # cell's answer for a cell of the cube the region does not hold


@jit
def cell(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int) -> int:
    """World.cell: ROCK outside the cube; OUTSIDE for a cell of the cube outside the region or not laid yet (its
    chunk then marked needed: region.want)."""
    if not (0 <= x < WORLD_SIZE and 0 <= y < WORLD_SIZE and 0 <= z < WORLD_LEVELS):
        return ROCK
    levels, rows, cols = kinds.shape
    level, row, col = z - origin[2], y - origin[1], x - origin[0]
    if not (0 <= level < levels and 0 <= row < rows and 0 <= col < cols):
        return OUTSIDE
    kind = kinds[level, row, col]
    if unlaid(kind):
        want(kinds, level, row, col)
        return OUTSIDE
    return kind


@jit
def _open(kind: int) -> bool:
    return kind == FLOOR or kind == RAMP_UP or kind == RAMP_DOWN  # cells.MINOTAUR_OPEN


@jit
def find_path(v: np.ndarray, path: np.ndarray, memo: Memo, gx: int, gy: int, gz: int) -> int:
    """pathfinding.find_path from the Minotaur to (gx, gy, gz) as the turn's path, when the turn's memo holds it;
    else NEED_PATH, the query put in the memo's next row for turn.py to search (astar.py) before it plays the
    turn again (so that the A* is compiled into one caller, not into every function between the turn and it)."""
    keys, lengths, found, count = memo
    sx, sy, sz = v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2]
    for k in range(count[0]):
        if (keys[k, 0] == sx and keys[k, 1] == sy and keys[k, 2] == sz and keys[k, 3] == gx and keys[k, 4] == gy
                and keys[k, 5] == gz):
            length = lengths[k]
            path[:length] = found[k, :length]
            v[PATH_START], v[PATH_LENGTH] = 0, length
            return PLAYED
    if count[0] == keys.shape[0]:
        return TABLE_USED_UP
    keys[count[0], 0], keys[count[0], 1], keys[count[0], 2] = sx, sy, sz
    keys[count[0], 3], keys[count[0], 4], keys[count[0], 5] = gx, gy, gz
    return NEED_PATH


@jit
def _standable(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int, fx: int, fy: int,
               fz: int) -> tuple[int, int, int, int]:
    """(code, cell): minotaur._standable((x, y, z), frm)."""
    kind = cell(kinds, origin, x, y, z)
    if kind == OUTSIDE:
        return LEFT_REGION, 0, 0, 0
    if kind != CRAWLWAY:
        return PLAYED, x, y, z
    best, bx, by = -1, 0, 0
    for side in range(4):
        sx, sy = x + DX[side], y + DY[side]
        kind = cell(kinds, origin, sx, sy, z)
        if kind == OUTSIDE:
            return LEFT_REGION, 0, 0, 0
        if not _open(kind):
            continue
        gap = abs(sx - fx) + abs(sy - fy) + abs(z - fz)
        if best < 0 or gap < best or (gap == best and (sx < bx or (sx == bx and sy < by))):
            best, bx, by = gap, sx, sy
    if best < 0:
        return PLAYED, fx, fy, fz
    return PLAYED, bx, by, z


@jit
def _randint(words: np.ndarray, used: np.ndarray, low: int, high: int) -> int:
    """Random.randint(low, high) from the words; USED_UP when they run out (and for an empty range, where
    randint raises: the caller falls back)."""
    if high < low:
        return USED_UP
    drawn = below(words, used, high - low + 1)
    return USED_UP if drawn == USED_UP else low + drawn


@jit
def _patrol_waypoint(v: np.ndarray, ground: np.ndarray, words: np.ndarray) -> int:
    """minotaur.patrol_waypoint into the vector's waypoint; a fallback code when the draw is past the tables."""
    x0, y0, z0, width, height, levels = ground[0], ground[1], ground[2], ground[3], ground[4], ground[5]
    patrols = v[PATROLS]
    if patrols == 0:
        v[WAYPOINT], v[WAYPOINT + 1], v[WAYPOINT + 2] = x0 + width // 2, y0 + height // 2, z0 + levels // 2
        return PLAYED
    if patrols > words.shape[0]:
        return TABLE_USED_UP
    table, used = words[patrols - 1], np.zeros(1, dtype=np.int64)
    mx, my, mz = v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2]
    x = _randint(table, used, max(x0, mx - PATROL_REACH), min(x0 + width - 1, mx + PATROL_REACH))
    y = _randint(table, used, max(y0, my - PATROL_REACH), min(y0 + height - 1, my + PATROL_REACH))
    z = _randint(table, used, max(z0, mz - 1), min(z0 + levels - 1, mz + 1))
    if x == USED_UP or y == USED_UP or z == USED_UP:  # no waypoint is negative: the ground lies in the cube
        return TABLE_USED_UP if used[0] >= table.shape[0] else UNPORTED
    v[WAYPOINT], v[WAYPOINT + 1], v[WAYPOINT + 2] = x & ~1, y & ~1, z
    return PLAYED


@jit
def _chase_goal(v: np.ndarray, t: np.ndarray, kinds: np.ndarray, origin: np.ndarray, ground: np.ndarray,
                words: np.ndarray) -> tuple[int, int, int, int]:
    """(code, goal): minotaur._chase_goal, the clue spent or the waypoint drawn in the vector."""
    mx, my, mz = v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2]
    if t[T_SEES]:
        return _standable(kinds, origin, v[USER], v[USER + 1], v[USER + 2], mx, my, mz)
    heard = v[HEARD_AT + 3] >= 0 and v[HEARD_AT + 3] > v[SEARCHED]
    seen = v[SEEN_AT + 3] >= 0 and v[SEEN_AT + 3] > v[SEARCHED]
    clue = HEARD_AT if heard else SEEN_AT if seen else -1  # the freshest: max of (tick, where), as tuples compare
    if heard and seen:
        for i in (3, 0, 1, 2):
            if v[HEARD_AT + i] != v[SEEN_AT + i]:
                clue = HEARD_AT if v[HEARD_AT + i] > v[SEEN_AT + i] else SEEN_AT
                break
    if clue >= 0:
        code, gx, gy, gz = _standable(kinds, origin, v[clue], v[clue + 1], v[clue + 2], mx, my, mz)
        if code != PLAYED:
            return code, 0, 0, 0
        if gx != mx or gy != my or gz != mz:
            return PLAYED, gx, gy, gz
        v[SEARCHED] = v[clue + 3]  # nothing here: that clue is spent
    at_waypoint = v[WAYPOINT] == mx and v[WAYPOINT + 1] == my and v[WAYPOINT + 2] == mz
    if not v[HAS_WAYPOINT] or at_waypoint:
        code = _patrol_waypoint(v, ground, words)
        if code != PLAYED:
            return code, 0, 0, 0
        v[HAS_WAYPOINT] = 1
        v[PATROLS] += 1
    return PLAYED, v[WAYPOINT], v[WAYPOINT + 1], v[WAYPOINT + 2]


@jit
def _steps_to(kinds: np.ndarray, origin: np.ndarray, ex: int, ey: int, ez: int, gx: int, gy: int, gz: int) -> int:
    """1 when the goal is one of World.minotaur_moves from (ex, ey, ez), 0 when not, OUTSIDE when the region
    cannot tell."""
    if ez == gz and abs(ex - gx) + abs(ey - gy) == 1:
        kind = cell(kinds, origin, gx, gy, gz)
        return OUTSIDE if kind == OUTSIDE else int(_open(kind))
    if ex == gx and ey == gy and abs(ez - gz) == 1:
        kind = cell(kinds, origin, ex, ey, ez)
        if kind == OUTSIDE:
            return OUTSIDE
        return int((kind == RAMP_UP and gz == ez + 1) or (kind == RAMP_DOWN and gz == ez - 1))
    return 0


@jit
def _route(v: np.ndarray, path: np.ndarray, kinds: np.ndarray, origin: np.ndarray,
           gx: int, gy: int, gz: int, memo: Memo) -> int:
    """minotaur._route to (gx, gy, gz), as the turn's path: cut at the goal, a step longer, or found afresh."""
    start, length = v[PATH_START], v[PATH_LENGTH]
    for i in range(start, start + length):
        if path[i, 0] == gx and path[i, 1] == gy and path[i, 2] == gz:
            v[PATH_LENGTH] = i - start + 1
            return PLAYED
    mx, my, mz = v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2]
    if length:
        ex, ey, ez = path[start + length - 1, 0], path[start + length - 1, 1], path[start + length - 1, 2]
    else:
        ex, ey, ez = mx, my, mz
    reach = abs(gx - mx) + abs(gy - my) + abs(gz - mz)
    adjacent = _steps_to(kinds, origin, ex, ey, ez, gx, gy, gz)
    if adjacent == OUTSIDE:
        return LEFT_REGION
    if adjacent and length < 2 * reach + 6:
        if length + 1 > PATH_ROWS:
            return NO_ROUTE
        if start + length == path.shape[0]:  # the buffer's end: the path back to its first row
            path[:length] = path[start:start + length].copy()
            start = v[PATH_START] = 0
        path[start + length, 0], path[start + length, 1], path[start + length, 2] = gx, gy, gz
        v[PATH_LENGTH] = length + 1
        return PLAYED
    return find_path(v, path, memo, gx, gy, gz)


@jit
def next_cell(v: np.ndarray, t: np.ndarray, path: np.ndarray, kinds: np.ndarray, origin: np.ndarray,
              ground: np.ndarray, words: np.ndarray, memo: Memo) -> tuple[int, bool, int, int, int]:
    """(code, stepped, cell): minotaur.next_cell for one tick of a walking Minotaur."""
    v[STRIDE] += MINOTAUR_SEEING_PACE if t[T_SEES] else MINOTAUR_PACE
    if v[STRIDE] < QUARTERS:
        return PLAYED, False, 0, 0, 0
    v[STRIDE] -= QUARTERS
    if t[T_PLAN] == PATHFIND:
        gx, gy, gz = t[T_TARGET], t[T_TARGET + 1], t[T_TARGET + 2]
    else:
        code, gx, gy, gz = _chase_goal(v, t, kinds, origin, ground, words)
        if code != PLAYED:
            return code, False, 0, 0, 0
    if gx == v[MINOTAUR] and gy == v[MINOTAUR + 1] and gz == v[MINOTAUR + 2]:
        return PLAYED, False, 0, 0, 0
    same_goal = v[HAS_GOAL] and v[GOAL] == gx and v[GOAL + 1] == gy and v[GOAL + 2] == gz
    if not same_goal or v[PATH_LENGTH] == 0:
        code = _route(v, path, kinds, origin, gx, gy, gz, memo)
        if code != PLAYED:
            return code, False, 0, 0, 0
        v[GOAL], v[GOAL + 1], v[GOAL + 2], v[HAS_GOAL] = gx, gy, gz, 1
    if v[PATH_LENGTH] == 0:
        return UNPORTED, False, 0, 0, 0
    at = v[PATH_START]
    v[PATH_START], v[PATH_LENGTH] = at + 1, v[PATH_LENGTH] - 1
    return PLAYED, True, path[at, 0], path[at, 1], path[at, 2]
