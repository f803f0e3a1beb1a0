"""`labyrinth leaderboard`: the standings from the results database that
`labyrinth tournament` fills, without playing anything: each role's ratings, the
head-to-head table and each contestant's rating over its matches as a sparkline.

No database yet, or none of its matches chosen, is said plainly and is no error
(exit 0); a database that cannot be read is reported and kept as it is (exit 2).
The rows come from leaderboard_rows, as the TUI's Leaderboard screen shows them.
"""

from __future__ import annotations

import argparse
import json
import sys

from labyrinth.agents.ratings import Rating, rate
from labyrinth.engine import DIFFICULTIES, PRESETS
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.results_db import ResultsUnusable, results_path

from .leaderboard_rows import TITLES, Board, history_range, nothing_to_show, read_board, sparkline
from .leaderboard_tables import head_to_head_table, ratings_table
from .terminal_text import printable

SPARK_MAX = 60  # the widest sparkline, on a wide terminal: more says little about a rating
SPARK_MIN = 8
JSON_KEYS = ("database", "preset", "difficulty", "role", "matches", "grounds", "ratings", "head_to_head")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "leaderboard", help="the tournament's standings, from the results database",
        description="The standings of the matches in results.db (which `labyrinth tournament` fills): each "
                    "role's OpenSkill ratings (mu - 3 sigma, with sigma), matches, wins/draws/losses and win "
                    "rate with its 95% Wilson interval, each contestant's rating over its matches, and the "
                    "head-to-head table. Matches of every preset, difficulty and turn limit are rated together "
                    "unless --preset or --difficulty chooses.")
    p.add_argument("--role", choices=tuple(ROLES), help="only this role's ratings (default: both)")
    p.add_argument("--preset", choices=list(PRESETS), help="only matches on this hunting ground")
    p.add_argument("--difficulty", choices=DIFFICULTIES, help="only matches at this difficulty")
    p.add_argument("--json", action="store_true",
                   help=f"print only one JSON object: {', '.join(JSON_KEYS)} (see the README)")


def run(args: argparse.Namespace) -> int:
    try:
        board = read_board(args.preset, args.difficulty)
    except ResultsUnusable as problem:
        _say(str(problem))
        return 2
    roles = [args.role] if args.role else list(ROLES)
    empty = nothing_to_show(board, args.preset, args.difficulty)
    if args.json:
        if empty:
            _say(empty)
        print(json.dumps(_json(board or Board(results_path(), (), rate(())), args, roles)))
    elif empty:
        print(printable(empty))
    else:
        from rich.console import Console

        console = Console()
        console.print(*_tables(board, roles, console.width), sep="\n")
    return 0


def _json(board: Board, args: argparse.Namespace, roles: list[str]) -> dict:
    ratings = {role: [{**r.to_dict(), "history": [round(v, 3) for v in r.history]}
                      for r in board.standings.ratings[role]] for role in roles}
    return {"database": str(board.path), "preset": args.preset, "difficulty": args.difficulty, "role": args.role,
            "matches": len(board.matches),
            "grounds": [dict(zip(("preset", "difficulty", "max_turns", "learned", "matches"), g, strict=True))
                        for g in board.grounds()],
            "ratings": ratings, "head_to_head": [h.to_dict() for h in board.standings.head_to_head]}


def _tables(board: Board, roles: list[str], width: int) -> list:
    from rich.text import Text

    parts: list = [Text(printable(f"Leaderboard: {len(board.matches)} matches in {board.path}"), style="bold"),
                   Text(f"rated together: {board.pooled()}", style="dim"), ""]
    for role in roles:
        ratings = board.standings.ratings[role]
        low, high = history_range(ratings)
        parts += [ratings_table(role, ratings),
                  Text(f"{TITLES[role]} rating over matches, in play order (▁ {low:.2f} … █ {high:.2f})",
                       style="italic"),
                  _trends(ratings, low, high, width), ""]
    parts.append(head_to_head_table(board.standings))
    return parts


def _trends(ratings: tuple[Rating, ...], low: float, high: float, width: int):
    """Each contestant's rating after each of its matches in play order, all on the role's one scale:
    the last bar is the rating shown."""
    from rich.table import Table
    from rich.text import Text

    names = max((len(printable(r.name)) for r in ratings), default=0)
    names = min(names, width // 2)  # a longer name folds onto a second line
    room = max(SPARK_MIN, min(SPARK_MAX, width - names - 10))  # 10: two gaps and the rating
    grid = Table.grid(padding=(0, 1))
    grid.add_column(max_width=names, overflow="fold")
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column(justify="right")
    for r in ratings:
        grid.add_row(Text(printable(r.name)), sparkline(r.history, room, low, high), f"{r.rating:.2f}")
    return grid


def _say(line: str) -> None:
    print(f"labyrinth leaderboard: {printable(line)}", file=sys.stderr, flush=True)
