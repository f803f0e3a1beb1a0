"""The Labyrinth as a Gymnasium environment: one role, the other played by an agent of
ours. Importing this module registers ``Labyrinth/User-v0`` and ``Labyrinth/Minotaur-v0``:

    import gymnasium as gym
    import labyrinth.agents.gym_env  # noqa: F401  (registers the environments)
    env = gym.make("Labyrinth/User-v0", preset="small", opponent="builtin", max_turns=400)

Each step is one turn of a Match (runner.py, the one turn loop): the env's role is an
Outside seat whose command is pushed, the opponent an asked seat. The spaces, the list of
commands and the observations are rl_spaces.py's; the rewards are the role's WSAP rewards.
A command the game refuses (a masked one: GRAB with nothing in reach) changes nothing and
pays 0; ``info["refused"]`` says why. ``text=False`` leaves the WSAP text out, for trainers
that do not read it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from labyrinth.engine.wsap.roles import ROLES

from .base import Agent, fresh_copy
from .registry import make_agent
from .rl_spaces import COMMANDS, action_mask, action_names, command, draw, observation_space, observe, seat
from .runner import DEFAULT_MAX_TURNS, Match

SEEDS = 2**31  # a game's seed is drawn below this when reset is given none


class LabyrinthEnv(gym.Env):
    """One role of the Labyrinth; ``opponent`` (a registry name, or an agent) plays the other. An
    agent is copied as it is given, and every game is played by a fresh copy of that copy
    (base.fresh_copy): the same seed gives the same game."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, role: str = "user", preset: str = "standard", difficulty: str = "normal",
                 opponent: str | Agent = "builtin", max_turns: int = DEFAULT_MAX_TURNS, text: bool = True,
                 render_mode: str | None = None) -> None:
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.role, self.other = role, ROLES[role].other
        self.preset, self.difficulty, self.opponent, self.max_turns = preset, difficulty, opponent, max_turns
        self.pristine = None if isinstance(opponent, str) else fresh_copy(opponent)  # as given, never played
        self.text, self.render_mode = text, render_mode
        self.action_names = action_names(role)
        self.action_space = spaces.Discrete(len(COMMANDS[role]))
        self.observation_space = observation_space(role, text)
        self.match: Match | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game: its seed is drawn from the env's generator, which ``seed`` seeds."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(SEEDS))
        opponent = (make_agent(self.other, self.opponent, game_seed, preset=self.preset)
                    if self.pristine is None else fresh_copy(self.pristine))
        seats = {self.role: seat(self.role, self.text), self.other: opponent}
        self.match = Match(seats["user"], seats["minotaur"], seed=game_seed, preset=self.preset,
                           difficulty=self.difficulty, max_turns=self.max_turns)
        return observe(self.match, self.role, self.text), self._info()

    def step(self, action):
        if self.match is None:
            raise RuntimeError("call reset() before step()")
        match = self.match
        turn = match.play_turn(**{self.role: command(self.role, action).make(match)})
        played = turn.record is not None
        reward = ROLES[self.role].reward(turn.result) if played else 0.0
        info = self._info() if played else {**self._info(),
                                            "refused": ROLES[self.role].view(turn.result).raw_text_output}
        return (observe(match, self.role, self.text), float(reward), match.game.state.outcome is not None,
                match.outcome == "TIMEOUT", info)

    def render(self) -> str | None:
        """The role's map window as text ("ansi"): what the observation's map holds."""
        if self.render_mode is None or self.match is None:
            return None
        return draw(observe(self.match, self.role, False)["map"])

    def action_masks(self) -> np.ndarray:
        """The mask of the commands that can be carried out now (sb3-contrib's MaskablePPO reads it)."""
        return action_mask(self.match, self.role)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": action_mask(self.match, self.role), "turn": self.match.turns}


def _register() -> None:
    for role in ROLES:
        env_id = f"Labyrinth/{role.capitalize()}-v0"
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=LabyrinthEnv, kwargs={"role": role})


_register()
