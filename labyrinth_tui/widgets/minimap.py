"""The z-level map: one widget drawing the lines of the labyrinth the user has seen.

Each cell is two columns wide so the map looks square; a whole level that must fit is drawn at
one column a cell, or, when even that is too tall, two cells to a character (upper and lower
half-blocks): an overview. Only cells the user has seen are drawn (fog of war), unless the view is omniscient (spectating);
the hunting ground's edge, the user's trail and a "you are here" mark on other levels are drawn
on top. Every glyph the map can draw is in ``LEGEND``, which the help shows: one table.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from labyrinth.engine import UserInput
from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.geometry import Pos
from labyrinth.engine.presets import Bounds


@dataclass(frozen=True)
class Glyph:
    """How the map draws one thing: two columns (the first alone at half width), and what it means."""

    text: str
    style: Style
    meaning: str

    @property
    def colour(self):
        """The colour it is drawn in as half a character (an overview): its glyph's, or none (floor, unknown)."""
        return None if self in (CELL_GLYPHS[FLOOR], UNKNOWN) else self.style.color


CELL_GLYPHS = {
    ROCK: Glyph("██", Style(color="grey23"), "rock"),
    FLOOR: Glyph("· ", Style(color="grey42"), "floor"),
    CRAWLWAY: Glyph("==", Style(color="dark_goldenrod"), "crawlway (walk only; the Minotaur cannot enter)"),
    RAMP_UP: Glyph("^ ", Style(color="cyan", bold=True), "ramp up"),
    RAMP_DOWN: Glyph("v ", Style(color="cyan", bold=True), "ramp down"),
}
ITEM_GLYPHS = {
    "RED STONE": Glyph("R ", Style(color="red", bold=True), "red stone"),
    "BLUE STONE": Glyph("B ", Style(color="dodger_blue1", bold=True), "blue stone"),
    "YELLOW STONE": Glyph("Y ", Style(color="yellow", bold=True), "yellow stone"),
    "LANTERN": Glyph("L ", Style(color="orange1", bold=True), "lantern"),
}
TRAIL = Glyph("• ", Style(color="green", dim=True), "floor you have walked (your trail)")
USER = Glyph("@ ", Style(color="bright_white", bold=True, bgcolor="dark_green"), "you")
HERE = Glyph("X ", Style(color="bright_green", bold=True), "you are here, on another level (looking with [ ])")
MINOTAUR_SEEN = Glyph("M ", Style(color="bright_white", bold=True, bgcolor="red3"), "the Minotaur, in sight")
MINOTAUR_GUESS = Glyph("m ", Style(color="red", dim=True), "where the Minotaur sounds to be (a guess)")
EDGE = Glyph("░░", Style(color="grey50"), "the hunting ground's edge (the maze goes on beyond it)")
UNKNOWN = Glyph("  ", Style(), "not seen yet")
HALVES = Glyph("▀", Style(color="grey23"), "a whole level too tall to fit (spectating, o): two cells a character, "
                                           "each half in its cell's colour (rock grey, floor blank)")
LEGEND: tuple[Glyph, ...] = (*CELL_GLYPHS.values(), TRAIL, *ITEM_GLYPHS.values(), USER, HERE, MINOTAUR_SEEN,
                             MINOTAUR_GUESS, EDGE, HALVES, UNKNOWN)


def legend_rows() -> list[tuple[str, str]]:
    """The legend as (glyph as drawn, meaning) rows, a blank glyph as "": what the help shows."""
    return [(g.text.rstrip(), g.meaning) for g in LEGEND]


SHUT = {"UP RAMP": "No ramp leads up here.", "DOWN RAMP": "No ramp leads down here."}  # else "A wall."


def key_move(direction: str, known_ways: list[str], run: bool = False) -> UserInput | str:
    """What a map key plays: one step, or with shift a run (a MOVE without a count, which stops at the
    next junction, ramp or item). A way the player knows is shut (not in the last response's
    visible_paths) gives the words that say so instead: bumping a wall with a key costs no time."""
    if direction not in known_ways:
        return SHUT.get(direction, "A wall.")
    if run:
        return UserInput(command="MOVE", direction=direction, speed=2)
    return UserInput(command="MOVE", direction=direction, steps=1)


@dataclass
class MapView:
    """What the map draws: cells by position, the trail, the ground's edge, marks on top. Built by the
    screen from the session. ``whole``: the whole level at once if it fits, both agents in view if not."""

    cells: Mapping[Pos, int]
    user: Pos
    items: Mapping[str, Pos]
    minotaur: Pos | None
    minotaur_seen: bool
    walked: Collection[Pos] = ()
    bounds: Bounds | None = None
    whole: bool = False


@dataclass(frozen=True)
class Frame:
    """Which world cells the map's lines show: ``scale`` columns a cell and ``stack`` cells a line (2: an
    overview, a cell in each half of a character), from ``left`` (west) and ``top`` (north), ``columns``
    by ``rows`` cells."""

    scale: int
    left: int
    top: int
    columns: int
    rows: int
    stack: int = 1


SIZES = ((2, 1), (1, 1), (1, 2))  # (columns a cell, cells a line) a whole level is drawn at, largest first


def _fitting(view: MapView, width: int, height: int) -> tuple[int, int]:
    """The largest size a whole level fits at, ground and edge; the smallest when none fits. Any other
    view: two columns a cell, one cell a line."""
    b = view.bounds
    if not view.whole or b is None:
        return SIZES[0]
    return next(((scale, stack) for scale, stack in SIZES
                 if (b.width + 2) * scale <= width and b.height + 2 <= height * stack), SIZES[-1])


