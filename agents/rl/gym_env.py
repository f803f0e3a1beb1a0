"""The Labyrinth as a Gymnasium environment: one role, the other played by an agent of
ours. Importing this module registers the ladder's tasks (tasks.py: ``Labyrinth/User-Tiny-v1``
and the others, each fixing its settings) and the configurable ``Labyrinth/User-v0`` and
``Labyrinth/Minotaur-v0``, every setting a keyword:

    import gymnasium as gym
    import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments)
    env = gym.make("Labyrinth/User-Tiny-v1")
    env = gym.make("Labyrinth/User-v0", preset="small", opponent="builtin", max_turns=400)
    envs = gym.make_vec("Labyrinth/User-Tiny-v1", num_envs=64)  # a task on tiny or small: vector_env.py's

Each step is one turn of a Match (runner.py, the one turn loop) through game.py: the
env's role is an Outside seat whose command is pushed, the opponent an asked seat. A
command the game refuses (a masked one: GRAB with nothing in reach) is played as one
second of standing still, and ``info["refused"]`` says why: every step counts. The
actions are commands.py's, the observation spaces.py's (numbers; ``text=True`` adds
the WSAP text), the rewards the role's WSAP rewards (``shaping=True`` adds the user's
training terms of shaping.py). The env pickles and copies as its
settings, its generator and the game's inputs, replayed into a new game.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from labyrinth.engine.presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET
from labyrinth.engine.wsap.roles import ROLES

from ..base import Agent, fresh_copy
from ..match.runner import DEFAULT_MAX_TURNS
from .commands import COMMANDS, action_names
from .game import PicklesAsReplay, RLGame, checked_max_turns, draw_game_seed
from .kernel.state import REGION_PRESETS
from .opponents import make_opponent
from .render import RENDER_MODES, Renderer
from .shaping import Shaping
from .spaces import observation_space
from .tasks import TASKS, task


class LabyrinthEnv(PicklesAsReplay, gym.Env):
    """One role of the Labyrinth; ``opponent`` (a registry name, or an agent) plays the other. An
    agent is copied as it is given, and every game is played by a fresh copy of that copy
    (base.fresh_copy): the same seed gives the same game. ``frozen`` (the user's only) begins every
    game with the Minotaur frozen for the whole game: no hunter (game.frozen_start)."""

    # gymnasium's Env declares metadata an instance attribute: a ClassVar here would clash with its annotation
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(self, role: str = "user", preset: str = DEFAULT_PRESET, difficulty: str = DEFAULT_DIFFICULTY,
                 opponent: str | Agent = "builtin", max_turns: int = DEFAULT_MAX_TURNS, text: bool = False,
                 render_mode: str | None = None, shaping: bool = False, frozen: bool = False) -> None:
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        if shaping and role != "user":
            raise ValueError("shaping pays the user's exploring and approach to the stones: it has no Minotaur's")
        if frozen and role != "user":
            raise ValueError("frozen takes the hunter away: it makes a user's task, not the Minotaur's")
        self.frozen = bool(frozen)
        self.shapes = bool(shaping)
        self.shaping: Shaping | None = None  # the game's shaping terms, when shaped
        self.role, self.other = role, ROLES[role].other
        self.preset, self.difficulty, self.opponent = preset, difficulty, opponent
        self.max_turns = checked_max_turns(max_turns)
        self.pristine = None if isinstance(opponent, str) else fresh_copy(opponent)  # as given, never played
        self.text, self.render_mode = bool(text), render_mode
        self.action_names = action_names(role)
        self.action_space = spaces.Discrete(len(COMMANDS[role]))
        self.observation_space = observation_space(role, self.text)
        self.game: RLGame | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game: its seed is drawn from the env's generator, which ``seed`` seeds."""
        return self.start_game(self.seed_game(seed))

    def seed_game(self, seed: int | None = None) -> int:
        """The first half of ``reset``: the next game's seed, drawn from the env's generator (which ``seed``
        seeds); the game is not made (the vector env's kernel plays it from its rows until it hands it over)."""
        super().reset(seed=seed)
        self.game = None
        return draw_game_seed(self.np_random)

    def start_game(self, game_seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """The second half of ``reset``: the game of ``game_seed`` made, its opening observation and info."""
        self.game = self._new_game(game_seed)
        self.shaping = Shaping(self.game.match) if self.shapes else None
        self._show()
        return self.game.observation(self.role), self.game.info(self.role)

    def step(self, action):
        game = self._started()
        reward = game.step({self.role: action})[self.role]
        if self.shaping is not None:
            reward += self.shaping.reward()
        self._show()
        return (game.observation(self.role), reward, game.terminated, game.truncated, game.info(self.role))

    # gymnasium 1.2 (within [rl]'s bounds, and Ray's pin) types render's frame as a TypeVar, which no concrete
    # return matches; from 1.3 it is an alias that admits these. The ignore is for 1.2 and unused after it.
    def render(self) -> str | np.ndarray | None:  # type: ignore[override, unused-ignore]
        """The role's window and status: text ("ansi", printed by "human") or a tile picture ("rgb_array")."""
        if self.render_mode is None or self.game is None:
            return None
        return Renderer(self.render_mode).draw(self.game, [self.role])

    def action_masks(self) -> np.ndarray:
        """The mask of the commands that can be carried out now (sb3-contrib's MaskablePPO reads it)."""
        return self._started().mask(self.role)

    @property
    def match(self):
        """The game's Match (its seed, its turns, its seats), once reset."""
        return self._started().match

    def _show(self) -> None:
        if self.render_mode == "human":
            self.render()

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in super().__getstate__().items() if k != "shaping"}  # made again from the game

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self.shaping = Shaping(self.game.match) if self.shapes and self.game is not None else None

    def _new_game(self, game_seed: int) -> RLGame:
        opponent: Agent
        if isinstance(self.opponent, str):
            opponent = make_opponent(self.other, self.opponent, game_seed, preset=self.preset)
        else:  # an agent given: every game a fresh copy of it as it was given
            assert self.pristine is not None, "an agent given is kept as given"
            opponent = fresh_copy(self.pristine)
        return RLGame([self.role], {self.other: opponent}, seed=game_seed, preset=self.preset,
                      difficulty=self.difficulty, max_turns=self.max_turns, text=self.text, frozen=self.frozen)


def task_env(task_id: str, render_mode: str | None = None, **changed: Any) -> LabyrinthEnv:
    """The one-role task ``task_id`` (tasks.py), what ``gym.make`` of its id makes: its settings are
    the task's, and only the render mode may be chosen (Labyrinth/User-v0 and Minotaur-v0 take any)."""
    if changed:
        raise TypeError(f"{task_id} fixes its settings: give {', '.join(sorted(changed))} to "
                        f"Labyrinth/User-v0 or Labyrinth/Minotaur-v0 instead")
    return LabyrinthEnv(**task(task_id).settings(), render_mode=render_mode)


def _register() -> None:
    for role in ROLES:
        env_id = f"Labyrinth/{role.capitalize()}-v0"
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=f"{__name__}:LabyrinthEnv", kwargs={"role": role})
    vector = f"{__package__}.vector_env:task_vector_env"  # imported by gymnasium when a vector env is made
    for task_id, rung in TASKS.items():
        if rung.role in ROLES and task_id not in gym.registry:
            gym.register(task_id, entry_point=f"{__name__}:task_env", kwargs={"task_id": task_id},
                         vector_entry_point=vector if rung.preset in REGION_PRESETS else None)


_register()
