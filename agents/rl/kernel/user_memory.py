"""What the RL user's view remembers of its game (slice 6b), as arrays, one row per env: UserView and the
UserPerception it reads (engine/wsap/perception.py), kept by ``remember`` after each turn as they keep it.

The map of cells seen (their kinds, NOT_SEEN where none) and the trail are the row's region's shape, indexed as
its kinds: every cell the user sees lies in the region, as the turn keeps the user MARGIN within it (sight.py).
The memory map's cell planes (open, unknown, trail, ramp) are a 16 x 16 plane set per level of the ground. The
items seen lying are a slot per kind of ITEM_ORDER (the perception keeps one place a name); the hums are each
stone's heard, east, north and levels columns (UserView.hum_rows' first four) and where the last LOOK heard
them; the Minotaur's sighting now and its last one with its tick; the stone search is stone_search.py's.

A turn tells the view its UserMoved path (turn.Told), its LOOK (StonesHummed, on every difficulty but hard: the
hums are worked out here from the state, as senses.resonance does, a LOOK changing no stone's place) and its
stones grabbed (StoneGrabbed: a stone held has no hum row, so every held stone's is cleared).
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.cells import ROCK
from labyrinth.engine.constants import USER_SIGHT
from labyrinth.engine.geometry import sight_table
from labyrinth.engine.items import ITEM_ORDER, STONES
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.wsap.perception import NOT_SEEN

from ..planes import COARSE, COMPASS_VECTORS, kind_table
from ..user_view import _CELL_PLANES, _COARSE_KINDS, _M
from .ground import G_HEIGHT, G_LEVELS, G_SPAN, G_WIDTH, G_X0, G_Y0, G_Z0, coarse_cell, fraction, ground_vector
from .jit import jit
from .region import around
from .sight import USER_SQ, line_clear, within
from .stone_search import SEARCH_WIDTH, compass_word, hear, look, seen_at
from .turn import STOPS
from .work import INVENTORY, ITEM_COUNT, JUMP_LEFT, MINOTAUR, TICK, USER

STONE_KINDS = np.array([ITEM_ORDER.index(stone) for stone in STONES], dtype=np.int64)  # a stone's kind, by STONES
# geometry.sight_table(USER_SIGHT) as arrays: offset k is (SIGHT[k, 0], SIGHT[k, 1]), its cells between
# BETWEEN[SIGHT[k, 2]:SIGHT[k, 2] + SIGHT[k, 3]]
_TABLE = sight_table(USER_SIGHT)
SIGHT = np.array([(dx, dy, sum(len(b) for _, _, b in _TABLE[:k]), len(between))
                  for k, (dx, dy, between) in enumerate(_TABLE)], dtype=np.int64)
BETWEEN = np.array([cell for _, _, between in _TABLE for cell in between], dtype=np.int64).reshape(-1, 2)
FRESH = (STOPS + 1) * len(_TABLE)  # the most cells a turn can show for the first time
# A cell kind's planes of the memory map (UserView._COARSE_KINDS); the cell planes' order is MEMORY_PLANES'
COARSE_KINDS = kind_table(_COARSE_KINDS, len(_CELL_PLANES))
UNKNOWN, TRAIL = _M["unknown"], _M["trail"]
# The hums' (east, north) by compass word code (stone_search.WORDS; (0, 0) straight above or below)
BEARINGS = np.array([*COMPASS_VECTORS.values(), (0.0, 0.0)], dtype=np.float64)


class UserMemory:
    """N user views' memories (``UserMemory(n, preset)``); a row starts its game with ``clear``."""

    def __init__(self, n: int, preset: str) -> None:
        box, ground, stones = around(PRESETS[preset]), PRESETS[preset], len(STONES)
        self.ground = ground_vector(preset)
        self.seen = np.empty((n, box.levels, box.height, box.width), dtype=np.uint8)  # kinds, NOT_SEEN: unseen
        self.trail = np.empty((n, box.levels, box.height, box.width), dtype=np.uint8)  # 1 where stood or passed
        self.cells = np.empty((n, ground.levels, len(_CELL_PLANES), COARSE, COARSE), dtype=np.uint8)
        self.lying = np.empty((n, len(ITEM_ORDER), 4), dtype=np.int64)  # seen lying (1), where
        self.hums = np.empty((n, stones, 4), dtype=np.float64)  # heard (1), east, north, levels up (a fraction)
        self.heard_at = np.empty((n, 4), dtype=np.int64)  # a LOOK heard stones (1), where
        self.sighting = np.empty((n, 5), dtype=np.int64)  # the Minotaur seen (1), where, the tick
        self.sighted = np.empty((n, 4), dtype=np.int64)  # seen now (1), where
        self.places = np.empty((n, stones, ground.height, ground.width), dtype=np.uint8)
        self.search = np.empty((n, stones, SEARCH_WIDTH), dtype=np.int64)
        self.ends = np.empty((n, stones, ground.height, 3), dtype=np.int64)
        self.clear(np.ones(n, dtype=np.bool_))

    def clear(self, rows: np.ndarray) -> None:
        """Forget everything in the ``rows`` (a bool mask): their games start."""
        self.seen[rows], self.trail[rows], self.cells[rows] = NOT_SEEN, 0, 0
        self.cells[rows, :, UNKNOWN] = 1
        for name in ("lying", "hums", "heard_at", "sighting", "sighted", "places", "search", "ends"):
            getattr(self, name)[rows] = 0

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays ``remember`` takes, in its order."""
        return (self.seen, self.trail, self.cells, self.lying, self.hums, self.heard_at, self.sighting, self.sighted,
                self.places, self.search, self.ends)


@jit
def _remember_cell(cells: np.ndarray, g: np.ndarray, x: int, y: int, z: int, kind: int, trail: bool) -> None:
    """UserView._remember: a cell of the ground known on the memory map (its kind's planes, or the trail's)."""
    i, j, level = x - g[G_X0], y - g[G_Y0], z - g[G_Z0]
    if not (0 <= i < g[G_WIDTH] and 0 <= j < g[G_HEIGHT] and 0 <= level < g[G_LEVELS]):
        return
    row, col = coarse_cell(g, x, y)
    cells[level, UNKNOWN, row, col] = 0
    if trail:
        cells[level, TRAIL, row, col] = 1
    else:
        for plane in range(COARSE_KINDS.shape[1]):
            if COARSE_KINDS[kind, plane]:
                cells[level, plane, row, col] = 1


@jit
def remember(v: np.ndarray, items: np.ndarray, kinds: np.ndarray, origin: np.ndarray, stops: np.ndarray,
             n_stops: int, hummed: bool, g: np.ndarray, memory: tuple, fresh: np.ndarray,
             scratch: np.ndarray) -> bool:
    """One row's memory after its turn (``v``: its work vector, work.py's layout): UserPerception.observe, then
    UserView.update. False when a stone was seen outside the ground (no place of the search): the row falls back."""
    seen, trail, cells, lying, hums, heard_at, sighting, sighted, places, search, ends = memory
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    ox, oy, oz = origin[0], origin[1], origin[2]
    n = 0
    for k in range(n_stops + 1):  # _look_around: from every cell stood on or passed, once a game
        sx, sy, sz = (stops[k, 0], stops[k, 1], stops[k, 2]) if k < n_stops else (ux, uy, uz)
        if trail[sz - oz, sy - oy, sx - ox]:
            continue
        trail[sz - oz, sy - oy, sx - ox] = 1
        _remember_cell(cells, g, sx, sy, sz, 0, True)
        for s in range(SIGHT.shape[0]):
            cx, cy = sx + SIGHT[s, 0], sy + SIGHT[s, 1]
            if seen[sz - oz, cy - oy, cx - ox] != NOT_SEEN:
                continue
            clear = True
            for b in range(SIGHT[s, 2], SIGHT[s, 2] + SIGHT[s, 3]):
                if kinds[sz - oz, sy + BETWEEN[b, 1] - oy, sx + BETWEEN[b, 0] - ox] == ROCK:
                    clear = False
                    break
            if clear:
                kind = kinds[sz - oz, cy - oy, cx - ox]
                seen[sz - oz, cy - oy, cx - ox] = kind
                _remember_cell(cells, g, cx, cy, sz, kind, False)
                fresh[n, 0], fresh[n, 1], fresh[n, 2] = cx, cy, sz
                n += 1
    for slot in range(v[ITEM_COUNT]):  # the items in sight, where they lie
        kind, x, y, z = items[slot, 0], items[slot, 1], items[slot, 2], items[slot, 3]
        if within(ux, uy, uz, x, y, z, USER_SQ) and line_clear(kinds, origin, ux, uy, uz, x, y, z):
            lying[kind, 0], lying[kind, 1], lying[kind, 2], lying[kind, 3] = 1, x, y, z
    for kind in range(lying.shape[0]):  # an item seen gone: held, or its place in sight and empty
        if not lying[kind, 0]:
            continue
        x, y, z = lying[kind, 1], lying[kind, 2], lying[kind, 3]
        gone = v[INVENTORY + kind] != 0
        if not gone and within(ux, uy, uz, x, y, z, USER_SQ) and line_clear(kinds, origin, ux, uy, uz, x, y, z):
            gone = True
            for slot in range(v[ITEM_COUNT]):
                if items[slot, 0] == kind and items[slot, 1] == x and items[slot, 2] == y and items[slot, 3] == z:
                    gone = False
        if gone:
            lying[kind, 0] = 0
    if hummed:  # StonesHummed: every stone lying hums from where the user stands
        heard_at[0], heard_at[1], heard_at[2], heard_at[3] = 1, ux, uy, uz
        hums[:] = 0.0
        for slot in range(v[ITEM_COUNT]):
            for s in range(STONE_KINDS.shape[0]):
                if items[slot, 0] == STONE_KINDS[s]:
                    word, levels = compass_word(items[slot, 1] - ux, items[slot, 2] - uy), items[slot, 3] - uz
                    up = fraction(levels / g[G_SPAN + 2], -1.0)
                    hums[s, 0], hums[s, 1], hums[s, 2], hums[s, 3] = 1.0, BEARINGS[word, 0], BEARINGS[word, 1], up
                    hear(places, search, ends, scratch, g, seen, origin, s, ux, uy, uz, word, levels)
    for s in range(STONE_KINDS.shape[0]):  # StoneGrabbed: a held stone's row cleared
        if v[INVENTORY + STONE_KINDS[s]]:
            hums[s, :] = 0.0
    look(places, search, g, fresh, n)
    for s in range(STONE_KINDS.shape[0]):
        kind = STONE_KINDS[s]
        if lying[kind, 0]:
            x, y, z = lying[kind, 1], lying[kind, 2], lying[kind, 3]
            if not (0 <= x - g[G_X0] < g[G_WIDTH] and 0 <= y - g[G_Y0] < g[G_HEIGHT]
                    and 0 <= z - g[G_Z0] < g[G_LEVELS]):
                return False
            seen_at(places, search, g, s, x, y, z)
    mx, my, mz = v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2]
    sighted[0] = (within(ux, uy, uz, mx, my, mz, USER_SQ) and line_clear(kinds, origin, ux, uy, uz, mx, my, mz)
                  and not v[JUMP_LEFT])
    if sighted[0]:
        sighted[1], sighted[2], sighted[3] = mx, my, mz
        sighting[0], sighting[1], sighting[2], sighting[3], sighting[4] = 1, mx, my, mz, v[TICK]
    return True
