"""The cells that lie in one compass bearing from a point, a row at a time.

Each of geometry.compass's eight words names a sector that is a cone of the
plane, cut by straight lines (tan 22.5 deg ~ TAN_NUM / TAN_DEN), and None names the point
itself (a hum straight above or below). A cone is convex, so each row holds
one run of its cells, and a run of cells lies inside it when its ends do. The
stone search narrows its places by them instead of working out the bearing of
every place: on a ``full`` ground that is tens of thousands of cells a hum.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from labyrinth.engine.constants import WORLD_SIZE
from labyrinth.engine.geometry import TAN_DEN as D
from labyrinth.engine.geometry import TAN_NUM as N
from labyrinth.engine.geometry import Pos

_NONE = range(0)
# By word: for a row dy from the point (dy > 0: north), the offsets dx in that bearing, as (first, last),
# WORLD_SIZE standing for no bound. Each is compass's test solved for dx (ax, ay: |dx|, |dy|; N / D the tangent):
# EAST/WEST D ay < N ax; NORTH/SOUTH D ax < N ay; a diagonal neither, off both axes.
_SOLVED: dict[str | None, Callable[[int], tuple[int, int]]] = {
    "EAST": lambda dy: (D * abs(dy) // N + 1, WORLD_SIZE),
    "WEST": lambda dy: (-WORLD_SIZE, -(D * abs(dy) // N + 1)),
    "NORTH": lambda dy: (-((N * dy - 1) // D), (N * dy - 1) // D) if dy > 0 else (1, 0),
    "SOUTH": lambda dy: (-((-N * dy - 1) // D), (-N * dy - 1) // D) if dy < 0 else (1, 0),
    "NORTH-EAST": lambda dy: ((N * dy + D - 1) // D, D * dy // N) if dy > 0 else (1, 0),
    "NORTH-WEST": lambda dy: (-(D * dy // N), -((N * dy + D - 1) // D)) if dy > 0 else (1, 0),
    "SOUTH-EAST": lambda dy: ((-N * dy + D - 1) // D, -D * dy // N) if dy < 0 else (1, 0),
    "SOUTH-WEST": lambda dy: (-(-D * dy // N), -((-N * dy + D - 1) // D)) if dy < 0 else (1, 0),
    None: lambda dy: (0, 0) if dy == 0 else (1, 0),
}


@cache
def _offsets(word: str | None) -> tuple[tuple[int, int], ...] | None:
    """``_SOLVED[word]`` for every dy across the cube, by dy + WORLD_SIZE: read, not worked out, for
    each row of each hum. None for a word compass never says."""
    solved = _SOLVED.get(word)
    return None if solved is None else tuple(solved(dy) for dy in range(-WORLD_SIZE, WORLD_SIZE + 1))


def row_spans(at: Pos, word: str | None, rows: Iterable[int], xs: range) -> dict[int, range]:
    """For each y of ``rows``, the x of ``xs`` (a step of 1, inside the cube's) whose compass bearing
    from ``at`` (a cell of the cube) is ``word``: exactly those for which ``compass(x - at[0], y - at[1])
    == word``. A word compass never says has no cells."""
    offsets = _offsets(word)
    if offsets is None:
        return dict.fromkeys(rows, _NONE)
    x, shift, lo, hi = at[0], WORLD_SIZE - at[1], xs.start, xs.stop
    spans = {}
    for row in rows:
        first, last = offsets[row + shift]
        first, last = first + x, last + x + 1
        spans[row] = range(first if first > lo else lo, last if last < hi else hi)  # noqa: FURB136 - as in pathfinding
    return spans
