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
        table.add_columns("when", "role", "outcome", "game", "agent", "lesson")
        if self.notice:
            self.notify(escape(self.notice), title="Experience log", severity="warning", timeout=10)
        self._fill()
        table.focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        self._fill()

    def _fill(self) -> None:
        role = self.query_one("#memory-role", Select).value
        outcome = self.query_one("#memory-outcome", Select).value
        self.shown = [r for r in self.reflections
                      if role in (ALL, r.role) and outcome in (ALL, r.outcome)]
        table = self.query_one(DataTable)
        table.clear()
        for r in self.shown:  # Text cells: a lesson's "[...]" is words, not markup
            lesson = r.key_reflection[:60] + ("..." if len(r.key_reflection) > 60 else "")
            table.add_row(*map(Text, (r.created_at[:16].replace("T", " "), r.role, r.outcome, f"{r.preset} {r.seed}",
                                      r.agent, lesson)))
        self._show(self.shown[0] if self.shown else None)

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
        heading = (f"{r.id}: the {r.role} ({r.agent}), {r.outcome} after {r.turns} turns, {r.game_time:g} s, "
                   f"{r.preset} seed {r.seed}\n\n")
        body.update(Text.assemble(
            (heading, "bold"), r.key_reflection, (f"\n({words})\n\n", "italic"),
            ("evidence:\n" + "\n".join(f"  {key}: {json.dumps(value)}" for key, value in r.evidence.items()),
             "dim")))
