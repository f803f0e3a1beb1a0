"""agents/builtin/stone_search.py's StoneSearch over a row (slice 6b): where each stone may still lie, as the RL
user's view keeps it for its stone_may_lie plane (user_view.UserView.search), rule for rule.

A stone's places all lie on one level (the one it hums from), so they are a mask over the hunting ground's
width x height (``places[stone, y - y0, x - x0]``), with their count (0: never heard nor seen) and their level.
Beside them, per stone: its last hum (where, its compass word, its levels: SEARCH's columns), and the bounds on
its rows of places that StoneSearch keeps in ``_ends`` (``ends[stone, y - y0]``: present, west, east; ENDS_KNOWN 0
where StoneSearch holds none and works them out from the places when next asked). Every rule is the Python
one's: a first hearing of a level (the sector's maze cells not seen, else the level's places), a narrowing (kept
only when smaller and not empty: "no news" and contradictions keep the old places), the row ends' bounds, the
cells seen dropped (the one place left stays) and a stone seen at one place. The compass words and their rows of
cells are agents/builtin/bearings.py's (row_spans), read from its own table.
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.constants import WORLD_SIZE
from labyrinth.engine.geometry import TAN_DEN, TAN_NUM, compass
from labyrinth.engine.wsap.perception import NOT_SEEN

from ...builtin.bearings import _offsets
from ..planes import COMPASS_VECTORS
from .ground import G_HEIGHT, G_WIDTH, G_X0, G_Y0
from .jit import jit

WORDS = (*COMPASS_VECTORS, None)  # a compass word's code is its index here; None (straight up or down) the last
NO_WORD = len(WORDS) - 1
# bearings' table: for word code w and a row dy from the point, OFFSETS[w, dy + WORLD_SIZE] = (first, last) dx
OFFSETS = np.array([_offsets(word) for word in WORDS], dtype=np.int64)
_EAST, _NORTH_EAST, _NORTH, _NORTH_WEST, _WEST, _SOUTH_WEST, _SOUTH, _SOUTH_EAST = range(8)
# SEARCH's columns, per stone: how many places (0: none yet), their level, heard (1), the hum's x, y, z, word code
# and levels, whether ``ends`` holds the rows' bounds
COUNT, LEVEL, HEARD, HX, HY, HZ, HWORD, HLEVELS, ENDS_KNOWN = range(9)
SEARCH_WIDTH = 9


@jit
def compass_word(dx: int, dy: int) -> int:
    """geometry.compass as a word code (WORDS)."""
    if dx == 0 and dy == 0:
        return NO_WORD
    ax, ay = abs(dx), abs(dy)
    if ay * TAN_DEN < ax * TAN_NUM:
        return _EAST if dx > 0 else _WEST
    if ax * TAN_DEN < ay * TAN_NUM:
        return _NORTH if dy > 0 else _SOUTH
    if dy > 0:
        return _NORTH_EAST if dx > 0 else _NORTH_WEST
    return _SOUTH_EAST if dx > 0 else _SOUTH_WEST


def _check_compass() -> None:
    """compass_word is geometry.compass on every offset a hum or a sound can have on the largest ground."""
    for dx in range(-80, 81):
        for dy in range(-80, 81):
            if WORDS[compass_word(dx, dy)] != compass(dx, dy):
                raise ImportError(f"kernel/stone_search.py's compass differs from geometry.compass at {dx, dy}")


_check_compass()


@jit
def row_span(ax: int, ay: int, word: int, y: int, lo: int, hi: int) -> tuple[int, int]:
    """bearings.row_spans' range for row ``y`` as (start, stop): the x in [lo, hi) whose bearing from (ax, ay) is
    ``word``; empty when stop <= start."""
    first, last = OFFSETS[word, y - ay + WORLD_SIZE, 0] + ax, OFFSETS[word, y - ay + WORLD_SIZE, 1] + ax + 1
    return max(first, lo), min(last, hi)


@jit
def hear(places: np.ndarray, search: np.ndarray, ends: np.ndarray, scratch: np.ndarray, g: np.ndarray,
         seen: np.ndarray, origin: np.ndarray, s: int, ax: int, ay: int, az: int, word: int, levels: int) -> None:
    """StoneSearch.hear of stone ``s`` for one row: ``seen`` its region's map of cells seen (NOT_SEEN where none);
    ``scratch`` a (height, 3) array for the new rows' ends; ``g`` the ground (ground.py)."""
    z = az + levels
    row = search[s]
    if (row[HEARD] and row[HX] == ax and row[HY] == ay and row[HZ] == az and row[HWORD] == word
            and row[HLEVELS] == levels and row[COUNT] and row[LEVEL] == z):
        return
    row[HEARD], row[HX], row[HY], row[HZ], row[HWORD], row[HLEVELS] = 1, ax, ay, az, word, levels
    x0, y0, width, height = g[G_X0], g[G_Y0], g[G_WIDTH], g[G_HEIGHT]
    mask = places[s]
    if row[COUNT] == 0 or row[LEVEL] != z:
        _first_hearing(mask, row, ends[s], g, seen, origin, ax, ay, z, word)
        return
    if not row[ENDS_KNOWN]:
        _row_ends(mask, ends[s], x0)
        row[ENDS_KNOWN] = 1
    bounds, any_end, same = ends[s], False, True
    for j in range(height):
        scratch[j, 0] = 0
        if bounds[j, 0]:
            start, stop = row_span(ax, ay, word, y0 + j, x0, x0 + width)
            if stop > start and bounds[j, 1] < stop and bounds[j, 2] >= start:
                scratch[j, 0], scratch[j, 1], scratch[j, 2] = 1, max(bounds[j, 1], start), min(bounds[j, 2], stop - 1)
                any_end = True
        if scratch[j, 0] != bounds[j, 0] or (scratch[j, 0] and (scratch[j, 1] != bounds[j, 1]
                                                                  or scratch[j, 2] != bounds[j, 2])):
            same = False
    if same or not any_end:
        return  # every place agrees (no news), or none does (a contradiction): the places are kept
    kept = _narrow(mask, row[COUNT], g, ax, ay, word)
    if kept != row[COUNT]:
        row[COUNT] = kept
        bounds[:] = scratch[:height]


