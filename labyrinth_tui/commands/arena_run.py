"""The work of `labyrinth arena` (its parser is arena.py): imported when the command runs, so
that what it needs does not load with every command (start-up)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from labyrinth.agents.compete.arena import (
    ArenaSettings,
    ArenaSummary,
    RecorderFactory,
    run_arena,
)
from labyrinth.agents.compete.arena_log import open_memory
from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.pacing import long_waits_to
from labyrinth.agents.match.runner import MatchResult
from labyrinth.agents.match.schedule import Progress
from labyrinth.agents.registry import check_configured, parse_contestant, provider_of
from labyrinth.engine.schemas import OUTCOMES
from labyrinth.saves.config import ConfigError
from labyrinth.saves.paths import advice
from labyrinth.saves.results_terms import ROLES

from ..stop_signals import cause, exit_status
from ..terminal_text import printable, say
from .learn_option import learners
from .options import check_last_seed, providers

_say = partial(say, command="arena")  # a message on stderr (terminal_text.say)

if TYPE_CHECKING:  # Rich loads only when an arena runs, not for every command
    from rich.console import Console
    from rich.table import Table


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
        from .arena_replays import ArenaReplays

        try:
            args.replays.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _say(f"cannot keep replays in {args.replays}: {advice(exc)}")
            return 2
        recorder_factory = ArenaReplays(args.replays)
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
        with long_waits_to(lambda wait: _say(wait.line())):  # a line for every long wait, a terminal or not
            if sys.stdout.isatty() and status.is_terminal:
                summary = _with_progress(status, settings, seeds, args.jobs, recorder_factory, finished, progress)
            else:
                summary = run_arena(settings, seeds, jobs=args.jobs, recorder_factory=recorder_factory,
                                    on_result=finished, progress=progress)
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the matches that ended are kept, the calls' health said
        if recorder_factory is not None:
            recorder_factory.drop_unfinished()  # and the replays of those under way removed
        summary = ArenaSummary(settings.prepared(), tuple(sorted(ended, key=lambda r: r.seed)), 0.0, len(seeds),
                               f"stopped by {cause(stop)}")
        _report(summary)
        return exit_status(stop)
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


def _models(args: argparse.Namespace,
            providers: dict[str, ProviderSettings]) -> tuple[tuple[str, ProviderSettings], ...]:
    """Each model side's settings under its name (a config contestant's table over its provider's);
    ProviderNotConfigured for a provider without its key."""
    models = {}
    for role in ROLES:
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
