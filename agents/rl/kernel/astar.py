"""The Minotaur's A* over a region's dense cells (region.py), for many envs in one call: engine.pathfinding's
``find_path`` ported cell for cell, compiled by numba when the [fast] extra is installed.

What makes the paths the same: the same estimate (dz + max(dx + dy, 2 dz - 2)); the frontier ordered on
(f, h, cell id), packed into one int64 so that ties break on geometry.cell_id as the engine's heap does
(no two entries are equal: a cell is pushed again only at a lower cost, so the order in which a cell's
neighbours are pushed cannot change a path; they are pushed in geometry.HORIZONTAL's order, then the ramp,
as the engine does); a near target (EXACT_REACH_*) searched over every cell with
PATH_BUDGET expansions, and otherwise, or when the budget runs out, searched inside chunk_route's corridor,
whose chunks are marked here by the same walk. The engine's own caches (world.routes, the moves tables) hold
what its searches found and so never change an answer.

A search that needs a cell outside the region answers LEFT_REGION rather than guess: that env asks the
engine. Without numba the functions below are plain Python (the same answers, far slower); ``jit.COMPILED``
says which, for the vector env to choose.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from labyrinth.engine.cells import FLOOR, RAMP_DOWN, RAMP_UP
from labyrinth.engine.constants import CHUNK, CHUNKS_PER_SIDE, EXACT_REACH_LEVELS, EXACT_REACH_STEPS, PATH_BUDGET
from labyrinth.engine.constants import WORLD_LEVELS as _LEVELS
from labyrinth.engine.geometry import X_SHIFT, Y_SHIFT, Pos

from .jit import jit
from .region import Region, unlaid, want
from .ways import DX, DY

# What find_paths writes for an env instead of a path's length, which is 0 or more.
LEFT_REGION = -1  # the search needs a cell the region does not hold: ask the engine
NOT_OPEN = -2  # an end is rock or a crawlway (find_path raises ValueError)
NO_PATH = -3  # the corridor holds no path (find_path raises ValueError: the maze would be broken)
TOO_LONG = -4  # the path is longer than the row given for it
_BUDGET_SPENT = -5  # the exact search expanded PATH_BUDGET cells: the corridor's turn, as in find_path

# The frontier's key: f, h and the cell id in one int64, ordered as the tuple (f, h, id) is.
_H_SHIFT, _F_SHIFT = 26, 37  # ids < 2 ** 26 (x < 512); h < 2 ** 11 (at most 199 + 798 in the cube); f < 2 ** 26
_ID_MASK, _H_MASK = (1 << _H_SHIFT) - 1, (1 << (_F_SHIFT - _H_SHIFT)) - 1




@jit
def _estimate(x: int, y: int, z: int, gx: int, gy: int, gz: int) -> int:
    """pathfinding._search's admissible estimate: each level a ramp step, consecutive ramps two apart."""
    dz = abs(z - gz)
    return dz + max(abs(x - gx) + abs(y - gy), 2 * dz - 2)


@jit
def _push(heap: np.ndarray, size: int, key: int) -> np.ndarray:
    """Add ``key`` to the binary min-heap ``heap[:size]``; the heap, a larger copy when it was full."""
    if size == heap.shape[0]:
        grown = np.empty(2 * size, dtype=np.int64)
        grown[:size] = heap
        heap = grown
    at = size
    while at > 0:
        parent = (at - 1) >> 1
        if heap[parent] <= key:
            break
        heap[at] = heap[parent]
        at = parent
    heap[at] = key
    return heap


@jit
def _pop(heap: np.ndarray, size: int) -> int:
    """Remove and return the least key of ``heap[:size]`` (size > 0)."""
    least = heap[0]
    size -= 1
    last = heap[size]
    at = 0
    while True:
        child = 2 * at + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if last <= heap[child]:
            break
        heap[at] = heap[child]
        at = child
    heap[at] = last
    return least


