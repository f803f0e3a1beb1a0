"""The Memory screen: the reflections the agents learn from, newest first, filtered
by role and outcome; the highlighted one in full, with its evidence."""

from __future__ import annotations

import json

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Select, Static

from saves.experience import Experience, Reflection

ALL = "all"
COLUMNS = ("when", "role", "outcome", "game", "agent")  # then the lesson, in the room left
LESSON_MIN = 20


class MemoryScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q", "dismiss", "close", id="memory-close")]

    def compose(self) -> ComposeResult:
        log = Experience()
        self.reflections = list(reversed(log.read()))
        self.notice = log.take_notice()
        with Vertical(id="memory", classes="dialog"):
            yield Static(Text(f"Memory: {len(self.reflections)} reflections in {log.path}"), classes="dialog-title")
            with Horizontal(id="memory-filters"):
                yield Select([("both roles", ALL), ("the user", "user"), ("the Minotaur", "minotaur")],
                             value=ALL, allow_blank=False, id="memory-role")
                yield Select([("every outcome", ALL), *((o.lower(), o) for o in ("ESCAPED", "DEATH", "TIMEOUT"))],
                             value=ALL, allow_blank=False, id="memory-outcome")
            yield DataTable(id="memory-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="memory-text"):
                yield Static(id="memory-body")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        if self.notice:
            self.notify(escape(self.notice), title="Experience log", severity="warning", timeout=10)
        self._fill()
        table.focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        self._fill()

    def on_resize(self) -> None:
        self._fill(keep_row=True)

    def _fill(self, keep_row: bool = False) -> None:
        """The table anew, its lesson column as wide as the room left (a longer lesson ends in ...)."""
        role = self.query_one("#memory-role", Select).value
        outcome = self.query_one("#memory-outcome", Select).value
        self.shown = [r for r in self.reflections
                      if role in (ALL, r.role) and outcome in (ALL, r.outcome)]
        table = self.query_one(DataTable)
        row = table.cursor_row if keep_row else 0
        rows = [[Text(cell) for cell in (r.created_at[:16].replace("T", " "), r.role, r.outcome,
                                         f"{r.preset} {r.seed}", r.agent)] for r in self.shown]
        table.clear(columns=True)
        table.add_columns(*COLUMNS)
        pads = 2 * table.cell_padding
        widths = [max((len(cells[i]) for cells in rows), default=0) for i in range(len(COLUMNS))]
        used = sum(max(w, len(name)) + pads for w, name in zip(widths, COLUMNS, strict=True))
        room = table.scrollable_content_region.width or table.size.width
        table.add_column("lesson", width=max(LESSON_MIN, room - used - pads - 1))  # - 1: the scrollbar's edge
        for cells, r in zip(rows, self.shown, strict=True):  # Text cells: a lesson's "[...]" is words, not markup
            table.add_row(*cells, Text(r.key_reflection, no_wrap=True, overflow="ellipsis"))
        if self.shown:
            table.move_cursor(row=min(row, len(self.shown) - 1))
        self._show(self.shown[min(row, len(self.shown) - 1)] if self.shown else None)

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
        who = "the Minotaur" if r.role == "minotaur" else "the user"
        heading = (f"{r.id}: {who} ({r.agent}), {r.outcome} after {r.turns} turns, {r.game_time:g} s, "
                   f"{r.preset} seed {r.seed}\n\n")
        body.update(Text.assemble(
            (heading, "bold"), r.key_reflection, (f"\n({words})\n\n", "italic"),
            ("evidence:\n" + "\n".join(f"  {key}: {json.dumps(value)}" for key, value in r.evidence.items()),
             "dim")))
