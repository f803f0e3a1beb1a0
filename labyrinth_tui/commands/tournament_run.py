"""The work of `labyrinth tournament` (its parser is tournament.py): imported when the command runs, so
that what it needs does not load with every command (start-up)."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from labyrinth.agents.compete.arena_log import open_memory
from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.agents.compete.manifest import (
    ManifestError,
    design,
    differences,
    manifest,
    named,
    new_run_id,
    reproduction,
)
from labyrinth.agents.compete.ratings import Standings, rate
from labyrinth.agents.compete.tournament import MOST_MATCHES, Entrant, Run, Tournament, run_tournament
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.pacing import long_waits_to
from labyrinth.agents.match.runner import MatchResult
from labyrinth.agents.registry import (
    Contestant,
    UnknownContestant,
    check_configured,
    contestant_names,
    parse_contestant,
)
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.build import build_id
from labyrinth.saves.clock import iso
from labyrinth.saves.config import ConfigError
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.results_db import NOBODY, MatchRow, ResultsDB, ResultsUnusable, results_path
from labyrinth.saves.results_terms import learned_by

from ..ascii_text import fitted
from ..leaderboard_tables import head_to_head_table, paired_table, ratings_table
from ..stop_signals import cause, exit_status
from ..terminal_text import printable, say
from .learn_option import LEARNERS, learners
from .options import REPEATS, TURNS, check_last_seed, providers

_say = partial(say, command="tournament")  # a message on stderr (terminal_text.say)

if TYPE_CHECKING:
    from rich.console import RenderableType

REPLAYS = "tournament"  # the tournament's replays: a folder of their own in the replays directory


def run(args: argparse.Namespace) -> int:
    """The tournament of ``args`` (or, with --rerun, the recorded run it names, played again), with the
    settings of the providers its contestants name. Everything that can be refused is refused before
    the results database is made or written."""
    rerun_of: dict | None = None
    try:
        if args.rerun is not None and (rerun_of := _rerun(args)) is None:
            return 2
        check_last_seed(args)
        tournament = _tournament(args, providers(args))
        if rerun_of is not None:
            tournament = replace(tournament, seeds=tuple(rerun_of["seeds"]), rerun=rerun_of["next_rerun"])
            if changed := differences(rerun_of, tournament):
                _say(f"cannot play run {rerun_of['run_id']} again: its contestants' settings are not the ones "
                     f"asked then ({' | '.join(changed)}); give the same settings (the config file, the "
                     "environment, the options)")
                return 2
        db = ResultsDB()
    except (UnknownContestant, ConfigError, ResultsUnusable, ManifestError) as problem:
        _say(str(problem))
        return 2
    with db:
        return _run(args, tournament, db, rerun_of)


def _run(args: argparse.Namespace, tournament: Tournament, db: ResultsDB, rerun_of: dict | None) -> int:
    keeper, lessons = (None, ()) if not learners(args) else open_memory(_say)
    if keeper:
        tournament = replace(tournament, memory=True, lessons=lessons, learners=learners(args))
        _say(f"learning from the experience log ({tournament.learned}): the results depend on the log as it "
             "was, and are kept apart from matches played without learning")
    began_at = datetime.now(UTC)
    run_id, run_began = new_run_id(began_at), iso(began_at, "microseconds")  # two runs in one second told apart
    recorded = manifest(tournament, run_id, run_began, args.argv, rerun_of["run_id"] if rerun_of else None)
    if rerun_of is not None:
        if rerun_of.get("experience") != recorded["experience"]:
            _say(f"note: run {rerun_of['run_id']} learned from another state of the experience log "
                 f"({rerun_of.get('experience')}, now {recorded['experience']}): this rerun learns from it as it is")
        if rerun_of.get("build") != tournament.build:
            _say(f"note: run {rerun_of['run_id']} was played by build {rerun_of.get('build')}; this is "
                 f"{tournament.build}")
    began = time.perf_counter()
    run = Run()
    interrupted: KeyboardInterrupt | None = None  # Ctrl-C, or SIGTERM (stop_signals.Stopped)
    try:
        try:
            db.begin_run(run_id, run_began, recorded)
            _say(f"run {run_id}: {design(recorded)}")
            with long_waits_to(lambda wait: _say(wait.line())):  # a line for every long wait, a terminal or not
                _play(args, tournament, db, keeper.keep if keeper else None, run, run_id, run_began)
        except KeyboardInterrupt as stop:
            interrupted = stop
        kept = db.matches(preset=tournament.preset, difficulty=tournament.difficulty,
                          max_turns=tournament.max_turns, learned=tournament.learned)
        for line in db.damaged:
            _say(line)
    except ResultsUnusable as problem:
        _say(str(problem))
        return 2
    finally:
        if keeper and (unkept := keeper.close()):
            _say(unkept)
    mine = set(tournament.keys())
    rows = [row for row in kept if row.key in mine and row.valid]
    void = sum(1 for row in kept if row.key in mine and not row.valid)
    _report(run, interrupted, len(mine) - len(rows) - void, void)
    _say(f"run {run_id} kept: `labyrinth leaderboard --run {run_id}` shows it, `labyrinth tournament --rerun "
         f"{run_id}` plays it again")
    standings = rate(rows)
    if args.json:
        print(json.dumps({"run_id": run_id, "played": len(run.done), "skipped": run.skipped,
                          "elsewhere": run.elsewhere,
                          "void": [{"user": r.user, "minotaur": r.minotaur, "seed": r.seed, "repeat": r.repeat,
                                    "reason": r.void} for r in run.void],
                          "complete": run.complete and not void and not interrupted, "stopped": run.stopped,
                          "wall_s": round(time.perf_counter() - began, 3), "learned": tournament.learned,
                          "health": [asdict(h) for h in run.health()],
                          "matches": [row.to_dict() for row in rows], "standings": standings.to_dict()}))
    else:
        from rich.console import Console

        console = Console()
        console.print(*_standings(standings, tournament, console.options.ascii_only), sep="\n")
    if interrupted:
        return exit_status(interrupted)
    return 0 if run.complete and not void else EXIT_INCOMPLETE


def _rerun(args: argparse.Namespace) -> dict | None:
    """The manifest of the run --rerun names, with the number its reproduction will have
    (``next_rerun``), and its design set in ``args`` as if typed again; None after saying why it
    cannot be played again. The database is only read here."""
    path = results_path()
    if not path.exists():
        _say(f"no run {args.rerun}: {path} does not exist yet")
        return None
    with ResultsDB(path, read_only=True) as db:
        kept = {row.key for row in db.matches()}
        runs = db.runs()  # after the matches: it adds to their damaged rows
        damaged = list(db.damaged)
    for line in damaged:
        _say(line)
    recorded = named(runs, args.rerun, path)  # ManifestError for a run it holds not, or cannot give the matches of
    given = [option for option, name in _DESIGN_OPTIONS.items()
             if getattr(args, name) != args.own_parser.get_default(name)]
    if given:
        _say(f"--rerun plays run {args.rerun} as it was recorded: leave out {', '.join(given)}")
        return None
    contestants, seeds = recorded["contestants"], recorded["seeds"]
    args.users, args.minotaurs = (",".join(c["name"] for c in contestants[role]) for role in ROLES)
    args.seed, args.games, args.repeats = seeds[0], len(seeds), recorded["repeats"]
    args.preset, args.difficulty, args.max_turns = recorded["preset"], recorded["difficulty"], recorded["max_turns"]
    for option, bound, value in (("--max-turns", TURNS, args.max_turns), ("--repeats", REPEATS, args.repeats)):
        if not bound.holds(value):  # a hand-edited database: its run's settings are bounded as the options are
            _say(f"run {args.rerun} cannot be played again: its {option} {bound.refusal(value)}")
            return None
    args.learn = next(name for name, roles in LEARNERS.items() if learned_by(roles) == recorded["learned"])
    return {**recorded, "next_rerun": reproduction(recorded, runs, kept, build_id())}


# The options that say what a tournament plays (a rerun takes them from its manifest), by option and attribute.
_DESIGN_OPTIONS = {"--users": "users", "--minotaurs": "minotaurs", "--games": "games", "--repeats": "repeats",
                   "--seed": "seed", "--preset": "preset", "--difficulty": "difficulty", "--max-turns": "max_turns",
                   "--learn": "learn"}


ROLE_OPTIONS = {"user": "--users", "minotaur": "--minotaurs"}


def _contestants(role: str, names: str) -> list[Contestant]:
    """The contestants of ``role`` a comma-separated list names; UnknownContestant naming the option (as
    argparse names arena's --user) for a bad name or none."""
    try:
        found = [parse_contestant(role, name.strip()) for name in names.split(",") if name.strip()]
    except UnknownContestant as problem:
        raise UnknownContestant(f"{ROLE_OPTIONS[role]}: {problem}") from None
    if not found:
        raise UnknownContestant(f"{ROLE_OPTIONS[role]}: no {role} contestant given: name at least one of "
                                f"{contestant_names(role)}")
    return found


def _tournament(args: argparse.Namespace, providers: dict[str, ProviderSettings]) -> Tournament:
    """The tournament ``args`` ask for; UnknownContestant for a bad name, ProviderNotConfigured for
    a contestant whose provider has no key, ConfigError for a bad setting (all before anything is played)."""
    contestants = {"user": _contestants("user", args.users), "minotaur": _contestants("minotaur", args.minotaurs)}
    for contestant in (c for found in contestants.values() for c in found if c.provider):
        check_configured(contestant.settings(providers))
    entrants = {role: tuple(dict.fromkeys(Entrant(c.resolved(providers), c.settings(providers) if c.provider else None)
                                          for c in found)) for role, found in contestants.items()}
    tournament = Tournament(entrants["user"], entrants["minotaur"], range(args.seed, args.seed + args.games),
                            args.preset, args.difficulty, args.max_turns, args.repeats)
    if tournament.size > MOST_MATCHES:
        args.own_parser.error(f"{len(tournament.users)} users x {len(tournament.minotaurs)} Minotaurs x {args.games:,} "
                              f"seeds x {args.repeats:,} repeats is {tournament.size:,} matches: a tournament plays at "
                              f"most {MOST_MATCHES:,} (fewer --games or --repeats, or two tournaments)")
    return tournament


def _play(args: argparse.Namespace, tournament: Tournament, db: ResultsDB,
          keep: Callable[[MatchResult], None] | None, run: Run, run_id: str, run_began: str) -> Run:
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

    def play() -> Run:
        return run_tournament(tournament, db, concurrency=args.concurrency, fresh=args.fresh,
                              replay_void=args.replay_void, replays=replays, run=run, on_result=ended,
                              run_id=run_id, run_began=run_began)

    if not status.is_terminal:
        return play()
    from rich.live import Live

    began = time.perf_counter()
    with Live(console=status, transient=True, refresh_per_second=2,
              get_renderable=lambda: _live_view(run, time.perf_counter() - began)):
        return play()


def _report(run: Run, interrupted: KeyboardInterrupt | None, unplayed: int, void: int) -> None:
    """The end of the run on stderr: why it stopped, the void matches, each model contestant's health, and
    what the standings leave out of the tournament (``unplayed`` and ``void`` matches)."""
    if interrupted:
        _say(f"stopped by {cause(interrupted)} after {len(run.done)} matches: run the same command again to play "
             "the rest")
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
    if (void or unplayed) and not interrupted:
        again = [*(["run the same command again to play the unplayed ones"] if unplayed else []),
                 *(["add --replay-void to play the void ones again"] if void else [])]
        _say(f"incomplete: {void} void and {unplayed} unplayed matches of this tournament are left out of the "
             f"standings; {' and '.join(again)}")


def _resume_hint(run: Run) -> str:
    """When to run the same command again: after the quota's wait, as a time of day (UTC), with its date
    when that is not today; a wait past any date a clock shows (a server may ask for one) in seconds."""
    wait = run.stopped_wait_s
    if not wait:
        return "run the same command again once the quota allows"
    now = datetime.now(UTC)
    try:
        at = now + timedelta(seconds=wait)
    except OverflowError:
        return f"the quota asks for a wait of {wait:.3g} s, past any date: run the same command again once it allows"
    return f"run the same command again after {at:{'%H:%M:%S' if at.date() == now.date() else '%Y-%m-%d %H:%M:%S'}} " \
           f"UTC (in {wait:,.0f} s)"


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


def _standings(standings: Standings, tournament: Tournament, ascii: bool) -> list:
    """The standings as the leaderboard shows them (leaderboard_tables), under a line saying what was
    rated; in ASCII for a terminal that takes nothing else (``ascii``)."""
    from rich.text import Text

    learned = tournament.learned
    rated = f"rated: {tournament.preset}, {tournament.difficulty}, at most {tournament.max_turns} turns, " + \
        ("nobody learning" if learned == NOBODY else f"learning: {learned} (the results depend on the experience log)")
    paired = [paired_table(role, found, ascii=ascii) for role in ROLES if (found := standings.paired.get(role))]
    warnings = [Text(fitted(standings.copies_warning, ascii), style="bold yellow")] if standings.copies_warning else []
    return [Text(fitted(rated, ascii), style="dim"), *warnings,
            *(ratings_table(role, standings.ratings[role], ascii=ascii) for role in ROLES),
            head_to_head_table(standings, ascii=ascii), *paired]
