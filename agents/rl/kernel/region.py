"""A finite piece of the labyrinth as one dense array: what the numba kernel reads instead of the World.

``region_of`` lays one out from the World's chunks (maze.generate_chunk: the engine's own bytes); the vector env's
rows are laid by maze.py in numba, the same bytes, at first only the chunks near the ground (STAGES), then the
chunks the game reads (WANTED): a chunk not laid yet is UNLAID, which every check reads as outside the region
(``holds``, walk.cell, astar), marking it needed. The kernel
reads ``kinds[z - z0, y - y0, x - x0]``; a cell whose index falls outside the array's shape is outside the region,
and a search or move that needs one says so (astar.LEFT_REGION) so that the env asks the Python engine instead.
Cells outside the cube are ROCK, as ``World.cell`` says, so a region may reach past the cube's faces.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from labyrinth.engine.constants import CHUNK
from labyrinth.engine.geometry import Pos
from labyrinth.engine.presets import Bounds
from labyrinth.engine.world import World

from .jit import jit

# The region around a hunting ground. Measured (2,000 random pairs of Minotaur-open cells of the ground on
# each of tiny and small, 40 seeds, find_path on a fresh World): the exact A* reads cells up to 13 (tiny) and
# 19 (small) steps beyond the ground's sides, and expands cells up to 3 levels above or below it, because its
# estimate counts a level as cheap. With 2 chunks and 3 levels none of tiny's searches and 4 of small's 2,000
# leave that region (2 levels: 12 and 73; 3 chunks: 0 and 3). But games go further than searches between the
# ground's cells: a user walking at random leaves the ground, and a Minotaur paths back to it from out there.
# Measured on the vector env (256 envs, 300 steps of random actions, seed 0), the games handed to the engine for
# leaving the region, with 2, 4 and 6 chunks around the ground: Stones-Tiny 199, 38 and 5; Minotaur-Tiny-Random
# 306, 179 and 88 (its random user walks far, and its Minotaur's searches from out there reach further still);
# more levels changed nothing. Six chunks: a row of tiny holds 100 KB of
# cells, and as much again twice in the user's memory of them (user_memory.py); 1,024 envs of User-Tiny peaked at
# 633 MB (393 with 2 chunks), of User-Small at 790 (466). Laid in stages (below), the short games pay nothing for it.
MARGIN_CHUNKS = 6
MARGIN_LEVELS = 3
# The Minotaur's tasks keep no memory of the user's (user_memory.py), and their random user walks furthest: their
# region reaches twice as far. Measured (Minotaur-Tiny-Random-v1, 1,024 envs, 300 steps of random actions, seed 7):
# 282 games handed to the engine with 6 chunks, 59 with 12; 8.0k against 15.1k steps a CPU second, and a peak of
# 823 against 767 MB (a game on the engine holds more than the wider region's cells).
MINOTAUR_MARGIN_CHUNKS = 12
# What a game's region is laid in, stage by stage (stages(), StateRows.lay_region, lay_more; maze.lay's ``within``
# and ``beyond``), each as chunks and levels around the ground: at its start the ground's chunks and one chunk and
# one level around them, where short games stay; then the reach of the A* between the ground's cells (above); then
# halfway out; then six chunks, the user's tasks' whole region; a wider one goes on three chunks a stage. After the
# start a game lays what it reads rather than stages: before each turn the chunks within a chunk and a level of its
# user and Minotaur (StateRows.lay_near), and after a turn, an observation or a mask that fell back on chunks not laid
# the chunks its checks marked (WANTED) and those near them (StateRows.lay_wanted; KernelSteps.step plays the turn
# again, or observes again). Only a fall that marked nothing (a read past the region's box, or a fall of another
# kind) lays the next stage. Measured (1,024 envs, 60 steps of random actions, bench/rl/vector_bench.py): laying by
# stages cost User-Tiny 23.9 us a step and Minotaur-Tiny-Random 35.2, laying what the games read about 13 and 16;
# a first stage of the ground alone, or of its own levels, made the steps' falls and replays cost more than it saved.
STAGES = ((1, 1), (2, 3), (4, 3), (6, 3), (9, 3))
UNLAID = 255  # the kind of every cell of a chunk not laid yet: the kernel reads it as outside the region (holds)
# An unlaid chunk a check found the kernel needs (``want``): its first cell is marked so, the rest stay UNLAID, and the
# chunk still reads as not laid (``unlaid``). After a turn, an observation or a mask that fell back on the chunks it
# needed, the step lays the marked ones (StateRows.lay_wanted) and plays it again: a game lays the chunks it reads,
# about fourteen on tiny against the hundred or more of a stage around the ground.
WANTED = 254


@dataclass(frozen=True, slots=True)
class Region:
    """The kinds of a box of cells, ``kinds[z - z0, y - y0, x - x0]`` (uint8, engine.cells' kinds), and
    the box's first cell ``origin`` = (x0, y0, z0), on a chunk's corner."""

    kinds: np.ndarray
    origin: Pos

    def contains(self, pos: Pos) -> bool:
        levels, rows, cols = self.kinds.shape
        x0, y0, z0 = self.origin
        return 0 <= pos[0] - x0 < cols and 0 <= pos[1] - y0 < rows and 0 <= pos[2] - z0 < levels


def stages(margin: int = MARGIN_CHUNKS) -> tuple[tuple[int, int], ...]:
    """The stages (chunks, levels around the ground) a region of ``margin`` chunks is laid in, the last its whole."""
    return (*(stage for stage in STAGES if stage[0] < margin), (margin, MARGIN_LEVELS))


def around(ground: Bounds, chunks: int = MARGIN_CHUNKS, levels: int = MARGIN_LEVELS) -> Bounds:
    """The chunk-aligned box of ``ground`` widened by ``chunks`` chunks on each side and ``levels``
    levels above and below."""
    first_cx, first_cy = ground.x0 // CHUNK - chunks, ground.y0 // CHUNK - chunks
    last_cx, last_cy = ground.last[0] // CHUNK + chunks, ground.last[1] // CHUNK + chunks
    return Bounds(first_cx * CHUNK, first_cy * CHUNK, ground.z0 - levels, (last_cx - first_cx + 1) * CHUNK,
                  (last_cy - first_cy + 1) * CHUNK, ground.levels + 2 * levels)


@jit
def unlaid(kind: int) -> bool:
    """Whether a cell's kind says its chunk is not laid yet (UNLAID, or marked WANTED)."""
    return kind >= WANTED


@jit
def want(kinds: np.ndarray, level: int, row: int, col: int) -> None:
    """Mark the chunk of the region's cell (level, row, col), not laid yet, as needed (WANTED): its first cell."""
    kinds[level, row - row % CHUNK, col - col % CHUNK] = WANTED


@jit
def holds(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int, margin: int) -> bool:
    """Whether the region holds every cell within ``margin`` of (x, y) on level z: inside its box, in chunks
    laid. A chunk is laid whole, so one cell of each chunk the square touches tells (its first: the box starts
    on a chunk's corner). Every chunk of the square not laid yet is marked needed (``want``)."""
    levels, rows, cols = kinds.shape
    level, west, south = z - origin[2], x - margin - origin[0], y - margin - origin[1]
    east, north = x + margin - origin[0], y + margin - origin[1]
    if not (0 <= west and east < cols and 0 <= south and north < rows and 0 <= level < levels):
        return False
    return laid_within(kinds, level, west, south, east, north)


@jit
def laid_within(kinds: np.ndarray, level: int, west: int, south: int, east: int, north: int) -> bool:
    """Whether every chunk of the region's level ``level`` that the cells from (west, south) to (east, north) touch
    (indices into the region, inside its box) is laid; each one not laid yet is marked needed (``want``)."""
    laid = True
    for row in range(south // CHUNK, north // CHUNK + 1):
        for col in range(west // CHUNK, east // CHUNK + 1):
            if unlaid(kinds[level, row * CHUNK, col * CHUNK]):
                want(kinds, level, row * CHUNK, col * CHUNK)
                laid = False
    return laid


@jit
def mark_near(kinds: np.ndarray, origins: np.ndarray, figures: np.ndarray, asked: np.ndarray,
              marked: np.ndarray) -> None:
    """For each asked row, every chunk not laid yet within a chunk and a level of the chunk where ``figures[r]`` (an
    x, y, z) stands marked needed (WANTED), and ``marked[r]`` set when there was one: where the row's next turn
    may read, laid before it rather than after a fall."""
    levels, rows, cols = kinds.shape[1:]
    for r in range(kinds.shape[0]):
        if not asked[r]:
            continue
        level = figures[r, 2] - origins[r, 2]
        row, col = (figures[r, 1] - origins[r, 1]) // CHUNK, (figures[r, 0] - origins[r, 0]) // CHUNK
        for near_level in range(max(level - 1, 0), min(level + 2, levels)):
            for near_row in range(max(row - 1, 0), min(row + 2, rows // CHUNK)):
                for near_col in range(max(col - 1, 0), min(col + 2, cols // CHUNK)):
                    if unlaid(kinds[r, near_level, near_row * CHUNK, near_col * CHUNK]):
                        want(kinds[r], near_level, near_row * CHUNK, near_col * CHUNK)
                        marked[r] = True


def region_of(world: World, box: Bounds) -> Region:
    """The cells of ``box`` (chunk-aligned: ``around``), every chunk of it generated by ``world`` if it
    was not already."""
    if box.x0 % CHUNK or box.y0 % CHUNK or box.width % CHUNK or box.height % CHUNK:
        raise ValueError(f"{box} does not start and end on chunk borders")
    kinds = np.empty((box.levels, box.height, box.width), dtype=np.uint8)
    first_cx, first_cy = box.x0 // CHUNK, box.y0 // CHUNK
    for level, z in enumerate(box.z_range):
        for row in range(box.height // CHUNK):
            for col in range(box.width // CHUNK):
                cells = world.chunk_cells(first_cx + col, first_cy + row, z)
                kinds[level, row * CHUNK:(row + 1) * CHUNK, col * CHUNK:(col + 1) * CHUNK] = (
                    np.frombuffer(cells, dtype=np.uint8).reshape(CHUNK, CHUNK))
    return Region(kinds, (box.x0, box.y0, box.z0))
