"""Cost that grows with the work (issue 29): the engine's CPU time a turn early and late in one
long game, so that a cache or a list that grows with the turns played shows.

A seeded walk of one-step MOVEs, each along a way open from where the user stands (no turn is a
refused move into rock, none into the Minotaur; choosing it, four cell reads, is timed with the
turn), against a Minotaur that only WAITs (it never ends the game), on each preset asked. The
same walk is played to 1k, 10k and 100k turns in three games kept alive side by side (each with
all it has grown), and the turns after each checkpoint are then timed in turn, a block of BLOCK
turns of each game and again, WINDOW turns each: so the three figures see the same load. A
figure is the median of its blocks' µs a turn. The 100k figure is judged against the 10k one
(target: within FLAT; the 1k one pays for new ground). The digest of the final states is
printed: a speed-up that changes the games shows. Prints figures; asserts nothing.

    .venv/bin/python bench/perf/long_game_bench.py [--turns 100000] [--presets standard full] [--seeds 7 8]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, row
from run import WAIT, open_way  # bench/perf/ is on sys.path, as this file runs as a script

from labyrinth.engine import Game

BLOCK = 100  # turns timed together
WINDOW = 1_000  # turns timed after each checkpoint
FLAT = 1.10  # the cost a turn after 100k turns within this much of that after 10k


class Walk:
    """One game of the seeded walk."""

    def __init__(self, seed: int, preset: str) -> None:
        self.game, self.rng = Game.new(seed, preset), random.Random(f"{seed}:long-game")

    def turns(self, count: int) -> None:
        game, rng = self.game, self.rng
        for _ in range(count):
            game.step(open_way(game, rng), WAIT)
        assert game.state.outcome is None, "a waiting Minotaur never ends the walk"


def side_by_side(seed: int, preset: str, checkpoints: list[int]) -> tuple[dict[int, float], list[str]]:
    """µs a turn after each checkpoint (the median of its blocks, timed in turn with the others'), and
    the games' final digests."""
    walks = {c: Walk(seed, preset) for c in checkpoints}
    for c, w in walks.items():
        w.turns(c)
    blocks: dict[int, list[float]] = {c: [] for c in checkpoints}
    clock = time.process_time
    for _ in range(WINDOW // BLOCK):
        for c, w in walks.items():
            began = clock()
            w.turns(BLOCK)
            blocks[c].append((clock() - began) / BLOCK * 1e6)
    return {c: statistics.median(b) for c, b in blocks.items()}, [w.game.state.digest() for w in walks.values()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--presets", nargs="+", default=["standard", "full"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 8])
    args = parser.parse_args()
    checkpoints = [c for c in (1_000, 10_000, 100_000) if c <= args.turns]
    if len(checkpoints) < 2:
        parser.error("--turns must reach 10000 at least: the figure compares the later windows")
    digest = hashlib.sha256()
    print(f"Engine turns, µs of CPU a turn: the median of {BLOCK}-turn blocks over {WINDOW:,} turns after each "
          f"checkpoint, the games timed in turn; one-step MOVEs along open ways, a waiting Minotaur")
    for preset in args.presets:
        for seed in args.seeds:
            figures, finals = side_by_side(seed, preset, checkpoints)
            digest.update("".join(finals).encode())
            for c, us in figures.items():
                row(f"{preset}, seed {seed}: turns after {c:,}", f"{us:.1f} us")
            late, earlier = checkpoints[-1], checkpoints[-2]
            report(f"{preset}, seed {seed}: {late // 1000}k / {earlier // 1000}k", figures[late] / figures[earlier],
                   "x", ".2f", target=("<", FLAT), note=f"final state {finals[-1]}")
    row("games", digest.hexdigest()[:16], note="the digest of every final state above")


if __name__ == "__main__":
    main()
