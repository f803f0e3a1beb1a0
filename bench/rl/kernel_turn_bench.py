"""The turn in the numba kernel (agents/rl/kernel/turn.py) against engine.turn.advance (issue 43): turns per CPU
second (time.process_time) for ``--rows`` rows, the share of rows the kernel falls back on (by reason), and a
digest of the new states of the rows it plays, as the kernel wrote them and as the engine made them.

The rows: states the engine reaches by random play (the RL user's commands along its ways out, a Minotaur that
mostly CHASEs, sometimes WAITs, JUMPs or PATHFINDs to a stone or a clue), ``--per-game`` states of each of
``rows / per-game`` games, each with a random valid command and decision for its next turn. The two rows, each
the median of ``--rounds`` interleaved rounds:

- engine: advance() for each row, its World warm (the game's chunks, and its routes: every search of the round
  before is remembered, world.routes, so only the first round searches);
- engine, routes cleared: the same with world.routes emptied before the round, so that it searches as the
  kernel does (the kernel keeps no path between calls);
- kernel: play_turns for all the rows in one call (the rows written from the states beforehand, untimed).

The kernel's rate counts every row it was handed (its fallbacks cost a search or a part of a turn; the engine
would then step them too). Equal digests show the same states. Prints figures and asserts nothing.

    .venv/bin/pip install -q -e '.[fast]' && .venv/bin/python bench/rl/kernel_turn_bench.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, row

from labyrinth.agents.rl.kernel.draws import Draws
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.state import StateRows
from labyrinth.agents.rl.kernel.turn import USER_ACTIONS, USER_COMMANDS, decision_row, play_turns
from labyrinth.agents.rl.kernel.work import PLAYED, REASONS
from labyrinth.engine import Game, MinotaurDecision
from labyrinth.engine.state import GameState
from labyrinth.engine.turn import advance, unexecutable
from labyrinth.engine.world import World

Position = tuple[World, GameState, int, MinotaurDecision]  # the user's action by number, the decision


def pick(rng: random.Random, game: Game) -> tuple[int, MinotaurDecision]:
    """A random valid action of the RL user (its number) and a decision."""
    exits = game.world.user_exits(game.state.user)
    actions = [a for a, c in enumerate(USER_COMMANDS) if (c.direction in exits if c.command == "MOVE"
                                                 else unexecutable(game.state, c) is None)]
    s = game.state
    targets = [pos for _, pos in s.items] + [k[0] for k in (s.last_heard, s.last_seen) if k]
    action = rng.choice(["CHASE"] * 6 + ["WAIT", "JUMP"] + ["PATHFIND"] * 2)
    if action == "PATHFIND" and targets:
        x, y, z = rng.choice(targets)
        return rng.choice(actions), MinotaurDecision(action=action, target_coords={"x": x, "y": y, "z": z})
    return rng.choice(actions), MinotaurDecision(action="CHASE" if action == "PATHFIND" else action)


def positions(preset: str, games: int, per_game: int, seed: int) -> list[Position]:
    rng, found = random.Random(seed), []
    for g in range(games):
        game = Game.new(rng.randrange(2**31), preset)
        for _ in range(per_game):
            for _ in range(rng.randrange(1, 8)):
                action, decision = pick(rng, game)
                game.step(USER_COMMANDS[action], decision)
                if game.state.outcome:
                    break
            if game.state.outcome:
                game = Game.new(rng.randrange(2**31) + g, preset)
            action, decision = pick(rng, game)
            found.append((game.world, game.state, action, decision))
    return found


def digest(states: list[GameState]) -> str:
    return hashlib.sha256("".join(s.to_json() for s in states).encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1024)
    parser.add_argument("--per-game", type=int, default=16)
    args = parser.parse_args()
    print(f"numba compiled: {COMPILED}")
    for preset in ("tiny", "small"):
        began = time.process_time()
        asked = positions(preset, args.rows // args.per_game, args.per_game, seed=43)
        row(f"{preset}: positions played (engine)", f"{time.process_time() - began:.1f} s", note=f"{len(asked)} rows")
        rows, draws = StateRows(len(asked), preset), Draws(len(asked))
        laid: dict[int, int] = {}
        for i, (world, state, _, _) in enumerate(asked):
            if state.seed in laid:  # one region per labyrinth, copied to its other rows
                rows.kinds[i], rows.origin[i] = rows.kinds[laid[state.seed]], rows.origin[laid[state.seed]]
            else:
                rows.lay_region(i, world)
                laid[state.seed] = i
            draws.write(i, state.seed)
        commands = USER_ACTIONS[[action for _, _, action, _ in asked]]
        decisions = np.stack([decision_row(d) for _, _, _, d in asked])
        wall = time.perf_counter()
        for i, (_, state, _, _) in enumerate(asked):
            rows.write(i, state)
        why = play_turns(rows, commands, decisions, draws)
        row(f"{preset}: first kernel call", f"{time.perf_counter() - wall:.2f} s", note="compile or cache load")
        played = why == PLAYED
        by_reason = Counter(REASONS[code] for code in why.tolist())
        for reason, count in sorted(by_reason.items(), key=lambda kv: -kv[1]):
            report(f"{preset}: rows {reason}", 100 * count / len(asked), "%", ",.1f", note=f"{count} rows")
        names = ["engine", "engine, routes cleared", "kernel"]
        rates: dict[str, list[float]] = {name: [] for name in names}
        digests: dict[str, set[str]] = {name: set() for name in names}
        worlds = {id(world): world for world, _, _, _ in asked}.values()
        for round_ in range(args.rounds):
            for name in names[round_ % 3:] + names[:round_ % 3]:
                if name.startswith("engine"):
                    if name != "engine":
                        for world in worlds:
                            world.routes.clear()
                    began = time.process_time()
                    states = [advance(world, state, USER_COMMANDS[a], d).state for world, state, a, d in asked]
                    spent = time.process_time() - began
                else:
                    for i, (_, state, _, _) in enumerate(asked):
                        rows.write(i, state)
                    began = time.process_time()
                    play_turns(rows, commands, decisions, draws)
                    spent = time.process_time() - began
                    states = [rows.state(i) for i in range(len(asked))]
                rates[name].append(len(asked) / spent)
                digests[name].add(digest([s for s, p in zip(states, played, strict=True) if p]))
        for name, rate in rates.items():
            report(f"{preset}: {name}", statistics.median(rate), "turns/s",
                   note=f"digest of played rows {', '.join(sorted(digests[name]))}")
        for name in names[:2]:
            report(f"{preset}: kernel / {name}", statistics.median(rates["kernel"]) / statistics.median(rates[name]),
                   "x", ",.1f")


if __name__ == "__main__":
    main()
