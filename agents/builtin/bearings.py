"""The cells that lie in one compass bearing from a point, a row at a time.

Each of geometry.compass's eight words names a sector that is a cone of the
plane, cut by straight lines (tan 22.5 deg ~ 29/70), and None names the point
itself (a hum straight above or below). A cone is convex, so each row holds
one run of its cells, and a run of cells lies inside it when its ends do. The
stone search narrows its places by them instead of working out the bearing of
every place: on a ``full`` ground that is tens of thousands of cells a hum.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from labyrinth.engine.geometry import Pos

_NONE = range(0)
# By word: for a row dy from the point (dy > 0: north), the offsets dx in that bearing, as (first, last),
# ``reach`` standing for no bound. Each is compass's test solved for dx (ax, ay: |dx|, |dy|):
# EAST/WEST 70 ay < 29 ax; NORTH/SOUTH 70 ax < 29 ay; a diagonal neither, off both axes.
_OFFSETS: dict[str | None, Callable[[int, int], tuple[int, int]]] = {
    "EAST": lambda dy, reach: (70 * abs(dy) // 29 + 1, reach),
    "WEST": lambda dy, reach: (-reach, -(70 * abs(dy) // 29 + 1)),
    "NORTH": lambda dy, reach: (-((29 * dy - 1) // 70), (29 * dy - 1) // 70) if dy > 0 else (1, 0),
    "SOUTH": lambda dy, reach: (-((-29 * dy - 1) // 70), (-29 * dy - 1) // 70) if dy < 0 else (1, 0),
    "NORTH-EAST": lambda dy, reach: ((29 * dy + 69) // 70, 70 * dy // 29) if dy > 0 else (1, 0),
    "NORTH-WEST": lambda dy, reach: (-(70 * dy // 29), -((29 * dy + 69) // 70)) if dy > 0 else (1, 0),
    "SOUTH-EAST": lambda dy, reach: ((-29 * dy + 69) // 70, -70 * dy // 29) if dy < 0 else (1, 0),
    "SOUTH-WEST": lambda dy, reach: (-(-70 * dy // 29), -((-29 * dy + 69) // 70)) if dy < 0 else (1, 0),
    None: lambda dy, reach: (0, 0) if dy == 0 else (1, 0),
}


def row_spans(at: Pos, word: str | None, rows: Iterable[int], xs: range) -> dict[int, range]:
    """For each y of ``rows``, the x of ``xs`` (a step of 1) whose compass bearing from ``at`` is
    ``word``: exactly those for which ``compass(x - at[0], y - at[1]) == word``. A word compass never
    says has no cells."""
    offsets = _OFFSETS.get(word)
    if offsets is None:
        return dict.fromkeys(rows, _NONE)
    x, y = at[0], at[1]
    reach = abs(xs.start - x) + abs(xs.stop - x)  # beyond any x of xs
    spans = {}
    for row in rows:
        first, last = offsets(row - y, reach)
        spans[row] = range(max(x + first, xs.start), min(x + last + 1, xs.stop))
    return spans

