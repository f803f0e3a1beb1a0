"""The z-level minimap: one widget drawing lines of the map the user has seen.

Each cell is two columns wide so the map looks square. Only cells the user has
seen are drawn (fog of war), unless the view is omniscient (spectating). The
level shown follows the user; [ and ] look at the levels above and below.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from labyrinth.engine import UserInput
from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.geometry import Pos

GLYPHS = {
    ROCK: ("██", Style(color="grey23")),
    FLOOR: ("· ", Style(color="grey42")),
    CRAWLWAY: ("==", Style(color="dark_goldenrod")),
    RAMP_UP: ("^ ", Style(color="cyan", bold=True)),
    RAMP_DOWN: ("v ", Style(color="cyan", bold=True)),
}
ITEM_GLYPHS = {
    "RED STONE": ("R ", Style(color="red", bold=True)),
    "BLUE STONE": ("B ", Style(color="dodger_blue1", bold=True)),
    "YELLOW STONE": ("Y ", Style(color="yellow", bold=True)),
    "LANTERN": ("L ", Style(color="orange1", bold=True)),
}
USER = ("@ ", Style(color="bright_white", bold=True, bgcolor="dark_green"))
MINOTAUR_SEEN = ("M ", Style(color="bright_white", bold=True, bgcolor="red3"))
MINOTAUR_GUESS = ("m ", Style(color="red", dim=True))
UNKNOWN = ("  ", Style())


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


class MapView:
    """What the minimap draws: cells by position, marks on top. Built by the screen from the session."""

    def __init__(self, cells, user: Pos, items: dict[str, Pos], minotaur: Pos | None, minotaur_seen: bool) -> None:
        self.cells, self.user, self.items = cells, user, items
        self.minotaur, self.minotaur_seen = minotaur, minotaur_seen


class Minimap(Widget, can_focus=True):
    """The map around the user on one level; focus it to drive the game with keys."""

    level_offset: reactive[int] = reactive(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: MapView | None = None

    def show(self, view: MapView) -> None:
        self.view = view
        self.watch_level_offset()

    @property
    def level(self) -> int | None:
        return None if self.view is None else self.view.user[2] + self.level_offset

    def watch_level_offset(self) -> None:
        self.refresh()
        self.border_title = f"Level {self.level}" + ("" if self.level_offset == 0 else " (looking)")

    def render_line(self, y: int) -> Strip:
        view = self.view
        width = self.size.width
        if view is None:
            return Strip.blank(width)
        columns, rows = width // 2, self.size.height
        ux, uy, uz = view.user
        z = uz + self.level_offset
        left, top = ux - columns // 2, uy + rows // 2
        world_y = top - y  # north is up
        marks = {p: glyph for name, p in view.items.items() if p[2] == z
                 for glyph in [ITEM_GLYPHS[name]]}
        if view.minotaur is not None and view.minotaur[2] == z:
            marks[view.minotaur] = MINOTAUR_SEEN if view.minotaur_seen else MINOTAUR_GUESS
        if self.level_offset == 0:
            marks[view.user] = USER
        segments = []
        for i in range(columns):
            pos = (left + i, world_y, z)
            text, style = marks.get(pos) or GLYPHS.get(view.cells.get(pos), UNKNOWN)
            segments.append(Segment(text, style))
        return Strip(segments).adjust_cell_length(width)
