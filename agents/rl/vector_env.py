"""The Labyrinth as one Gymnasium vector env of N games (issue 43), registered as the ``vector_entry_point`` of the
ladder's tasks on the finite presets (tiny and small), so that

    envs = gym.make_vec("Labyrinth/User-Tiny-v1", num_envs=64, vectorization_mode="vector_entry_point")

With the [fast] extra (numba), the batched kernel plays every row it can, the whole step at once for all of them
(kernel/steps.py: the inputs, the opponent's decisions, the turn, the reward and flags, the mask, the achievements,
the observation, the info), for the tasks it ports (steps.kernel_plays: the user against the built-in or the
waiting Minotaur, the Minotaur against the waiting or the random user); their games' states live in kernel.state's
arrays, one row per env, and the kernel starts them too (steps.start: no Match). Each env still has its
gym_env.LabyrinthEnv: it draws each game's seed from its generator as the scalar env does, makes a game the kernel
does not take, and plays a game the kernel gives up to its end, rebuilt from the row's inputs (steps.hand_over). Without
numba, or for a task the kernel does not play (the built-in user as the Minotaur's opponent), every env is its
LabyrinthEnv stepped in turn, as gymnasium's SyncVectorEnv steps them.

Either way, env i given seed s plays what LabyrinthEnv given seed s plays: every observation, reward, flag, mask
and info is the scalar env's (tests/agents/rl/test_vector_env.py; the kernel's own test, test_kernel_steps.py).
Autoreset is gymnasium's NEXT_STEP: the step after a game ends starts the next one and ignores that env's action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space, create_empty_array

from labyrinth.engine import DEFAULT_DIFFICULTY, MinotaurDecision, UserInput
from labyrinth.engine.state import GameState

from ..match.runner import DEFAULT_MAX_TURNS
from .gym_env import LabyrinthEnv
from .kernel.jit import COMPILED
from .kernel.region import MARGIN_CHUNKS, MINOTAUR_MARGIN_CHUNKS
from .kernel.state import REGION_PRESETS, StateRows
from .kernel.steps import KernelSteps, kernel_plays
from .tasks import task

Step = tuple[dict[str, Any], float, bool, bool, dict[str, Any]]  # a scalar env's step: obs, reward, flags, info


class LabyrinthVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of one role, each seated and seeded as gym_env.LabyrinthEnv seats and seeds its
    own (the same keywords, on a tiny or small ground): env i given seed s plays what LabyrinthEnv given
    seed s plays. ``action_masks()`` is the scalar env's mask, one row per env. ``kernel``: the compiled
    steps (kernel/steps.py), None when every row is stepped on the engine."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - gymnasium's

    def __init__(self, num_envs: int, role: str = "user", preset: str = "tiny", difficulty: str = DEFAULT_DIFFICULTY,
                 opponent: str = "builtin", max_turns: int = DEFAULT_MAX_TURNS, frozen: bool = False) -> None:
        if preset not in REGION_PRESETS:
            raise ValueError(f"the vector env plays {' or '.join(REGION_PRESETS)}, not {preset!r}: the kernel's "
                             f"region is a finite ground's (use gymnasium's SyncVectorEnv of LabyrinthEnv)")
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer of at least 1, not {num_envs!r}")
        self.envs = [LabyrinthEnv(role=role, preset=preset, difficulty=difficulty, opponent=opponent,
                                  max_turns=max_turns, frozen=frozen) for _ in range(num_envs)]
        self.num_envs, self.role = num_envs, role
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.action_names = self.envs[0].action_names
        self._ended = np.zeros(num_envs, dtype=np.bool_)  # the envs whose game ended last step: reset on this one
        self._started = np.zeros(num_envs, dtype=np.bool_)  # the envs reset at least once
        self._last_info: dict[str, Any] = {}  # the info of the last step ``_put`` took from a row's own env
        # Every env's latest observation, a row each: written by the kernel, or by a row's own env (after the
        # kernel's step, so that a row handed over mid-step shows its env's).
        self._observations = cast("dict[str, np.ndarray]",
                                  create_empty_array(self.single_observation_space, num_envs))
        self.kernel: KernelSteps | None = None  # the envs step their own games (no numba, or an opponent not ported)
        if COMPILED and kernel_plays(role, opponent):
            margin = MINOTAUR_MARGIN_CHUNKS if role == "minotaur" else MARGIN_CHUNKS  # region.py says why
            self.kernel = KernelSteps(StateRows(num_envs, preset, margin), role, opponent, self.envs[0].max_turns,
                                      difficulty, frozen, self._observations)

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games; ``seed`` as SyncVectorEnv takes it (None, an int for env 0 and one more for each next
        env, or one per env), and ``options["reset_mask"]`` to reset only some envs."""
        seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else (
            [None] * self.num_envs if seed is None else list(seed))
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} envs")
        options = dict(options or {})
        mask = np.asarray(options.pop("reset_mask", np.ones(self.num_envs, dtype=np.bool_)))
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
            raise ValueError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},) with a True")
        if not self._started[~mask].all():
            raise RuntimeError("reset every env once before resetting some by reset_mask")
        infos = self._new_games(mask, seeds, options, {})
        self._ended[mask] = False
        return self._batch(), infos

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One turn of every game, or, for a game that ended last step, the next game's start (NEXT_STEP)."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"one action per env: shape ({self.num_envs},), not {actions.shape}")
        count, playing = len(self.action_names), ~self._ended  # an ended game's action is ignored (NEXT_STEP)
        if not np.issubdtype(actions.dtype, np.integer) or (playing & ((actions < 0) | (actions >= count))).any():
            raise ValueError(f"actions must be integers in [0, {count}), not {actions!r}")
        actions = np.where(playing, actions, 0)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        on_engine = playing
        if self.kernel is not None:
            infos, on_engine = self._kernel_step(actions, playing, rewards, terminations, truncations)
        for i in np.flatnonzero(on_engine).tolist():
            self._put(i, self.envs[i].step(int(actions[i])), rewards, terminations, truncations)
            infos = self._add_info(infos, self._last_info, i)
        infos = self._new_games(self._ended, [None] * self.num_envs, None, infos)
        self._ended = terminations | truncations
        return self._batch(), rewards, terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """Each env's mask of the commands that can be carried out now, (num_envs, actions)."""
        if self.kernel is None:
            return np.stack([env.action_masks() for env in self.envs])
        masks = self.kernel.masks.copy()
        for i in np.flatnonzero(self.kernel.on_engine).tolist():
            masks[i] = self.envs[i].action_masks()
        return masks

    def state(self, i: int) -> GameState:
        """Env ``i``'s game state as it stands (after its last step, before a NEXT_STEP reset), whoever plays it."""
        kernel = self.kernel
        return self.envs[i].match.game.state if kernel is None or kernel.on_engine[i] else kernel.rows.state(i)

    def record(self, i: int) -> tuple[int, list[tuple[UserInput, MinotaurDecision]], str]:
        """Env ``i``'s game as it stands: its seed, the engine inputs of its turns and its state's digest, whoever
        played it: what a benchmark digests."""
        env, kernel = self.envs[i], self.kernel
        if kernel is None or kernel.on_engine[i]:
            return env.match.seed, list(env.match.played), self.state(i).digest()
        return int(kernel.rows.region_seed[i]), kernel.inputs(i), self.state(i).digest()

    def _kernel_step(self, actions: np.ndarray, playing: np.ndarray, rewards: np.ndarray, terminations: np.ndarray,
                     truncations: np.ndarray) -> tuple[dict[str, Any], np.ndarray]:
        """The kernel's step of its rows (and the hand-overs of those it gives up): the infos of the rows it
        played, and which rows are left to step on the engine."""
        kernel = self.kernel
        assert kernel is not None
        on_engine = playing & kernel.on_engine
        done = kernel.step(actions, playing)
        played = done.played
        rewards[played], terminations[played], truncations[played] = (
            done.rewards[played], done.terminated[played], done.truncated[played])
        infos = kernel.infos(played, done.refused)
        for i in np.flatnonzero(done.fallen).tolist():
            kernel.hand_over(i, self.envs[i])
        for i in np.flatnonzero(done.unsettled).tolist():
            kernel.hand_over(i, self.envs[i])
            self._put(i, kernel.settle(self.envs[i], done.refused.get(i)), rewards, terminations, truncations)
            infos = self._add_info(infos, self._last_info, i)
        return infos, on_engine | done.fallen

    def _put(self, i: int, step: Step, rewards: np.ndarray, terminations: np.ndarray, truncations: np.ndarray
             ) -> None:
        """Env ``i``'s step as its own env made it, into the batch (its info kept in ``_last_info``)."""
        obs, rewards[i], terminations[i], truncations[i], self._last_info = step
        for key, value in obs.items():
            self._observations[key][i] = value

    def _new_games(self, mask: np.ndarray, seeds: Sequence[int | None], options: dict[str, Any] | None,
                   infos: dict[str, Any]) -> dict[str, Any]:
        """The ``mask`` envs' next games (each generator reseeded where ``seeds`` gives one); their first
        observations and infos added to ``infos``. With the kernel, each env only draws its game's seed
        (LabyrinthEnv.seed_game): the kernel starts the game in its row, and the env makes only a game the kernel
        does not take."""
        at = np.flatnonzero(mask).tolist()
        kernel, starting = self.kernel, at
        if kernel is not None:
            game_seeds = np.zeros(self.num_envs, dtype=np.int64)
            for i in at:
                game_seeds[i] = self.envs[i].seed_game(seeds[i])
            kernel.start(mask, game_seeds)
            taken = mask & ~kernel.on_engine
            if taken.any():
                infos = merged_infos(infos, kernel.infos(taken, {}))
            starting = np.flatnonzero(mask & kernel.on_engine).tolist()
        for i in starting:
            env = self.envs[i]
            obs, info = env.reset(seed=seeds[i], options=options) if kernel is None else env.start_game(
                int(game_seeds[i]))
            for key, value in obs.items():
                self._observations[key][i] = value
            infos = self._add_info(infos, info, i)
        self._started[mask] = True
        return infos

    def _batch(self) -> dict[str, np.ndarray]:
        """The envs' latest observations as one batch, new arrays each call (a trainer keeps them)."""
        return {key: array.copy() for key, array in self._observations.items()}


def merged_infos(infos: dict[str, Any], batch: dict[str, Any]) -> dict[str, Any]:
    """``batch`` (a VectorEnv's info of some rows: each key's array and its "_key" mask of the rows that give it)
    added to ``infos``, as VectorEnv._add_info would add each of those rows' info."""
    for key, value in batch.items():
        if key.startswith("_"):
            continue
        given = batch[f"_{key}"]
        if isinstance(value, dict):
            infos[key] = merged_infos(infos.get(key, {}), value)
        elif key in infos:
            infos[key][given] = value[given]
        else:
            infos[key] = value
        infos[f"_{key}"] = infos[f"_{key}"] | given if f"_{key}" in infos else given
    return infos


def task_vector_env(num_envs: int, task_id: str, **changed: Any) -> LabyrinthVectorEnv:
    """The one-role task ``task_id`` (tasks.py) for ``num_envs`` envs, what ``gym.make_vec`` of its id makes
    by its vector entry point: its settings are the task's (as gym_env.task_env's)."""
    if changed:
        raise TypeError(f"{task_id} fixes its settings: give {', '.join(sorted(changed))} to "
                        f"LabyrinthVectorEnv instead")
    return LabyrinthVectorEnv(num_envs, **task(task_id).settings())