@jit
def _narrow(mask: np.ndarray, count: int, g: np.ndarray, ax: int, ay: int, word: int) -> int:
    """Keep the ``count`` places of ``mask`` that lie in ``word``'s sector from (ax, ay), when that keeps some and
    not all (an empty set would be a contradiction, a whole one no news); how many places are left."""
    x0, y0, width, height = g[G_X0], g[G_Y0], g[G_WIDTH], g[G_HEIGHT]
    kept = 0
    for j in range(height):
        start, stop = row_span(ax, ay, word, y0 + j, x0, x0 + width)
        for i in range(width):
            if mask[j, i] and start <= x0 + i < stop:
                kept += 1
    if kept == 0 or kept == count:
        return count
    for j in range(height):
        start, stop = row_span(ax, ay, word, y0 + j, x0, x0 + width)
        for i in range(width):
            if mask[j, i] and not start <= x0 + i < stop:
                mask[j, i] = 0
    return kept


@jit
def _first_hearing(mask: np.ndarray, row: np.ndarray, bounds: np.ndarray, g: np.ndarray, seen: np.ndarray,
                   origin: np.ndarray, ax: int, ay: int, z: int, word: int) -> None:
    """A level heard first: the sector's maze cells (x and y of the ground's first cell's parity) not seen yet,
    with the sector's rows as their ends; else the level's maze cells not seen (or all), narrowed by the
    sector when it keeps some and not all, their ends unknown."""
    x0, y0, width, height = g[G_X0], g[G_Y0], g[G_WIDTH], g[G_HEIGHT]
    mask[:] = 0
    bounds[:] = 0
    kept = 0
    for j in range(0, height, 2):
        start, stop = row_span(ax, ay, word, y0 + j, x0, x0 + width)
        if stop > start:
            bounds[j, 0], bounds[j, 1], bounds[j, 2] = 1, start, stop - 1
        for x in range(start + ((start ^ x0) & 1), stop, 2):
            if seen[z - origin[2], y0 + j - origin[1], x - origin[0]] == NOT_SEEN:
                mask[j, x - x0] = 1
                kept += 1
    row[LEVEL] = z
    if kept:
        row[COUNT], row[ENDS_KNOWN] = kept, 1
        return
    row[ENDS_KNOWN] = 0
    for j in range(0, height, 2):  # the level's maze cells not seen (the sector's all were), else all of them
        for i in range(0, width, 2):
            if seen[z - origin[2], y0 + j - origin[1], x0 + i - origin[0]] == NOT_SEEN:
                mask[j, i] = 1
                kept += 1
    if kept == 0:
        mask[0:height:2, 0:width:2] = 1
        kept = ((height + 1) // 2) * ((width + 1) // 2)
    row[COUNT] = _narrow(mask, kept, g, ax, ay, word)


@jit
def _row_ends(mask: np.ndarray, bounds: np.ndarray, x0: int) -> None:
    """StoneSearch._row_ends worked out from the places: each row's westmost and eastmost place's x."""
    bounds[:] = 0
    for j in range(mask.shape[0]):
        for i in range(mask.shape[1]):
            if mask[j, i]:
                if not bounds[j, 0]:
                    bounds[j, 0], bounds[j, 1] = 1, x0 + i
                bounds[j, 2] = x0 + i


@jit
def look(places: np.ndarray, search: np.ndarray, g: np.ndarray, cells: np.ndarray, n: int) -> None:
    """StoneSearch.look: the ``n`` cells seen this turn (``cells``' first rows, x, y, z) leave each stone's
    places, unless they are all its places (the one place it was seen stays). Its rows' ends are kept."""
    x0, y0, width, height = g[G_X0], g[G_Y0], g[G_WIDTH], g[G_HEIGHT]
    for s in range(search.shape[0]):
        if search[s, COUNT] == 0:
            continue
        hits = 0
        for k in range(n):
            i, j = cells[k, 0] - x0, cells[k, 1] - y0
            if cells[k, 2] == search[s, LEVEL] and 0 <= i < width and 0 <= j < height and places[s, j, i]:
                hits += 1
        if hits == 0 or hits == search[s, COUNT]:
            continue
        for k in range(n):
            i, j = cells[k, 0] - x0, cells[k, 1] - y0
            if cells[k, 2] == search[s, LEVEL] and 0 <= i < width and 0 <= j < height:
                places[s, j, i] = 0
        search[s, COUNT] -= hits


@jit
def seen_at(places: np.ndarray, search: np.ndarray, g: np.ndarray, s: int, x: int, y: int, z: int) -> None:
    """StoneSearch.seen: stone ``s`` seen lying at (x, y, z), a cell of the ground: its one place."""
    i, j = x - g[G_X0], y - g[G_Y0]
    if search[s, COUNT] == 1 and search[s, LEVEL] == z and places[s, j, i]:
        return
    places[s] = 0
    places[s, j, i] = 1
    search[s, COUNT], search[s, LEVEL], search[s, ENDS_KNOWN] = 1, z, 0