@jit
def _mark_corridor(origin: np.ndarray, start: np.ndarray, goal: np.ndarray, chunk_mark: np.ndarray,
                   stamp: int) -> bool:
    """chunk_route.corridor's chunks, marked ``stamp`` in ``chunk_mark`` (by region level, chunk row, chunk
    column); False when one of them lies outside the region."""
    levels, rows, cols = chunk_mark.shape
    first_cx, first_cy, z0 = origin[0] // CHUNK, origin[1] // CHUNK, origin[2]
    cx, cy, z = start[0] // CHUNK, start[1] // CHUNK, start[2]
    gx, gy, gz = goal[0] // CHUNK, goal[1] // CHUNK, goal[2]
    while True:
        for side in range(5):  # the walk's chunk, then its neighbours in chunk_route._SIDEWAYS's order
            dx, dy = (0, 1, -1, 0, 0)[side], (0, 0, 0, 1, -1)[side]
            if not (0 <= cx + dx < CHUNKS_PER_SIDE and 0 <= cy + dy < CHUNKS_PER_SIDE):
                continue
            level, row, col = z - z0, cy + dy - first_cy, cx + dx - first_cx
            if not (0 <= level < levels and 0 <= row < rows and 0 <= col < cols):
                return False
            chunk_mark[level, row, col] = stamp
        if cx == gx and cy == gy and z == gz:
            return True
        if z < gz and z < _LEVELS - 1 and (cx + cy + z) % 2 == 0:  # maze.has_ramp_up(cx, cy, z)
            z += 1
        elif z > gz and (cx + cy + z - 1) % 2 == 0:  # has_ramp_up(cx, cy, z - 1): z - 1 < _LEVELS - 1 here
            z -= 1
        elif abs(gx - cx) >= abs(gy - cy) and cx != gx:
            cx += 1 if gx > cx else -1
        elif cy != gy:
            cy += 1 if gy > cy else -1
        else:
            cx += 1 if cx + 1 < CHUNKS_PER_SIDE else -1


