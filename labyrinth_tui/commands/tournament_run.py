"""The work of `labyrinth tournament` (its parser is tournament.py): imported when the command runs, so
that what it needs does not load with every command (start-up)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from labyrinth.agents.compete.arena_log import open_memory
from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.agents.compete.ratings import Standings, rate
from labyrinth.agents.compete.tournament import Entrant, Run, Tournament, run_tournament
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.pacing import LongWait, long_waits_to
from labyrinth.agents.match.runner import MatchResult
from labyrinth.agents.registry import UnknownContestant, check_configured, contestant_names, parse_contestant
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.config import ConfigError
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.results_db import NOBODY, MatchRow, ResultsDB, ResultsUnusable

from ..ascii_text import fitted
from ..leaderboard_tables import head_to_head_table, paired_table, ratings_table
from ..terminal_text import printable
from .learn_option import learners
from .options import check_last_seed, providers

if TYPE_CHECKING:
    from rich.console import RenderableType

REPLAYS = "tournament"  # the tournament's replays: a folder of their own in the replays directory


def run(args: argparse.Namespace) -> int:
    """The tournament of ``args``, with the settings of the providers its contestants name."""
    check_last_seed(args)
    try:
        tournament = _tournament(args, providers(args))
    except (UnknownContestant, ConfigError) as problem:
        _say(str(problem))
        return 2
    try:
        db = ResultsDB()
    except ResultsUnusable as problem:
        _say(str(problem))
        return 2
    keeper, lessons = (None, ()) if not learners(args) else open_memory(_say)
    if keeper:
        tournament = replace(tournament, memory=True, lessons=lessons, learners=learners(args))
        _say(f"learning from the experience log ({tournament.learned}): the results depend on the log as it "
             "was, and are kept apart from matches played without learning")
    began = time.perf_counter()
    run = Run()
    interrupted = False
    try:
        with db:
            try:
                with long_waits_to(_said_wait):  # a line for every long wait, a terminal or not
                    _play(args, tournament, db, keeper.keep if keeper else None, run)
            except KeyboardInterrupt:
                interrupted = True
            rows = db.matches(preset=args.preset, difficulty=args.difficulty, max_turns=args.max_turns,
                              learned=tournament.learned, void=False)
            for line in db.damaged:
                _say(line)
    except ResultsUnusable as problem:
        _say(str(problem))
        return 2
    finally:
        if keeper and (unkept := keeper.close()):
            _say(unkept)
    _report(run, interrupted)
    standings = rate(rows)
    mine = set(tournament.keys())
    if args.json:
        print(json.dumps({"played": len(run.done), "skipped": run.skipped, "elsewhere": run.elsewhere,
                          "void": [{"user": r.user, "minotaur": r.minotaur, "seed": r.seed, "repeat": r.repeat,
                                    "reason": r.void} for r in run.void],
                          "complete": run.complete and not interrupted, "stopped": run.stopped,
                          "wall_s": round(time.perf_counter() - began, 3), "learned": tournament.learned,
                          "health": [asdict(h) for h in run.health()],
                          "matches": [row.to_dict() for row in rows if row.key in mine],
                          "standings": standings.to_dict()}))
    else:
        from rich.console import Console

        console = Console()
        console.print(*_standings(standings, args, tournament.learned, console.options.ascii_only), sep="\n")
    if interrupted:
        return 130
    return 0 if run.complete else EXIT_INCOMPLETE


def _tournament(args: argparse.Namespace, providers: dict[str, ProviderSettings]) -> Tournament:
    """The tournament ``args`` ask for; UnknownContestant for a bad name, ProviderNotConfigured for
    a contestant whose provider has no key, ConfigError for a bad setting (all before anything is played)."""
    named = {"user": args.users, "minotaur": args.minotaurs}
    contestants = {role: [parse_contestant(role, name.strip()) for name in text.split(",") if name.strip()]
                   for role, text in named.items()}
    for role, found in contestants.items():
        if not found:
            raise UnknownContestant(f"no {role} contestant given: name at least one of {contestant_names(role)}")
    for contestant in (c for found in contestants.values() for c in found if c.provider):
        check_configured(contestant.settings(providers))
    entrants = {role: tuple(dict.fromkeys(Entrant(c.resolved(providers), c.settings(providers) if c.provider else None)
                                          for c in found)) for role, found in contestants.items()}
    return Tournament(entrants["user"], entrants["minotaur"], tuple(range(args.seed, args.seed + args.games)),
                      args.preset, args.difficulty, args.max_turns, args.repeats)


def _play(args: argparse.Namespace, tournament: Tournament, db: ResultsDB,
          keep: Callable[[MatchResult], None] | None, run: Run) -> Run:
    from rich.console import Console

    status = Console(stderr=True)
    replays = replays_dir() / REPLAYS

    def ended(row: MatchRow, result: MatchResult) -> None:
        if keep:
            keep(result)
        if not status.is_terminal:
            played = run.progress.ended + run.skipped + run.elsewhere
            _say(f"{played}/{run.progress.total} {row.user} vs {row.minotaur} seed {row.seed}"
                 f"{f' repeat {row.repeat}' if row.repeat else ''}: {row.outcome} in {row.turns} turns "
                 f"({row.wall_s:.1f} s){'; ' + row.void if row.void else ''}")

    if not status.is_terminal:
        return run_tournament(tournament, db, concurrency=args.concurrency, fresh=args.fresh, replays=replays,
                              run=run, on_result=ended)
    from rich.live import Live

    began = time.perf_counter()
    with Live(console=status, transient=True, refresh_per_second=2,
              get_renderable=lambda: _live_view(run, time.perf_counter() - began)):
        return run_tournament(tournament, db, concurrency=args.concurrency, fresh=args.fresh, replays=replays,
                              run=run, on_result=ended)


def _report(run: Run, interrupted: bool) -> None:
    """The end of the run on stderr: why it stopped, the void matches, each model contestant's health."""
    if interrupted:
        _say(f"stopped by Ctrl-C after {len(run.done)} matches: run the same command again to play the rest")
    if run.stopped:
        _say(f"stopped: {run.stopped}; {_resume_hint(run)}")
    voids: dict[str, list[MatchRow]] = {}
    for row in run.done:  # each reason once, with the matches it voided (run.void, read here with their reasons)
        if row.void is not None:
            voids.setdefault(row.void, []).append(row)
    for why, rows in voids.items():
        pairings = sorted({f"{r.user} vs {r.minotaur}" for r in rows})
        _say(f"{len(rows)} match{'es' * (len(rows) > 1)} void ({', '.join(pairings[:3])}"
             f"{f' and {len(pairings) - 3} more pairings' if len(pairings) > 3 else ''}): {why.removeprefix('void: ')}")
    for line in run.health():
        _say(line.line())
    left = run.progress.total - run.skipped - run.elsewhere - len(run.done)
    if (run.void or left > 0) and not interrupted:
        _say(f"incomplete: {len(run.void)} void and {max(left, 0)} unplayed matches are left out of the standings; "
             "run the same command again to play them")


