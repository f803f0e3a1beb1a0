"""Outcome benchmark of the built-in agents on the standard preset: how often
the built-in user escapes the built-in Minotaur (a fair hunt lands between
0.35 and 0.65), and whether both beat the naive yardsticks: a random-walking
user must escape far less, a waiting Minotaur must catch far less. Also the
arena's speed. Like bench/perf/run.py it prints figures next to their targets
(PASS/MISS) and asserts nothing: the agents' strength is tuned by hand.

    .venv/bin/python bench/play/arena_bench.py [--games 200] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, row

from labyrinth.agents.compete.arena import ArenaSettings, ArenaSummary, run_arena
from labyrinth.agents.compete.intervals import wilson_interval

PRESET = "standard"
FAIR = (0.35, 0.65)  # the built-in user's escape rate against the built-in Minotaur
TIMED_MATCHES = 40  # played one after another in this process for the one-core wall time


def rate(summary: ArenaSummary, outcome: str) -> float:
    return summary.count(outcome) / summary.games


def rate_row(name: str, summary: ArenaSummary, outcome: str, goal: str, passed: bool) -> None:
    """One outcome's rate with its 95% Wilson interval and the run's outcome counts."""
    low, high = wilson_interval(summary.count(outcome), summary.games)
    row(name, f"{rate(summary, outcome):.3f}", goal, "PASS" if passed else "MISS",
        f"95% CI {low:.3f}..{high:.3f}; escaped {summary.count('ESCAPED')}, death {summary.count('DEATH')}, "
        f"timeout {summary.count('TIMEOUT')} of {summary.games}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="seeds per pairing (default: 200)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: all CPUs)")
    args = parser.parse_args()
    seeds = range(1, args.games + 1)
    began = time.perf_counter()
    # The load shows when other work shares the cores, which slows the speed figures, not the rates.
    print(f"Labyrinth arena benchmark: {PRESET}, seeds 1..{args.games}, {args.jobs} process(es), "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    row("measure", "figure", "target", "", "note")

    fair = run_arena(ArenaSettings("builtin", "builtin", PRESET), seeds, jobs=args.jobs)
    walker = run_arena(ArenaSettings("random", "builtin", PRESET), seeds, jobs=args.jobs)
    idle = run_arena(ArenaSettings("builtin", "wait", PRESET), seeds, jobs=args.jobs)
    # "Far less" is read as under half the built-in opponent's figure; an idle hunter can only help the user.
    escaped, caught = rate(fair, "ESCAPED"), rate(fair, "DEATH")
    rate_row("builtin vs builtin: escape rate", fair, "ESCAPED", f"{FAIR[0]}..{FAIR[1]}",
             FAIR[0] <= escaped <= FAIR[1])
    rate_row("random user vs builtin: escape rate", walker, "ESCAPED", f"< {escaped / 2:.3f}",
             rate(walker, "ESCAPED") < escaped / 2)
    rate_row("builtin vs waiting Minotaur: catch rate", idle, "DEATH", f"< {caught / 2:.3f}",
             rate(idle, "DEATH") < caught / 2)
    rate_row("builtin vs waiting Minotaur: escape rate", idle, "ESCAPED", f">= {escaped:.3f}",
             rate(idle, "ESCAPED") >= escaped)
    for name, summary in (("builtin vs builtin", fair), ("random vs builtin", walker), ("builtin vs wait", idle)):
        report(f"{name}: matches/s", summary.matches_per_s, "/s", ".1f",
               note=f"{args.jobs} process(es), mean {summary.mean_turns:.0f} turns")

    times = []
    for seed in range(1, TIMED_MATCHES + 1):
        start = time.perf_counter()
        fair.settings.play(seed)
        times.append(time.perf_counter() - start)
    report("one builtin vs builtin match, median", statistics.median(times) * 1e3, "ms", ".1f",
           target=("<", 100), note=f"{TIMED_MATCHES} seeds, one after another on one core")
    print(f"total {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
