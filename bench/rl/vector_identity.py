"""The vector env's identity with the scalar env at scale (issue 43): for ``--seeds`` seeds of each task the kernel
plays, the vector env and one LabyrinthEnv a seed play the same games to their ends with the same random masked
actions, and every step's observation (key by key), reward, flags and info (key by key, gymnasium's "_key" masks
included) must be equal; the last state of every game too. The suite holds a small sample of this
(tests/agents/rl/test_vector_env.py, test_kernel_steps.py); this is the full run.

Each env of the vector env plays one seed's game and no other: the run stops each env at its game's end (the
NEXT_STEP reset that follows is not compared), and the seeds are played in batches of ``--envs``. Prints, per
task, the games and steps compared, the steps the kernel played and the games it gave up to their envs, the
first difference if there is one, and a digest of the games; exits 1 on a difference.

    .venv/bin/python bench/rl/vector_identity.py [--seeds 1000] [--envs 250] [--task Labyrinth/User-Tiny-v1 ...]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the tasks)
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.state import REGION_PRESETS
from labyrinth.agents.rl.kernel.steps import kernel_plays
from labyrinth.agents.rl.tasks import TASKS
from labyrinth.agents.rl.vector_env import LabyrinthVectorEnv

TASKS_PLAYED = [t.id for t in TASKS.values() if t.preset in REGION_PRESETS and t.opponent
                and kernel_plays(t.role, t.opponent)]


def difference(batch: Mapping[str, Any], i: int, single: Mapping[str, Any], what: str) -> str | None:
    """Where env ``i``'s part of a batch (observations, or infos with their "_key" masks) differs from ``single``:
    a value, a key it lacks, or (infos) a key it has that ``single`` has not."""
    for key, value in single.items():
        if f"_{key}" in batch and not batch[f"_{key}"][i]:
            return f"{what}: no {key!r}"
        if isinstance(value, dict):
            found = difference(batch[key], i, value, f"{what}[{key!r}]")
            if found:
                return found
        elif not np.array_equal(batch[key][i], value):
            return f"{what}[{key!r}]: {batch[key][i]!r} != {value!r}"
    extra = [key for key in batch if f"_{key}" in batch and batch[f"_{key}"][i] and key not in single]
    return f"{what}: keys {extra} too" if extra else None


def play(task_id: str, seeds: list[int], digest: Any) -> tuple[dict[str, int], str | None]:
    """The games of ``seeds`` both ways, compared step by step: the counts and the first difference."""
    rung = TASKS[task_id]
    n = len(seeds)
    vector = LabyrinthVectorEnv(n, **rung.settings())
    scalars = [LabyrinthEnv(**rung.settings()) for _ in range(n)]
    batch, infos = vector.reset(seed=seeds)
    counts = {"games": n, "steps": 0, "kernel steps": 0, "given up": 0}
    for i, env in enumerate(scalars):
        obs, info = env.reset(seed=seeds[i])
        found = difference(batch, i, obs, "opening observation") or difference(infos, i, info, "opening info")
        if found:
            return counts, f"seed {seeds[i]}: {found}"
    rng = np.random.default_rng(seeds[0])
    playing = np.ones(n, dtype=np.bool_)
    while playing.any():
        masks = vector.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        kernel_before = None if vector.kernel is None else ~vector.kernel.on_engine
        batch, rewards, terminated, truncated, infos = vector.step(actions)
        for i in np.flatnonzero(playing).tolist():
            obs, reward, end, cut, info = scalars[i].step(int(actions[i]))
            counts["steps"] += 1
            counts["kernel steps"] += int(kernel_before is not None and kernel_before[i]
                                          and not vector.kernel.on_engine[i])
            found = (difference(batch, i, obs, "observation") or difference(infos, i, info, "info")
                     or (None if (rewards[i], terminated[i], truncated[i]) == (reward, end, cut)
                         else f"reward and flags {(rewards[i], terminated[i], truncated[i])} != {(reward, end, cut)}"))
            if found:
                return counts, f"seed {seeds[i]}, turn {info['turn']}: {found}"
            if end or cut:
                playing[i] = False
                state = vector.state(i)
                if state != scalars[i].match.game.state:
                    return counts, f"seed {seeds[i]}: the last states differ"
                seed, played, last = vector.record(i)
                digest.update(repr((seed, [(u.model_dump_json(), m.model_dump_json()) for u, m in played],
                                    last)).encode())
    counts["given up"] = 0 if vector.kernel is None else int(vector.kernel.on_engine.sum())
    return counts, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", nargs="+", default=TASKS_PLAYED)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--envs", type=int, default=250, help="games played at once")
    args = parser.parse_args()
    kernel = "plays" if COMPILED else "is off (no numba): every game is its env's"
    print(f"the kernel {kernel}; seeds 0..{args.seeds - 1}")
    failed = False
    for task_id in args.task:
        totals = {"games": 0, "steps": 0, "kernel steps": 0, "given up": 0}
        digest = hashlib.sha256()
        for start in range(0, args.seeds, args.envs):
            counts, found = play(task_id, list(range(start, min(start + args.envs, args.seeds))), digest)
            for key, value in counts.items():
                totals[key] += value
            if found:
                print(f"{task_id}: DIFFERENT: {found}")
                failed = True
                break
        share = totals["kernel steps"] / max(totals["steps"], 1)
        print(f"{task_id}: {totals['games']:,} games, {totals['steps']:,} steps equal; the kernel played "
              f"{share:.1%} of the steps, gave up {totals['given up']:,} games; games {digest.hexdigest()[:16]}",
              flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
