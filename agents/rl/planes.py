"""The arithmetic both roles' numeric observations share: where a cell falls in the
egocentric window and in the coarse map of the hunting ground, binary planes from cell
kinds, and positions and offsets scaled to the hunting ground.

Scaling to the hunting ground (not the 400-cell cube) is what lets one network play
``tiny`` and ``large``: a position is a fraction of the ground, an offset a fraction of
its span each way (width, height, levels), whatever the preset. The coarse map has the same 16 x 16 shape on every
preset (a block of the ground a cell: 1 x 1 on tiny, 3 x 3 on standard).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np
from gymnasium import spaces

from labyrinth.engine.geometry import COMPASS, Pos
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.engine.presets import PRESETS

# The egocentric window: 15 x 15 around the role, wider than the WSAP text's 11 x 11 so that its planes are
# fewer than its side (trainers tell a channel-first picture by its smallest dimension).
RADIUS = 7
SIDE = 2 * RADIUS + 1
COARSE = 16  # the coarse map's side, in blocks of the hunting ground
SIGHTING_SPAN_S = 60.0  # a sighting or a noise this old counts as stale: the Minotaur walks a step a second
PLANES = ("map", "memory")  # the observations' keys that are planes; every other key holds numbers
_NOT_LYING = (0.0,) * 4  # an item's four numbers where it is not known to lie


def number_slices(space: Mapping[str, spaces.Space]) -> dict[str, slice]:
    """Where each key of an observation's ``space`` but the planes lies in one flat array of its numbers,
    in the space's order: each step makes the numbers as one list and one array, each key a slice of it
    (a new array every step, as Gymnasium's callers keep them), rather than a small array a key."""
    keys = [key for key in space if key not in PLANES]
    ends = np.cumsum([spaces.flatdim(space[key]) for key in keys]).tolist()
    return {key: slice(start, end) for key, start, end in zip(keys, [0, *ends[:-1]], ends, strict=True)}


def planes_space(shape: tuple[int, int, int]) -> spaces.Box:
    """Binary planes, channel first, given flat: 0.0 or 1.0 in float32, ``shape``'s planes x rows x columns
    numbers in C order (a plane, its rows north first, each row west first); reshape them to ``shape``
    (spaces.unflat_planes) to convolve. Neither uint8 nor three-dimensional, because trainers take
    such a box for an image: Stable-Baselines3 warns that a picture must be uint8 in 0..255 and 36
    pixels wide, and with those bounds would divide it by 255 and feed it to its image network. The
    views build them as uint8 planes (cheaper to mark); spaces.observe hands them over so."""
    return spaces.Box(0.0, 1.0, (int(np.prod(shape)),), np.float32)


def unit_box(n: int | tuple[int, ...], signed: bool = False) -> spaces.Box:
    """Numbers in [0, 1], or [-1, 1] when ``signed``."""
    shape = (n,) if isinstance(n, int) else n
    return spaces.Box(-1.0 if signed else 0.0, 1.0, shape, np.float32)


def kind_table(planes_of: Mapping[int, Sequence[int]], planes: int) -> np.ndarray:
    """A lookup table from a cell kind (a byte) to its binary planes: ``planes_of[kind]`` lists the
    planes set for that kind."""
    table = np.zeros((256, planes), np.uint8)
    for kind, numbers in planes_of.items():
        table[kind, list(numbers)] = 1
    return table


def window_planes(cells: bytes, table: np.ndarray, planes: int) -> np.ndarray:
    """The window's planes (``planes`` deep) with its cells' kinds (``cells``: row by row, north
    first) filling the first planes through ``table``; the rest left for marks."""
    grid = np.zeros((planes, SIDE, SIDE), np.uint8)
    grid[:table.shape[1]] = table[np.frombuffer(cells, np.uint8)].reshape(SIDE, SIDE, -1).transpose(2, 0, 1)
    return grid


def mark_window(grid: np.ndarray, plane: int, centre: Pos, at: Pos) -> None:
    """Set ``plane`` at ``at`` when it lies in the window around ``centre``, on its level."""
    row, col = RADIUS - (at[1] - centre[1]), at[0] - centre[0] + RADIUS
    if at[2] == centre[2] and 0 <= row < SIDE and 0 <= col < SIDE:
        grid[plane, row, col] = 1


class Ground:
    """A preset's hunting ground as the observations scale to it."""

    def __init__(self, preset: str) -> None:
        b = self.bounds = PRESETS[preset]
        self.x0, self.y0, self.z0, self.width, self.height, self.levels = (b.x0, b.y0, b.z0, b.width, b.height,
                                                                            b.levels)
        self.block = -(-max(b.width, b.height) // COARSE)  # cells of the ground a coarse cell covers, each way
        self.spans = (max(b.width - 1, 1), max(b.height - 1, 1), max(b.levels - 1, 1))  # a fraction's denominators
        self.top = b.last[1]  # the ground's northernmost row (the coarse map's first): read on every observation

    def position(self, p: Pos) -> tuple[float, float, float]:
        """Where ``p`` lies in the ground: x, y and level as fractions in [0, 1] (clipped outside it)."""
        return (_clip((p[0] - self.x0) / self.spans[0], 0.0), _clip((p[1] - self.y0) / self.spans[1], 0.0),
                _clip((p[2] - self.z0) / self.spans[2], 0.0))

    def offset(self, frm: Pos, to: Pos) -> tuple[float, float, float]:
        """The way from ``frm`` to ``to`` as fractions of the ground's width, height and levels, in [-1, 1]."""
        return (_clip((to[0] - frm[0]) / self.spans[0]), _clip((to[1] - frm[1]) / self.spans[1]),
                _clip((to[2] - frm[2]) / self.spans[2]))

    def trace(self, here: Pos, known: tuple[Pos, float] | None, now_s: float) -> list[float]:
        """Five numbers for a place known since a moment (the user's last sighting of the Minotaur; its last
        sighting of the intruder, its last noise): known (1), the way there from ``here``, and its age as a
        fraction of SIGHTING_SPAN_S. ``known``: the place and the game second it was known, or None."""
        if known is None:
            return [0.0] * 5
        where, when = known
        return [1.0, *self.offset(here, where), min((now_s - when) / SIGHTING_SPAN_S, 1.0)]

    def items(self, here: Pos, lying: Mapping[str, Pos]) -> list[float]:
        """Four numbers an item, in ITEM_ORDER: known to lie somewhere (1), and the way there from ``here``."""
        numbers: list[float] = []
        for name in ITEM_ORDER:
            pos = lying.get(name)
            numbers += (1.0, *self.offset(here, pos)) if pos is not None else _NOT_LYING
        return numbers

    def coarse_cell(self, p: Pos) -> tuple[int, int]:
        """The coarse map's (row, column) of ``p``, north first, clipped to the map's edge."""
        row = (self.top - p[1]) // self.block
        col = (p[0] - self.x0) // self.block
        return min(max(row, 0), COARSE - 1), min(max(col, 0), COARSE - 1)

    def coarse_cells(self, places: Collection[Pos]) -> tuple[np.ndarray, np.ndarray]:
        """``coarse_cell`` of many places at once: their rows and their columns, as index arrays."""
        cells = np.fromiter(chain.from_iterable(places), np.int64, 3 * len(places)).reshape(-1, 3)
        rows = np.clip((self.top - cells[:, 1]) // self.block, 0, COARSE - 1)
        return rows, np.clip((cells[:, 0] - self.x0) // self.block, 0, COARSE - 1)

    def pool(self, planes: np.ndarray) -> np.ndarray:
        """Binary planes of the ground (planes, height, width; north first) in blocks of ``block``
        cells: each coarse cell 1 if any cell of its block is (the ground padded with 0s). An
        element-wise maximum over the block's offsets: numpy's reduce over small axes is slower."""
        side = COARSE * self.block
        if planes.shape[1:] == (side, side) and self.block == 1:
            return planes
        padded = np.zeros((planes.shape[0], side, side), np.uint8)
        padded[:, :planes.shape[1], :planes.shape[2]] = planes
        blocks = padded.reshape(planes.shape[0], COARSE, self.block, COARSE, self.block)
        pooled = blocks[:, :, 0, :, 0].copy()
        for i in range(self.block):
            for j in range(self.block):
                np.maximum(pooled, blocks[:, :, i, :, j], out=pooled)
        return pooled


def _clip(value: float, low: float = -1.0) -> float:
    return min(max(value, low), 1.0)


def mark_coarse(grid: np.ndarray, plane: int, ground: Ground, level: int, places: Iterable[Pos]) -> None:
    """Set ``plane`` at the coarse cells of those ``places`` that lie on ``level``."""
    for p in places:
        if p[2] == level:
            grid[(plane, *ground.coarse_cell(p))] = 1


def item_plane(item: str) -> str:
    """The name of an item's plane: "RED STONE" -> "red_stone"."""
    return item.lower().replace(" ", "_")


def one_hot(values: Sequence[Any], value: Any) -> list[float]:
    """1 at ``value``'s index in ``values``, 0 elsewhere (all 0 for a value not listed)."""
    return [float(v == value) for v in values]


def flags(values: Sequence[Any], present: Iterable[Any]) -> list[float]:
    """1 for each of ``values`` that is among ``present``, 0 for the others."""
    there = set(present)
    return [float(v in there) for v in values]


# The eight compass words as unit vectors (east, north): a bearing a network reads as a direction.
COMPASS_VECTORS = {word: (round(float(np.cos(k * np.pi / 4)), 6), round(float(np.sin(k * np.pi / 4)), 6))
                   for k, word in enumerate(COMPASS)}
