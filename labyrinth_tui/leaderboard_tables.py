"""The standings as Rich tables, for `labyrinth leaderboard` and the end of `labyrinth
tournament` alike: the same columns and the same rows (leaderboard_rows), so that the two
commands never show a rating or a win rate differently. ``ascii``: for a terminal that is
not UTF-8, every cell and title in ASCII (ascii_text), converted before Rich lays it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from labyrinth.agents.compete.entries import Entry
from labyrinth.agents.compete.paired import PairedDifference
from labyrinth.agents.compete.ratings import Rating, Standings

from .ascii_text import fitted
from .leaderboard_rows import (
    ENTRY_COLUMNS,
    HEAD_TO_HEAD_COLUMNS,
    PAIRED_COLUMNS,
    RATING_COLUMNS,
    ROLE_WORDS,
    Column,
    entry_rows,
    head_to_head_rows,
    paired_rows,
    rating_rows,
)

if TYPE_CHECKING:
    from rich.table import Table

RATINGS_TITLE = "{} ratings (Bradley-Terry, 95% interval)"
PAIRED_TITLE = "{} paired: same {}, same seed"
ENTRIES_TITLE = "{} contestants entered: void matches, failures, cost"
HEAD_TO_HEAD_TITLE = "head to head (user vs Minotaur)"


def other_title(role: str) -> str:
    """The other role's standings, as the tables name them: a page about one role points to the other's."""
    return next(title for other, title in ROLE_WORDS.items() if other != role)


def paired_title(role: str) -> str:
    """The title of ``role``'s paired differences: the same opponent (the other role), the same seed."""
    return PAIRED_TITLE.format(ROLE_WORDS[role], other_title(role))


def ratings_table(role: str, ratings: Sequence[Rating], *, ascii: bool = False) -> Table:
    """One role's ratings, best first."""
    return table(RATINGS_TITLE.format(ROLE_WORDS[role]), RATING_COLUMNS, rating_rows(ratings), ascii=ascii)


def entries_table(role: str, found: Sequence[Entry], *, ascii: bool = False) -> Table:
    """Every contestant of a role, rated or not: void matches, failure rates, tokens and cost."""
    return table(ENTRIES_TITLE.format(ROLE_WORDS[role]), ENTRY_COLUMNS, entry_rows(found), ascii=ascii)


def head_to_head_table(standings: Standings, *, ascii: bool = False) -> Table:
    return table(HEAD_TO_HEAD_TITLE, HEAD_TO_HEAD_COLUMNS, head_to_head_rows(standings), ascii=ascii)


def paired_table(role: str, paired: Sequence[PairedDifference], *, ascii: bool = False) -> Table:
    """One role's paired differences, the better rated of each two first."""
    return table(paired_title(role), PAIRED_COLUMNS, paired_rows(paired), ascii=ascii)


def table(title: str, columns: Sequence[Column], rows: list[tuple[str, ...]], *, ascii: bool = False) -> Table:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    shown = Table(title=fitted(title, ascii), title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
                  pad_edge=False, collapse_padding=True, show_edge=False)
    for column in columns:
        shown.add_column(fitted(column.header, ascii), justify="right" if column.right else "left",
                         overflow="ellipsis" if column.right else "fold")  # a long name on two lines, whole
    for row in rows:
        shown.add_row(*(Text(fitted(cell, ascii)) for cell in row))  # names are words, never markup
    return shown
