"""The Labyrinth as a PettingZoo environment: both roles at once, as the engine plays
them (both act in every turn, from the same state).

    from labyrinth.agents.pettingzoo_env import parallel_env, env
    game = parallel_env(preset="small", max_turns=400)   # agents "user" and "minotaur"
    aec = env(preset="small")                            # the AEC version, by PettingZoo's conversion

A step is one turn of a Match (runner.py, the one turn loop) whose two seats are Outside
seats: both commands are pushed. Each agent's spaces, commands and observation are the
Gymnasium env's (rl_spaces.py). A user command the game refuses (a masked one) plays no
turn: both are paid 0 and ``infos[...]["refused"]`` says why.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv
from pettingzoo.utils import parallel_to_aec

from labyrinth.engine.wsap.roles import ROLES

from .gym_env import SEEDS
from .rl_spaces import COMMANDS, action_mask, action_names, command, draw, observation_space, observe, seat
from .runner import DEFAULT_MAX_TURNS, Match


class LabyrinthParallelEnv(ParallelEnv):
    """One game, both roles played from outside."""

    metadata: ClassVar[dict[str, Any]] = {"name": "labyrinth_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, preset: str = "standard", difficulty: str = "normal", max_turns: int = DEFAULT_MAX_TURNS,
                 text: bool = True, render_mode: str | None = None) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.preset, self.difficulty, self.max_turns = preset, difficulty, max_turns
        self.text, self.render_mode = text, render_mode
        self.possible_agents = list(ROLES)
        self.agents: list[str] = []
        self.action_names = {role: action_names(role) for role in ROLES}
        self._observation_spaces = {role: observation_space(role, text) for role in ROLES}
        self._action_spaces = {role: spaces.Discrete(len(COMMANDS[role])) for role in ROLES}
        self._np_random, _ = seeding.np_random()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game: its seed is drawn from the env's generator, which ``seed`` seeds."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(SEEDS))
        self.match = Match(seat("user", self.text), seat("minotaur", self.text), seed=game_seed, preset=self.preset,
                           difficulty=self.difficulty, max_turns=self.max_turns)
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos({})

    def step(self, actions: dict[str, int]):
        match = self.match
        if match is None or not self.agents:
            raise RuntimeError("call reset() before step(), and again once the game is over")
        if set(actions) != set(self.agents):
            raise ValueError(f"give an action for each of {', '.join(self.agents)}, not {sorted(actions)}")
        turn = match.play_turn(**{role: command(role, action).make(match) for role, action in actions.items()})
        played = turn.record is not None
        rewards = {role: float(ROLES[role].reward(turn.result)) if played else 0.0 for role in self.agents}
        refused = {} if played else {role: ROLES[role].view(turn.result).raw_text_output for role in self.agents}
        observations, infos = self._observations(), self._infos(refused)
        terminated, truncated = match.game.state.outcome is not None, match.outcome == "TIMEOUT"
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, truncated)
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """Each role's map window as text ("ansi"), the user's first."""
        if self.render_mode is None or self.match is None:
            return None
        return "\n".join(f"{role}:\n{draw(observe(self.match, role, False)['map'])}"
                         for role in ROLES)

    def close(self) -> None:
        self.match = None

    def _observations(self) -> dict[str, dict]:
        return {role: observe(self.match, role, self.text) for role in self.agents}

    def _infos(self, refused: dict[str, str]) -> dict[str, dict]:
        return {role: {"action_mask": action_mask(self.match, role), "turn": self.match.turns,
                       **({"refused": refused[role]} if role in refused else {})} for role in self.agents}


def parallel_env(**kwargs: Any) -> LabyrinthParallelEnv:
    """Both roles of one game, as a PettingZoo ParallelEnv (the keywords are the class's)."""
    return LabyrinthParallelEnv(**kwargs)


def env(**kwargs: Any):
    """The AEC version: PettingZoo's own conversion of the parallel env."""
    return parallel_to_aec(parallel_env(**kwargs))
