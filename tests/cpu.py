"""CPU time, for tests of how a cost grows with a text's length: this process's CPU seconds (not
the wall clock, which other work on the machine moves), under a budget that stops a call gone
quadratic with OverBudget rather than waiting it out (the signal is seen between bytecodes and
inside the regex engine's loops)."""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Callable
from typing import Any

RUNS = 3  # the least of these many measurements is the cost: one is only ever slowed by other work
MEASURED_S = 0.02  # calls are repeated until they have used this much CPU (the clock's steps are coarse here)


class OverBudget(Exception):
    """A measurement used more CPU than its budget."""


def cpu_seconds(call: Callable[[], Any], budget_s: float = 2.0) -> float:
    """The CPU seconds one ``call()`` takes: the least of RUNS measurements, each of as many calls
    as use MEASURED_S; OverBudget once a measurement uses ``budget_s``."""
    def ring(signum: int, frame: Any) -> None:
        raise OverBudget(f"a measurement used more than {budget_s:g} CPU-s")

    previous = signal.signal(signal.SIGPROF, ring)
    least = math.inf
    try:
        for _ in range(RUNS):
            signal.setitimer(signal.ITIMER_PROF, budget_s)
            calls, began = 0, time.process_time()
            while not calls or time.process_time() - began < MEASURED_S:
                call()
                calls += 1
            least = min(least, (time.process_time() - began) / calls)
            signal.setitimer(signal.ITIMER_PROF, 0)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    return least


def growth(read: Callable[[str], Any], small: str, large: str) -> float:
    """The CPU time of ``read(large)`` over that of ``read(small)`` as many times as ``small`` fits
    in ``large``: about 1 for a cost linear in the length, the ratio of the lengths for its square."""
    times = len(large) // len(small)
    return cpu_seconds(lambda: read(large)) / cpu_seconds(lambda: [read(small) for _ in range(times)])
