"""The standings as Rich tables, for `labyrinth leaderboard` and the end of `labyrinth
tournament` alike: the same columns and the same rows (leaderboard_rows), so that the two
commands never show a rating or a win rate differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from labyrinth.agents.ratings import Rating, Standings

from .leaderboard_rows import HEAD_TO_HEAD_COLUMNS, RATING_COLUMNS, TITLES, Column, head_to_head_rows, rating_rows

if TYPE_CHECKING:
    from rich.table import Table


def ratings_table(role: str, ratings: Sequence[Rating]) -> Table:
    """One role's ratings, best first."""
    return table(f"{TITLES[role]} ratings (OpenSkill mu - 3σ)", RATING_COLUMNS, rating_rows(ratings))


def head_to_head_table(standings: Standings) -> Table:
    return table("head to head (user vs Minotaur)", HEAD_TO_HEAD_COLUMNS, head_to_head_rows(standings))


def table(title: str, columns: Sequence[Column], rows: list[tuple[str, ...]]) -> Table:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    shown = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True, show_edge=False)
    for column in columns:
        shown.add_column(column.header, justify="right" if column.right else "left",
                         overflow="ellipsis" if column.right else "fold")  # a long name on two lines, whole
    for row in rows:
        shown.add_row(*(Text(cell) for cell in row))  # names are words, never markup
    return shown
