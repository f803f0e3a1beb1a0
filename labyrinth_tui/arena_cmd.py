"""`labyrinth arena`: many headless matches, then a results table for people
or one JSON object for scripts.

stdout carries only the table or the JSON; the progress bar is drawn on
stderr, and only when both are terminals, so a pipe never sees it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labyrinth.agents.arena import (
    OUTCOMES,
    ArenaSettings,
    ArenaSummary,
    RecorderFactory,
    run_arena,
)
from labyrinth.agents.arena_log import open_memory
from labyrinth.agents.config import ProviderSettings
from labyrinth.agents.registry import check_configured, contestant_names, provider_of
from labyrinth.agents.runner import DEFAULT_MAX_TURNS, MatchResult
from labyrinth.engine import DEFAULT_PRESET, DIFFICULTIES, PRESETS

from .learn_option import add_learn_options, learners
from .provider_options import add_provider_options, contestant
from .seed_option import bounded_seed
from .terminal_text import printable

if TYPE_CHECKING:  # Rich and the replay writer load only when an arena runs, not for every command
    from rich.console import Console
    from rich.table import Table

    from labyrinth.saves.replays import ReplayWriter


def _count(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {value!r}")
    return number


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The `arena` subcommand and its options; agents by name (registry.parse_contestant)."""
    arena = sub.add_parser(
        "arena", help="play many headless matches and summarise them",
        description="Play one match per seed (S, S+1, ...) between two agents without a screen, then print "
                    "the outcomes, the escape rate with its 95% Wilson interval, mean turns and game time, "
                    "fallbacks and errors per side, and the speed.")
    arena.add_argument("--games", type=_count, default=20, help="how many matches (default: 20)")
    arena.add_argument("--seed", type=bounded_seed, default=1, help="the first match's seed (default: 1)")
    arena.add_argument("--preset", choices=list(PRESETS), default=DEFAULT_PRESET, help="hunting ground size")
    arena.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
    arena.add_argument("--user", type=contestant("user"), default="builtin", metavar="AGENT",
                       help=f"the user's agent: {contestant_names('user')} (default: builtin)")
    arena.add_argument("--minotaur", type=contestant("minotaur"), default="builtin", metavar="AGENT",
                       help=f"the Minotaur's agent: {contestant_names('minotaur')} (default: builtin)")
    arena.add_argument("--max-turns", type=_count, default=DEFAULT_MAX_TURNS,
                       help=f"turns before a match is a TIMEOUT (default: {DEFAULT_MAX_TURNS})")
    arena.add_argument("--jobs", type=_count, default=1,
                       help="processes to play in; the results are the same for any number (default: 1). "
                            "With 1, the progress line shows a model's quota wait as it runs (e.g. 'minotaur: "
                            "gemini is rate-limited: waiting 47 s'); matches in other processes cannot show it")
    arena.add_argument("--json", action="store_true",
                       help='print only one JSON object: games, escaped, death, timeout, escape_rate, '
                            'mean_turns, mean_game_time; fallbacks, errors, invalid (answers without a usable '
                            'action, a blocked or cut-off one too), provider_errors (a model call that timed out '
                            'counts here), exceptions, timeouts (turns whose answer missed the match\'s deadline), '
                            'calls, call_s, tokens_in and tokens_out (every model call: decisions, plans and '
                            'lessons) (each {"user": n, "minotaur": n}, totals over all '
                            'matches); mean_latency_s and replaced (matches where the built-in agent took over '
                            'from a failing LLM) per side; reflections (drawn from the matches, each match\'s added to the '
                            'experience log as it ends); wall_s; and '
                            'results [{seed, outcome, turns, game_time}] '
                            'in seed order')
    arena.add_argument("--replays", type=Path, metavar="DIR",
                       help="record each match as a replay file in DIR, for `labyrinth replay`")
    add_learn_options(arena, "this run")
    add_provider_options(arena)
    arena.set_defaults(own_parser=arena)  # for the check of the last seed, made after parsing


def run(args: argparse.Namespace, providers: dict[str, ProviderSettings]) -> int:
    from rich.console import Console

    for settings in providers.values():
        check_configured(settings)  # ProviderNotConfigured now, not in every match
    seeds = range(args.seed, args.seed + args.games)
    recorder_factory = None
    if args.replays:
        try:
            args.replays.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _say(f"cannot keep replays in {args.replays}: {exc.strerror or exc}")
            return 2
        recorder_factory = partial(_replay_writer, args.replays)
    keeper, lessons = (None, ()) if not learners(args) else open_memory(_say, seeds)  # its thread starts here
    settings = ArenaSettings(args.user, args.minotaur, args.preset, args.difficulty, args.max_turns,
                             tuple(providers.items()), memory=keeper is not None, lessons=lessons,
                             learners=learners(args))
    status = Console(stderr=True)
    keep = keeper.keep if keeper else None
    try:
        if sys.stdout.isatty() and status.is_terminal:
            summary = _with_progress(status, settings, seeds, args.jobs, recorder_factory, keep)
        else:
            summary = run_arena(settings, seeds, jobs=args.jobs, recorder_factory=recorder_factory, on_result=keep)
    finally:  # on Ctrl-C too: the matches that ended are kept
        if keeper and (unkept := keeper.close()):
            _say(unkept)
    lost = [r.recording_error for r in summary.results if r.recording_error]
    if lost:
        _say(f"{len(lost)} replay(s) incomplete, e.g. {lost[0]}")
    if args.json:
        print(json.dumps(summary.to_dict()))
    else:
        Console().print(_table(summary, seeds))
    return 0


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
                   recorder_factory: RecorderFactory | None,
                   keep: Callable[[MatchResult], None] | None) -> ArenaSummary:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    tally = dict.fromkeys(OUTCOMES, 0)
    playing: dict[str, Any] = {}  # the agents of the match being played, when it is played here (jobs 1)
    watch = jobs <= 1 and bool(provider_of(settings.user) or provider_of(settings.minotaur))
    # Redrawn as each match ends rather than by Rich's refresh thread: nothing changes in between, except
    # a model's quota wait, which counts down (so with a model played here, Rich redraws twice a second).
    with Progress(TextColumn("[bold]arena[/]"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
                  TimeRemainingColumn(), *([_waits_column(playing)] if watch else []), console=console,
                  transient=True, auto_refresh=watch, refresh_per_second=2) as progress:
        task = progress.add_task("", total=len(seeds))

        def advance(result: MatchResult) -> None:
            if keep:
                keep(result)
            tally[result.outcome] += 1
            progress.update(task, advance=1, refresh=True,
                            description="  ".join(f"{k.lower()} {v}" for k, v in tally.items()))

        return run_arena(settings, seeds, jobs=jobs, recorder_factory=recorder_factory, on_result=advance,
                         seated=playing.update if watch else None)


def _waits_column(playing: dict[str, Any]):
    """A progress column saying which of ``playing``'s agents waits out a quota, and for how long."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Waits(ProgressColumn):
        def render(self, task) -> Text:
            said = [f"{role}: {waiting.reason}" for role, agent in list(playing.items())
                    if (waiting := getattr(agent, "waiting", None)) is not None]
            return Text(printable("  ".join(said)), style="yellow")

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
        table.add_row(outcome.lower(), f"{n} of {summary.games} ({n / summary.games:.0%})")
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
