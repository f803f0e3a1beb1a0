"""The Labyrinth as one Gymnasium vector env of N games: the harness of the batched kernel (issue 43,
agents/rl/kernel's slice 2). Registered as the ``vector_entry_point`` of the ladder's tasks on the finite
presets (tiny and small), so that

    envs = gym.make_vec("Labyrinth/User-Tiny-v1", num_envs=64, vectorization_mode="vector_entry_point")

Its games' states live in kernel.state's arrays, one row per env, and every step passes each row through
``step_on_engine``: the row read back as a GameState, played one turn by the scalar env's own game (the one
turn loop, the opponent, the observation and the info of gym_env.LabyrinthEnv, one per row), and written
back. The later slices of the kernel replace that function, row by row, with compiled code over the arrays;
until then the conversion is its whole cost over gymnasium's SyncVectorEnv of the scalar env
(bench/rl/vector_bench.py), and every observation, reward, flag, mask and info is the scalar env's
(tests/agents/rl/test_vector_env.py). Autoreset is gymnasium's NEXT_STEP: the step after a game ends
starts the next one and ignores that env's action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from ..match.runner import DEFAULT_MAX_TURNS
from .gym_env import LabyrinthEnv
from .kernel.state import REGION_PRESETS, StateRows
from .tasks import task

Step = tuple[dict[str, Any], float, bool, bool, dict[str, Any]]  # a scalar env's step: obs, reward, flags, info


def step_on_engine(rows: StateRows, row: int, env: LabyrinthEnv, action: int) -> Step:
    """One turn of row ``row`` played by the Python engine: the row's state handed to ``env``'s game, the
    turn played as the scalar env plays it, the new state written back. The one door between the arrays and
    the engine: a slice of the kernel that ports a turn replaces this call for the rows it can play."""
    game = env.match.game
    game.state = rows.state(row)
    step = env.step(action)
    rows.write(row, game.state)
    return step


class LabyrinthVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of one role, each seated and seeded as gym_env.LabyrinthEnv seats and seeds its
    own (the same keywords, on a tiny or small ground): env i given seed s plays what LabyrinthEnv given
    seed s plays. ``action_masks()`` is the scalar env's mask, one row per env."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - gymnasium's

    def __init__(self, num_envs: int, role: str = "user", preset: str = "tiny", difficulty: str = "normal",
                 opponent: str = "builtin", max_turns: int = DEFAULT_MAX_TURNS, frozen: bool = False) -> None:
        if preset not in REGION_PRESETS:
            raise ValueError(f"the vector env plays {' or '.join(REGION_PRESETS)}, not {preset!r}: the kernel's "
                             f"region is a finite ground's (use gymnasium's SyncVectorEnv of LabyrinthEnv)")
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer of at least 1, not {num_envs!r}")
        self.envs = [LabyrinthEnv(role=role, preset=preset, difficulty=difficulty, opponent=opponent,
                                  max_turns=max_turns, frozen=frozen) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.rows = StateRows(num_envs, preset)
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.action_names = self.envs[0].action_names
        self._ended = np.zeros(num_envs, dtype=np.bool_)  # the envs whose game ended last step: reset on this one
        self._observations: list[Any] = [None] * num_envs  # each env's latest, as the scalar env gave it

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
        if any(self._observations[i] is None for i in np.flatnonzero(~mask).tolist()):
            raise RuntimeError("reset every env once before resetting some by reset_mask")
        infos: dict[str, Any] = {}
        for i in np.flatnonzero(mask).tolist():
            self._observations[i], info = self._new_game(i, seeds[i], options)
            self._ended[i] = False
            infos = self._add_info(infos, info, i)
        return self._batch(), infos

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One turn of every game, or, for a game that ended last step, the next game's start (NEXT_STEP)."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"one action per env: shape ({self.num_envs},), not {actions.shape}")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        for i, env in enumerate(self.envs):
            if self._ended[i]:
                self._observations[i], info = self._new_game(i, None, None)
            else:
                self._observations[i], rewards[i], terminations[i], truncations[i], info = step_on_engine(
                    self.rows, i, env, int(actions[i]))
            infos = self._add_info(infos, info, i)
        self._ended = terminations | truncations
        return self._batch(), rewards, terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """Each env's mask of the commands that can be carried out now, (num_envs, actions)."""
        return np.stack([env.action_masks() for env in self.envs])

    def _new_game(self, i: int, seed: int | None, options: dict[str, Any] | None) -> tuple[dict[str, Any],
                                                                                            dict[str, Any]]:
        """Env ``i``'s next game (its generator reseeded when ``seed`` is given), its row and region laid."""
        env = self.envs[i]
        obs, info = env.reset(seed=seed, options=options)
        self.rows.write(i, env.match.game.state)
        self.rows.lay_region(i, env.match.game.world)
        return obs, info

    def _batch(self) -> dict[str, np.ndarray]:
        """The envs' latest observations as one batch, new arrays each call (a trainer keeps them)."""
        out = cast("dict[str, np.ndarray]", create_empty_array(self.single_observation_space, self.num_envs))
        return cast("dict[str, np.ndarray]", concatenate(self.single_observation_space, self._observations, out))


def task_vector_env(num_envs: int, task_id: str, **changed: Any) -> LabyrinthVectorEnv:
    """The one-role task ``task_id`` (tasks.py) for ``num_envs`` envs, what ``gym.make_vec`` of its id makes
    by its vector entry point: its settings are the task's (as gym_env.task_env's)."""
    if changed:
        raise TypeError(f"{task_id} fixes its settings: give {', '.join(sorted(changed))} to "
                        f"LabyrinthVectorEnv instead")
    return LabyrinthVectorEnv(num_envs, **task(task_id).settings())
