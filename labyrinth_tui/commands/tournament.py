"""`labyrinth tournament`: every user contestant against every Minotaur contestant
on the same seeds, each match kept in the results database as it ends, then the
standings (Bradley-Terry ratings per role with their intervals, win rates, head to head, paired differences).

Nobody learns from the experience log unless --learn says so: a rating compares the
contestants, not the state of a log. With learning on, the results depend on the log as it
was, which the output says, and the matches are kept apart from those played without.

Only valid matches are rated: a match a model did not play itself (replaced by the
built-in agent, or more than results_terms.FALLBACK_SHARE_ALLOWED of its turns played by the
fallback) is kept as void, with its reason, and counted as void in every report; it is played
again only with --replay-void. Each run keeps its manifest (manifest.py) and says its id; --rerun
plays a recorded run again as a new run. At the end,
and on Ctrl-C, a health line per model contestant says how its calls went; a run that
left matches void or unplayed exits with EXIT_INCOMPLETE (3), one stopped by Ctrl-C
with 130. A quota that asks for a longer wait than --hold-limit stops the run with one
line naming the contestant and saying when to run the same command again; so does an
endpoint that has answered nothing but quota answers, each within the hold, for three
times --hold-limit (retry.HOLD_BUDGET_FACTOR: it would hold the run for ever). Each
wait over 10 s (a quota's, the pace's) is said in a line on stderr as it starts, a
terminal or not.

Everything that can be refused is refused before the first match: an unknown
name, a provider without its key, a bad setting, a results database that cannot be
used. The live view (Rich, on stderr) is drawn only when stderr is a terminal;
otherwise one plain line per finished match goes to stderr. stdout carries only the
standings, or with --json one JSON object.
"""

from __future__ import annotations

import argparse

from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.agents.match.runner import DEFAULT_MAX_TURNS
from labyrinth.agents.registry import contestant_names
from labyrinth.saves.results_terms import FALLBACK_SHARE_ALLOWED

from .bounded_option import bounded
from .learn_option import add_learn_options
from .options import CONCURRENCY, GAMES, REPEATS, TURNS, game_options, parsed_by
from .provider_options import add_provider_options

DEFAULT_CONCURRENCY = 4


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tournament", help="every user against every Minotaur, kept in a results database, rated",
        description="Play every user contestant against every Minotaur contestant on the same seeds (S, S+1, "
                    "...), keep each match in results.db in the data directory as it ends, and print the "
                    "ratings per role, win rates with their 95% Wilson interval and the head-to-head table. "
                    "Matches with a result in the database are not played again: a stopped tournament "
                    "carries on, a new contestant plays only its new pairings, and a second worker started on "
                    "the same command shares the matches. A match a model did not play itself (replaced by the "
                    f"built-in agent, or more than {FALLBACK_SHARE_ALLOWED:.0%} of its turns played by the "
                    "fallback) is void: kept with its reason, rated nowhere, counted as void in every report, played "
                    "again only with --replay-void. Each run's manifest (contestants, settings, seeds, rules, "
                    "build) is kept with its matches; --rerun plays a recorded run again. Nobody "
                    "learns from the experience log unless --learn says so. Exit status: 0 when every match was "
                    f"played by its contestants, {EXIT_INCOMPLETE} when some are void or unplayed, 2 for a "
                    "refusal, 130 after Ctrl-C, 143 after SIGTERM. Contestants: for "
                    f"--users {contestant_names('user')}; for --minotaurs {contestant_names('minotaur')}.")
    p.add_argument("--users", metavar="A,B,...",
                   help="the user contestants, comma-separated (required unless --rerun is given, "
                        "which takes none)")
    p.add_argument("--minotaurs", metavar="X,Y,...",
                   help="the Minotaur contestants, comma-separated (required unless --rerun is given, "
                        "which takes none)")
    p.add_argument("--rerun", metavar="RUN",
                   help="play the recorded run RUN again, as a new run: its contestants (asked with the same "
                        "settings), seeds, repeats, preset, difficulty, turn limit and learning, from its manifest, "
                        "none of which may be given with it (`labyrinth leaderboard --runs` lists the runs; "
                        "`labyrinth leaderboard --run RUN` shows one)")
    p.add_argument("--games", type=bounded(GAMES), default=10,
                   help=f"seeds each pairing plays ({GAMES.words}; default: 10)")
    p.add_argument("--repeats", type=bounded(REPEATS), default=1,
                   help=f"times each pairing plays each seed ({REPEATS.words}; default: 1): a model that samples "
                        "gives another sample each time; copies of one game (the same moves: a contestant that does "
                        "not sample) count once")
    game_options(p, seed=1, seed_help="the first seed (default: 1)")
    p.add_argument("--max-turns", type=bounded(TURNS), default=DEFAULT_MAX_TURNS,
                   help=f"turns before a match is a TIMEOUT, a draw ({TURNS.words}; default: {DEFAULT_MAX_TURNS})")
    p.add_argument("--concurrency", type=bounded(CONCURRENCY), default=DEFAULT_CONCURRENCY,
                   help=f"matches played at once ({CONCURRENCY.words}; default: {DEFAULT_CONCURRENCY}): model "
                        "matches in threads, sharing each provider's pace (--llm-rpm) and no more than it serves in a "
                        "call's time, rule-agent matches in up to this many processes (at most one per core)")
    p.add_argument("--fresh", action="store_true", help="play every match again, even those in the database")
    p.add_argument("--replay-void", action="store_true",
                   help="play the void matches of this tournament again (by default a void match stays void, "
                        "counted so: a model that samples would otherwise get another try at the seeds it failed)")
    add_learn_options(p, "this tournament", default="none",
                      why="With learning the results depend on the log as it was, and are kept apart from "
                          "matches played without")
    p.add_argument("--json", action="store_true",
                   help="print only one JSON object: run_id, played, skipped, elsewhere (played by another worker "
                        "meanwhile), void, complete (every match played by its contestants: none void or "
                        "unplayed), stopped, wall_s, learned (who learned from the experience "
                        "log: none, user, minotaur or user+minotaur), health (per model contestant), matches "
                        "(this tournament's valid ones, in play order, as the database keeps them) and standings "
                        "(ratings per role, head_to_head)")
    add_provider_options(p, hold=True)
    parsed_by(p, run)


def run(args: argparse.Namespace) -> int:
    """Carried out by tournament_run.py, whose modules load only when this command runs (start-up)."""
    if args.rerun is None and not (args.users and args.minotaurs):
        args.own_parser.error("the following arguments are required: --users, --minotaurs (or --rerun RUN)")
    if args.rerun is not None and (args.users or args.minotaurs):
        args.own_parser.error("--rerun plays the run's own contestants: leave out --users and --minotaurs")
    from .tournament_run import run as carry_out

    return carry_out(args)
