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
from pathlib import Path

from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.agents.match.runner import DEFAULT_MAX_TURNS
from labyrinth.saves.results_terms import FALLBACK_SHARE_ALLOWED, ROLES

from .bounded_option import bounded
from .learn_option import add_learn_options
from .options import CONCURRENCY, GAMES, TURNS, game_options, parsed_by, role_option
from .provider_options import add_provider_options


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The `arena` subcommand and its options; agents by name (registry.parse_contestant)."""
    arena = sub.add_parser(
        "arena", help="play many headless matches and summarise them",
        description="Play one match per seed (S, S+1, ...) between two agents without a screen, then print "
                    "the outcomes, the escape rate with its 95% Wilson interval, mean turns and game time, "
                    "fallbacks and errors per side, and the speed. The same arguments print the same results: "
                    "nobody learns from the experience log unless --learn says so. Only matches the models "
                    "played themselves count (a model replaced by the built-in agent, or whose turns were "
                    f"played by the fallback more than {FALLBACK_SHARE_ALLOWED:.0%} of the time, leaves its match "
                    "void). Exit status: 0 "
                    f"when every match counts, {EXIT_INCOMPLETE} when some are void or unplayed, 2 for a refusal, "
                    "130 after Ctrl-C, 143 after SIGTERM.")
    arena.add_argument("--games", type=bounded(GAMES), default=20,
                       help=f"how many matches ({GAMES.words}; default: 20)")
    game_options(arena, seed=1, seed_help="the first match's seed (default: 1)")
    for role in ROLES:
        role_option(arena, role, "builtin")
    arena.add_argument("--max-turns", type=bounded(TURNS), default=DEFAULT_MAX_TURNS,
                       help=f"turns before a match is a TIMEOUT ({TURNS.words}; default: {DEFAULT_MAX_TURNS})")
    arena.add_argument("--jobs", type=bounded(CONCURRENCY), default=1,
                       help=f"matches played at once ({CONCURRENCY.words}); the results are the same for any "
                            "number (default: 1). Rule agents play in up to this many processes (one per core); a "
                            "model's matches play in threads of this process, sharing its pace (--llm-rpm holds across "
                            "them), and the progress line shows its quota wait as it runs (e.g. 'gemini is "
                            "rate-limited: waiting 47 s')")
    arena.add_argument("--json", action="store_true",
                       help='print only one JSON object: games, escaped, death, timeout, escape_rate, '
                            'mean_turns, mean_game_time; fallbacks, errors, invalid (answers without a usable '
                            'action, a blocked or cut-off one too), provider_errors (a model call that failed for '
                            'good other than by time), exceptions, timeouts (a model call that took too long), '
                            'late_turns (turns whose answer missed the match\'s deadline), calls (= answered + invalid '
                            '+ provider_errors + timeouts), plan_calls, lesson_calls, answered, answer_s (the answered '
                            'calls\' time), tokens_in, tokens_out and reasoning_tokens (every model call: decisions, '
                            'plans and lessons), quota_waits and quota_wait_s (quota answers waited out), '
                            'pace_waits and pace_wait_s (starts the pace held) (each {"user": n, "minotaur": n}, '
                            'totals over all '
                            'matches); mean_latency_s and replaced (matches where the built-in agent took over '
                            'from a failing LLM) per side; reflections (drawn from the matches, each match\'s added '
                            'to the experience log as it ends); planned, played, complete, stopped (why the run '
                            'stopped early), void [{seed, reason}], health (per model contestant); wall_s; and '
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
    """Carried out by arena_run.py, whose modules load only when this command runs (start-up)."""
    from .arena_run import run as carry_out

    return carry_out(args)
