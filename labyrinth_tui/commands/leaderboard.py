"""`labyrinth leaderboard`: the standings from the results database that
`labyrinth tournament` fills, without playing anything: each role's ratings with
their intervals, each contestant's rating over its matches as a sparkline, each
role's paired differences and the head-to-head table; or one JSON object; and on
request the same figures as CSV files or a web page (leaderboard_report).

No database yet, or none of its matches chosen, is said plainly and is no error
(exit 0); a database that cannot be read is reported and kept as it is (exit 2), as
is a report file that cannot be written. The database is only read: one on a
read-only mount is fine. A damaged row is said in one line on stderr and left out.
Matches played under different rules are rated together only with a warning saying
which, and how to choose. The rows come from leaderboard_rows, as the TUI's
Leaderboard screen shows them; on a terminal that is not UTF-8 they are printed in
ASCII (ascii_text).
"""

from __future__ import annotations

import argparse

from labyrinth.engine import DIFFICULTIES, PRESETS
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.results_terms import LEARNED

from .bounded_option import bounded
from .options import TURNS, parsed_by

JSON_KEYS = ("database", "preset", "difficulty", "max_turns", "learned", "build", "run", "role", "matches", "void",
             "grounds", "warning", "copies", "damaged", "anchors", "offset", "ratings", "entries", "runs",
             "head_to_head", "paired")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "leaderboard", help="the tournament's standings, from the results database",
        description="The standings of the valid matches in results.db (which `labyrinth tournament` fills): each "
                    "role's Bradley-Terry ratings (each role anchored at 1500 on its built-in agent, or on its "
                    "contestants' mean when that agent did not play) with their 95% "
                    "interval over the seeds and rank bounds, matches, wins/draws/losses and win rate with its 95% "
                    "Wilson interval, each contestant's rating over its matches, every contestant entered (rated "
                    "or not) with its void matches, failure rates and cost, the paired differences between two "
                    "contestants of a role on the same seeds with Holm-adjusted p-values, and the head-to-head "
                    "table. Matches played under different rules (preset, difficulty, turn limit, learning, "
                    "build) are rated together, with a warning, unless the options below choose one kind. A report "
                    "FILE is a new file (0644 under the usual umask) or a regular one, replaced whole keeping its "
                    "mode, or a link of yours to one; - (or /dev/stdout) prints it instead of the tables; a "
                    "directory, device, FIFO or socket is refused.")
    p.add_argument("--role", choices=tuple(ROLES), help="only this role's ratings (default: both)")
    p.add_argument("--preset", choices=list(PRESETS), help="only matches on this hunting ground")
    p.add_argument("--difficulty", choices=DIFFICULTIES, help="only matches at this difficulty")
    p.add_argument("--max-turns", type=bounded(TURNS), metavar="N",
                   help=f"only matches with this turn limit ({TURNS.words})")
    p.add_argument("--learned", choices=LEARNED, help="only matches where these learned from the experience log")
    p.add_argument("--build", metavar="BUILD", help="only matches played by this build (version+commit, as shown)")
    p.add_argument("--run", metavar="RUN", help="only the matches of this tournament run (its manifest's design)")
    p.add_argument("--runs", action="store_true",
                   help="list the tournament runs in the database (id, start, design, matches) and stop")
    p.add_argument("--json", action="store_true",
                   help=f"print only one JSON object: {', '.join(JSON_KEYS)} (see docs/tournaments.md)")
    p.add_argument("--csv", metavar="FILE",
                   help="also write the ratings to FILE as CSV, one row per contestant and role, rated or not, "
                        "with its void matches, failure rates, tokens and cost")
    p.add_argument("--matches-csv", metavar="FILE",
                   help="also write every match chosen (valid and void) to FILE as CSV, one row each with every "
                        "figure the database keeps")
    p.add_argument("--paired-csv", metavar="FILE",
                   help="also write the paired differences to FILE as CSV")
    p.add_argument("--html", metavar="FILE",
                   help="also write the standings to FILE as one web page with charts, which needs no network")
    parsed_by(p, run)


def run(args: argparse.Namespace) -> int:
    """Carried out by leaderboard_run.py, whose modules load only when this command runs (start-up)."""
    from .leaderboard_run import run as carry_out

    return carry_out(args)
