"""The Memory screen: the reflections the agents learn from, newest first, filtered
by role and outcome; the highlighted one in full, with its evidence. Everything read
from the log is shown as words (``plain``, ``printable``): never markup, never an escape;
outcomes, roles, agents, the lessons and their evidence in the game's words (game_words.py, evidence_words.py),
not the log's."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Select, Static

from labyrinth.agents.learning.memory_manager import lesson_words
from labyrinth.engine.schemas import OUTCOMES
from labyrinth.saves.experience import Experience, Reflection
from labyrinth.saves.paths import StorageError
from labyrinth.saves.results_terms import ROLE_WORDS

from ..dates import local_time, short_time
from ..evidence_words import evidence_lines
from ..game_words import agent_name, agent_words, ended, side_ended
from ..terminal_text import plain, printable
from ..widgets.footer import SteadyFooter

ALL = "all"
AGENT_CHARS = 10  # of a model's name, where room is short
CELLS: dict[str, tuple[Callable[[Reflection], str] | None, ...]] = {  # each column's forms, the longest first;
    # None: the column left out. Then the lesson, in the room left.
    "when": (lambda r: local_time(r.created_at), lambda r: short_time(r.created_at), None),
    "role": (lambda r: ROLE_WORDS.get(r.role, r.role),),
    "outcome": (lambda r: ended(r.outcome),),
    "game": (lambda r: f"{r.preset} {r.seed}", lambda r: r.preset, None),
    "agent": (lambda r: agent_name(r.agent), lambda r: cut(agent_name(r.agent), AGENT_CHARS), None)}
# What gives way on a narrow screen, in turn, so that the lesson keeps LESSON_MIN (the whole of it is below
# the list): the time to its short form (the list is newest first anyway), a model's long name cut, the game
# to its hunting ground (the seed is below too); then the time, the game and the agent left out. Which side
# a reflection is of, and how its game ended, always stay.
SHORTEN_FIRST = ("when", "agent", "game", "when", "game", "agent")
LESSON_MIN = 20


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
            n = len(self.reflections)
            yield Static(plain(f"Memory: {n} reflection{'s' * (n != 1)} in {log.path}"), classes="dialog-title")
            with Horizontal(id="memory-filters"):
                yield Select([("both roles", ALL), *((f"the {word}", role) for role, word in ROLE_WORDS.items())],
                             value=ALL, allow_blank=False, id="memory-role")
                yield Select([("every outcome", ALL), *((ended(o), o) for o in OUTCOMES)],
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
        room left (a longer lesson ends in ...), the other columns shortened or left out if need be
        (SHORTEN_FIRST)."""
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
        chosen = dict.fromkeys(CELLS, 0)  # each column's form
        for name in [None, *SHORTEN_FIRST]:
            if name is not None:
                chosen[name] = min(chosen[name] + 1, len(CELLS[name]) - 1)
            forms = {n: CELLS[n][i] for n, i in chosen.items()}
            cells = {n: [printable(form(r)) for r in self.shown] for n, form in forms.items() if form is not None}
            widths = {n: max([len(n), *map(len, column)]) + pads for n, column in cells.items()}
            if room - sum(widths.values()) - pads - 1 >= LESSON_MIN:  # - 1: the scrollbar's edge
                break
        table.clear(columns=True)
        table.add_columns(*cells)
        table.add_column("lesson", width=max(LESSON_MIN, room - sum(widths.values()) - pads - 1))
        for i, r in enumerate(self.shown):
            table.add_row(*(Text(column[i]) for column in cells.values()),  # Text: never markup
                          Text(printable(lesson_words(r.key_reflection)), no_wrap=True, overflow="ellipsis"))
        if self.shown:
            table.move_cursor(row=row)
        self._show(self.shown[row] if self.shown else None)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if 0 <= event.cursor_row < len(self.shown):
            self._show(self.shown[event.cursor_row])

    def _show(self, r: Reflection | None) -> None:
        body = self.query_one("#memory-body", Static)
        if r is None:
            empty = "No reflections yet: each game you play, hot-seat or spectate adds one per role as it ends."
            body.update(empty if not self.reflections else "No reflection matches these filters.")
            return
        words = "in the model's own words" if r.source == "model" else "from the game's events"
        who = agent_words(printable(r.agent), r.role)
        heading = (f"{who[0].upper()}{who[1:]} {side_ended(r.role, r.outcome)} after {r.turns} "
                   f"turn{'s' * (r.turns != 1)} ({r.game_time:g} s of game time), {printable(r.preset)}, "
                   f"seed {r.seed}\n\n")
        evidence = "\n".join(f"  {line}" for line in evidence_lines(r.evidence))
        body.update(Text.assemble((heading, "bold"), printable(lesson_words(r.key_reflection)),
                                  (f"\n({words})\n\n", "italic"), (f"evidence:\n{evidence}", "dim")))


def cut(text: str, chars: int) -> str:
    """``text`` in at most ``chars`` characters, its end ... where it is cut."""
    return text if len(text) <= chars else f"{text[:chars - 1]}…"

