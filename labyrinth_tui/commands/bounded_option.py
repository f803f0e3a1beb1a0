"""Options that take a number in a range (saves.config.Bound): one argparse type for every one of them, so
that a flag, the config file and a rerun's manifest refuse a value alike, in one line naming the range."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from labyrinth.saves.config import Bound


def bounded(bound: Bound):
    """The argparse type of a number in ``bound``, the range the config file and a rerun's manifest hold the
    same setting to: a count (TURNS, GAMES, REPEATS, CONCURRENCY) when the bound is whole, else any number in
    it (TIMEOUT, RPM, HOLD: inf and nan are in no range); argparse's one-line error naming the option and
    the range otherwise."""
    read: Callable[[str], float] = int if bound.whole else float

    def number(value: str) -> float:
        try:
            figure = read(value)
        except ValueError:  # not a number of its kind, or a whole one of more than 4,300 digits
            raise argparse.ArgumentTypeError(bound.refusal(value)) from None
        if not bound.holds(figure):  # a count as read; a number as typed (1e-300, not 1e-300's float)
            raise argparse.ArgumentTypeError(bound.refusal(figure if bound.whole else value))
        return figure

    number.__name__ = "count" if bound.whole else "number"
    return number
