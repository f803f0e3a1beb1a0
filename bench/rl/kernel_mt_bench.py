"""The kernel's Mersenne Twister (agents/rl/kernel/mt.py) against CPython's random.Random (issue 43): draws per
CPU second (time.process_time) for N generators, and a digest of every value each drew.

The generators: rng.derived(seed, "bench", i) for i < ``--rows`` (1,024: the vector env's envs), each drawing
``--draws`` values of one kind: words (getrandbits(32), the raw words the kernel's tables hold), random(), and
randrange(n) with n per env and draw (half below 64, half around 2 ** 31: the rejection loop's worst case).
Every round starts both sides from the same states; each row is the median of ``--rounds`` interleaved rounds
(the order within a round turns, so that the machine's other work weighs on both alike):

- CPython: each generator's bound method in a loop, env after env;
- kernel: words, randoms or randbelows once for all the rows (njit code calling the per-row draws).

The first kernel call's time is printed: numba's compile, or loading its cache (set NUMBA_CACHE_DIR to an
empty folder to see the compile). Equal digests show the same values. Prints figures and asserts nothing.

    .venv/bin/pip install -q -e '.[fast]' && .venv/bin/python bench/rl/kernel_mt_bench.py [--rounds 5]
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

from labyrinth.agents.rl.kernel import mt
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.engine.rng import derived

KINDS = {"words": np.uint32, "random()": np.float64, "randrange(n)": np.int64}  # what each kind's values are


def digest(values: np.ndarray) -> str:
    return hashlib.sha256(values.tobytes()).hexdigest()[:16]


Run = Callable[[np.ndarray], tuple[np.ndarray, float]]  # from the rows' states: the values, the CPU seconds


def cpython(kind: str, bounds: np.ndarray) -> Run:
    """Only the draws are timed: the generators are set to the states before, the values made an array after."""
    limits = bounds.tolist()

    def run(states: np.ndarray) -> tuple[np.ndarray, float]:
        rngs = [random.Random() for _ in range(states.shape[0])]
        for at, rng in enumerate(rngs):
            mt.store(states[at], rng)
        draws = bounds.shape[1]
        began = time.process_time()
        if kind == "words":
            drawn = [[rng.getrandbits(32) for _ in range(draws)] for rng in rngs]
        elif kind == "random()":
            drawn = [[rng.random() for _ in range(draws)] for rng in rngs]
        else:
            drawn = [[rng.randrange(n) for n in ns] for rng, ns in zip(rngs, limits)]
        spent = time.process_time() - began
        return np.array(drawn, dtype=KINDS[kind]), spent
    return run


def kernel(kind: str, bounds: np.ndarray) -> Run:
    def run(states: np.ndarray) -> tuple[np.ndarray, float]:
        rows = states.copy()
        out = np.empty(bounds.shape, dtype=KINDS[kind])
        began = time.process_time()
        if kind == "words":
            mt.words(rows, out)
        elif kind == "random()":
            mt.randoms(rows, out)
        else:
            mt.randbelows(rows, bounds, out)
        return out, time.process_time() - began
    return run


def digested(run: Callable[[np.ndarray], tuple[np.ndarray, float]], states: np.ndarray) -> tuple[str, float]:
    """``run``'s values as their digest, and its CPU seconds."""
    values, spent = run(states)
    return digest(values), spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1024)
    parser.add_argument("--draws", type=int, default=1000, help="per row and kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"numba compiled: {COMPILED}")
    states = mt.load([derived(args.seed, "bench", i) for i in range(args.rows)])
    pick = random.Random(f"bounds:{args.seed}")
    bounds = np.array([[pick.randrange(1, 64) if pick.random() < 0.5 else pick.randrange(2**31 - 64, 2**31 + 64)
                        for _ in range(args.draws)] for _ in range(args.rows)], dtype=np.int64)
    wall = time.perf_counter()
    kernel("randrange(n)", bounds[:1, :1])(states[:1])
    kernel("random()", bounds[:1, :1])(states[:1])
    kernel("words", bounds[:1, :1])(states[:1])
    row("first kernel calls", f"{time.perf_counter() - wall:.2f} s", note="compile or cache load")
    draws = args.rows * args.draws
    for kind in KINDS:
        runs = {"CPython": cpython(kind, bounds), "kernel": kernel(kind, bounds)}
        rates, digests = interleaved({name: partial(digested, run, states) for name, run in runs.items()},
                                     args.rounds, draws)
        for name in runs:
            report(f"{kind}: {name}", statistics.median(rates[name]), "draws/s",
                   note=f"{args.rows} rows; digest {', '.join(sorted(digests[name]))}")
        report(f"{kind}: kernel / CPython", statistics.median(rates["kernel"]) / statistics.median(rates["CPython"]),
               "x", ",.1f")


if __name__ == "__main__":
    main()
