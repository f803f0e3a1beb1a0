"""Regions laid by the numba kernel (agents/rl/kernel/maze.py) against the engine's World (region.region_of), as
the vector env lays one for every new game (issue 43): regions per CPU second (time.process_time) of the tiny
and small grounds, and a digest of every cell each laid.

The labyrinths: ``--regions`` seeds drawn across the game's whole range (rng.SEED_LIMIT) from ``--seed``. The
rows, each the median of ``--rounds`` interleaved rounds (the order within a round turns, so that the
machine's other work weighs on all alike):

- engine: region_of on a new World per labyrinth, every chunk and ramp generated in Python;
- kernel: maze.lay a region a call, as kernel/state.py's lay_region calls it (every generator's string, its
  SHA-512 and its seeding in numba: seeding.seed_columns);
- hashlib alone: the generators' strings and their sha512 in Python, as the kernel made them before SHA-512 was
  in numba (about a quarter of its time then);
- Random(s) and mt.load: what the generators' states would cost made the plain way, a Random per string read
  back by getstate (not used: seeding.seed_columns makes them in numba).

The first kernel call's time is printed: numba's compile, or loading its cache (set NUMBA_CACHE_DIR to an
empty folder to see the compile). Equal digests show the same cells. Prints figures and asserts nothing.

    .venv/bin/pip install -q -e '.[fast]' && .venv/bin/python bench/rl/kernel_maze_bench.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import interleaved, report, row

from labyrinth.agents.rl.kernel import maze, mt
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.region import around, region_of
from labyrinth.engine.presets import PRESETS, Bounds
from labyrinth.engine.rng import SEED_LIMIT
from labyrinth.engine.world import World

Run = Callable[[list[int]], tuple[str, float]]  # from the seeds: the digest of what it made, the CPU seconds


def engine(box: Bounds) -> Run:
    def run(seeds: list[int]) -> tuple[str, float]:
        began = time.process_time()
        regions = [region_of(World(seed), box).kinds for seed in seeds]
        spent = time.process_time() - began
        return hashlib.sha256(np.stack(regions).tobytes()).hexdigest()[:16], spent
    return run


def kernel(box: Bounds) -> Run:
    def run(seeds: list[int]) -> tuple[str, float]:
        out = np.empty((len(seeds), box.levels, box.height, box.width), dtype=np.uint8)
        began = time.process_time()
        for i, seed in enumerate(seeds):
            maze.lay([seed], box, out[i:i + 1])
        spent = time.process_time() - began
        return hashlib.sha256(out.tobytes()).hexdigest()[:16], spent
    return run


def ends_of(box: Bounds) -> list[str]:
    """The ends of the strings of a region's generators, after the seed."""
    ends, bounds, _, _ = maze._plan(box)
    return [ends[a:b].tobytes().decode() for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)]


def hashed(box: Bounds) -> Run:
    ends = ends_of(box)

    def run(seeds: list[int]) -> tuple[str, float]:
        began = time.process_time()
        for seed in seeds:
            for end in ends:
                hashlib.sha512(f"{seed}{end}".encode()).digest()
        return "", time.process_time() - began
    return run


def random_load(box: Bounds) -> Run:
    ends = ends_of(box)

    def run(seeds: list[int]) -> tuple[str, float]:
        began = time.process_time()
        for seed in seeds:
            mt.load([random.Random(f"{seed}{end}") for end in ends])
        return "", time.process_time() - began
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--regions", type=int, default=40, help="labyrinths a round, per preset")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"numba compiled: {COMPILED}")
    pick = random.Random(f"kernel maze bench:{args.seed}")
    seeds = [pick.randrange(-SEED_LIMIT, SEED_LIMIT) for _ in range(args.regions)]
    wall = time.perf_counter()
    kernel(around(PRESETS["tiny"]))(seeds[:1])
    row("first kernel call", f"{time.perf_counter() - wall:.2f} s", note="compile or cache load")
    for preset in ("tiny", "small"):
        box = around(PRESETS[preset])
        generators = len(ends_of(box))
        runs = {"engine": engine(box), "kernel": kernel(box), "hashlib alone": hashed(box),
                "Random(s) and mt.load": random_load(box)}
        rates, digests = interleaved({name: partial(run, seeds) for name, run in runs.items()}, args.rounds,
                                     len(seeds))
        median = {name: statistics.median(rates[name]) for name in runs}
        for name in ("engine", "kernel"):
            report(f"{preset}: {name}", median[name], "regions/s",
                   note=f"{1e3 / median[name]:.2f} ms a region; digest {', '.join(sorted(digests[name]))}")
        report(f"{preset}: kernel / engine", median["kernel"] / median["engine"], "x", ",.1f")
        report(f"{preset}: hashlib alone", 1e3 / median["hashlib alone"], "ms a region", ",.2f",
               note=f"{generators} generators a region: their strings and sha512 in Python")
        report(f"{preset}: Random(s) and mt.load alone", 1e3 / median["Random(s) and mt.load"], "ms a region",
               ",.2f", note="the plain way to the same states")


if __name__ == "__main__":
    main()