def frame(view: MapView, z: int, width: int, height: int) -> Frame:
    """Centre on the ground along an axis where the ground and its edge fit, else on the user (on both
    agents when the whole level is asked and does not fit) but never past the edge: no line is wasted
    on what lies beyond it. A whole level is drawn as large as it fits (``SIZES``)."""
    b = view.bounds
    scale, stack = _fitting(view, width, height)
    columns, rows = width // scale, height * stack
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
    ux, uy, _ = view.user  # the maze goes on beyond the edge and the user may walk out: it stays in view
    if not left <= ux < left + columns:
        left = ux - columns // 2
    if not top - rows < uy <= top:
        top = uy + rows // 2
    return Frame(scale, left, top, columns, rows, stack)


class Minimap(Widget, can_focus=True):
    """The map around the user on one level; focus it to drive the game with keys."""

    level_offset: reactive[int] = reactive(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: MapView | None = None
        self._framed: tuple[tuple[int, int, int], Frame, dict[Pos, Glyph]] | None = None  # for (level, size)
        # of the view shown: its frame and marks

    def show(self, view: MapView) -> None:
        self.view, self._framed = view, None
        self.watch_level_offset()

    @property
    def level(self) -> int | None:
        return None if self.view is None else self.view.user[2] + self.level_offset

    @property
    def frame(self) -> Frame | None:
        """The cells the map shows at its size now."""
        if self.view is None:
            return None
        return frame(self.view, self.level, self.size.width, self.size.height)

    def watch_level_offset(self) -> None:
        self.refresh()
        if self.view is None:
            return
        view = self.view
        looking = "" if self.level_offset == 0 else f" (looking; you are on {view.user[2]})"
        elsewhere = view.whole and view.minotaur is not None and view.minotaur[2] != self.level
        self.border_title = (f"Level {self.level}{looking}" + (", all-seeing" if view.whole else "")
                             + (f", Minotaur on {view.minotaur[2]}" if elsewhere else "")
                             + (", 2 rows a line" if self.frame.stack > 1 else ""))  # the least, last

    def on_resize(self) -> None:
        self.watch_level_offset()  # the title says when the overview stacks two rows a line

    def _marks(self, z: int) -> dict[Pos, Glyph]:
        view = self.view
        marks = {p: ITEM_GLYPHS[name] for name, p in view.items.items() if p[2] == z}
        if view.minotaur is not None and view.minotaur[2] == z:
            marks[view.minotaur] = MINOTAUR_SEEN if view.minotaur_seen else MINOTAUR_GUESS
        ux, uy, uz = view.user
        marks[(ux, uy, z)] = USER if z == uz else HERE
        return marks

    def glyph(self, pos: Pos, marks: Mapping[Pos, Glyph]) -> Glyph:
        """What one cell of the map shows: a mark, else the cell if known, else the ground's edge or nothing."""
        view, b = self.view, self.view.bounds
        if pos in marks:
            return marks[pos]
        x, y, z = pos
        kind = view.cells.get(pos)
        if kind is None and b is not None and not b.contains(x, y, z):  # the edge where nothing is known there
            inside_ring = b.x0 - 1 <= x <= b.x0 + b.width and b.y0 - 1 <= y <= b.y0 + b.height
            return EDGE if inside_ring and z in b.z_range else UNKNOWN
        if kind == FLOOR and pos in view.walked:
            return TRAIL
        return CELL_GLYPHS.get(kind, UNKNOWN)

    def render_line(self, y: int) -> Strip:
        """One line of the map. The frame and the marks are worked out once a frame, not once a line, and
        neighbouring cells drawn alike go out as one segment: the map is redrawn after every key."""
        width = self.size.width
        if self.view is None:
            return Strip.blank(width)
        z = self.level
        key = (z, width, self.size.height)
        if self._framed is None or self._framed[0] != key:
            self._framed = (key, frame(self.view, z, width, self.size.height), self._marks(z))
        _, f, marks = self._framed
        world_y, scale, glyph = f.top - y * f.stack, f.scale, self.glyph  # north is up
        segments, run, text = [], None, ""
        for x in range(f.left, f.left + f.columns):
            g = glyph((x, world_y, z), marks)
            if f.stack > 1:
                g = _stacked(g, glyph((x, world_y - 1, z), marks))
            if g.style is not run:
                if text:
                    segments.append(Segment(text, run))
                run, text = g.style, ""
            text += g.text[:scale]
        segments.append(Segment(text, run))
        return Strip(segments).adjust_cell_length(width)


MARKS_FIRST = (USER, MINOTAUR_SEEN, MINOTAUR_GUESS, HERE)  # which mark an overview's character shows of two


def _stacked(upper: Glyph, lower: Glyph) -> Glyph:
    """One character of an overview for two cells, one above the other: a mark (the agents first), else
    an upper half-block in the upper cell's colour on the lower cell's."""
    marks = [g for g in (upper, lower) if g in MARKS_FIRST or g in ITEM_GLYPHS.values()]
    if marks:
        return min(marks, key=lambda g: MARKS_FIRST.index(g) if g in MARKS_FIRST else len(MARKS_FIRST))
    if upper.colour is None and lower.colour is None:
        return UNKNOWN  # floor or nothing known, in both
    return Glyph(HALVES.text, Style(color=upper.colour or "default", bgcolor=lower.colour or "default"),
                 HALVES.meaning)
