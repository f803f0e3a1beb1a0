"""One level's cells around a hunting ground as an array of their kinds, read from the world a
chunk at a time when first wanted: the Minotaur's observation cuts its window from it and pools
its coarse map from it. Reading the whole level and its margin at once, at the start of a game,
generated chunks nobody looked at: a tenth of a Minotaur-v0 step went to them."""

from __future__ import annotations

import numpy as np

from labyrinth.engine.constants import CHUNK
from labyrinth.engine.world import World

from .planes import Ground


class LevelKinds:
    """Level ``z`` of ``world`` over ``ground`` and ``pad`` cells around it, north first."""

    def __init__(self, world: World, ground: Ground, z: int, pad: int) -> None:
        self.world, self.z = world, z
        self.west, self.north = ground.x0 - pad, ground.top + pad  # the cell at the array's [0, 0]
        self.kinds = np.zeros((ground.height + 2 * pad, ground.width + 2 * pad), np.uint8)
        self._read: set[tuple[int, int]] = set()  # the chunks (cx, cy) whose cells the array holds

    @property
    def shape(self) -> tuple[int, int]:
        return self.kinds.shape[0], self.kinds.shape[1]

    def area(self, row: int, col: int, height: int, width: int) -> np.ndarray:
        """The kinds at ``[row:row + height, col:col + width]`` of the array (an area inside it), the
        chunks it touches read first where they are not yet."""
        west, east = self.west + col, self.west + col + width - 1
        north, south = self.north - row, self.north - row - height + 1
        for cy in range(south // CHUNK, north // CHUNK + 1):
            for cx in range(west // CHUNK, east // CHUNK + 1):
                if (cx, cy) not in self._read:
                    self._read_chunk(cx, cy)
        return self.kinds[row:row + height, col:col + width]

    def _read_chunk(self, cx: int, cy: int) -> None:
        """Copy the cells of chunk (cx, cy) that lie in the array, in one piece (its rows turned north first)."""
        self._read.add((cx, cy))
        rows, cols = self.kinds.shape
        west, east = max(cx * CHUNK, self.west), min((cx + 1) * CHUNK, self.west + cols)
        top = (cy + 1) * CHUNK - 1  # the chunk's northern row
        south, north = max(cy * CHUNK, self.north - rows + 1), min(top, self.north)
        cells = np.frombuffer(self.world.chunk_cells(cx, cy, self.z), np.uint8).reshape(CHUNK, CHUNK)[::-1]
        self.kinds[self.north - north:self.north - south + 1, west - self.west:east - self.west] = \
            cells[top - north:top - south + 1, west - cx * CHUNK:east - cx * CHUNK]
