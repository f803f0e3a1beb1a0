"""`labyrinth leaderboard`: the standings from the results database that
`labyrinth tournament` fills, without playing anything: each role's ratings with
their intervals, each contestant's rating over its matches as a sparkline, each
role's paired differences and the head-to-head table; or one JSON object; and on
request the same figures as CSV files or a web page (leaderboard_report).

No database yet, or none of its matches chosen, is said plainly and is no error
(exit 0); a database that cannot be read is reported and kept as it is (exit 2), as
is a report file that cannot be written. The database is only read: one on a
read-only mount is fine. A damaged row is said in one line on stderr and left out.
Matches played under different rules are rated together only with a warning saying
which, and how to choose. The rows come from leaderboard_rows, as the TUI's
Leaderboard screen shows them; on a terminal that is not UTF-8 they are printed in
ASCII (ascii_text).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from labyrinth.agents.compete.ratings import Rating, rate
from labyrinth.engine import DIFFICULTIES, PRESETS
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.paths import StorageError
from labyrinth.saves.results_db import NOBODY, ResultsUnusable, results_path

from ..ascii_text import ascii_only, fitted
from ..leaderboard_report import html_page, paired_csv, ratings_csv, write_report
from ..leaderboard_rows import TITLES, Board, history_range, nothing_to_show, read_board, sparkline
from ..leaderboard_tables import head_to_head_table, paired_table, ratings_table
from ..terminal_text import printable
from .options import count, parsed_by

SPARK_MAX = 60  # the widest sparkline, on a wide terminal: more says little about a rating
SPARK_MIN = 8
LEARNED = (NOBODY, "user", "minotaur", "user+minotaur")  # who learned from the experience log, as rows keep it
JSON_KEYS = ("database", "preset", "difficulty", "max_turns", "learned", "role", "matches", "grounds", "warning",
             "damaged", "ratings", "head_to_head", "paired")
REPORTS = {"csv": (ratings_csv, "the ratings"), "paired_csv": (paired_csv, "the paired differences"),
           "html": (html_page, "the leaderboard page")}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "leaderboard", help="the tournament's standings, from the results database",
        description="The standings of the valid matches in results.db (which `labyrinth tournament` fills): each "
                    "role's Bradley-Terry ratings (mean 1500, users and Minotaurs on one scale) with their 95% "
                    "bootstrap interval, matches, wins/draws/losses and win rate with its 95% Wilson interval, "
                    "each contestant's rating over its matches, the paired differences between two contestants "
                    "of a role on the same seeds, and the head-to-head table. Matches played under different "
                    "rules (preset, difficulty, turn limit, learning) are rated together, with a warning, "
                    "unless the options below choose one kind.")
    p.add_argument("--role", choices=tuple(ROLES), help="only this role's ratings (default: both)")
    p.add_argument("--preset", choices=list(PRESETS), help="only matches on this hunting ground")
    p.add_argument("--difficulty", choices=DIFFICULTIES, help="only matches at this difficulty")
    p.add_argument("--max-turns", type=count, metavar="N", help="only matches with this turn limit")
    p.add_argument("--learned", choices=LEARNED, help="only matches where these learned from the experience log")
    p.add_argument("--json", action="store_true",
                   help=f"print only one JSON object: {', '.join(JSON_KEYS)} (see the README)")
    p.add_argument("--csv", metavar="FILE", type=Path,
                   help="also write the ratings to FILE as CSV, one row per contestant and role")
    p.add_argument("--paired-csv", metavar="FILE", type=Path,
                   help="also write the paired differences to FILE as CSV")
    p.add_argument("--html", metavar="FILE", type=Path,
                   help="also write the standings to FILE as one web page with charts, which needs no network")
    parsed_by(p, run)


def run(args: argparse.Namespace) -> int:
    chosen = {"preset": args.preset, "difficulty": args.difficulty, "max_turns": args.max_turns,
              "learned": args.learned}
    try:
        board = read_board(**chosen)
    except ResultsUnusable as problem:
        _say(str(problem))
        return 2
    for line in board.damaged if board else ():
        _say(line)
    roles = [args.role] if args.role else list(ROLES)
    empty = nothing_to_show(board, **chosen)
    board = board or Board(results_path(), (), rate(()))
    for option, (write, what) in REPORTS.items():
        if (path := getattr(args, option)) is not None:
            try:
                write_report(path, write(board, roles))
            except StorageError as problem:
                _say(f"cannot write {what}: {problem}")
                return 2
    if args.json:
        if empty:
            _say(empty)
        print(json.dumps(_json(board, args, chosen, roles)))
    elif empty:
        print(fitted(printable(empty), ascii_only(sys.stdout)))
    else:
        from rich.console import Console

        console = Console()
        console.print(*_tables(board, roles, console.width, console.options.ascii_only), sep="\n")
    return 0


def _json(board: Board, args: argparse.Namespace, chosen: dict, roles: list[str]) -> dict:
    standings = board.standings
    return {"database": str(board.path), **chosen, "role": args.role, "matches": len(board.matches),
            "grounds": [dict(zip(("preset", "difficulty", "max_turns", "learned", "matches"), g, strict=True))
                        for g in board.grounds()],
            "warning": board.warning(), "damaged": list(board.damaged),
            "ratings": {role: [r.to_dict() for r in standings.ratings[role]] for role in roles},
            "head_to_head": [h.to_dict() for h in standings.head_to_head],
            "paired": {role: [p.to_dict() for p in standings.paired[role]] for role in roles}}


def _tables(board: Board, roles: list[str], width: int, ascii: bool) -> list:
    from rich.text import Text

    parts: list = [Text(fitted(printable(f"Leaderboard: {len(board.matches)} matches in {board.path}"), ascii),
                        style="bold"),
                   Text(fitted(f"rated together: {board.pooled()}", ascii), style="dim")]
    if warning := board.warning():
        parts.append(Text(fitted(warning, ascii), style="bold yellow"))
    parts.append("")
    for role in roles:
        ratings = board.standings.ratings[role]
        low, high = history_range(ratings)
        parts += [ratings_table(role, ratings, ascii=ascii),
                  Text(fitted(f"{TITLES[role]} rating over matches, in play order (▁ {low:.0f} … █ {high:.0f})",
                              ascii), style="italic"),
                  _trends(ratings, low, high, width, ascii), ""]
        if board.standings.paired[role]:
            parts += [paired_table(role, board.standings.paired[role], ascii=ascii), ""]
    parts.append(head_to_head_table(board.standings, ascii=ascii))
    return parts


def _trends(ratings: tuple[Rating, ...], low: float, high: float, width: int, ascii: bool):
    """Each contestant's rating after each of its matches in play order, all on the role's one scale:
    the last bar is the rating shown."""
    from rich.table import Table
    from rich.text import Text

    names = [fitted(printable(r.label), ascii) for r in ratings]
    room_for_names = min(max(map(len, names), default=0), width // 2)  # a longer name folds onto a second line
    room = max(SPARK_MIN, min(SPARK_MAX, width - room_for_names - 8))  # 8: two gaps and the rating
    grid = Table.grid(padding=(0, 1))
    grid.add_column(max_width=room_for_names, overflow="fold")
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column(justify="right")
    for name, r in zip(names, ratings, strict=True):
        grid.add_row(Text(name), fitted(sparkline(r.history, room, low, high), ascii), f"{r.rating:.0f}")
    return grid


def _say(line: str) -> None:
    print(fitted(f"labyrinth leaderboard: {printable(line)}", ascii_only(sys.stderr)), file=sys.stderr, flush=True)