@jit
def _search(kinds: np.ndarray, origin: np.ndarray, start: np.ndarray, goal: np.ndarray, budget: int,
            chunk_mark: np.ndarray, corridor: int, stamp: int, scratch: np.ndarray,
            heap: np.ndarray) -> tuple[int, np.ndarray]:
    """pathfinding._search over the region: the goal's flat index once found (``scratch[2]`` then leads back
    from it), _BUDGET_SPENT after ``budget`` expansions (when >= 0), NO_PATH when the frontier empties,
    LEFT_REGION when the engine's search would read a cell outside the region (or in a chunk not laid yet): a
    neighbour's kind, or the cell a ramp leads to once it would be expanded (until then only its key is kept: the
    least such).
    With ``corridor`` > 0, only the chunks marked with it
    in ``chunk_mark`` are entered. ``scratch`` rows, by the region's flat cell index: the ``stamp`` of the
    search that last wrote the cell (each search has its own, so nothing is cleared between searches), its
    best cost, the cell it was reached from. The heap is returned, grown or not, for the next search."""
    levels, rows, cols = kinds.shape
    x0, y0, z0 = origin[0], origin[1], origin[2]
    gx, gy, gz = goal[0], goal[1], goal[2]
    seen, best, came = scratch[0], scratch[1], scratch[2]
    first = ((start[2] - z0) * rows + start[1] - y0) * cols + start[0] - x0
    last = ((gz - z0) * rows + gy - y0) * cols + gx - x0
    h0 = _estimate(start[0], start[1], start[2], gx, gy, gz)
    seen[first], best[first], came[first] = stamp, 0, -1
    start_id = (start[0] << X_SHIFT) | (start[1] << Y_SHIFT) | start[2]
    heap = _push(heap, 0, (h0 << _F_SHIFT) | (h0 << _H_SHIFT) | start_id)
    size, expanded, beyond = 1, 0, -1
    while size > 0:
        key = _pop(heap, size)
        size -= 1
        if 0 <= beyond < key:  # the engine would expand the cell a ramp leads to out of the region now
            return LEFT_REGION, heap
        cid = key & _ID_MASK
        h = (key >> _H_SHIFT) & _H_MASK
        x, y, z = cid >> X_SHIFT, (cid >> Y_SHIFT) & 511, cid & 255
        here = ((z - z0) * rows + y - y0) * cols + x - x0
        if here == last:
            return here, heap
        cost = (key >> _F_SHIFT) - h
        if cost > best[here]:
            continue
        expanded += 1
        if budget >= 0 and expanded > budget:
            return _BUDGET_SPENT, heap
        cost += 1
        kind = kinds[z - z0, y - y0, x - x0]
        for move in range(6):  # HORIZONTAL's four, then a ramp up, then a ramp down
            nx, ny, nz = x, y, z
            if move < 4:
                nx, ny = x + DX[move], y + DY[move]
            elif move == 4 and kind == RAMP_UP:
                nz = z + 1
            elif move == 5 and kind == RAMP_DOWN:
                nz = z - 1
            else:
                continue
            level, row, col = nz - z0, ny - y0, nx - x0
            inside = 0 <= level < levels and 0 <= row < rows and 0 <= col < cols
            if corridor > 0 and not (inside and chunk_mark[level, row // CHUNK, col // CHUNK] == corridor):
                continue  # moves_within: no way into a chunk outside the corridor
            if not inside or unlaid(kinds[level, row, col]):  # a chunk not laid yet is outside the region
                if inside:
                    want(kinds, level, row, col)
                if move < 4:
                    return LEFT_REGION, heap
                nh = _estimate(nx, ny, nz, gx, gy, gz)
                key = ((cost + nh) << _F_SHIFT) | (nh << _H_SHIFT) | (nx << X_SHIFT) | (ny << Y_SHIFT) | nz
                beyond = key if beyond < 0 else min(beyond, key)
                continue
            if move < 4:
                step = kinds[level, row, col]
                if step != FLOOR and step != RAMP_UP and step != RAMP_DOWN:
                    continue
            nxt = (level * rows + row) * cols + col
            if seen[nxt] == stamp and cost >= best[nxt]:
                continue
            seen[nxt], best[nxt], came[nxt] = stamp, cost, here
            nh = _estimate(nx, ny, nz, gx, gy, gz)
            heap = _push(heap, size, ((cost + nh) << _F_SHIFT) | (nh << _H_SHIFT)
                         | (nx << X_SHIFT) | (ny << Y_SHIFT) | nz)
            size += 1
    return (NO_PATH if beyond < 0 else LEFT_REGION), heap


@jit
def _open(kinds: np.ndarray, origin: np.ndarray, pos: np.ndarray) -> int:
    """1 when ``pos`` is a cell the Minotaur can stand in, 0 when not, LEFT_REGION outside the region (or in a chunk
    not laid yet)."""
    level, row, col = pos[2] - origin[2], pos[1] - origin[1], pos[0] - origin[0]
    levels, rows, cols = kinds.shape
    if not (0 <= level < levels and 0 <= row < rows and 0 <= col < cols):
        return LEFT_REGION
    if unlaid(kinds[level, row, col]):
        want(kinds, level, row, col)
        return LEFT_REGION
    kind = kinds[level, row, col]
    return 1 if kind == FLOOR or kind == RAMP_UP or kind == RAMP_DOWN else 0


@jit
def _find_path(kinds: np.ndarray, origin: np.ndarray, start: np.ndarray, goal: np.ndarray, out: np.ndarray,
               chunk_mark: np.ndarray, stamps: np.ndarray, scratch: np.ndarray,
               heap: np.ndarray) -> tuple[int, np.ndarray]:
    """pathfinding.find_path for one env, the path written to ``out``'s first rows: its length or a status.
    ``stamps[0]`` counts the searches made with ``scratch`` and ``chunk_mark``: each marks with its own."""
    for end in (start, goal):
        found = _open(kinds, origin, end)
        if found != 1:
            return (NOT_OPEN if found == 0 else LEFT_REGION), heap
    if start[0] == goal[0] and start[1] == goal[1] and start[2] == goal[2]:
        return 0, heap
    result = _BUDGET_SPENT
    if abs(start[2] - goal[2]) <= EXACT_REACH_LEVELS and (
            abs(start[0] - goal[0]) + abs(start[1] - goal[1]) <= EXACT_REACH_STEPS):
        stamps[0] += 1
        result, heap = _search(kinds, origin, start, goal, PATH_BUDGET, chunk_mark, 0, stamps[0], scratch, heap)
    if result == _BUDGET_SPENT or result == NO_PATH:  # find_path's None: the corridor's turn
        stamps[0] += 1
        if not _mark_corridor(origin, start, goal, chunk_mark, stamps[0]):
            return LEFT_REGION, heap
        result, heap = _search(kinds, origin, start, goal, -1, chunk_mark, stamps[0], stamps[0], scratch, heap)
    if result < 0:
        return result, heap
    came = scratch[2]
    length, here = 0, result
    while came[here] >= 0:
        length += 1
        here = came[here]
    if length > out.shape[0]:
        return TOO_LONG, heap
    rows, cols = kinds.shape[1], kinds.shape[2]
    here = result
    for at in range(length - 1, -1, -1):
        out[at, 0] = origin[0] + here % cols
        out[at, 1] = origin[1] + (here // cols) % rows
        out[at, 2] = origin[2] + here // (cols * rows)
        here = came[here]
    return length, heap


@jit
def find_paths(kinds: np.ndarray, origins: np.ndarray, starts: np.ndarray, goals: np.ndarray,
               out: np.ndarray) -> np.ndarray:
    """find_path for each env i, in one call: the cells after ``starts[i]`` up to ``goals[i]`` into
    ``out[i]``'s first rows, and their count, or a status (LEFT_REGION, NOT_OPEN, NO_PATH, TOO_LONG), as the
    returned ``lengths[i]``. ``kinds``: the envs' regions (env, level, row, column), all of one shape;
    ``origins``, ``starts``, ``goals``: (env, xyz) int64; ``out``: (env, longest path, xyz) int64."""
    envs, levels, rows, cols = kinds.shape
    chunk_mark = np.zeros((levels, rows // CHUNK, cols // CHUNK), dtype=np.int64)
    stamps = np.zeros(1, dtype=np.int64)
    scratch = np.zeros((3, levels * rows * cols), dtype=np.int64)
    heap = np.empty(8 * CHUNK * CHUNK, dtype=np.int64)
    lengths = np.empty(envs, dtype=np.int64)
    for env in range(envs):
        lengths[env], heap = _find_path(kinds[env], origins[env], starts[env], goals[env], out[env], chunk_mark,
                                        stamps, scratch, heap)
    return lengths


def path_in(region: Region, start: Pos, goal: Pos, longest: int = 4096) -> tuple[Pos, ...] | None:
    """find_paths for one query, answered as find_path answers it: the path's cells, or None when the
    region cannot tell (LEFT_REGION, or a path over ``longest`` cells); ValueError where find_path raises."""
    kinds = region.kinds[np.newaxis]
    out = np.empty((1, longest, 3), dtype=np.int64)
    length = int(find_paths(kinds, _rows([region.origin]), _rows([start]), _rows([goal]), out)[0])
    if length == NOT_OPEN:
        raise ValueError(f"{start} or {goal} is rock or a crawlway: the Minotaur cannot stand there")
    if length == NO_PATH:
        raise ValueError(f"the corridor from {start} to {goal} holds no path: the maze is broken")
    if length < 0:
        return None
    return tuple((int(x), int(y), int(z)) for x, y, z in out[0, :length])


def _rows(cells: Sequence[Pos]) -> np.ndarray:
    return np.array(cells, dtype=np.int64).reshape(len(cells), 3)
