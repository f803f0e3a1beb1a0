"""A preset's hunting ground as the user's view scales to it (planes.Ground), as one int64 vector the kernel reads:
its first cell, width, height and levels (where the stones' search lies), the coarse map's block and top row, and
the denominators of its fractions. ``coarse_cell`` and ``fraction`` are Ground's coarse_cell and planes._clip.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..planes import COARSE, Ground
from .jit import jit

G_X0, G_Y0, G_Z0, G_WIDTH, G_HEIGHT, G_LEVELS, G_BLOCK, G_TOP, G_SPAN = range(9)  # G_SPAN: x's, then y's and z's


@cache
def ground_vector(preset: str) -> np.ndarray:
    """The preset's hunting ground as the G_ columns say: made once per preset (the Minotaur's observations ask
    for it on every batched step), and only read."""
    g = Ground(preset)
    return np.array([g.x0, g.y0, g.z0, g.width, g.height, g.levels, g.block, g.top, *g.spans], dtype=np.int64)


@jit
def coarse_cell(g: np.ndarray, x: int, y: int) -> tuple[int, int]:
    """Ground.coarse_cell: the coarse map's (row, column) of (x, y), north first, clipped to the map's edge."""
    return (min(max((g[G_TOP] - y) // g[G_BLOCK], 0), COARSE - 1),
            min(max((x - g[G_X0]) // g[G_BLOCK], 0), COARSE - 1))


@jit
def fraction(value: float, low: float) -> float:
    """planes._clip: ``value`` within [low, 1]."""
    return min(max(value, low), 1.0)
