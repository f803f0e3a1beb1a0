"""The Labyrinth as a PettingZoo environment: both roles at once, as the engine plays
them (both act in every turn, from the same state).

    from labyrinth.agents.rl.pettingzoo_env import parallel_env, env
    game = parallel_env(preset="small", max_turns=400)   # agents "user" and "minotaur"
    aec = env(preset="small")                            # the AEC version, by PettingZoo's conversion
    duel = task_parallel_env("Labyrinth/Duel-Tiny-v1")   # a two-role task of the ladder (tasks.py)

A step is one turn of a Match (runner.py, the one turn loop) through game.py, both seats
Outside seats: both actions are played every step. A user command the game refuses (a
masked one) is played as one second of standing still, the Minotaur's action with it, and
``infos["user"]["refused"]`` says why. ``max_cycles`` (PettingZoo's word) is ``max_turns``.
Each agent's spaces, commands and observation are the Gymnasium env's.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv
from pettingzoo.utils import parallel_to_aec

from labyrinth.engine.presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET
from labyrinth.engine.wsap.roles import ROLES

from ..match.runner import DEFAULT_MAX_TURNS
from .commands import COMMANDS, action_names
from .game import PicklesAsReplay, RLGame, checked_max_turns, draw_game_seed
from .render import RENDER_MODES, Renderer
from .spaces import observation_space
from .tasks import BOTH, task


class LabyrinthParallelEnv(PicklesAsReplay, ParallelEnv):
    """One game, both roles played from outside."""

    metadata: ClassVar[dict[str, Any]] = {"name": "labyrinth_v0", "render_modes": list(RENDER_MODES),
                                          "is_parallelizable": True, "render_fps": 4}

    def __init__(self, preset: str = DEFAULT_PRESET, difficulty: str = DEFAULT_DIFFICULTY, max_turns: int | None = None,
                 text: bool = False, render_mode: str | None = None, max_cycles: int | None = None) -> None:
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        if max_turns is not None and max_cycles is not None and max_turns != max_cycles:
            raise ValueError(f"max_cycles is max_turns: give one, or the same ({max_cycles} != {max_turns})")
        self.preset, self.difficulty = preset, difficulty
        self.max_turns = checked_max_turns(next((n for n in (max_turns, max_cycles) if n is not None),
                                                DEFAULT_MAX_TURNS))
        self.text, self.render_mode = bool(text), render_mode
        self.possible_agents = list(ROLES)
        self.agents: list[str] = []
        self.action_names = {role: action_names(role) for role in ROLES}
        self._observation_spaces = {role: observation_space(role, self.text) for role in ROLES}
        self._action_spaces = {role: spaces.Discrete(len(COMMANDS[role])) for role in ROLES}
        self._np_random, _ = seeding.np_random()
        self.game: RLGame | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game: its seed is drawn from the env's generator, which ``seed`` seeds."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.game = self._new_game(draw_game_seed(self._np_random))
        self.agents = list(self.possible_agents)
        self._show()
        return self._observations(), self._infos()

    def step(self, actions: dict[str, int]):
        game = self.game
        if game is None or not self.agents:
            raise RuntimeError("call reset() before step(), and again once the game is over")
        if set(actions) != set(self.agents):
            raise ValueError(f"give an action for each of {', '.join(self.agents)}, not {sorted(actions)}")
        rewards = game.step(actions)
        observations, infos = self._observations(), self._infos()
        terminations = dict.fromkeys(self.agents, game.terminated)
        truncations = dict.fromkeys(self.agents, game.truncated)
        if game.over:
            self.agents = []
        self._show()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        """Each role's window and status, the user's first (see render.py)."""
        if self.render_mode is None or self.game is None:
            return None
        return Renderer(self.render_mode).draw(self.game, self.possible_agents)

    def action_masks(self, agent: str) -> np.ndarray:
        """The mask of ``agent``'s commands that can be carried out now."""
        return self._started().mask(agent)

    def close(self) -> None:
        self.game = None

    def _show(self) -> None:
        if self.render_mode == "human":
            self.render()

    def _new_game(self, game_seed: int) -> RLGame:
        return RLGame(self.possible_agents, {}, seed=game_seed, preset=self.preset, difficulty=self.difficulty,
                      max_turns=self.max_turns, text=self.text)

    def _observations(self) -> dict[str, dict]:
        return {role: self._started().observation(role) for role in self.agents}

    def _infos(self) -> dict[str, dict]:
        return {role: self._started().info(role) for role in self.agents}



def parallel_env(**kwargs: Any) -> LabyrinthParallelEnv:
    """Both roles of one game, as a PettingZoo ParallelEnv (the keywords are the class's)."""
    return LabyrinthParallelEnv(**kwargs)


def env(**kwargs: Any):
    """The AEC version: PettingZoo's own conversion of the parallel env."""
    return parallel_to_aec(parallel_env(**kwargs))


def task_parallel_env(task_id: str, render_mode: str | None = None) -> LabyrinthParallelEnv:
    """The two-role task ``task_id`` (tasks.py): its settings are the task's, only the render mode is chosen."""
    rung = task(task_id)
    if rung.role != BOTH:
        raise ValueError(f"{task_id} is a task of one role: gymnasium.make it")
    return LabyrinthParallelEnv(**rung.settings(), render_mode=render_mode)
