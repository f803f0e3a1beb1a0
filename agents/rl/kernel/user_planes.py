"""The planes of the RL user's observation for one row (user_obs.py's slice): UserView._window (the cells seen
around the user, the items seen lying, the trail, the Minotaur in sight) and UserView._memory (the coarse map of the
user's level: its cells known, where the user is, the items seen, the last sighting, where a stone not held may
still lie), flat as spaces.observe hands them (planes, rows north first, columns west first), 0.0 or 1.0.
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.items import ITEM, ITEM_ORDER
from labyrinth.engine.wsap.perception import NOT_SEEN

from ..planes import COARSE, RADIUS, SIDE, item_plane
from ..user_view import _CELL_PLANES, _KINDS, _M, _W
from .ground import G_LEVELS, G_X0, G_Y0, G_Z0, coarse_cell
from .jit import jit
from .stone_search import COUNT, LEVEL
from .user_memory import STONE_KINDS
from .work import INVENTORY, USER

PLANE_SIZE = SIDE * SIDE
WINDOW_KINDS = _KINDS  # a cell kind's window planes (NOT_SEEN: unknown)
# WINDOW_KINDS listed: each kind's planes set (a kind sets at most two of them), so that a cell of the window writes
# those alone rather than testing every plane (measured: the window's cells took 2.2 µs of an observation's 7.4)
KIND_COUNTS = WINDOW_KINDS.sum(axis=1).astype(np.int64)
KIND_PLANES = np.full((len(WINDOW_KINDS), max(int(KIND_COUNTS.max()), 1)), -1, dtype=np.int64)
for _kind, _planes in enumerate(WINDOW_KINDS):
    KIND_PLANES[_kind, :KIND_COUNTS[_kind]] = np.flatnonzero(_planes)
W_TRAIL, W_MINOTAUR = _W["trail"], _W["minotaur"]
W_ITEMS = np.array([_W[item_plane(name)] for name in ITEM_ORDER], dtype=np.int64)
M_CELLS = len(_CELL_PLANES)  # the memory map's first planes, kept per level; the others are marks
M_YOU, M_MINOTAUR, M_MAY_LIE, M_UNKNOWN = _M["you"], _M["minotaur"], _M["stone_may_lie"], _M["unknown"]
M_ITEMS = np.array([_M[ITEM[name].kind] for name in ITEM_ORDER], dtype=np.int64)


@jit
def write_planes(v: np.ndarray, g: np.ndarray, seen: np.ndarray, trail: np.ndarray, origin: np.ndarray,
                 cells: np.ndarray, lying: np.ndarray, sighting: np.ndarray, sighted: np.ndarray, places: np.ndarray,
                 search: np.ndarray, window: np.ndarray, memory: np.ndarray) -> None:
    """UserView._window and _memory, flat (planes, rows north first, columns west first)."""
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    levels, height, width = seen.shape
    window[:] = 0.0
    z = uz - origin[2]
    for row in range(SIDE):
        y = uy + RADIUS - row - origin[1]
        row_inside = 0 <= z < levels and 0 <= y < height
        for col in range(SIDE):
            x = ux - RADIUS + col - origin[0]
            inside = row_inside and 0 <= x < width
            kind = seen[z, y, x] if inside else NOT_SEEN
            at = row * SIDE + col
            for k in range(KIND_COUNTS[kind]):
                window[KIND_PLANES[kind, k] * PLANE_SIZE + at] = 1.0
            if inside and trail[z, y, x]:
                window[W_TRAIL * PLANE_SIZE + at] = 1.0
    for kind in range(lying.shape[0]):
        if lying[kind, 0]:
            _mark_window(window, W_ITEMS[kind], ux, uy, uz, lying[kind, 1], lying[kind, 2], lying[kind, 3])
    if sighted[0]:
        _mark_window(window, W_MINOTAUR, ux, uy, uz, sighted[1], sighted[2], sighted[3])
    memory[:] = 0.0
    area = COARSE * COARSE
    level = uz - g[G_Z0]
    if 0 <= level < g[G_LEVELS]:
        for plane in range(M_CELLS):
            for i in range(COARSE):
                for j in range(COARSE):
                    memory[plane * area + i * COARSE + j] = cells[level, plane, i, j]
    else:
        memory[M_UNKNOWN * area:(M_UNKNOWN + 1) * area] = 1.0
    i, j = coarse_cell(g, ux, uy)
    memory[M_YOU * area + i * COARSE + j] = 1.0
    for kind in range(lying.shape[0]):
        if lying[kind, 0] and lying[kind, 3] == uz:
            i, j = coarse_cell(g, lying[kind, 1], lying[kind, 2])
            memory[M_ITEMS[kind] * area + i * COARSE + j] = 1.0
    if sighting[0] and sighting[3] == uz:
        i, j = coarse_cell(g, sighting[1], sighting[2])
        memory[M_MINOTAUR * area + i * COARSE + j] = 1.0
    for s in range(search.shape[0]):  # UserView._may_lie: the places of each stone not held, on this level
        if search[s, COUNT] and search[s, LEVEL] == uz and not v[INVENTORY + STONE_KINDS[s]]:
            for y in range(places.shape[1]):
                for x in range(places.shape[2]):
                    if places[s, y, x]:
                        i, j = coarse_cell(g, g[G_X0] + x, g[G_Y0] + y)
                        memory[M_MAY_LIE * area + i * COARSE + j] = 1.0


@jit
def _mark_window(window: np.ndarray, plane: int, ux: int, uy: int, uz: int, x: int, y: int, z: int) -> None:
    """planes.mark_window."""
    row, col = RADIUS - (y - uy), x - ux + RADIUS
    if z == uz and 0 <= row < SIDE and 0 <= col < SIDE:
        window[plane * PLANE_SIZE + row * SIDE + col] = 1.0
