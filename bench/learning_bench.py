"""Does memory make the built-in agents better? Rounds of built-in vs built-in on
`standard`; after each round the learning side's reflections join its log, and
the next round learns from them. Printed per round: the user's escape rate with
its 95% Wilson interval, for the user learning alone, the Minotaur learning
alone, and both; memory off is the same every round (the games are
deterministic) and is printed once. A second table plays new labyrinths each
round, where a lesson about a place cannot apply.

    .venv/bin/python bench/learning_bench.py [--rounds 10] [--games 40] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os

from labyrinth.agents.arena import ArenaSettings, ArenaSummary, run_arena, wilson_interval
from labyrinth.saves.experience import Reflection

PRESET = "standard"
BAR = 30  # characters for an escape rate of 1


def escape(summary: ArenaSummary) -> str:
    low, high = wilson_interval(summary.count("ESCAPED"), summary.games)
    return f"{summary.escape_rate:.3f} ({low:.2f}..{high:.2f})"


def bar(rate: float) -> str:
    return "#" * round(rate * BAR)


def same_labyrinths(rounds: int, games: int, jobs: int) -> None:
    seeds = range(1, games + 1)
    off = run_arena(ArenaSettings(preset=PRESET), seeds, jobs=jobs)
    print(f"Same {games} labyrinths every round ({PRESET}, seeds 1..{games}); memory off: escape {escape(off)}, "
          f"caught {off.count('DEATH')}, timeout {off.count('TIMEOUT')}")
    learners = {"user learns": ("user",), "Minotaur learns": ("minotaur",), "both learn": ("user", "minotaur")}
    logs: dict[str, list[Reflection]] = {name: [] for name in learners}
    rates: dict[str, list[float]] = {name: [] for name in learners}
    print(f"{'round':>5}  " + "  ".join(f"{name + ': escape (95% CI)':>34}" for name in learners))
    for number in range(1, rounds + 1):
        cells = []
        for name, roles in learners.items():
            lessons = tuple(r for r in logs[name] if r.role in roles)
            summary = run_arena(ArenaSettings(preset=PRESET, memory=True, lessons=lessons), seeds, jobs=jobs)
            logs[name] += [r for result in summary.results for r in result.reflections]
            rates[name].append(summary.escape_rate)
            cells.append(f"{escape(summary)} caught {summary.count('DEATH'):>2}")
        print(f"{number:>5}  " + "  ".join(f"{cell:>34}" for cell in cells), flush=True)
    print("\nThe user's escape rate by round (memory off: |):")
    for name, series in rates.items():
        print(f"  {name}")
        for number, rate in enumerate(series, 1):
            line = bar(rate).ljust(BAR)
            mark = round(off.escape_rate * BAR)
            print(f"    {number:>2} {line[:mark]}|{line[mark:]} {rate:.3f}")


def new_labyrinths(rounds: int, games: int, jobs: int) -> None:
    print(f"\nNew labyrinths every round (the user and the Minotaur both learn; {games} seeds a round)")
    print(f"{'round':>5}  {'seeds':>9}  {'memory on: escape':>24}  {'memory off: escape':>24}")
    log: list[Reflection] = []
    for number in range(1, rounds + 1):
        seeds = range(1000 + games * (number - 1), 1000 + games * number)
        on = run_arena(ArenaSettings(preset=PRESET, memory=True, lessons=tuple(log)), seeds, jobs=jobs)
        off = run_arena(ArenaSettings(preset=PRESET), seeds, jobs=jobs)
        log += [r for result in on.results for r in result.reflections]
        print(f"{number:>5}  {seeds.start:>4}..{seeds.stop - 1:<4}  {escape(on):>24}  {escape(off):>24}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args()
    same_labyrinths(args.rounds, args.games, args.jobs)
    new_labyrinths(max(3, args.rounds // 2), args.games, args.jobs)


if __name__ == "__main__":
    main()
