"""The Memory screen: the reflections the agents learn from, newest first, filtered
by role and outcome; the highlighted one in full, with its evidence. Everything read
from the log is shown as words (``plain``, ``printable``): never markup, never an escape;
outcomes, agents and the evidence's names in the game's words (game_words.py), not the log's."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Select, Static

from labyrinth.saves.experience import Experience, Reflection
from labyrinth.saves.paths import StorageError

from ..dates import local_time
from ..game_words import ROLES, agent_name, agent_words, ended, side_ended
from ..terminal_text import plain, printable
from ..widgets.footer import SteadyFooter

ALL = "all"
CELLS: dict[str, Callable[[Reflection], str]] = {  # then the lesson, in the room left
    "when": lambda r: local_time(r.created_at), "role": lambda r: ROLES.get(r.role, r.role),
    "outcome": lambda r: ended(r.outcome), "game": lambda r: f"{r.preset} {r.seed}",
    "agent": lambda r: agent_name(r.agent)}
DROPPED_FIRST = ("when", "agent")  # on a narrow screen, so that the lesson keeps some room
LESSON_MIN = 24


class MemoryScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    #memory {
        height: 90%;
    }

    #memory-filters {
        height: auto;
    }

    #memory-filters Select {
        width: 1fr;
        margin-right: 1;
    }

    #memory-table {
        height: 1fr;
    }

    #memory-text {
        height: 1fr;
        border-top: solid $accent;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss", "close", id="memory-close")]

    def compose(self) -> ComposeResult:
        log = Experience()
        try:
            self.reflections, self.notice = list(reversed(log.read())), log.take_notice()
        except StorageError as exc:  # the data directory cannot be used: say so, list nothing
            self.reflections, self.notice = [], str(exc)
        self.built: tuple | None = None  # the filters and width the table was last built for
        with Vertical(id="memory", classes="dialog"):
            yield Static(plain(f"Memory: {len(self.reflections)} reflections in {log.path}"), classes="dialog-title")
            with Horizontal(id="memory-filters"):
                yield Select([("both roles", ALL), ("the user", "user"), ("the Minotaur", "minotaur")],
                             value=ALL, allow_blank=False, id="memory-role")
                yield Select([("every outcome", ALL), *((ended(o), o) for o in ("ESCAPED", "DEATH", "TIMEOUT"))],
                             value=ALL, allow_blank=False, id="memory-outcome")
            yield DataTable(id="memory-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="memory-text"):
                yield Static(id="memory-body")
        yield SteadyFooter()  # its own keys: the title's below would show keys this dialog does not take

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        if self.notice:
            self.notify(printable(self.notice), title="Experience log", severity="warning", timeout=10, markup=False)
        self._fill()
        table.focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        self._fill()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fill, keep_row=True)  # once the table has its new size

    def _fill(self, keep_row: bool = False) -> None:
        """The table anew, when the filters or its width changed: the lesson column as wide as the
        room left (a longer lesson ends in ...), the time and agent columns left out if need be."""
        role = self.query_one("#memory-role", Select).value
        outcome = self.query_one("#memory-outcome", Select).value
        table = self.query_one(DataTable)
        room = table.scrollable_content_region.width
        if self.built == (role, outcome, room):
            return
        self.built = (role, outcome, room)
        self.shown = [r for r in self.reflections if role in (ALL, r.role) and outcome in (ALL, r.outcome)]
        row = min(table.cursor_row if keep_row else 0, len(self.shown) - 1)
        pads = 2 * table.cell_padding
        cells = {name: [Text(printable(cell(r))) for r in self.shown] for name, cell in CELLS.items()}  # not markup
        widths = {name: max([len(name), *(len(c) for c in column)]) + pads for name, column in cells.items()}
        names = list(CELLS)
        for name in DROPPED_FIRST:
            if room - sum(widths[n] for n in names) - pads - 1 >= LESSON_MIN:  # - 1: the scrollbar's edge
                break
            names.remove(name)
        table.clear(columns=True)
        table.add_columns(*names)
        table.add_column("lesson", width=max(LESSON_MIN, room - sum(widths[n] for n in names) - pads - 1))
        for i, r in enumerate(self.shown):
            table.add_row(*(cells[name][i] for name in names),
                          Text(printable(r.key_reflection), no_wrap=True, overflow="ellipsis"))
        if self.shown:
            table.move_cursor(row=row)
        self._show(self.shown[row] if self.shown else None)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if 0 <= event.cursor_row < len(self.shown):
            self._show(self.shown[event.cursor_row])

    def _show(self, r: Reflection | None) -> None:
        body = self.query_one("#memory-body", Static)
        if r is None:
            body.update("No reflections yet: every finished game adds one per role." if not self.reflections
                        else "No reflection matches these filters.")
            return
        words = "in the model's own words" if r.source == "model" else "from the game's events"
        who = agent_words(printable(r.agent), r.role)
        heading = (f"{who[0].upper()}{who[1:]} {side_ended(r.role, r.outcome)} after {r.turns} turns "
                   f"({r.game_time:g} s of game time), {printable(r.preset)}, seed {r.seed}\n\n")
        evidence = "\n".join(f"  {named(key)}: {worded(value)}" for key, value in r.evidence.items())
        body.update(Text.assemble((heading, "bold"), printable(r.key_reflection), (f"\n({words})\n\n", "italic"),
                                  (f"evidence:\n{evidence}", "dim")))


def named(key: str) -> str:
    """A name of the evidence in words: 'ramps_taken' is 'ramps taken', 'time_s' 'time (s)'."""
    key = printable(key)
    return f"{key.removesuffix('_s')} (s)".replace("_", " ") if key.endswith("_s") else key.replace("_", " ")


def worded(value: object) -> str:
    """A value of the evidence, as the JSON it is stored as but with its names in words (``named``)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{named(str(key))}: {worded(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(worded(item) for item in value) + "]"
    return printable(json.dumps(value))
