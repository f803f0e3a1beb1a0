"""The Minotaur's A* in the numba kernel (agents/rl/kernel/astar.py) against the engine's find_path (issue 43):
searches per CPU second (time.process_time) on the same queries, and a digest of every path each found.

The queries: pairs of random Minotaur-open cells of the ground, ``--queries`` per labyrinth, ``--seeds``
labyrinths of each of tiny and small: the Minotaur's usual distances (its patrols, the stones, the user). Only
the queries the kernel answers are timed and digested on both sides; how many it leaves to the engine
(LEFT_REGION) is printed. The rows, each the median of ``--rounds`` interleaved rounds (the order within a
round turns, so that the machine's other work weighs on all alike):

- engine, fresh World: find_path on a new World per query, so it generates every chunk it reads, as the
  first search in a labyrinth does;
- engine, warm World: one World per labyrinth whose region's chunks are generated and whose moves table
  (world.known_moves) fills as it searches; its routes cache is cleared before each query, so no path is
  answered from memory: a long game's steady state;
- kernel, batched: find_paths once for all the preset's queries (one env a query; the kernel's turn runs the
  same search, astar._find_path, for each of its envs that asks), regions built beforehand (their cost,
  Python's chunk generation, printed apart);
- kernel, one by one: path_in per query, the Python call and its arrays included.

The first kernel call's time is printed: numba's compile, or loading its cache (set NUMBA_CACHE_DIR to an
empty folder to see the compile). Equal digests show the same paths. Prints figures and asserts nothing.

    .venv/bin/pip install -q -e '.[fast]' && .venv/bin/python bench/rl/kernel_astar_bench.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import interleaved, report, row

from labyrinth.agents.rl.kernel.astar import find_paths, path_in
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.region import Region, around, region_of
from labyrinth.agents.rl.kernel.state import PATH_ROWS
from labyrinth.engine.cells import MINOTAUR_OPEN
from labyrinth.engine.geometry import Pos
from labyrinth.engine.pathfinding import find_path
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.world import World

Query = tuple[int, Pos, Pos]  # seed, start, goal
LONGEST = PATH_ROWS  # the rows find_paths writes a path into, as a kernel row holds its path


def queries(preset: str, seeds: Sequence[int], count: int) -> list[Query]:
    ground = PRESETS[preset]
    found = []
    for seed in seeds:
        world, rng = World(seed), random.Random(f"{preset}:{seed}")
        cells = [(x, y, z) for z in ground.z_range for y in range(ground.y0, ground.y0 + ground.height)
                 for x in range(ground.x0, ground.x0 + ground.width) if world.cell(x, y, z) in MINOTAUR_OPEN]
        found += [(seed, rng.choice(cells), rng.choice(cells)) for _ in range(count)]
    return found


def digest(paths: Sequence[Sequence[Pos]]) -> str:
    return hashlib.sha256(repr([tuple(path) for path in paths]).encode()).hexdigest()[:16]


Run = Callable[[Sequence[Query]], tuple[list[tuple[Pos, ...]], float]]  # the paths, the CPU seconds timed


def engine_fresh(asked: Sequence[Query]) -> tuple[list[tuple[Pos, ...]], float]:
    began = time.process_time()
    paths = [find_path(World(seed), start, goal) for seed, start, goal in asked]
    return paths, time.process_time() - began


def engine_warm(worlds: dict[int, World]) -> Run:
    def run(asked: Sequence[Query]) -> tuple[list[tuple[Pos, ...]], float]:
        began, paths = time.process_time(), []
        for seed, start, goal in asked:
            world = worlds[seed]
            world.routes.clear()
            paths.append(find_path(world, start, goal))
        return paths, time.process_time() - began
    return run


def kernel_batched(regions: dict[int, Region]) -> Run:
    """Only the call is timed: the vector env stacks its envs' regions once, at reset, not each step."""
    def run(asked: Sequence[Query]) -> tuple[list[tuple[Pos, ...]], float]:
        kinds = np.stack([regions[seed].kinds for seed, _, _ in asked])
        origins = np.array([regions[seed].origin for seed, _, _ in asked], dtype=np.int64)
        starts = np.array([start for _, start, _ in asked], dtype=np.int64)
        goals = np.array([goal for _, _, goal in asked], dtype=np.int64)
        out = np.empty((len(asked), LONGEST, 3), dtype=np.int64)
        began = time.process_time()
        lengths = find_paths(kinds, origins, starts, goals, out)
        spent = time.process_time() - began
        return [tuple(map(tuple, out[i, :n].tolist())) for i, n in enumerate(lengths)], spent
    return run


def kernel_single(regions: dict[int, Region]) -> Run:
    def run(asked: Sequence[Query]) -> tuple[list[tuple[Pos, ...]], float]:
        began = time.process_time()
        paths = [path_in(regions[seed], start, goal, LONGEST) or () for seed, start, goal in asked]
        return paths, time.process_time() - began
    return run


def digested(run: Run, asked: Sequence[Query]) -> tuple[str, float]:
    """``run``'s paths as their digest, and its CPU seconds."""
    paths, spent = run(asked)
    return digest(paths), spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--queries", type=int, default=256, help="per labyrinth")
    args = parser.parse_args()
    print(f"numba compiled: {COMPILED}")
    for preset in ("tiny", "small"):
        seeds = range(1, args.seeds + 1)
        asked = queries(preset, seeds, args.queries)
        began = time.process_time()
        regions = {seed: region_of(World(seed), around(PRESETS[preset])) for seed in seeds}
        built = (time.process_time() - began) / len(regions)
        worlds = {}
        for seed in seeds:
            worlds[seed] = World(seed)
            region_of(worlds[seed], around(PRESETS[preset]))  # the same chunks generated as the kernel's region
        wall = time.perf_counter()
        first = path_in(regions[seeds[0]], *asked[0][1:])
        row(f"{preset}: first kernel call", f"{time.perf_counter() - wall:.2f} s", note="compile or cache load")
        answered = [q for q in asked if path_in(regions[q[0]], q[1], q[2], LONGEST) is not None]
        assert first is None or asked[0] in answered
        report(f"{preset}: region built (Python)", built * 1000, "ms", ",.1f",
               note=f"{regions[seeds[0]].kinds.shape} cells, once per labyrinth")
        row(f"{preset}: queries the kernel answers", f"{len(answered)} of {len(asked)}",
            note="the rest: LEFT_REGION, the engine's")
        runs: dict[str, Run] = {"engine, fresh World": engine_fresh, "engine, warm World": engine_warm(worlds),
                "kernel, batched": kernel_batched(regions), "kernel, one by one": kernel_single(regions)}
        rates, digests = interleaved({name: partial(digested, run, answered) for name, run in runs.items()},
                                     args.rounds, len(answered))
        for name in runs:
            report(f"{preset}: {name}", statistics.median(rates[name]), "searches/s",
                   note=f"digest {', '.join(sorted(digests[name]))}")
        ratio = statistics.median(rates["kernel, batched"]) / statistics.median(rates["engine, warm World"])
        report(f"{preset}: kernel batched / engine warm", ratio, "x", ",.1f")


if __name__ == "__main__":
    main()
