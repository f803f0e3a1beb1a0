"""The vector env (agents/rl/vector_env.py, issue 43's harness) against gymnasium's SyncVectorEnv of the scalar
env: env-steps per CPU second (time.process_time, the steps only, autoresets included) of the same games, N
envs at once, with a digest of what each played.

Both are made by ``gym.make_vec`` of one ladder task (``vectorization_mode`` "vector_entry_point" and "sync"),
reset with the same seed and given the same random valid actions (uniform over each env's
``info["action_mask"]``, one generator per run seeded alike). Each row is the median of ``--rounds``
interleaved rounds (the order turns each round, so that the machine's other work weighs on both alike); the
ratio is the median of the rounds' ratios. The digest covers every step's actions, rewards and flags and
every env's final GameState: equal digests show the same games.

The vector env is slower for now, and that is the figure to read: in this slice every row is stepped on the
engine, so each step of each env also converts its state out of the arrays and back (kernel/state.py), and
each new game lays its region (every chunk of the ground and its margin generated, by kernel/maze.py with numba
and in Python without, where the scalar env's World generates only the chunks its game reads). Both are
printed apart, per row and per game. That is the harness's cost; the kernel's next slices replace
step_on_engine row by row with compiled code over the same arrays, and this bench is where their gain shows.
Prints figures and asserts nothing.

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
    if hasattr(inner, "rows"):
        return [inner.rows.state(i) for i in range(inner.num_envs)]
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


def harness_costs(task_id: str, num_envs: int, steps: int) -> tuple[float, float]:
    """The harness's two costs, on games played ``steps`` steps: a row read as a GameState and written back
    (microseconds, every step of every env), and a region laid (milliseconds, every new game)."""
    envs = gym.make_vec(task_id, num_envs=num_envs, vectorization_mode="vector_entry_point")
    envs.reset(seed=SEED)
    inner = envs.unwrapped
    for _ in range(steps):
        envs.step(np.array([np.flatnonzero(mask)[0] for mask in inner.action_masks()]))
    rows, games = inner.rows, [env.match.game for env in inner.envs]
    began = time.process_time()
    for i in range(num_envs):
        rows.write(i, rows.state(i))
    converted = time.process_time() - began
    began = time.process_time()
    for i, game in enumerate(games):
        rows.lay_region(i, type(game.world)(game.state.seed))  # a new World, as at reset
    laid = time.process_time() - began
    return converted / num_envs * 1e6, laid / num_envs * 1e3


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
    converted, laid = harness_costs(args.task, min(args.envs), args.steps)
    report("a row read and written back", converted, "us", ",.0f", note="each step of each env")
    report("a region laid", laid, "ms", ",.1f", note="each new game (reset and autoreset)")
    row(args.task, f"{args.steps} steps", note="every row stepped on the engine (slice 2: the harness)")


if __name__ == "__main__":
    main()
