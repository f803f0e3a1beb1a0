"""The z-level map: one widget drawing the lines of the labyrinth the user has seen.

Only cells the user has seen are drawn (fog of war), unless the view is omniscient (spectating);
the hunting ground's edge, the user's trail, a "you are here" mark on other levels and look mode's
cursor are drawn on top. How large a cell is drawn is the frame's business (map_frame.py), what each
looks like the glyphs' (map_glyphs.py). A click on a cell is told to the screen (``Pointed``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from labyrinth.engine.cells import FLOOR
from labyrinth.engine.geometry import Pos

from ..themes import recolour
from .map_frame import MARGIN, Frame, MapView, frame
from .map_glyphs import (
    CELL_GLYPHS,
    CURSOR,
    EDGE,
    HERE,
    ITEM_GLYPHS,
    MINOTAUR_GUESS,
    MINOTAUR_SEEN,
    TRAIL,
    UNKNOWN,
    USER,
    Glyph,
    stacked,
)
from .titles import fitted_title


class Minimap(Widget, can_focus=True):
    """The map around the user on one level; focus it to drive the game with keys."""

    level_offset: reactive[int] = reactive(0)
    cursor: reactive[Pos | None] = reactive(None)  # look mode's cell, drawn in the cursor's colours

    @dataclass
    class Pointed(Message):
        """A cell of the map was clicked (``moved``: the mouse only passed over it)."""

        cell: Pos
        moved: bool = False

    def __init__(self, margin: int = MARGIN, **kwargs) -> None:
        """``margin``: the cells kept in view around the user and the cursor (map_frame.frame)."""
        super().__init__(**kwargs)
        self.margin = margin
        self.view: MapView | None = None
        self._framed: tuple[tuple, Frame, dict[Pos, Glyph]] | None = None  # for (level, size, cursor) of the
        # view shown: its frame and marks
        self.recoloured: Callable[[Style], Style] | None = None  # the theme's map colours (themes.py), if its own

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._theme_changed)

    def _theme_changed(self, theme: str) -> None:
        self.recoloured = recolour(theme)
        self.refresh()

    def show(self, view: MapView) -> None:
        self.view, self._framed = view, None
        self.watch_level_offset()

    @property
    def level(self) -> int | None:
        """The level shown (None before the first view)."""
        return None if self.view is None else self._level(self.view)

    def _level(self, view: MapView) -> int:
        return view.user[2] + self.level_offset

    def at_level_shown(self, x: int, y: int) -> Pos | None:
        """The cell at ``x``, ``y`` on the level shown (None before the first view)."""
        return None if self.view is None else (x, y, self._level(self.view))

    @property
    def frame(self) -> Frame | None:
        """The cells the map shows at its size now (None before the first view)."""
        return None if self.view is None else self._frame(self.view)

    def _frame(self, view: MapView) -> Frame:
        return frame(view, self._level(view), self.size.width, self.size.height, self.cursor, self.margin)

    def watch_level_offset(self) -> None:
        self.refresh()
        if self.view is None:
            return
        view, level = self.view, self._level(self.view)
        looking = "" if self.level_offset == 0 else f" (looking; you are on {view.user[2]})"
        minotaur_on = view.minotaur[2] if view.whole and view.minotaur is not None else level  # said when elsewhere
        parts = [f"Level {level}{looking}", "all-seeing" * view.whole,
                 f"Minotaur on {minotaur_on}" * (minotaur_on != level),
                 "2 rows a line" * (self._frame(view).stack > 1)]  # the least needed last
        self.border_title = fitted_title([part for part in parts if part], self.outer_size.width)

    def watch_cursor(self) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self.watch_level_offset()  # the title says when the overview stacks two rows a line

    def cell_at(self, x: int, y: int) -> Pos | None:
        """The world cell drawn at column ``x`` and line ``y`` of the map's content (an overview's upper one)."""
        if self.view is None:
            return None
        f = self._frame(self.view)
        if not (0 <= x < f.columns * f.scale and 0 <= y < self.size.height):
            return None
        return f.left + x // f.scale, f.top - y // f.tall * f.stack, self._level(self.view)

    def _pointed(self, event: events.MouseEvent) -> Pos | None:
        at = event.get_content_offset(self)
        return None if at is None else self.cell_at(at.x, at.y)

    def on_click(self, event: events.Click) -> None:
        cell = self._pointed(event)
        if cell is not None:
            self.post_message(self.Pointed(cell))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        cell = self._pointed(event)
        if self.cursor is not None and cell is not None and cell != self.cursor:
            self.post_message(self.Pointed(cell, moved=True))

    @staticmethod
    def _marks(view: MapView, z: int) -> dict[Pos, Glyph]:
        marks = {p: ITEM_GLYPHS[name] for name, p in view.items.items() if p[2] == z}
        if view.minotaur is not None and view.minotaur[2] == z:
            marks[view.minotaur] = MINOTAUR_SEEN if view.minotaur_seen else MINOTAUR_GUESS
        ux, uy, uz = view.user
        marks[(ux, uy, z)] = USER if z == uz else HERE
        return marks

    @staticmethod
    def glyph(view: MapView, pos: Pos, marks: Mapping[Pos, Glyph]) -> Glyph:
        """What one cell of ``view`` shows: a mark, else the cell if known, else the ground's edge or nothing."""
        b = view.bounds
        if pos in marks:
            return marks[pos]
        x, y, z = pos
        kind = view.cells.get(pos)
        if kind is None:
            if b is not None and not b.contains(x, y, z):  # the edge where nothing is known there
                inside_ring = b.x0 - 1 <= x <= b.x0 + b.width and b.y0 - 1 <= y <= b.y0 + b.height
                return EDGE if inside_ring and z in b.z_range else UNKNOWN
            return UNKNOWN
        if kind == FLOOR and pos in view.walked:
            return TRAIL
        return CELL_GLYPHS.get(kind, UNKNOWN)

    def render_line(self, y: int) -> Strip:
        """One line of the map. The frame and the marks are worked out once a frame, not once a line, and
        neighbouring cells drawn alike go out as one segment: the map is redrawn after every key."""
        width, view = self.size.width, self.view
        if view is None:
            return Strip.blank(width)
        z, cursor = self._level(view), self.cursor
        key = (z, width, self.size.height, cursor)
        if self._framed is None or self._framed[0] != key:
            self._framed = (key, frame(view, z, width, self.size.height, cursor, self.margin), self._marks(view, z))
        _, f, marks = self._framed
        world_y, line, scale, glyph = f.top - y // f.tall * f.stack, y % f.tall, f.scale, self.glyph  # north is up
        segments, run, text, paint = [], None, "", self.recoloured
        for x in range(f.left, f.left + f.columns):
            g = glyph(view, (x, world_y, z), marks)
            if f.stack > 1:
                g = stacked(g, glyph(view, (x, world_y - 1, z), marks))
            style, drawn = g.style, g.drawn(scale, line)
            if cursor is not None and cursor[0] == x and cursor[2] == z and world_y - f.stack < cursor[1] <= world_y:
                style, drawn = CURSOR, drawn if g.text[0] != g.text[1] else " " * len(drawn)  # a wall: a block
            if style is not run:
                if text:
                    segments.append(Segment(text, paint(run) if paint and run else run))
                run, text = style, ""
            text += drawn
        segments.append(Segment(text, paint(run) if paint and run else run))
        return Strip(segments).adjust_cell_length(width)
