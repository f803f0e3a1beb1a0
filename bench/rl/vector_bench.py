"""The vector env (agents/rl/vector_env.py) against gymnasium's SyncVectorEnv of the scalar env: env-steps per CPU
second (time.process_time, the steps only, autoresets included) of the same games, N envs at once, with a digest
of what each played.

Both are made by ``gym.make_vec`` of one ladder task (``vectorization_mode`` "vector_entry_point" and "sync"),
reset with the same seed and given the same random valid actions (uniform over each env's
``info["action_mask"]``, one generator per run seeded alike). Each row is the median of ``--rounds``
interleaved rounds (the order turns each round, so that the machine's other work weighs on both alike); the
ratio is the median of the rounds' ratios. The digest covers every step's actions, rewards and flags and
every env's final GameState: equal digests show the same games.

Then where the vector env's time goes, on one more run: the kernel's step of the rows it plays (kernel/steps.py,
per row and step), each new game's start (the first state, the first stage of its region laid, the kernel's
start: per game), the next stages of a region laid when its game first needs them (per stage: part of the
kernel's step), and the rows stepped on the engine (those the kernel gave up: per row and step, and their share
of the steps).
With the [fast] extra the kernel plays the tasks it ports; without numba every row is stepped on the engine, and
the vector env is that harness alone. Prints figures and asserts nothing.

    .venv/bin/python bench/rl/vector_bench.py [--task Labyrinth/User-Tiny-v1] [--envs 64 256] [--rounds 3]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, row, spread

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments and their vector entry points)
from labyrinth.engine.state import GameState

SEED = 7
MODES = {"vector env": "vector_entry_point", "SyncVectorEnv": "sync"}


def final_states(envs: Any) -> list[GameState]:
    """Each env's game state at the end of a run: the vector env's rows, or the Sync env's scalar games."""
    inner = envs.unwrapped
    if hasattr(inner, "state"):
        return [inner.state(i) for i in range(inner.num_envs)]
    return [env.unwrapped.match.game.state for env in inner.envs]


def run(task_id: str, mode: str, num_envs: int, steps: int) -> tuple[float, str, int]:
    """``steps`` steps of ``num_envs`` envs: env-steps per CPU second, the digest, and games ended."""
    envs = gym.make_vec(task_id, num_envs=num_envs, vectorization_mode=mode)
    _, infos = envs.reset(seed=SEED)
    rng, digest, spent, ended = np.random.default_rng(SEED), hashlib.sha256(), 0.0, 0
    for _ in range(steps):
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        began = time.process_time()
        _, rewards, terminations, truncations, infos = envs.step(actions)
        spent += time.process_time() - began
        ended += int(np.sum(terminations | truncations))
        for values in (actions, rewards, terminations, truncations):
            digest.update(np.ascontiguousarray(values).tobytes())
    digest.update("".join(state.digest() for state in final_states(envs)).encode())
    envs.close()
    return num_envs * steps / spent, digest.hexdigest()[:16], ended


def where_time_goes(task_id: str, num_envs: int, steps: int) -> dict[str, tuple[float, int]]:
    """A run of the vector env timed by part: CPU seconds and calls of the kernel's step (rows played), the new
    games' starts (games) and the rows stepped on the engine (row-steps)."""
    envs = gym.make_vec(task_id, num_envs=num_envs, vectorization_mode="vector_entry_point")
    inner = envs.unwrapped
    envs.reset(seed=SEED)
    parts = {"kernel": [0.0, 0], "starts": [0.0, 0], "engine": [0.0, 0], "stages laid": [0.0, 0]}

    def timed(part: str, function: Any, count: Any) -> Any:
        def wrapper(*args: Any) -> Any:
            began = time.process_time()
            out = function(*args)
            parts[part][0] += time.process_time() - began
            parts[part][1] += count(args, out)
            return out
        return wrapper

    if inner.kernel is not None:
        inner.kernel.step = timed("kernel", inner.kernel.step, lambda args, out: int(out.played.sum()))
        rows, lay_more = inner.kernel.rows, inner.kernel.rows.lay_more

        def more(at: np.ndarray) -> np.ndarray:
            return timed("stages laid", lay_more, lambda args, out: int(out.sum()))(at)
        rows.lay_more = more
    inner._new_games = timed("starts", inner._new_games, lambda args, out: int(args[0].sum()))
    for env in inner.envs:  # a game's steps by its own env: a row the kernel gave up, or every row without it
        env.step = timed("engine", env.step, lambda args, out: 1)
    rng = np.random.default_rng(SEED)
    for _ in range(steps):
        masks = inner.action_masks()
        envs.step((rng.random(masks.shape) * masks).argmax(axis=1))
    return {part: (seconds, calls) for part, (seconds, calls) in parts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="Labyrinth/User-Tiny-v1")
    parser.add_argument("--envs", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--steps", type=int, default=20, help="vector steps a run")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for num_envs in args.envs:
        rates: dict[str, list[float]] = {name: [] for name in MODES}
        digests: dict[str, set[str]] = {name: set() for name in MODES}
        ratios, ends = [], set()
        for round_ in range(args.rounds):
            names = list(MODES)[round_ % 2:] + list(MODES)[:round_ % 2]
            for name in names:
                rate, digest, ended = run(args.task, MODES[name], num_envs, args.steps)
                rates[name].append(rate)
                digests[name].add(digest)
                ends.add(ended)
            ratios.append(rates["vector env"][-1] / rates["SyncVectorEnv"][-1])
        for name in MODES:
            report(f"N={num_envs}: {name}", statistics.median(rates[name]), "steps/s",
                   note=f"{spread(rates[name])}; digest {', '.join(sorted(digests[name]))}")
        report(f"N={num_envs}: vector / Sync", statistics.median(ratios), "x", ",.2f",
               note=f"{spread(ratios, ',.2f')}; games ended a run: {', '.join(map(str, sorted(ends)))}")
    parts = where_time_goes(args.task, max(args.envs), args.steps)
    steps = max(args.envs) * args.steps
    for part, unit, scale, what in (("kernel", "us", 1e6, "a row the kernel played, each step"),
                                    ("starts", "ms", 1e3, "a new game (reset and autoreset)"),
                                    ("engine", "us", 1e6, "a row stepped on the engine, each step"),
                                    ("stages laid", "ms", 1e3, "a region's next stage laid, in the kernel's step")):
        seconds, calls = parts[part]
        report(f"N={max(args.envs)}: {part}", seconds / calls * scale if calls else 0.0, unit, ",.1f",
               note=f"{what}; {calls:,} of them, {seconds:.2f} CPU s in all")
    row(args.task, f"{args.steps} steps", note=f"{parts['engine'][1] / steps:.1%} of the row-steps on the engine")

if __name__ == "__main__":
    main()
