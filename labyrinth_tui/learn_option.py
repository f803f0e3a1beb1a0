"""The `--learn` option of the commands that play games (arena, tournament, play, spectate,
hotseat): who learns from the experience log. `--no-memory` stays, as `--learn none`."""

from __future__ import annotations

import argparse

from labyrinth.agents.memory_manager import ROLES

LEARNERS = {"both": ROLES, "user": ("user",), "minotaur": ("minotaur",), "none": ()}


def add_learn_options(p: argparse.ArgumentParser, what: str = "this game") -> None:
    p.add_argument("--learn", choices=list(LEARNERS), default="both",
                   help=f"who learns from the experience log (default: both); {what} adds its reflections to it "
                        "unless none learns")
    p.add_argument("--no-memory", dest="learn", action="store_const", const="none",
                   help="the same as --learn none: neither learn from the log nor add to it")


def learners(args: argparse.Namespace) -> tuple[str, ...]:
    """The roles that learn, as the command line chose them (none: memory off)."""
    return LEARNERS[args.learn]
