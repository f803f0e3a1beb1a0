"""The memory benchmark's game, run as a script in a fresh process so that its
peak RSS holds nothing but this game: random commands on the ``full`` preset
against a CHASing Minotaur. Prints one JSON object.

    python bench/memory_probe.py --seed 7 --commands 2000
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time

from engine import Game, MinotaurDecision, UserInput

DIRECTIONS = ("NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP")
CHASE = MinotaurDecision(action="CHASE")


def random_command(rng: random.Random) -> UserInput:
    """A random valid command: mostly MOVEs of 1..100 steps, walking or running; else LOOK or HALT."""
    kind = rng.choices(("MOVE", "LOOK", "HALT"), weights=(8, 1, 1))[0]
    if kind != "MOVE":
        return UserInput(command=kind)
    return UserInput(command="MOVE", direction=rng.choice(DIRECTIONS), steps=rng.randint(1, 100),
                     speed=rng.choice((1, 2)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--commands", type=int, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    commands = [random_command(rng) for _ in range(args.commands)]
    seed, chunks, games = args.seed, 0, 1
    game = Game.new(seed, "full")
    start = time.perf_counter()
    for command in commands:
        if game.state.outcome:  # the game is over: the rest are played in the next seed's game
            chunks += game.world.chunks_generated
            seed, games = seed + 1, games + 1
            game = Game.new(seed, "full")
        game.step(command, CHASE)
    wall = time.perf_counter() - start
    print(json.dumps({
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,  # KiB on Linux
        "chunks": chunks + game.world.chunks_generated, "games": games, "wall_s": wall,
    }))


if __name__ == "__main__":
    main()
