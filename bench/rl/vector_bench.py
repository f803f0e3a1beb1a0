"""The vector env (agents/rl/vector_env.py) against gymnasium's SyncVectorEnv of the scalar env: env-steps per CPU
second (time.process_time, the steps only, autoresets included) of the same games, N envs at once, with a digest
of what each played.

Both are made by ``gym.make_vec`` of one ladder task (``vectorization_mode`` "vector_entry_point" and "sync"),
reset with the same seed and given the same random valid actions (uniform over each env's
``info["action_mask"]``, one generator per run seeded alike). Each row is the median of ``--rounds``
interleaved rounds (the order turns each round, so that the machine's other work weighs on both alike); the
ratio is the median of the rounds' ratios. The digest covers every step's actions, rewards and flags and
every env's final GameState: equal digests show the same games.

Then where the vector env's time goes, on one more run of the largest N: each part's own CPU time (PARTS: the
labyrinth laid, the new games' first states, opponents and rows, the turn, the opponent's decisions, the masks, the
observations, the games given up to the engine, and the rest), in microseconds over every env-step of the run, new
games included, with its share: what a faster vector env would have to cut, and by how much.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, row, spread

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments and their vector entry points)
from labyrinth.agents.rl.kernel import achieved, minotaur_obs, user_obs, user_opponents
from labyrinth.agents.rl.kernel import state as state_module
from labyrinth.agents.rl.kernel import steps as steps_module
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


# Where a vector step's time goes, part by part (``where_time_goes``): each part's functions, as the module or class
# that calls them names them. A part's time is its own: a part called inside another (the labyrinth laid inside a
# start) is taken out of the caller's. What no part names is the vector env's own, or the kernel's step's or
# start's glue.
PARTS: tuple[tuple[str, str, tuple[tuple[Any, str], ...]], ...] = (
    ("labyrinth laid", "its chunks generated as the engine's World generates them: at a start, where a game goes",
     ((state_module.maze, "lay"), (state_module.maze, "lay_wanted"))),
    ("first states", "the engine's initial_state of each new game", ((steps_module, "first_state"),)),
    ("opponents seated", "each new game's opponent made and loaded into its row",
     ((steps_module, "seated_opponent"), (steps_module.MinotaurMemory, "load"), (user_opponents, "streams"))),
    ("rows written", "each new game's state and random draws written into its row",
     ((steps_module.StateRows, "write"), (steps_module.Draws, "write"))),
    ("learner's commands", "actions as commands or decisions; a refused command's words",
     ((steps_module, "unexecutable_rows"), (steps_module, "unexecutable"), (steps_module, "minotaur_decisions"))),
    ("opponent's decisions", "the built-in Minotaur's (its A*) or the random user's",
     ((steps_module, "decide_rows"), (user_opponents, "decide_rows"))),
    ("the turn", "the engine's turn, in the kernel", ((steps_module, "play_turns"),)),
    ("rewards and flags", "rewards, ends and achievements",
     ((steps_module, "before_turn"), (steps_module, "step_signals"), (achieved, "before"), (achieved, "unlocked"))),
    ("masks", "each row's mask of commands", ((steps_module, "action_masks"),)),
    ("observations", "each row's observation written",
     ((user_obs, "observe_turn"), (user_obs, "observe_opening"), (minotaur_obs, "observe"),
      (minotaur_obs, "pool_levels"))),
    ("infos", "the batch's infos", ((steps_module.KernelSteps, "infos"),)),
    ("engine", "the games the kernel gave up, replayed and stepped on the engine",
     ((steps_module.KernelSteps, "hand_over"), (steps_module.KernelSteps, "settle"))),
    ("kernel step, other", "the kernel's step's own Python", ((steps_module.KernelSteps, "step"),)),
    ("start, other", "a start's own Python", ((steps_module.KernelSteps, "start"),)),
)


class Clock:
    """CPU time by part, each part's own: entering a part stops the clock of the part it was called in. ``now``:
    the clock read (the process's CPU time)."""

    def __init__(self, now: Callable[[], float] = time.process_time) -> None:
        self.now = now
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._stack: list[str] = []
        self._mark = 0.0

    def timed(self, part: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self._switch(part)
            try:
                return function(*args, **kwargs)
            finally:
                self._switch(None)
        return wrapper

    def _switch(self, entering: str | None) -> None:
        now = self.now()
        if self._stack:
            self.seconds[self._stack[-1]] = self.seconds.get(self._stack[-1], 0.0) + now - self._mark
        if entering is None:
            self._stack.pop()
        else:
            self._stack.append(entering)
            self.calls[entering] = self.calls.get(entering, 0) + 1
        self._mark = now


def where_time_goes(task_id: str, num_envs: int, steps: int) -> tuple[dict[str, tuple[float, int]], int, int]:
    """A run of the vector env timed by part (PARTS; "vector env" for its own, "engine" for the steps of the rows
    the kernel gave up too): each part's CPU seconds and calls; the games started, and the row-steps on the engine."""
    envs = gym.make_vec(task_id, num_envs=num_envs, vectorization_mode="vector_entry_point")
    inner = envs.unwrapped
    envs.reset(seed=SEED)
    clock = Clock()
    patched: list[tuple[Any, str, Any]] = []
    for part, _, functions in PARTS:
        for owner, name in functions:
            patched.append((owner, name, owner.__dict__[name]))
            setattr(owner, name, clock.timed(part, getattr(owner, name)))
    games = engine_steps = 0
    for env in inner.envs:  # a game's steps by its own env: a row the kernel gave up, or every row without it
        env.step = clock.timed("engine", env.step)
    try:
        rng = np.random.default_rng(SEED)
        step = clock.timed("vector env", envs.step)
        for _ in range(steps):
            masks = inner.action_masks()
            games += int(inner._ended.sum())
            engine_steps += int((inner.kernel.on_engine & ~inner._ended).sum()) if inner.kernel is not None else 0
            step((rng.random(masks.shape) * masks).argmax(axis=1))
    finally:
        for owner, name, was in reversed(patched):
            setattr(owner, name, was)
        envs.close()
    return {part: (clock.seconds.get(part, 0.0), clock.calls.get(part, 0)) for part in clock.calls}, games, engine_steps


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
    parts, games, engine_steps = where_time_goes(args.task, max(args.envs), args.steps)
    steps = max(args.envs) * args.steps
    total = sum(seconds for seconds, _ in parts.values())
    meaning = {part: what for part, what, _ in PARTS} | {"vector env": "the vector env's own Python, copies included"}
    for part, (seconds, calls) in sorted(parts.items(), key=lambda item: -item[1][0]):
        report(f"N={max(args.envs)}: {part}", seconds / steps * 1e6, "us/step", ",.2f",
               note=f"{seconds / total:.1%}; {meaning.get(part, '')}; {calls:,} calls, {seconds:.2f} CPU s")
    report(f"N={max(args.envs)}: all", total / steps * 1e6, "us/step", ",.2f",
           note=f"{steps:,} env-steps ({args.steps} steps of {max(args.envs)} envs), {games:,} new games, "
                f"{engine_steps / steps:.1%} of the row-steps on the engine")
    row(args.task, f"{args.steps} steps", note="each part's own CPU time over every env-step, new games included")


if __name__ == "__main__":
    main()
