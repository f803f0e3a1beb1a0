"""The work of `labyrinth leaderboard` (its parser is leaderboard.py): imported when the command runs, so
that what it needs does not load with every command (start-up)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from functools import partial

from labyrinth.agents.compete.manifest import ManifestError, design, keys
from labyrinth.agents.compete.ratings import Rating, Standings, rate
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.outputs import Output, output_for
from labyrinth.saves.paths import StorageError
from labyrinth.saves.results_db import ResultsDB, ResultsUnusable, results_path

from ..ascii_text import ascii_only, fitted
from ..dates import local_time
from ..leaderboard_report import html_page, matches_csv, paired_csv, ratings_csv, write_report
from ..leaderboard_rows import ROLE_WORDS, Board, history_range, nothing_to_show, read_board, sparkline
from ..leaderboard_tables import entries_table, head_to_head_table, paired_table, ratings_table
from ..terminal_text import printable, say

_say = partial(say, command="leaderboard")  # a message on stderr (terminal_text.say)

SPARK_MAX = 60  # the widest sparkline, on a wide terminal: more says little about a rating
SPARK_MIN = 8
REPORTS = {"csv": (ratings_csv, "the ratings"), "paired_csv": (paired_csv, "the paired differences"),
           "matches_csv": (matches_csv, "the matches"), "html": (html_page, "the leaderboard page")}
Report = tuple[Output, Callable[[Board, Sequence[str]], str], str]  # where it goes, what makes it, what it is


def run(args: argparse.Namespace) -> int:
    if args.runs:
        return _runs(args.json)
    reports = _reports(args)
    if reports is None:
        return 2
    chosen = {"preset": args.preset, "difficulty": args.difficulty, "max_turns": args.max_turns,
              "learned": args.learned, "build": args.build, "run": args.run}
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
    for output, write, what in reports:
        try:
            write_report(output.named, write(board, roles))
        except StorageError as problem:
            _say(f"cannot write {what}: {problem}")
            return 2
    if any(output.to_stdout for output, _, _ in reports):  # the report is the output: nothing mixed in
        if empty:
            _say(empty)
    elif args.json:
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


def _reports(args: argparse.Namespace) -> list[Report] | None:
    """The reports asked for, each with where it goes, every path checked before any is written; None
    (said in one line) when one is refused, or when two outputs would share standard output."""
    reports: list[Report] = []
    for option, (write, what) in REPORTS.items():
        if (path := getattr(args, option)) is not None:
            try:
                reports.append((output_for(path), write, what))
            except StorageError as problem:
                _say(f"cannot write {what}: {problem}")
                return None
    on_stdout = [what for output, _, what in reports if output.to_stdout] + ["the JSON"] * args.json
    if len(on_stdout) > 1:
        _say(f"{' and '.join(on_stdout)} cannot share standard output: send all but one to files")
        return None
    return reports


def _runs(as_json: bool) -> int:
    """The runs in the database, oldest first: each one's id, start, design and matches kept."""
    path = results_path()
    if not path.exists():
        _say(f"no results yet: {path} does not exist")
        print(json.dumps([]) if as_json else "no runs yet")
        return 0
    try:
        with ResultsDB(path, read_only=True) as db:
            kept = {row.key: row.valid for row in db.matches()}
            runs = db.runs()  # after the matches: it adds to their damaged rows
            damaged = list(db.damaged)
    except ResultsUnusable as problem:
        _say(str(problem))
        return 2
    for line in damaged:
        _say(line)
    counted = []
    for run_id, began, recorded in runs:
        try:
            wanted = keys(recorded)
        except ManifestError as problem:
            _say(str(problem))
            counted.append((run_id, began, recorded, 0, 0, 0, "its manifest is damaged: see above"))
            continue
        judged = [kept[key] for key in wanted if key in kept]  # each kept match of it: valid or not
        counted.append((run_id, began, recorded, len(wanted), sum(judged), len(judged) - sum(judged),
                        design(recorded)))
    if as_json:
        print(json.dumps([{"run_id": run_id, "began": began, "matches": total, "valid": valid, "void": void,
                           "manifest": recorded} for run_id, began, recorded, total, valid, void, _ in counted]))
        return 0
    ascii = ascii_only(sys.stdout)
    if not counted:
        print("no runs yet")
    for run_id, began, _, total, valid, void, said in counted:
        print(fitted(printable(f"{run_id}  {local_time(began)}  {valid}/{total} played, {void} void: {said}"), ascii))
    return 0


def _json(board: Board, args: argparse.Namespace, chosen: dict, roles: list[str]) -> dict:
    standings = board.standings
    return {"database": str(board.path), **chosen, "role": args.role, "matches": len(board.matches),
            "void": board.void,
            "grounds": [dict(zip(("preset", "difficulty", "max_turns", "learned", "build", "matches"), g, strict=True))
                        for g in board.grounds()],
            "warning": board.warning(), "copies": standings.copies, "damaged": list(board.damaged),
            "anchors": {role: standings.anchors[role].to_dict() for role in roles if role in standings.anchors},
            "offset": standings.offset,
            "ratings": {role: [r.to_dict() for r in standings.ratings[role]] for role in roles},
            "entries": {role: [e.to_dict() for e in board.entries[role]] for role in roles},
            "runs": [{"run_id": run_id, "began": began, "design": design(recorded)} for run_id, began, recorded
                     in board.runs],
            "head_to_head": [h.to_dict() for h in standings.head_to_head],
            "paired": {role: [p.to_dict() for p in standings.paired[role]] for role in roles}}


def _tables(board: Board, roles: list[str], width: int, ascii: bool) -> list:
    from rich.text import Text

    parts: list = [Text(fitted(printable(f"Leaderboard: {board.counted()} in {board.path}"), ascii), style="bold"),
                   Text(fitted(f"rated together: {board.pooled() or 'nothing'}", ascii), style="dim")]
    for warning in (board.warning(), board.standings.copies_warning):
        if warning:
            parts.append(Text(fitted(warning, ascii), style="bold yellow"))
    parts.append(Text(fitted(_anchored(board.standings), ascii), style="dim"))
    parts.append("")
    for role in roles:
        ratings = board.standings.ratings[role]
        low, high = history_range(ratings)
        parts += [ratings_table(role, ratings, ascii=ascii),
                  Text(fitted(f"{ROLE_WORDS[role]} rating over matches, in play order (▁ {low:.0f} … █ {high:.0f})",
                              ascii), style="italic"),
                  _trends(ratings, low, high, width, ascii), "",
                  entries_table(role, board.entries[role], ascii=ascii), ""]
        if board.standings.paired[role]:
            parts += [paired_table(role, board.standings.paired[role], ascii=ascii), ""]
    parts.append(head_to_head_table(board.standings, ascii=ascii))
    return parts


def _anchored(standings: Standings) -> str:
    """What the ratings are measured from, and the offset that relates the two roles' scales."""
    anchors = "; ".join(f"{ROLE_WORDS[role]}s on {anchor.describe()}" for role, anchor in standings.anchors.items())
    return (f"anchored: {anchors or 'nothing rated'}; a user rated R meets a Minotaur rated M as "
            f"1/(1+10^((M-R+D)/400)), D = {standings.offset:+.0f}")


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
