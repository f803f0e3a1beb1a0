"""`labyrinth tournament`: every user contestant against every Minotaur contestant
on the same seeds, each match kept in the results database as it ends, then the
standings (OpenSkill ratings per role, win rates, head to head).

Nobody learns from the experience log unless --learn says so: a rating compares the
contestants, not the state of a log. With learning on, the results depend on the log as it
was, which the output says, and the matches are kept apart from those played without.

Everything that can be refused is refused before the first match: an unknown
name, a provider without its key, a results database that cannot be used. The
live view (Rich, on stderr) is drawn only when stderr is a terminal; otherwise one
plain line per finished match goes to stderr. stdout carries only the standings,
or with --json one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from labyrinth.agents.arena_log import open_memory
from labyrinth.agents.config import ProviderSettings
from labyrinth.agents.ratings import Standings, rate
from labyrinth.agents.registry import UnknownContestant, check_configured, contestant_names, parse_contestant
from labyrinth.agents.runner import DEFAULT_MAX_TURNS, MatchResult
from labyrinth.agents.tournament import Entrant, Progress, Tournament, run_tournament
from labyrinth.engine import DEFAULT_PRESET, DIFFICULTIES, PRESETS
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.results_db import NOBODY, MatchRow, ResultsDB, ResultsUnusable

from .arena_cmd import _count
from .leaderboard_tables import head_to_head_table, ratings_table
from .learn_option import add_learn_options, learners
from .provider_options import add_provider_options
from .seed_option import bounded_seed
from .terminal_text import printable

if TYPE_CHECKING:
    from rich.console import RenderableType

DEFAULT_CONCURRENCY = 4
REPLAYS = "tournament"  # the tournament's replays: a folder of their own in the replays directory


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tournament", help="every user against every Minotaur, kept in a results database, rated",
        description="Play every user contestant against every Minotaur contestant on the same seeds (S, S+1, "
                    "...), keep each match in results.db in the data directory as it ends, and print the "
                    "OpenSkill ratings per role (mu - 3 sigma), win rates with their 95% Wilson interval and "
                    "the head-to-head table. Matches already in the database are not played again: a stopped "
                    "tournament carries on, a new contestant plays only its new pairings. Nobody learns from the "
                    "experience log unless --learn says so. Contestants: for "
                    f"--users {contestant_names('user')}; for --minotaurs {contestant_names('minotaur')}.")
    p.add_argument("--users", required=True, metavar="A,B,...", help="the user contestants, comma-separated")
    p.add_argument("--minotaurs", required=True, metavar="X,Y,...", help="the Minotaur contestants, comma-separated")
    p.add_argument("--games", type=_count, default=10, help="seeds each pairing plays (default: 10)")
    p.add_argument("--seed", type=bounded_seed, default=1, help="the first seed (default: 1)")
    p.add_argument("--preset", choices=list(PRESETS), default=DEFAULT_PRESET, help="hunting ground size")
    p.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
    p.add_argument("--max-turns", type=_count, default=DEFAULT_MAX_TURNS,
                   help=f"turns before a match is a TIMEOUT, a draw (default: {DEFAULT_MAX_TURNS})")
    p.add_argument("--concurrency", type=_count, default=DEFAULT_CONCURRENCY,
                   help=f"matches played at once (default: {DEFAULT_CONCURRENCY}): model matches in threads, "
                        "sharing each provider's pace (--llm-rpm), rule-agent matches in one process per core")
    p.add_argument("--fresh", action="store_true", help="play every match again, even those in the database")
    add_learn_options(p, "this tournament", default="none",
                      why="With learning the results depend on the log as it was, and are kept apart from "
                          "matches played without")
    p.add_argument("--json", action="store_true",
                   help="print only one JSON object: played, skipped, wall_s, learned (who learned from the "
                        "experience log: none, user, minotaur or user+minotaur), matches (this tournament's, in "
                        "play order, as the database keeps them) and standings (ratings per role, head_to_head)")
    add_provider_options(p)
    p.set_defaults(own_parser=p)  # for the check of the last seed, made after parsing


def run(args: argparse.Namespace, providers: dict[str, ProviderSettings]) -> int:
    """The tournament of ``args``; ``providers``: the settings of the providers its contestants name."""
    try:
        tournament = _tournament(args, providers)
    except UnknownContestant as problem:
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
    try:
        with db:
            progress = _play(args, tournament, db, keeper.keep if keeper else None)
            rows = db.matches(preset=args.preset, difficulty=args.difficulty, max_turns=args.max_turns,
                              learned=tournament.learned, void=False)
    except ResultsUnusable as problem:
        _say(str(problem))
        return 2
    finally:
        if keeper and (unkept := keeper.close()):
            _say(unkept)
    standings = rate(rows)
    mine = set(tournament.keys())
    if args.json:
        print(json.dumps({"played": len(progress.done), "skipped": progress.skipped,
                          "wall_s": round(time.perf_counter() - began, 3), "learned": tournament.learned,
                          "matches": [row.to_dict() for row in rows if row.key in mine],
                          "standings": standings.to_dict()}))
    else:
        from rich.console import Console

        Console().print(*_standings(standings, args, tournament.learned), sep="\n")
    return 0


def _tournament(args: argparse.Namespace, providers: dict[str, ProviderSettings]) -> Tournament:
    """The tournament ``args`` ask for; UnknownContestant for a bad name, ProviderNotConfigured for
    a contestant whose provider has no key (both before anything is played)."""
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
                      args.preset, args.difficulty, args.max_turns)


def _play(args: argparse.Namespace, tournament: Tournament, db: ResultsDB,
          keep: Callable[[MatchResult], None] | None) -> Progress:
    from rich.console import Console

    status = Console(stderr=True)
    progress = Progress()
    replays = replays_dir() / REPLAYS

    def ended(row: MatchRow, result: MatchResult) -> None:
        if keep:
            keep(result)
        if not status.is_terminal:
            _say(f"{len(progress.done) + progress.skipped}/{progress.total} {row.user} vs {row.minotaur} seed "
                 f"{row.seed}: {row.outcome} in {row.turns} turns ({row.wall_s:.1f} s)")

    if not status.is_terminal:
        return run_tournament(tournament, db, concurrency=args.concurrency, fresh=args.fresh, replays=replays,
                              progress=progress, on_result=ended)
    from rich.live import Live

    began = time.perf_counter()
    with Live(console=status, transient=True, refresh_per_second=2,
              get_renderable=lambda: _live_view(progress, time.perf_counter() - began)):
        return run_tournament(tournament, db, concurrency=args.concurrency, fresh=args.fresh, replays=replays,
                              progress=progress, on_result=ended)


def _live_view(progress: Progress, wall_s: float) -> RenderableType:
    """Matches in flight and done, each contestant's wins, draws and losses so far, the providers' waits."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    done = list(progress.done)
    header = Text(f"tournament: {len(done) + progress.skipped}/{progress.total} done "
                  f"({progress.skipped} already in the database), {len(progress.in_flight)} in flight, "
                  f"{wall_s:,.0f} s", style="bold")
    table = Table(box=None, padding=(0, 1))
    for column in ("role", "contestant", "won", "drawn", "lost"):
        table.add_column(column, justify="left" if column in ("role", "contestant") else "right")
    for rating in (r for ratings in rate(done, detail=False).ratings.values() for r in ratings):
        table.add_row(rating.role, printable(rating.name), str(rating.wins), str(rating.draws), str(rating.losses))
    waits = [Text(printable(line), style="yellow") for line in progress.waits()]
    return Group(header, table, *waits)


def _standings(standings: Standings, args: argparse.Namespace, learned: str) -> list:
    """The standings as the leaderboard shows them (leaderboard_tables), under a line saying what was rated."""
    from rich.text import Text

    rated = f"rated: {args.preset}, {args.difficulty}, at most {args.max_turns} turns, " + \
        ("nobody learning" if learned == NOBODY else f"learning: {learned} (the results depend on the experience log)")
    return [Text(rated, style="dim"), *(ratings_table(role, standings.ratings[role]) for role in ROLES),
            head_to_head_table(standings)]


def _say(line: str) -> None:
    """One line on stderr; names and paths from outside are shown as escapes, never obeyed."""
    print(f"labyrinth tournament: {printable(line)}", file=sys.stderr, flush=True)