def _resume_hint(run: Run) -> str:
    """When to run the same command again: after the quota's wait, as a time of day (UTC)."""
    if not run.stopped_wait_s:
        return "run the same command again once the quota allows"
    at = datetime.now(UTC) + timedelta(seconds=run.stopped_wait_s)
    return f"run the same command again after {at:%H:%M:%S} UTC (in {run.stopped_wait_s:,.0f} s)"


def _live_view(run: Run, wall_s: float) -> RenderableType:
    """Matches in flight and done, each contestant's wins, draws and losses so far, the providers' waits."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    progress = run.progress
    done = [row for row in run.done if row.valid]
    header = Text(f"tournament: {progress.ended + run.skipped + run.elsewhere}/{progress.total} done "
                  f"({run.skipped} already in the database, {run.elsewhere} by another worker, {len(run.void)} "
                  f"void), {len(progress.in_flight)} in flight, {wall_s:,.0f} s", style="bold")
    table = Table(box=None, padding=(0, 1))
    for column in ("role", "contestant", "won", "drawn", "lost"):
        table.add_column(column, justify="left" if column in ("role", "contestant") else "right")
    for rating in (r for ratings in rate(done, detail=False).ratings.values() for r in ratings):
        table.add_row(rating.role, printable(rating.name), str(rating.wins), str(rating.draws), str(rating.losses))
    waits = [Text(printable(line), style="yellow") for line in progress.waits()]
    return Group(header, table, *waits)


def _standings(standings: Standings, args: argparse.Namespace, learned: str, ascii: bool) -> list:
    """The standings as the leaderboard shows them (leaderboard_tables), under a line saying what was
    rated; in ASCII for a terminal that takes nothing else (``ascii``)."""
    from rich.text import Text

    rated = f"rated: {args.preset}, {args.difficulty}, at most {args.max_turns} turns, " + \
        ("nobody learning" if learned == NOBODY else f"learning: {learned} (the results depend on the experience log)")
    paired = [paired_table(role, found, ascii=ascii) for role in ROLES if (found := standings.paired.get(role))]
    return [Text(fitted(rated, ascii), style="dim"),
            *(ratings_table(role, standings.ratings[role], ascii=ascii) for role in ROLES),
            head_to_head_table(standings, ascii=ascii), *paired]


def _say(line: str) -> None:
    """One line on stderr; names and paths from outside are shown as escapes, never obeyed."""
    print(f"labyrinth tournament: {printable(line)}", file=sys.stderr, flush=True)


def _said_wait(wait: LongWait) -> None:
    """A model's long wait (a quota's, the pace's) as it starts, in a line on stderr."""
    _say(wait.line())
