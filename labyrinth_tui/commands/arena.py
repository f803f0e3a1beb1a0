"""`labyrinth arena`: many headless matches, then a results table for people
or one JSON object for scripts.

The same arguments print the same results: nobody learns from the experience log
unless --learn asks (learning makes each run depend on the log the last one left).
Only valid matches count in the figures: a match a model did not play itself is void
(results_db's rule), said with its reason, and a health line per model contestant
says how its calls went; a run with void or unplayed matches exits with
EXIT_INCOMPLETE (3). stdout carries only the table or the JSON; the progress bar is
drawn on stderr, and only when both are terminals, so a pipe never sees it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from labyrinth.agents.compete.arena import (
    OUTCOMES,
    ArenaSettings,
    ArenaSummary,
    RecorderFactory,
    run_arena,
)
from labyrinth.agents.compete.arena_log import open_memory
from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.match.runner import DEFAULT_MAX_TURNS, MatchResult
from labyrinth.agents.match.schedule import Progress
from labyrinth.agents.registry import check_configured, parse_contestant, provider_of
from labyrinth.saves.config import ConfigError
from labyrinth.saves.paths import advice
from labyrinth.saves.results_db import FALLBACK_SHARE_ALLOWED

from ..terminal_text import printable
from .learn_option import add_learn_options, learners
from .options import check_last_seed, count, game_options, parsed_by, providers, role_option
from .provider_options import add_provider_options

if TYPE_CHECKING:  # Rich and the replay writer load only when an arena runs, not for every command
    from rich.console import Console
    from rich.table import Table

    from labyrinth.saves.replays import ReplayWriter


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The `arena` subcommand and its options; agents by name (registry.parse_contestant)."""
    arena = sub.add_parser(
        "arena", help="play many headless matches and summarise them",
        description="Play one match per seed (S, S+1, ...) between two agents without a screen, then print "
                    "the outcomes, the escape rate with its 95% Wilson interval, mean turns and game time, "
                    "fallbacks and errors per side, and the speed. The same arguments print the same results: "
                    "nobody learns from the experience log unless --learn says so. Only matches the models "
                    "played themselves count (a model replaced by the built-in agent, or whose turns were "
                    f"played by the fallback more than {FALLBACK_SHARE_ALLOWED:.0%} of the time, leaves its match void). "
                    "Exit status: 0 "
                    f"when every match counts, {EXIT_INCOMPLETE} when some are void or unplayed, 130 after Ctrl-C.")
    arena.add_argument("--games", type=count, default=20, help="how many matches (default: 20)")
    game_options(arena, seed=1, seed_help="the first match's seed (default: 1)")
    for role in ("user", "minotaur"):
        role_option(arena, role, "builtin")
    arena.add_argument("--max-turns", type=count, default=DEFAULT_MAX_TURNS,
                       help=f"turns before a match is a TIMEOUT (default: {DEFAULT_MAX_TURNS})")
    arena.add_argument("--jobs", type=count, default=1,
                       help="matches played at once; the results are the same for any number (default: 1). Rule "
                            "agents play in up to this many processes (one per core); a model's matches play in "
                            "threads of this process, sharing its pace (--llm-rpm holds across them), and the "
                            "progress line shows its quota wait as it runs (e.g. 'gemini is rate-limited: waiting "
                            "47 s')")
    arena.add_argument("--json", action="store_true",
                       help='print only one JSON object: games, escaped, death, timeout, escape_rate, '
                            'mean_turns, mean_game_time; fallbacks, errors, invalid (answers without a usable '
                            'action, a blocked or cut-off one too), provider_errors (a model call that timed out '
                            'counts here), exceptions, timeouts (turns whose answer missed the match\'s deadline), '
                            'calls, call_s, tokens_in, tokens_out and reasoning_tokens (every model call: decisions, '
                            'plans and lessons), quota_waits and quota_wait_s (each {"user": n, "minotaur": n}, '
                            'totals over all '
                            'matches); mean_latency_s and replaced (matches where the built-in agent took over '
                            'from a failing LLM) per side; reflections (drawn from the matches, each match\'s added to the '
                            'experience log as it ends); planned, played, complete, stopped (why the run stopped '
                            'early), void [{seed, reason}], health (per model contestant); wall_s; and '
                            'results [{seed, outcome, turns, game_time, void}] '
                            'in seed order. The outcome figures count valid matches only')
    arena.add_argument("--replays", type=Path, metavar="DIR",
                       help="record each match as a replay file in DIR, for `labyrinth replay`")
    add_learn_options(arena, "this run", default="none",
                      why="Learning makes each run depend on the log the last one left, so the same arguments "
                          "would print other results")
    add_provider_options(arena, hold=True)
    parsed_by(arena, run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    check_last_seed(args)
    try:
        models = _models(args, providers(args))  # ProviderNotConfigured and bad settings now, not in every match
    except ConfigError as problem:
        _say(str(problem))
        return 2
    seeds = range(args.seed, args.seed + args.games)
    recorder_factory = None
    if args.replays:
        try:
            args.replays.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _say(f"cannot keep replays in {args.replays}: {advice(exc)}")
            return 2
        recorder_factory = partial(_replay_writer, args.replays)
    keeper, lessons = (None, ()) if not learners(args) else open_memory(_say, seeds)  # its thread starts here
    settings = ArenaSettings(args.user, args.minotaur, args.preset, args.difficulty, args.max_turns, models,
                             memory=keeper is not None, lessons=lessons, learners=learners(args))
    status = Console(stderr=True)
    progress = Progress()
    ended: list[MatchResult] = []

    def finished(result: MatchResult) -> None:
        """A match ended: kept in ``ended`` (said on Ctrl-C too), and by the memory's keeper."""
        ended.append(result)
        if keeper:
            keeper.keep(result)

    try:
        if sys.stdout.isatty() and status.is_terminal:
            summary = _with_progress(status, settings, seeds, args.jobs, recorder_factory, finished, progress)
        else:
            summary = run_arena(settings, seeds, jobs=args.jobs, recorder_factory=recorder_factory,
                                on_result=finished, progress=progress)
    except KeyboardInterrupt:  # the matches that ended are kept, and the health of the calls said
        summary = ArenaSummary(settings.prepared(), tuple(sorted(ended, key=lambda r: r.seed)), 0.0, len(seeds),
                               "stopped by Ctrl-C")
        _report(summary)
        return 130
    finally:  # on Ctrl-C too: the matches that ended are kept
        if keeper and (unkept := keeper.close()):
            _say(unkept)
    lost = [r.recording_error for r in summary.results if r.recording_error]
    if lost:
        _say(f"{len(lost)} replay(s) incomplete, e.g. {lost[0]}")
    _report(summary)
    if args.json:
        print(json.dumps(summary.to_dict()))
    else:
        Console().print(_table(summary, seeds))
    return 0 if summary.complete else EXIT_INCOMPLETE


def _models(args: argparse.Namespace, providers: dict[str, ProviderSettings]) -> tuple[tuple[str, ProviderSettings], ...]:
    """Each model side's settings under its name (a config contestant's table over its provider's);
    ProviderNotConfigured for a provider without its key."""
    models = {}
    for role in ("user", "minotaur"):
        contestant = parse_contestant(role, getattr(args, role))
        if contestant.provider is not None:
            settings = contestant.settings(providers)
            check_configured(settings)
            models[contestant.name] = settings
    return tuple(models.items())


def _report(summary: ArenaSummary) -> None:
    """On stderr: why the run stopped early, the void matches, each model contestant's health."""
    if summary.stopped:
        _say(f"stopped: {summary.stopped}")
    for seed, why in summary.void.items():
        _say(f"seed {seed}: {why}")
    for line in summary.health():
        _say(line.line())
    if not summary.complete:
        unplayed = summary.planned - len(summary.results)
        _say(f"incomplete: {len(summary.void)} void and {unplayed} unplayed of {summary.planned} matches; the "
             f"figures count the {summary.games} valid ones")


def _say(line: str) -> None:
    """One line on stderr; paths and messages from outside are shown as escapes, never obeyed."""
    print(f"labyrinth arena: {printable(line)}", file=sys.stderr)


def _replay_writer(directory: Path, seed: int) -> ReplayWriter:
    """A replay file in ``directory`` for one match; a module-level function, so
    worker processes can unpickle it and write their own matches."""
    from labyrinth.saves.replays import ReplayWriter

    del seed  # the writer names the file from the match it is given
    return ReplayWriter(directory)


def _with_progress(console: Console, settings: ArenaSettings, seeds: range, jobs: int,
                   recorder_factory: RecorderFactory | None, finished: Callable[[MatchResult], None],
                   playing: Progress) -> ArenaSummary:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    tally = dict.fromkeys(OUTCOMES, 0)
    watch = bool(provider_of(settings.user) or provider_of(settings.minotaur))  # a model's quota wait to show
    # Redrawn as each match ends rather than by Rich's refresh thread: nothing changes in between, except
    # a model's quota wait, which counts down (so with a model played here, Rich redraws twice a second).
    with Progress(TextColumn("[bold]arena[/]"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
                  TimeRemainingColumn(), *([_waits_column(playing)] if watch else []), console=console,
                  transient=True, auto_refresh=watch, refresh_per_second=2) as progress:
        task = progress.add_task("", total=len(seeds))

        def advance(result: MatchResult) -> None:
            finished(result)
            tally[result.outcome] += 1
            progress.update(task, advance=1, refresh=True,
                            description="  ".join(f"{k.lower()} {v}" for k, v in tally.items()))

        return run_arena(settings, seeds, jobs=jobs, recorder_factory=recorder_factory, on_result=advance,
                         progress=playing)


def _waits_column(playing: Progress):
    """A progress column saying which of the matches in flight wait out a quota or the pace, and how long."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Waits(ProgressColumn):
        def render(self, task) -> Text:
            return Text(printable("  ".join(playing.waits())), style="yellow")

    return Waits()


def _table(summary: ArenaSummary, seeds: range) -> Table:
    from rich.table import Table

    s = summary.settings
    table = Table(title=f"{s.user} user vs {s.minotaur} Minotaur: {s.preset}, {s.difficulty}, "
                        f"seeds {seeds.start}..{seeds.stop - 1}, at most {s.max_turns} turns")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for outcome in OUTCOMES:
        n = summary.count(outcome)
        table.add_row(outcome.lower(), f"{n} of {summary.games} ({n / summary.games if summary.games else 0:.0%})")
    if summary.void or not summary.complete:
        table.add_row("void / unplayed (left out)", f"{len(summary.void)} / {summary.planned - len(summary.results)}",
                      style="bold red")
    low, high = summary.escape_interval
    table.add_row("escape rate (95% Wilson)", f"{summary.escape_rate:.3f} ({low:.3f}..{high:.3f})")
    table.add_row("mean turns", f"{summary.mean_turns:.1f}")
    table.add_row("mean game time", f"{summary.mean_game_time:,.1f} s")
    llm = bool(provider_of(s.user) or provider_of(s.minotaur))
    counters = ("fallbacks", "errors", *(("invalid", "provider_errors", "tokens_in", "tokens_out") if llm else ()))
    for counter in counters:
        side = summary.per_side(counter)
        table.add_row(f"{counter.replace('_', ' ')}: user / Minotaur", f"{side['user']:,} / {side['minotaur']:,}")
    latency = summary.mean_latency_s()
    table.add_row("mean decision time: user / Minotaur",
                  f"{latency['user'] * 1000:,.1f} / {latency['minotaur'] * 1000:,.1f} ms")
    replaced = summary.replaced
    if any(replaced.values()):
        table.add_row("LLM replaced by builtin: user / Minotaur",
                      f"{replaced['user']} / {replaced['minotaur']} matches", style="bold red")
    if s.memory:
        given = len(s.lessons)
        table.add_row("memory: lessons in the log / reflections added",
                      f"{given:,} / {sum(len(r.reflections) for r in summary.results):,}")
    table.add_row("wall time", f"{summary.wall_s:.2f} s")
    table.add_row("matches per second", f"{summary.matches_per_s:.1f}")
    return table
