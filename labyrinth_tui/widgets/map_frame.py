"""Which cells of a level the map shows, and how large: the view the screen builds (``MapView``)
framed to the widget's size (``frame``). A level that fits is drawn as large as it fits, up to four
columns and two lines a cell, so a big terminal shows a small level big rather than small in a
corner; one that does not fit is followed around the user (or the look cursor) at two columns a cell.
Either way the user (and the cursor) keeps a margin of cells to every side of the view, as an
editor's scrolloff keeps lines around the cursor: what lies just beyond the player is never hidden."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Protocol

from labyrinth.engine.geometry import Pos
from labyrinth.engine.presets import Bounds


class Cells(Protocol):
    """The cells a map reads, by position: a dict of those seen, or spectate's whole world (WorldCells)."""

    def get(self, pos: Pos, /) -> int | None:
        """The kind of cell at ``pos``; None where it is not known."""


@dataclass
class MapView:
    """What the map draws: cells by position, the trail, the ground's edge, marks on top. Built by the
    screen from the session. ``whole``: the whole level at once if it fits, both agents in view if not."""

    cells: Cells
    user: Pos
    items: Mapping[str, Pos]
    minotaur: Pos | None
    minotaur_seen: bool
    walked: Collection[Pos] = ()
    bounds: Bounds | None = None
    whole: bool = False


@dataclass(frozen=True)
class Frame:
    """Which world cells the map's lines show: ``scale`` columns a cell, ``stack`` cells a line (2: an
    overview, a cell in each half of a character) and ``tall`` lines a cell (2: a big cell), from
    ``left`` (west) and ``top`` (north), ``columns`` by ``rows`` cells."""

    scale: int
    left: int
    top: int
    columns: int
    rows: int
    stack: int = 1
    tall: int = 1


# (columns a cell, cells a line, lines a cell), largest first: a level that fits is drawn at the first
# that holds it; a whole level (spectating, o) shrinks to the smaller ones before it is cut.
SIZES = ((4, 1, 2), (2, 1, 1), (1, 1, 1), (1, 2, 1))
FOLLOWING = SIZES[1]  # a level too large to fit, followed around the user
MARGIN = 4  # cells kept in view on every side of the user, as far as the view allows (the `map_margin` option)


def _fitting(view: MapView, width: int, height: int) -> tuple[int, int, int]:
    b = view.bounds
    if b is None:
        return FOLLOWING
    sizes = SIZES if view.whole else SIZES[:2]
    fits = [size for size in sizes if (b.width + 2) * size[0] <= width and (b.height + 2) * size[2] <= height * size[1]]
    return fits[0] if fits else SIZES[-1] if view.whole else FOLLOWING


def frame(view: MapView, z: int, width: int, height: int, focus: Pos | None = None, margin: int = MARGIN) -> Frame:
    """Centre on the ground along an axis where the ground and its edge fit, else on the user (on both
    agents when the whole level is asked and does not fit) but not past the edge, where nothing is
    known; then move the least that keeps ``margin`` cells of view around the user and ``focus``, look
    mode's cursor (the maze goes on beyond the edge, and the user may walk out)."""
    b = view.bounds
    scale, stack, tall = _fitting(view, width, height)
    columns, rows = width // scale, height * stack // tall
    fx, fy, _ = view.user
    if view.whole and view.minotaur is not None and view.minotaur[2] == z:
        fx, fy = (fx + view.minotaur[0]) // 2, (fy + view.minotaur[1]) // 2
    left, top = fx - columns // 2, fy + rows // 2
    if b is not None:
        if b.width + 2 <= columns:
            left = b.x0 - 1 - (columns - b.width - 2) // 2
        else:
            left = min(max(left, b.x0 - 1), b.x0 + b.width + 1 - columns)
        if b.height + 2 <= rows:
            top = b.y0 + b.height + (rows - b.height - 2) // 2
        else:
            top = max(min(top, b.y0 + b.height), b.y0 - 2 + rows)
    for kept in (view.user, focus):  # the cursor last: the one the player moves
        if kept is None:
            continue
        kx, ky, _ = kept
        if b is None or not _holds(left, columns, b.x0 - 1, b.x0 + b.width, kx):
            left = _around(left, columns, kx, margin)
        south = top - rows + 1  # the view's southern row
        if b is None or not _holds(south, rows, b.y0 - 1, b.y0 + b.height, ky):
            top = _around(south, rows, ky, margin) + rows - 1
    return Frame(scale, left, top, columns, rows, stack, tall)


def _holds(first: int, size: int, lo: int, hi: int, at: int) -> bool:
    """Whether a view ``size`` cells long from ``first`` holds the whole ground with its edge (``lo`` to
    ``hi``) and ``at`` within them: a margin would only push some of the ground out."""
    return first <= lo <= at <= hi < first + size


def _around(first: int, size: int, at: int, margin: int) -> int:
    """The first cell of a view ``size`` cells long, moved the least from ``first`` so that it shows ``at``
    with ``margin`` cells beyond it on both sides (as many as a small view has room for)."""
    kept = min(margin, (size - 1) // 2)
    return min(max(first, at - size + 1 + kept), at - kept)
