"""Does memory make the built-in agents better? Rounds of built-in vs built-in on
`standard`; after each round the learning side's reflections join its log, and
the next round learns from them. Printed per round: the user's escape rate with
its 95% Wilson interval, for the user learning alone, the Minotaur learning
alone, and both; memory off is the same every round (the games are
deterministic) and is printed once. A second table plays new labyrinths each
round, where a lesson about a place cannot apply but one about behaviour can: each side
learns alone against the fixed built-in opponent, memory off on the same seeds, the gain
as a paired 95% interval, and a text plot of the rounds.

    .venv/bin/python bench/play/learning_bench.py [--rounds 10] [--games 40] [--jobs 2] [--tables same,fresh]
    .venv/bin/python bench/play/learning_bench.py --tables fresh --rounds 5 --games 200
"""

from __future__ import annotations

import argparse
import os

from labyrinth.agents.compete.arena import ArenaSettings, ArenaSummary, run_arena
from labyrinth.agents.compete.intervals import paired_proportions, wilson_interval
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


def paired_gain(on: ArenaSummary, off: ArenaSummary) -> tuple[float, float, float]:
    """The escape rate's change from memory off to on over the same seeds, with Newcombe's 95%
    interval for paired proportions (intervals.paired_proportions)."""
    return paired_proportions([(a.outcome == "ESCAPED", b.outcome == "ESCAPED")
                               for a, b in zip(on.results, off.results, strict=True)])


def fresh_labyrinths(rounds: int, games: int, jobs: int, first_seed: int) -> None:
    """Each learner against the fixed built-in opponent, on seeds never played before in every round;
    memory off on the same seeds (paired). The log starts empty (a fresh data directory) and keeps
    every game the learner played with memory."""
    print(f"\nNew labyrinths every round ({PRESET}, {games} games a round, seeds from {first_seed}; the log "
          "starts empty; memory off plays the same seeds)")
    for learner, goal in (("user", "+"), ("minotaur", "-")):
        print(f"\n{learner} learns (target: escape {goal}0.10 over memory off by round 5)")
        print(f"{'round':>5}  {'seeds':>11}  {'memory off: escape':>24}  {'learning: escape':>24}  "
              f"{'paired gain (95% CI)':>26}")
        log: list[Reflection] = []
        series = []
        for number in range(1, rounds + 1):
            seeds = range(first_seed + games * (number - 1), first_seed + games * number)
            off = run_arena(ArenaSettings(preset=PRESET), seeds, jobs=jobs)
            on = run_arena(ArenaSettings(preset=PRESET, memory=True, lessons=tuple(log), learners=(learner,)),
                           seeds, jobs=jobs)
            log += [r for result in on.results for r in result.reflections]
            gain, low, high = paired_gain(on, off)
            series.append((off.escape_rate, on.escape_rate))
            print(f"{number:>5}  {seeds.start:>5}..{seeds.stop - 1:<5}  {escape(off):>24}  {escape(on):>24}  "
                  f"{gain:>+8.3f} ({low:+.3f}..{high:+.3f})", flush=True)
        print("  escape by round: o memory off, # learning")
        for number, (off_rate, on_rate) in enumerate(series, 1):
            print(f"    {number:>2} o {bar(off_rate).ljust(BAR)} {off_rate:.3f}")
            print(f"       # {bar(on_rate).ljust(BAR)} {on_rate:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--tables", default="same,fresh", help="which tables: same, fresh, or both (same,fresh)")
    parser.add_argument("--first-seed", type=int, default=100_000, help="the fresh table's first seed")
    args = parser.parse_args()
    tables = set(args.tables.split(","))
    if tables - {"same", "fresh"}:
        parser.error(f"--tables takes same and fresh, not {args.tables!r}")
    if "same" in tables:
        same_labyrinths(args.rounds, args.games, args.jobs)
    if "fresh" in tables:
        fresh_labyrinths(args.rounds, args.games, args.jobs, args.first_seed)


if __name__ == "__main__":
    main()
