"""The way between two far cells, chunk by chunk: a corridor for PATHFIND's search.

The maze guarantees (maze.py) that every chunk's open cells are joined inside
the chunk, that each chunk is joined to its four neighbours on its level by a
floor opening, and that a ramp joins level z to z + 1 in every chunk with
``cx + cy + z`` even. So a walk from chunk to chunk that climbs where a ramp
is and otherwise steps sideways towards the goal always exists, is found with
no search and no chunk generated, and the cells of its chunks hold a path
between any two of their Minotaur-open cells.
"""

from __future__ import annotations

from .constants import CHUNK, CHUNKS_PER_SIDE
from .geometry import Pos
from .maze import has_ramp_up
from .world import ChunkKey

_SIDEWAYS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def chunk_of(pos: Pos) -> ChunkKey:
    return (pos[0] // CHUNK, pos[1] // CHUNK, pos[2])


def chunk_walk(start: ChunkKey, goal: ChunkKey) -> list[ChunkKey]:
    """Chunks from ``start`` to ``goal``, each a neighbour of the one before:
    through a ramp whenever one leads towards the goal's level, else one chunk
    along the wider horizontal gap (or aside, to reach a chunk with a ramp)."""
    cx, cy, z = start
    gx, gy, gz = goal
    walk = [start]
    while (cx, cy, z) != goal:
        if z < gz and has_ramp_up(cx, cy, z):
            z += 1
        elif z > gz and has_ramp_up(cx, cy, z - 1):
            z -= 1
        elif abs(gx - cx) >= abs(gy - cy) and cx != gx:
            cx += 1 if gx > cx else -1
        elif cy != gy:
            cy += 1 if gy > cy else -1
        else:  # above or below the goal's chunk, with the ramp next door: any step aside changes that
            cx += 1 if cx + 1 < CHUNKS_PER_SIDE else -1
        walk.append((cx, cy, z))
    return walk


def corridor(start: Pos, goal: Pos) -> frozenset[ChunkKey]:
    """The chunks of the walk from ``start``'s chunk to ``goal``'s, widened by
    their neighbours on each level so that the search inside has room to cut corners."""
    chunks = set()
    for cx, cy, z in chunk_walk(chunk_of(start), chunk_of(goal)):
        chunks.add((cx, cy, z))
        for dx, dy in _SIDEWAYS:
            if 0 <= cx + dx < CHUNKS_PER_SIDE and 0 <= cy + dy < CHUNKS_PER_SIDE:
                chunks.add((cx + dx, cy + dy, z))
    return frozenset(chunks)
