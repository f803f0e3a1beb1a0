"""One chunk of one level, generated from the seed alone.

A chunk is CHUNK x CHUNK cells. Maze cells sit at even (x, y) and are always
open; the cells between two maze cells are passages, opened along a random
spanning tree (so the chunk is connected) plus a few extra openings (loops,
some of them crawlways). Each chunk owns its east column and north row: one or
two openings there join it to its neighbours, so every level is connected
without ever looking at another chunk. Crawlways only ever sit on extra
openings, never on the tree or the first border opening, so the Minotaur, who
cannot crawl, can still reach every non-crawlway cell.

Ramps: the pair of levels (z, z+1) is joined in every chunk with
``(cx + cy + z)`` even, by a RAMP_UP at (x, y, z) over a RAMP_DOWN at
(x, y, z+1). Up and down ramps of one level therefore never share a chunk.
"""

from __future__ import annotations

from collections.abc import Callable

from .cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP
from .constants import (
    CHUNK,
    CHUNKS_PER_SIDE,
    CRAWLWAY_CHANCE,
    EXTRA_BORDER_CHANCE,
    LOOP_CHANCE,
    WORLD_LEVELS,
)
from .rng import derived

_SIDE = CHUNK // 2  # maze cells per chunk side


def _index(lx: int, ly: int) -> int:
    return ly * CHUNK + lx


def _east_opening(k: int) -> int:
    """The k-th cell of the east column where a chunk may open onto its neighbour."""
    return _index(CHUNK - 1, 2 * k)


def _north_opening(k: int) -> int:
    """The k-th cell of the north row where a chunk may open onto its neighbour."""
    return _index(2 * k, CHUNK - 1)


def _maze_cell(i: int, j: int) -> int:
    return _index(2 * i, 2 * j)


# Internal walls between maze cells: (cell a, cell b, wall index), fixed order.
_EDGES: tuple[tuple[int, int, int], ...] = tuple(
    [(j * _SIDE + i, j * _SIDE + i + 1, _index(2 * i + 1, 2 * j)) for j in range(_SIDE) for i in range(_SIDE - 1)]
    + [(j * _SIDE + i, (j + 1) * _SIDE + i, _index(2 * i, 2 * j + 1)) for j in range(_SIDE - 1) for i in range(_SIDE)]
)
_NEIGHBOURS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((b if a == c else a, w) for a, b, w in _EDGES if c in (a, b)) for c in range(_SIDE * _SIDE)
)
_WALLS = tuple(w for _, _, w in _EDGES)
# The DFS's choices at each maze cell, by which of its neighbours are visited: _AROUND[c] masks the
# bits of c's neighbours, and _OPTIONS[c][visited & _AROUND[c]] is _NEIGHBOURS[c] less the visited ones.
_AROUND = tuple(sum(1 << n for n, _ in around) for around in _NEIGHBOURS)


def _submasks(full: int) -> list[int]:
    """Every mask of bits of ``full`` only, in ascending order, walked directly: at most 16 for a cell's
    four neighbours, where filtering range(full + 1) tried up to 2**16 numbers at import (start-up)."""
    masks, mask = [full], full
    while mask:
        mask = (mask - 1) & full
        masks.append(mask)
    return masks[::-1]


_OPTIONS = tuple({mask: tuple((n, w) for n, w in around if not mask >> n & 1) for mask in _submasks(_AROUND[c])}
                 for c, around in enumerate(_NEIGHBOURS))
_BLANK = bytearray(CHUNK * CHUNK)
for _j in range(_SIDE):
    for _i in range(_SIDE):
        _BLANK[_maze_cell(_i, _j)] = FLOOR


def _below(bits: Callable[[int], int], n: int) -> int:
    """``Random.randrange(n)`` as CPython draws it (``_randbelow_with_getrandbits``), without its
    argument checks: the same draws, for the few thousand a chunk costs."""
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def has_ramp_up(cx: int, cy: int, z: int) -> bool:
    """Whether chunk (cx, cy) holds the ramp joining level z to z + 1."""
    return z < WORLD_LEVELS - 1 and (cx + cy + z) % 2 == 0


def ramp_cell(seed: int, cx: int, cy: int, z: int) -> int:
    """Cell index (in the chunk) of the ramp joining z to z + 1."""
    bits = derived(seed, "ramp", cx, cy, z).getrandbits
    i = _below(bits, _SIDE)
    return _maze_cell(i, _below(bits, _SIDE))


RampCell = Callable[[int, int, int, int], int]  # ramp_cell, or a world's remembered answers of it


def chunk_ramp(seed: int, cx: int, cy: int, z: int, cell: RampCell = ramp_cell) -> tuple[int, int] | None:
    """The ramp of chunk (cx, cy) of level z as (cell index, RAMP_UP or RAMP_DOWN), or None: a
    chunk holds at most one (the up and down ramps of a level never share a chunk), and where it
    lies follows from the seed alone, so it is known without generating the chunk. ``cell``
    places a ramp (its generator's seeding costs as much as a third of a chunk's generation):
    a world passes its own memory of the answers, shared by the chunks at both ends of a ramp."""
    if has_ramp_up(cx, cy, z):
        return cell(seed, cx, cy, z), RAMP_UP
    if z > 0 and has_ramp_up(cx, cy, z - 1):
        return cell(seed, cx, cy, z - 1), RAMP_DOWN
    return None


def generate_chunk(seed: int, cx: int, cy: int, z: int, ramp: RampCell = ramp_cell) -> bytes:
    """The cells of chunk (cx, cy) of level z, row by row from the south (``ramp``: as chunk_ramp's ``cell``)."""
    rng = derived(seed, "chunk", cx, cy, z)
    rand, bits = rng.random, rng.getrandbits
    cells = bytearray(_BLANK)

    # Spanning tree by randomised depth-first search (visited: a bit per maze cell).
    start = _below(bits, _SIDE * _SIDE)
    visited = 1 << start
    stack = [start]
    while stack:
        top = stack[-1]
        options = _OPTIONS[top][visited & _AROUND[top]]
        if not options:
            stack.pop()
            continue
        n, w = options[_below(bits, len(options))] if len(options) > 1 else options[0]
        cells[w] = FLOOR
        visited |= 1 << n
        stack.append(n)

    # Loops: a few more walls opened, some as crawlways.
    for w in _WALLS:
        if not cells[w] and rand() < LOOP_CHANCE:
            cells[w] = CRAWLWAY if rand() < CRAWLWAY_CHANCE else FLOOR

    # Openings in the east column and north row this chunk owns.
    for owned, opening in ((cx < CHUNKS_PER_SIDE - 1, _east_opening), (cy < CHUNKS_PER_SIDE - 1, _north_opening)):
        if not owned:
            continue
        first = _below(bits, _SIDE)
        cells[opening(first)] = FLOOR
        if rand() < EXTRA_BORDER_CHANCE:
            second = (first + 1 + _below(bits, _SIDE - 1)) % _SIDE
            cells[opening(second)] = CRAWLWAY if rand() < CRAWLWAY_CHANCE else FLOOR

    placed = chunk_ramp(seed, cx, cy, z, ramp)
    if placed is not None:
        cells[placed[0]] = placed[1]
    return bytes(cells)
