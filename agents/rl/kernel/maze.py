"""A region's cells (region.py) generated in numba: engine.maze's chunks and ramps ported draw for draw, laid
straight into the rows' kinds array, for the vector env's every new game.

Each chunk is ``maze.generate_chunk``: its generator ``derived(seed, "chunk", cx, cy, z)``, the spanning tree's
depth-first search (a start below 16, then at each maze cell a pick among its unvisited neighbours in the
engine's order, drawn only when there are two or more), the loops' and crawlways' random() in wall order, the
east then north openings a chunk owns (none on the cube's last column or row), and the ramp
``chunk_ramp`` puts there: its cell drawn from ``derived(seed, "ramp", cx, cy, z)`` of the ramp's lower
chunk, one generator for the two chunks it joins (as World remembers it). A chunk outside the cube is ROCK,
as World.chunk_cells gives it. The engine's tables (the neighbours' order, the walls, the openings) are read
from engine.maze itself, so the order of the draws is its own.

``lay`` lays a box of a region (a stage of it, or the whole); ``lay_wanted`` the chunks the kernel's checks marked
needed (region.WANTED) and those near them, as a game reads them.

Nothing stays in Python per region: its generators' strings are the seed's digits written in numba
(seeding.decimal) before each generator's end of string, which with what chunks a box holds and which ramp
each chunk shows depends on the box only and is worked out once per box; they are seeded _GROUP at a time
(seeding.seed_columns: the SHA-512 and init_by_array in numba, twisted only as far as the chunk draws).
bench/rl/kernel_maze_bench.py: 1.3 to 1.5 ms a tiny region (450 generators) and 3 a small one (896), against
4 and 7 to 8 with the strings and digests in Python, and the World's 12 to 15 and 24 to 28.

Without numba the functions below are plain Python (the same cells, far slower than the engine):
``jit.COMPILED`` says which, for the rows to choose (state.py). numba's disk cache of this module holds the draws
and the seeding it calls but is checked against this file alone: after editing mt.py, seeding.py or sha512.py,
delete its maze.*.nbi and .nbc files, in the __pycache__ beside the imported maze.py (seen: a region test kept
passing on a broken seeding.py, whose own test failed).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from labyrinth.engine import maze
from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import (
    CHUNK,
    CHUNKS_PER_SIDE,
    CRAWLWAY_CHANCE,
    EXTRA_BORDER_CHANCE,
    LOOP_CHANCE,
    WORLD_LEVELS,
)
from labyrinth.engine.presets import Bounds

from .jit import jit
from .mt import randbelow, random
from .region import UNLAID, WANTED
from .seeding import DIGITS, decimal, scratch, seed_columns

_SIDE = CHUNK // 2  # maze cells per chunk side
_CELLS = _SIDE * _SIDE
# Each maze cell's neighbours and the walls between, in engine.maze's order (-1 past the last).
_NEXT = np.full((_CELLS, 4), -1, dtype=np.int64)
_WALL = np.full((_CELLS, 4), -1, dtype=np.int64)
for _c, _around in enumerate(maze._NEIGHBOURS):
    for _k, (_n, _w) in enumerate(_around):
        _NEXT[_c, _k], _WALL[_c, _k] = _n, _w
_WALLS = np.array(maze._WALLS, dtype=np.int64)
_BLANK = np.frombuffer(bytes(maze._BLANK), dtype=np.uint8).reshape(CHUNK, CHUNK).copy()
_OPENINGS = np.array([[maze._east_opening(k) for k in range(_SIDE)], [maze._north_opening(k) for k in range(_SIDE)]],
                     dtype=np.int64)
_MAZE_CELL = np.array([[maze._maze_cell(i, j) for j in range(_SIDE)] for i in range(_SIDE)], dtype=np.int64)
_GROUP = 64  # generators seeded side by side (seeding.seed_columns)
# The chunks laid with each one a check marked needed (lay_wanted): those within this many levels and chunks of it, not
# laid yet. Measured (User-Tiny-v1, 1,024 envs, 60 steps): with the marked chunk alone a step played its fallen turns
# again up to 27 times (the A* meets the next chunk not laid yet), 5 to 13 mostly; with a level and a chunk around
# it, 2 to 3.
NEAR_WANTED = (1, 1)
_PLAN = 7  # a chunk's plan: level, row, col (its place in the box, in chunks), cx, cy, its ramp's slot or -1, kind


@cache
def _plan(box: Bounds, within: Bounds | None = None, beyond: Bounds | None = None
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The generators a region of ``box`` needs, as the ends of their strings (after the seed), its ramps'
    first (each once), then its chunks': the ends' UTF-8 bytes one after the other and where each starts and
    stops; a row of _PLAN per chunk inside the cube; and the place (level, row, col) of each chunk of the box
    outside the cube (ROCK). Only the chunks within ``within`` and not ``beyond`` (chunk-aligned boxes within
    ``box``, either None for no bound), each with the one ramp it shows."""
    _chunk_aligned(box)
    chunks: list[str] = []
    ramps: dict[tuple[int, int, int], int] = {}
    plan: list[tuple[int, ...]] = []
    outside: list[tuple[int, int, int]] = []
    first_cx, first_cy = box.x0 // CHUNK, box.y0 // CHUNK
    for level, z in enumerate(box.z_range):
        for row in range(box.height // CHUNK):
            for col in range(box.width // CHUNK):
                cx, cy = first_cx + col, first_cy + row
                if not (0 <= cx < CHUNKS_PER_SIDE and 0 <= cy < CHUNKS_PER_SIDE and 0 <= z < WORLD_LEVELS):
                    outside.append((level, row, col))
                    continue
                if within is not None and not within.contains(cx * CHUNK, cy * CHUNK, z):
                    continue
                if beyond is not None and beyond.contains(cx * CHUNK, cy * CHUNK, z):
                    continue
                chunks.append(f":chunk:{cx}:{cy}:{z}")
                slot, kind = -1, 0
                if maze.has_ramp_up(cx, cy, z):
                    slot, kind = ramps.setdefault((cx, cy, z), len(ramps)), RAMP_UP
                elif z > 0 and maze.has_ramp_up(cx, cy, z - 1):
                    slot, kind = ramps.setdefault((cx, cy, z - 1), len(ramps)), RAMP_DOWN
                plan.append((level, row, col, cx, cy, slot, kind))
    ends = [end.encode() for end in (*(f":ramp:{cx}:{cy}:{z}" for cx, cy, z in ramps), *chunks)]
    bounds = np.zeros(len(ends) + 1, dtype=np.int64)
    bounds[1:] = np.cumsum([len(end) for end in ends])
    return (np.frombuffer(b"".join(ends), dtype=np.uint8), bounds, np.array(plan, dtype=np.int64).reshape(-1, _PLAN),
            np.array(outside, dtype=np.int64).reshape(-1, 3))


def lay(seeds: Sequence[int], box: Bounds, out: np.ndarray, within: Bounds | None = None,
        beyond: Bounds | None = None) -> None:
    """``out[i]`` (uint8, (levels, height, width) of ``box``, chunk-aligned) set to the cells of ``box`` in the
    labyrinth of ``seeds[i]``: what region.region_of gives from a World of that seed, byte for byte. With
    ``within`` (a chunk-aligned box), only the chunks within it are laid. Without ``beyond``, ``out`` is laid
    afresh: every chunk of the cube not laid is region.UNLAID; with it, the chunks within ``beyond`` (laid
    before) and every chunk not within ``within`` are left as they are. Without numba, the digests' additions
    wrap on numpy's scalars, which warn unless told not to (sha512.py)."""
    if out.shape != (len(seeds), box.levels, box.height, box.width):
        raise ValueError(f"out is {out.shape}, not {len(seeds)} regions of {box}")
    for bound in (within, beyond):
        if bound is not None:
            _chunk_aligned(bound)
    ends, bounds, plan, outside = _plan(box, within, beyond)
    work = _scratch(_longest(bounds))
    with np.errstate(over="ignore"):
        _lay(np.array(seeds, dtype=np.int64), ends, bounds, plan, out, work, beyond is None, outside,
             np.arange(len(bounds) - 1, dtype=np.int64))


def lay_wanted(seed: int, box: Bounds, out: np.ndarray, near: tuple[int, int] = NEAR_WANTED) -> int:
    """The chunks of ``out`` (one region of ``box``, as ``lay`` lays it, of the labyrinth of ``seed``) that a check
    marked needed (region.WANTED) laid, and those not laid yet within ``near`` (levels, chunks) of them, with the
    ramps they show; how many chunks."""
    ends, bounds, plan, outside, index, work = _whole(box)
    chosen = _wanted(out, plan, index, len(bounds) - 1 - len(plan), near[0], near[1])
    if len(chosen):
        with np.errstate(over="ignore"):
            _lay(np.array([seed], dtype=np.int64), ends, bounds, plan, out[np.newaxis], work, False, outside, chosen)
    return int((chosen >= len(bounds) - 1 - len(plan)).sum())


def _longest(bounds: np.ndarray) -> int:
    """Bytes of the longest of _plan's strings with the longest seed before it: what the scratch must hold."""
    return DIGITS + int(np.diff(bounds).max(initial=0))


@cache
def _scratch(longest: int) -> tuple[np.ndarray, ...]:
    """seeding.scratch's arrays for _GROUP strings of up to ``longest`` bytes, made once: every lay overwrites what
    it reads of them (a region's generators are laid one call at a time, in this process alone)."""
    return scratch(_GROUP, longest)


@cache
def _whole(box: Bounds) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                 tuple[np.ndarray, ...]]:
    """``_plan(box)`` of the whole box, each chunk's row in its plan by its place (level, row, col) in the box (-1
    outside the cube), and the scratch its strings need: what lay_wanted reads, worked out once a box."""
    ends, bounds, plan, outside = _plan(box)
    index = np.full((box.levels, box.height // CHUNK, box.width // CHUNK), -1, dtype=np.int64)
    index[plan[:, 0], plan[:, 1], plan[:, 2]] = np.arange(len(plan))
    return ends, bounds, plan, outside, index, _scratch(_longest(bounds))


@jit
def _wanted(cells: np.ndarray, plan: np.ndarray, index: np.ndarray, ramps: int, near_levels: int,
            near_chunks: int) -> np.ndarray:
    """The generators (as _plan of the whole box numbers them: its ramps', then its chunks') that lay the chunks of
    ``cells`` marked WANTED and the chunks not laid yet within ``near_levels`` levels and ``near_chunks`` chunks of
    them: the ramps those chunks show (each once), then the chunks."""
    levels, rows, cols = index.shape
    take = np.zeros((levels, rows, cols), dtype=np.bool_)
    for level in range(levels):
        for row in range(rows):
            for col in range(cols):
                if cells[level, row * CHUNK, col * CHUNK] != WANTED:
                    continue
                for near_level in range(max(level - near_levels, 0), min(level + near_levels + 1, levels)):
                    for near_row in range(max(row - near_chunks, 0), min(row + near_chunks + 1, rows)):
                        for near_col in range(max(col - near_chunks, 0), min(col + near_chunks + 1, cols)):
                            if cells[near_level, near_row * CHUNK, near_col * CHUNK] >= WANTED:
                                take[near_level, near_row, near_col] = True
    chosen = np.empty(ramps + plan.shape[0], dtype=np.int64)
    ramp_taken = np.zeros(max(ramps, 1), dtype=np.bool_)
    count = 0
    for level in range(levels):
        for row in range(rows):
            for col in range(cols):
                c = index[level, row, col]
                if c >= 0 and take[level, row, col] and plan[c, 5] >= 0 and not ramp_taken[plan[c, 5]]:
                    ramp_taken[plan[c, 5]] = True
                    chosen[count] = plan[c, 5]
                    count += 1
    for level in range(levels):
        for row in range(rows):
            for col in range(cols):
                c = index[level, row, col]
                if c >= 0 and take[level, row, col]:
                    chosen[count] = ramps + c
                    count += 1
    return chosen[:count].copy()


def _chunk_aligned(bounds: Bounds) -> None:
    """ValueError unless ``bounds`` starts and ends on chunk borders (as every box a region is laid by must)."""
    if bounds.x0 % CHUNK or bounds.y0 % CHUNK or bounds.width % CHUNK or bounds.height % CHUNK:
        raise ValueError(f"{bounds} does not start and end on chunk borders")



@jit
def _lay(seeds: np.ndarray, ends: np.ndarray, bounds: np.ndarray, plan: np.ndarray, out: np.ndarray,
         work: tuple[np.ndarray, ...], fresh: bool, outside: np.ndarray, chosen: np.ndarray) -> None:
    """Region i's generators ``chosen`` (indices into _plan's ends, its ramps' before the chunks that show them),
    ``f"{seeds[i]}{end}"``, are seeded _GROUP at a time (seeding.seed_columns), then drawn from one by one.
    ``fresh``: the region starts UNLAID, its chunks ``outside`` the cube ROCK; else only the chosen chunks are
    written."""
    generators = bounds.shape[0] - 1
    ramps = generators - plan.shape[0]
    ramp_cells = np.empty(ramps, dtype=np.int64)
    seed = np.empty(DIGITS, dtype=np.uint8)
    text = np.empty(_GROUP * work[0].shape[0], dtype=np.uint8)  # a group's strings, each fits the scratch's
    starts = np.empty(_GROUP + 1, dtype=np.int64)
    carving = np.empty(_CELLS + 4, dtype=np.int64)  # _carve's scratch
    for i in range(out.shape[0]):
        if fresh:
            out[i] = UNLAID
            for k in range(outside.shape[0]):
                level, row, col = outside[k, 0], outside[k, 1], outside[k, 2]
                out[i, level, row * CHUNK:(row + 1) * CHUNK, col * CHUNK:(col + 1) * CHUNK] = ROCK
        digits = decimal(seeds[i], seed)
        for first in range(0, chosen.shape[0], _GROUP):
            group = min(_GROUP, chosen.shape[0] - first)
            starts[0] = 0
            for g in range(group):  # the group's strings: the seed's digits, then each end
                e = chosen[first + g]
                at, end = starts[g], bounds[e + 1] - bounds[e]
                text[at:at + digits] = seed[:digits]
                text[at + digits:at + digits + end] = ends[bounds[e]:bounds[e + 1]]
                starts[g + 1] = at + digits + end
            states = seed_columns(text, starts, group, work)
            for g in range(group):
                _draw(chosen[first + g] - ramps, states[:, g], plan, ramp_cells, out[i], carving)


@jit
def _draw(c: int, state: np.ndarray, plan: np.ndarray, ramp_cells: np.ndarray, cells: np.ndarray,
          carving: np.ndarray) -> None:
    """Generator ``c`` of a region (a ramp's for c < 0: slot c + len(ramp_cells), as maze.ramp_cell draws it;
    else chunk c's, carved into its place in ``cells`` with the ramp it shows)."""
    if c < 0:
        x = randbelow(state, _SIDE)
        ramp_cells[c + ramp_cells.shape[0]] = _MAZE_CELL[x, randbelow(state, _SIDE)]
        return
    level, row, col, slot = plan[c, 0], plan[c, 1], plan[c, 2], plan[c, 5]
    chunk = cells[level, row * CHUNK:(row + 1) * CHUNK, col * CHUNK:(col + 1) * CHUNK]
    _carve(state, plan[c, 3], plan[c, 4], chunk, carving)
    if slot >= 0:
        chunk[ramp_cells[slot] // CHUNK, ramp_cells[slot] % CHUNK] = plan[c, 6]


@jit
def _carve(state: np.ndarray, cx: int, cy: int, cells: np.ndarray, scratch: np.ndarray) -> None:
    """maze.generate_chunk but its ramp: ``cells`` (CHUNK x CHUNK, from the south row) from its generator's
    ``state``, drawn as the engine draws; ``scratch``: _CELLS + 4 int64s (a region's chunks allocate nothing)."""
    cells[:] = _BLANK
    # The spanning tree: a stack of maze cells, a bit per visited one.
    stack, options = scratch[:_CELLS], scratch[_CELLS:]
    stack[0] = randbelow(state, _CELLS)
    visited, depth = 1 << stack[0], 1
    while depth:
        top = stack[depth - 1]
        count = 0
        for k in range(4):
            n = _NEXT[top, k]
            if n >= 0 and not (visited >> n) & 1:
                options[count] = k
                count += 1
        if count == 0:
            depth -= 1
            continue
        k = options[randbelow(state, count)] if count > 1 else options[0]
        n, w = _NEXT[top, k], _WALL[top, k]
        cells[w // CHUNK, w % CHUNK] = FLOOR
        visited |= 1 << n
        stack[depth] = n
        depth += 1
    # Loops, some of them crawlways.
    for w in _WALLS:
        if cells[w // CHUNK, w % CHUNK] == ROCK and random(state) < LOOP_CHANCE:
            cells[w // CHUNK, w % CHUNK] = CRAWLWAY if random(state) < CRAWLWAY_CHANCE else FLOOR
    # The east column's and north row's openings, where the chunk owns them.
    for side in range(2):
        if (cx if side == 0 else cy) >= CHUNKS_PER_SIDE - 1:
            continue
        first = randbelow(state, _SIDE)
        at = _OPENINGS[side, first]
        cells[at // CHUNK, at % CHUNK] = FLOOR
        if random(state) < EXTRA_BORDER_CHANCE:
            at = _OPENINGS[side, (first + 1 + randbelow(state, _SIDE - 1)) % _SIDE]
            cells[at // CHUNK, at % CHUNK] = CRAWLWAY if random(state) < CRAWLWAY_CHANCE else FLOOR
