"""The `--learn` option of the commands that play games (arena, tournament, play, spectate,
hotseat): who learns from the experience log. `--no-memory` stays, as `--learn none`."""

from __future__ import annotations

import argparse

from labyrinth.engine.wsap.roles import ROLES

# By the roles' names; the memory's own modules load when a game learns (start-up).
LEARNERS: dict[str, tuple[str, ...]] = {"both": tuple(ROLES), "user": ("user",), "minotaur": ("minotaur",),
                                        "none": ()}


def add_learn_options(p: argparse.ArgumentParser, what: str = "this game", default: str = "both",
                      why: str = "") -> None:
    """--learn (``default`` unless given; ``why``: a sentence on it for the help) and --no-memory."""
    p.add_argument("--learn", choices=list(LEARNERS), default=default,
                   help=f"who learns from the experience log (default: {default}); {what} adds its reflections to "
                        f"it unless none learns{'. ' + why if why else ''}")
    p.add_argument("--no-memory", dest="learn", action="store_const", const="none",
                   help="the same as --learn none: neither learn from the log nor add to it")


def learners(args: argparse.Namespace) -> tuple[str, ...]:
    """The roles that learn, as the command line chose them (none: memory off)."""
    return LEARNERS[args.learn]
