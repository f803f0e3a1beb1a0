"""The memory benchmark's game, run as a script in a fresh process so that its
peak RSS holds nothing but this game: random commands on the ``full`` preset,
the user wandering far, and a Minotaur that every tenth turn PATHFINDs to a
random cell of the cube (the costliest searches an agent can ask for) and
otherwise WAITs, so that the one game lasts. Prints one JSON object.

    python bench/perf/memory_probe.py --seed 7 --commands 2000
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time

from labyrinth.engine import WAIT, Game, MinotaurDecision, UserInput
from labyrinth.engine.constants import WORLD_LEVELS, WORLD_SIZE
from labyrinth.engine.figures import seconds

DIRECTIONS = ("NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP")


def random_command(rng: random.Random) -> UserInput:
    """A random valid command: mostly MOVEs of 1..100 steps, walking or running; else LOOK or HALT."""
    kind = rng.choices(("MOVE", "LOOK", "HALT"), weights=(8, 1, 1))[0]
    if kind != "MOVE":
        return UserInput(command=kind)
    return UserInput(command="MOVE", direction=rng.choice(DIRECTIONS), steps=rng.randint(1, 100),
                     speed=rng.choice((1, 2)))


def random_decision(rng: random.Random, turn: int) -> MinotaurDecision:
    if turn % 10:
        return WAIT
    x, y, z = (rng.randrange(WORLD_SIZE) & ~1, rng.randrange(WORLD_SIZE) & ~1, rng.randrange(WORLD_LEVELS))
    return MinotaurDecision(action="PATHFIND", target_coords={"x": x, "y": y, "z": z})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--commands", type=int, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    turns = [(random_command(rng), random_decision(rng, turn)) for turn in range(args.commands)]
    game = Game.new(args.seed, "full")
    start = time.perf_counter()
    played = 0
    for command, decision in turns:
        if game.state.outcome:
            break
        game.step(command, decision)
        played += 1
    wall = time.perf_counter() - start
    print(json.dumps({
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,  # KiB on Linux
        "chunks": game.world.chunks_generated, "commands": played, "game_time": seconds(game.state.tick),
        "outcome": game.state.outcome, "wall_s": wall,
    }))


if __name__ == "__main__":
    main()
