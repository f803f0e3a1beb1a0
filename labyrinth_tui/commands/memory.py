"""`labyrinth memory`: what the agents have learned, from the experience log.

    labyrinth memory list [--role R] [--outcome O] [--limit N]
    labyrinth memory show ID
    labyrinth memory lessons [--role R] [--preset P]
    labyrinth memory clear [--yes]
    labyrinth memory export FILE     (- for standard output)

Every value read from the log is printed through ``printable``: an edited log cannot send
the terminal an escape sequence or reorder a line with a bidi override.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from labyrinth.engine import DEFAULT_PRESET, PRESETS
from labyrinth.engine.schemas import OUTCOMES
from labyrinth.saves.results_terms import ROLES

from .options import parsed_by


def add_parser(sub: argparse._SubParsersAction) -> None:
    memory = sub.add_parser("memory", help="list, show, clear or export the agents' reflections, or their lessons",
                            description="The experience log: one reflection per role per game, which the next "
                                        "games' agents learn from.")
    actions = memory.add_subparsers(dest="memory_action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="one line per reflection, newest first")
    listing.add_argument("--role", choices=ROLES, help="only this role's")
    listing.add_argument("--outcome", choices=OUTCOMES, type=str.upper, help="only games that ended so (any case)")
    listing.add_argument("--limit", type=_limit, default=50, help="at most this many (default: 50; 0: all)")
    show = actions.add_parser("show", help="one reflection in full, its evidence too")
    show.add_argument("id", help="the reflection's id (a unique prefix is enough)")
    lessons = actions.add_parser("lessons", help="the lessons about behaviour, merged over every game of a preset",
                                 description="What followed each choice in each situation, over every game of a "
                                             "preset: lessons that hold in any labyrinth, with their evidence.")
    lessons.add_argument("--role", choices=ROLES, help="only this role's")
    lessons.add_argument("--preset", choices=list(PRESETS), default=DEFAULT_PRESET,
                         help=f"the hunting ground whose games are merged (default: {DEFAULT_PRESET})")
    clear = actions.add_parser("clear", help="forget every reflection")
    clear.add_argument("--yes", action="store_true", help="do not ask")
    export = actions.add_parser("export", help="write every reflection to FILE as JSON")
    export.add_argument("file", metavar="FILE",
                        help="where to write: a new or regular file, replaced whole, or a link of yours to one; "
                             "- for standard output")
    parsed_by(memory, run)


def _limit(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number, 0 for all, not {value!r}")
    return int(value)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Carried out by memory_run.py, whose modules (the experience log's) load only when this command runs
    (start-up); ``out``: standard output as it is when the command runs, unless a caller gives another."""
    from .memory_run import run as carry_out

    return carry_out(args, out or sys.stdout)
