"""The Minotaur's cost on a big ground: milliseconds per turn of the built-in
Minotaur (its decision plus the engine's step) on ``standard`` and ``full``, and
one PATHFIND to a far target of the ``full`` cube. Prints figures next to their
targets (PASS/MISS) and asserts nothing, like run.py.

    .venv/bin/python bench/pathfind_bench.py [--games 6] [--turns 300]
"""

from __future__ import annotations

import argparse
import statistics
import time

# bench/ is on sys.path, as this file runs as a script.
from run import report

from labyrinth.agents.builtin.builtin_minotaur import BuiltinMinotaur
from labyrinth.agents.builtin.builtin_user import BuiltinUser
from labyrinth.agents.match.side import Side
from labyrinth.engine import Game, MinotaurDecision
from labyrinth.engine.pathfinding import find_path

FAR = ((200, 200, 100), (2, 2, 0))  # the cube's centre to a corner of its lowest level


def ms_per_turn(preset: str, seeds: range, turns: int) -> tuple[float, float]:
    """Mean and worst milliseconds per turn, the Minotaur's decision and the step together."""
    spent = []
    for seed in seeds:
        game = Game.new(seed, preset)
        opening = game.opening()
        user = Side("user", BuiltinUser(seed), game.world, opening)
        minotaur = Side("minotaur", BuiltinMinotaur(seed), game.world, opening)
        for _ in range(turns):
            command, _ = user.command(*user.ask())
            began = time.perf_counter()
            decision, _ = minotaur.command(*minotaur.ask())
            result = game.step(command, decision)
            spent.append(time.perf_counter() - began)
            user.tell(result, None, bool(game.state.outcome))
            minotaur.tell(result, None, bool(game.state.outcome))
            if game.state.outcome:
                break
    return statistics.fmean(spent) * 1e3, max(spent) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeds per preset (default: 6)")
    parser.add_argument("--turns", type=int, default=300, help="turns per game at most (default: 300)")
    args = parser.parse_args()
    seeds = range(1, args.games + 1)
    standard, standard_worst = ms_per_turn("standard", seeds, args.turns)
    report("builtin Minotaur turn, standard, mean", standard, "ms", ".2f", note=f"worst {standard_worst:.1f} ms")
    full, full_worst = ms_per_turn("full", seeds, args.turns)
    report("builtin Minotaur turn, full, mean", full, "ms", ".2f", target=("<", 3 * standard),
           note=f"worst {full_worst:.1f} ms (a new far target); target: within three times standard's")
    game = Game.new(1, "full")
    start, goal = FAR
    began = time.perf_counter()
    path = find_path(game.world, start, goal)
    first = (time.perf_counter() - began) * 1e3
    report(f"PATHFIND {start} -> {goal}, full", first, "ms", ".1f", target=("<", 250),
           note=f"{len(path)} steps, {game.world.chunks_generated:,} chunks generated")
    game = Game.new(1, "full")
    decision = MinotaurDecision(action="PATHFIND", target_coords={"x": goal[0], "y": goal[1], "z": goal[2]})
    began = time.perf_counter()
    result = game.step({"command": "HALT", "steps": 1}, decision)
    report("a turn with that PATHFIND, full", (time.perf_counter() - began) * 1e3, "ms", ".1f",
           note=result.observation.message or "accepted")


if __name__ == "__main__":
    main()
