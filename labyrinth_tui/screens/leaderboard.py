"""The Leaderboard screen: the tournament's standings as `labyrinth leaderboard`
prints them (the same rows, from leaderboard_rows): each role's ratings with their
intervals and a sparkline of each rating over its matches, a role switch, the
paired differences, the head-to-head table, the highlighted contestant's rating
over its matches as a chart (widgets/rating_chart), and every match in the results
database, whose replay Enter opens in the replay player.

The database is read in a background thread: one held locked by another program
is waited for (up to the results database's own limit) without freezing the
screen. A database that cannot be read, its damaged rows (left out), matches of
different rules rated together, and a match whose replay is missing or damaged
are said on the screen in words; nothing is changed on disk.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.results_db import ResultsUnusable

from ..background import run_in_background
from ..leaderboard_rows import (
    ENTRY_COLUMNS,
    HEAD_TO_HEAD_COLUMNS,
    MATCH_COLUMNS,
    PAIRED_COLUMNS,
    RATING_COLUMNS,
    ROLE_WORDS,
    Board,
    Column,
    entry_rows,
    head_to_head_rows,
    history_range,
    match_row,
    nothing_to_show,
    paired_rows,
    rating_rows,
    read_board,
    sparkline,
)
from ..leaderboard_tables import ENTRIES_TITLE, HEAD_TO_HEAD_TITLE, RATINGS_TITLE, other_title, paired_title
from ..terminal_text import plain
from ..widgets.footer import SteadyFooter
from ..widgets.rating_chart import RatingChart

HEAD_TO_HEAD = "head to head"  # what the upper table shows instead of a role's ratings
PAIRED = "paired"  # the role's paired differences instead of its ratings
ENTRIES = "entries"  # every contestant of the role entered, rated or not: void matches, failures, cost
TREND = Column("over matches")  # each contestant's rating after each match, on its role's one scale
TREND_MIN = 8  # the narrowest sparkline: on a narrow screen the table scrolls sideways rather than lose it
DAMAGED_SHOWN = 3  # damaged rows said one by one; more are counted (`labyrinth leaderboard` lists them all)


class LeaderboardScreen(Screen):
    DEFAULT_CSS = """
    /* The standings above, as tall as their rows up to about a third of the screen, the highlighted
       contestant's rating chart under them, the matches below in the room left. */
    #board-title {
        height: auto;
        padding: 0 1;
    }

    #board-standings {
        height: auto;
        max-height: 40%;
        border: round $primary-darken-2;
        border-title-color: $text-muted;
        border-subtitle-color: $text-muted;
    }

    #board-chart {
        height: 7;
        border: round $primary-darken-2;
        border-title-color: $text-muted;
        border-subtitle-color: $text-muted;
    }

    #board-chart > .rating-chart--line {
        color: $accent;
    }

    #board-chart > .rating-chart--interval {
        color: $warning;
    }

    #board-chart > .rating-chart--scale {
        color: $text-muted;
    }

    #board-matches {
        height: 1fr;
        min-height: 4;
        border: round $primary-darken-2;
        border-title-color: $text-muted;
    }

    #board-standings:focus, #board-matches:focus {
        border: round $accent;
    }

    #board-problem {
        height: auto;
        padding: 0 1;
    }
    """
    AUTO_FOCUS = "#board-standings"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "switch_role", "user/Minotaur", id="board-role"),
        Binding("h", "head_to_head", "head to head", id="board-head-to-head"),
        Binding("p", "paired", "paired", id="board-paired"),
        Binding("e", "entries", "entries", id="board-entries"),
        Binding("escape,q", "app.pop_screen", "back", id="board-close"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.board: Board | None = None
        self.shown = next(iter(ROLES))  # a role, HEAD_TO_HEAD, or PAIRED or ENTRIES (the role's)
        self.role = self.shown  # the role last shown, for the switch to go from

    def compose(self) -> ComposeResult:
        yield Static("Reading the results…", id="board-title")
        yield DataTable(id="board-standings", cursor_type="row", zebra_stripes=True)
        yield RatingChart(id="board-chart")
        yield DataTable(id="board-matches", cursor_type="row", zebra_stripes=True)
        yield Static(id="board-problem", classes="problem")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#board-matches", DataTable).border_title = "matches: Enter watches one"
        run_in_background(self.app, read_board, self._read, self._unreadable)

    def _unreadable(self, error: BaseException) -> None:
        """A database that cannot be read is said; any other error is a bug, raised."""
        if not self.is_attached:
            return  # closed while the database was read
        if not isinstance(error, ResultsUnusable):
            raise error
        self.query_one("#board-title", Static).update(plain(str(error), style="bold red"))

    def _read(self, board: Board | None) -> None:
        if not self.is_attached:
            return  # closed while the database was read
        title = self.query_one("#board-title", Static)
        damaged = _damaged(board.damaged if board else ())
        if empty := nothing_to_show(board):
            title.update(Text("\n").join([plain(empty[0].upper() + empty[1:]), *damaged]))
            return
        assert board is not None  # nothing_to_show says why there is none
        self.board = board
        lines = [plain(f"Leaderboard: {board.counted('e lists them by contestant')} in {board.path}", style="bold"),
                 plain(f"rated together: {board.pooled()}", style="dim")]
        if warning := board.warning():
            lines.append(plain(warning, style="bold yellow"))
        title.update(Text("\n").join([*lines, *damaged]))
        _fill(self.query_one("#board-matches", DataTable), MATCH_COLUMNS,
              (match_row(match, board.standings) for match in board.matches))
        self._show_standings()

    # --- the upper table ---------------------------------------------------------

    def action_switch_role(self) -> None:
        roles = list(ROLES)
        self.shown = self.role = roles[(roles.index(self.role) + 1) % len(roles)]
        self._show_standings()

    def action_head_to_head(self) -> None:
        self.shown = self.role if self.shown == HEAD_TO_HEAD else HEAD_TO_HEAD
        self._show_standings()

    def action_paired(self) -> None:
        self.shown = self.role if self.shown == PAIRED else PAIRED
        self._show_standings()

    def action_entries(self) -> None:
        self.shown = self.role if self.shown == ENTRIES else ENTRIES
        self._show_standings()

    def _show_standings(self) -> None:
        if self.board is None:
            return
        table = self.query_one("#board-standings", DataTable)
        standings, row = self.board.standings, table.cursor_row
        self.query_one("#board-chart", RatingChart).display = self.shown in ROLES
        if self.shown in (HEAD_TO_HEAD, PAIRED, ENTRIES):
            if self.shown == HEAD_TO_HEAD:
                _fill(table, HEAD_TO_HEAD_COLUMNS, head_to_head_rows(standings))
                table.border_title = f"{HEAD_TO_HEAD_TITLE} · h: ratings"
            elif self.shown == ENTRIES:
                _fill(table, ENTRY_COLUMNS, entry_rows(self.board.entries[self.role]))
                table.border_title = f"{ENTRIES_TITLE.format(ROLE_WORDS[self.role])} · e: ratings"
            else:
                _fill(table, PAIRED_COLUMNS, paired_rows(standings.paired[self.role]))
                table.border_title = f"{paired_title(self.role)} · p: ratings"
            table.border_subtitle = ""
            table.move_cursor(row=row)
            return
        ratings = standings.ratings[self.shown]
        rows = rating_rows(ratings)
        low, high = history_range(ratings)
        room = max(TREND_MIN, table.scrollable_content_region.width - _width(table, RATING_COLUMNS, rows)
                   - 2 * table.cell_padding - 1)  # - 1: the scrollbar's edge
        _fill(table, (*RATING_COLUMNS, TREND), [(*row, sparkline(r.history, room, low, high))
                                                for row, r in zip(rows, ratings, strict=True)])
        table.border_title = (f"{RATINGS_TITLE.format(ROLE_WORDS[self.shown])} · r: {other_title(self.shown)} · "
                              "p: paired · e: entries · h: head to head")
        table.border_subtitle = f"rating over matches, in play order: ▁ {low:.0f} … █ {high:.0f}"
        table.move_cursor(row=row)  # where it was, on a resize
        self._chart_row(table.cursor_row)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "board-standings":
            self._chart_row(event.cursor_row)

    def _chart_row(self, row: int) -> None:
        """The chart shows the contestant on ``row`` of the ratings (none when another table is shown)."""
        ratings = self.board.standings.ratings.get(self.shown, ()) if self.board else ()
        self.query_one("#board-chart", RatingChart).rating = ratings[row] if 0 <= row < len(ratings) else None

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_standings)  # the sparklines as wide as the new room

    # --- the matches ---------------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id != "board-matches" or self.board is None:
            return
        from .replay_player import watch

        match = self.board.matches[event.cursor_row]  # the rows are the matches, in order
        problem = self.query_one("#board-problem", Static)
        problem.update("")
        if match.replay is None:
            problem.update("This match was kept without a replay: nothing to watch.")
            return
        why = watch(self.app, Path(match.replay), "This match's replay")
        if why:
            problem.update(why)


def _width(table: DataTable, columns: tuple[Column, ...], rows: list[tuple[str, ...]]) -> int:
    """How wide ``columns`` are with ``rows`` in them, their padding included."""
    return sum(max(len(c.header), *(len(row[i]) for row in rows)) + 2 * table.cell_padding
               for i, c in enumerate(columns))


def _fill(table: DataTable, columns: tuple[Column, ...], rows) -> None:
    """``table`` anew with ``columns`` and ``rows`` (already printable; shown as words, never markup)."""
    table.clear(columns=True)
    table.add_columns(*(Text(c.header, justify="right" if c.right else "left") for c in columns))
    for row in rows:
        table.add_row(*(Text(cell, justify="right" if c.right else "left") for c, cell in zip(columns, row,
                                                                                            strict=True)))


def _damaged(lines: tuple[str, ...]) -> list[Text]:
    """The damaged rows left out, as the command line says them, the first few one by one."""
    said = [plain(line, style="red") for line in lines[:DAMAGED_SHOWN]]
    if len(lines) > DAMAGED_SHOWN:
        said.append(plain(f"and {len(lines) - DAMAGED_SHOWN} more damaged rows left out "
                          "(`labyrinth leaderboard` lists them)", style="red"))
    return said
