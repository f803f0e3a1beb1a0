"""The `--seed` option of every command that takes one (play, spectate, hotseat, gsm, world,
arena, tournament): a whole number inside the range a seed is kept in (SEED_LIMIT, the bound
the experience log, the saved games and the results database's 64-bit integers share), so that
a seed refused later, after the games were played, is refused at once by argparse instead.

A command that plays --games seeds from --seed on (S, S+1, ...) checks the last of them too, after
parsing (``last_seed_problem``): argparse sees one option at a time.
"""

from __future__ import annotations

import argparse

from labyrinth.engine.commands import excerpt
from labyrinth.engine.rng import SEED_LIMIT

LOWEST, HIGHEST = -SEED_LIMIT, SEED_LIMIT - 1
RANGE = f"the seed must be a whole number from {LOWEST} to {HIGHEST}"  # every refusal of one says it


def bounded_seed(value: str) -> int:
    """The argparse type of --seed: an integer from LOWEST to HIGHEST; else one line naming the range and an
    excerpt of the value (a seed of 400 digits is not echoed whole)."""
    try:
        number = int(value)
    except ValueError:  # not a whole number, or one of more than 4,300 digits
        raise argparse.ArgumentTypeError(f"{RANGE}, not {excerpt(value)}") from None
    if not LOWEST <= number <= HIGHEST:
        raise argparse.ArgumentTypeError(f"{RANGE}, not {excerpt(number)}")
    return number


def last_seed_problem(first: int, games: int) -> str | None:
    """Why the seeds ``first`` .. ``first + games - 1`` cannot all be played, or None."""
    last = first + games - 1
    if last > HIGHEST:
        return f"--seed {first} with --games {games} would reach seed {last}: the last seed must be at most {HIGHEST}"
    return None
