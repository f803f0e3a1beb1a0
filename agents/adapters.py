"""The Labyrinth as a WSAP v0.1 environment: a GameAdapter for either role, the
other role played by an agent of this project (the built-in one by default).

`act` maps a WSAP action one to one onto the engine's UserInput or
MinotaurDecision; an unknown action or bad params change nothing and say what
is valid. Rewards are engine/wsap/rewards.py's; achievements engine/wsap/achievements.py's.

With an experience log (``memory``) a generic agent learns like ours: the
role's lessons end its ``game_description`` (the one text WSAP hands an agent at
setup), an opponent named from the registry is given its own, and a finished game
adds one reflection per role to the log.
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace

from labyrinth.engine import Game, MinotaurDecision, UserInput
from labyrinth.engine.commands import BadInput
from labyrinth.engine.turn import TurnResult, unexecutable
from labyrinth.engine.wsap import Action, ActionResult, ActionSpace, Observation
from labyrinth.engine.wsap.achievements import (
    MINOTAUR_ACHIEVEMENTS,
    USER_ACHIEVEMENTS,
    minotaur_unlocked,
    user_unlocked,
)
from labyrinth.engine.wsap.actions import (
    MINOTAUR_ACTIONS,
    MINOTAUR_DESCRIPTION,
    USER_ACTIONS,
    USER_DESCRIPTION,
    to_minotaur_decision,
    to_user_input,
)
from labyrinth.engine.wsap.perception import MinotaurPerception, UserPerception
from labyrinth.engine.wsap.rewards import minotaur_reward, user_reward
from labyrinth.saves.experience import Experience

from .base import Agent
from .game_digest import GameDigest
from .memory_manager import GameMemory, learning_injection
from .registry import make_agent
from .runner import DEFAULT_MAX_TURNS
from .side import ERROR_STREAK, Side

ROLES = ("user", "minotaur")


class LabyrinthAdapter:
    """One role of one game, for a WSAP agent."""

    def __init__(self, role: str, seed: int, preset: str = "standard", difficulty: str = "normal",
                 opponent: str | Agent = "builtin", max_turns: int = DEFAULT_MAX_TURNS,
                 memory: Experience | None = None, agent_name: str = "wsap") -> None:
        if role not in ROLES:
            raise ValueError(f"role must be 'user' or 'minotaur', not {role!r}")
        self.role, self.seed, self.preset, self.difficulty = role, seed, preset, difficulty
        self.opponent_spec, self.max_turns = opponent, max_turns
        self.log, self.agent_name = memory, agent_name
        self.reset()

    @property
    def game_description(self) -> str:
        """The role's rules, then the lessons of its earlier games (when there are any)."""
        rules = USER_DESCRIPTION if self.role == "user" else MINOTAUR_DESCRIPTION
        lessons = learning_injection(self.memory.lessons[self.role])
        return f"{rules}\n\n{lessons}" if lessons else rules

    @property
    def action_space(self) -> ActionSpace:
        return USER_ACTIONS if self.role == "user" else MINOTAUR_ACTIONS

    @property
    def done(self) -> bool:
        return self.game.state.outcome is not None or self.turns >= self.max_turns

    def reset(self) -> Observation:
        """A fresh game with the same seed and settings (and the log's lessons as they are now)."""
        self.game = Game.new(self.seed, self.preset, self.difficulty)
        self.turns, self.unlocked = 0, set()
        self.history: list[tuple[UserInput, MinotaurDecision]] = []  # the turns played, to save and replay
        self.memory = GameMemory(self.log, self.seed, self.preset)
        notice = self.log.take_notice() if self.log is not None else None
        if notice:  # a log that could not be read was kept aside and a fresh one started
            warnings.warn(notice, stacklevel=2)
        self.digest = GameDigest(self.game.world, self.game.state.user)
        response, observation = self.game.view()
        other = "minotaur" if self.role == "user" else "user"
        agent = make_agent(other, self.opponent_spec, self.seed, lessons=self.memory.lessons[other],
                           preset=self.preset) if isinstance(self.opponent_spec, str) else self.opponent_spec
        self.opponent = Side(other, agent, self.game.world, self.game.state, observation if other == "minotaur"
                             else response)
        self.perception = UserPerception(self.game.world) if self.role == "user" else \
            MinotaurPerception(self.game.world)
        self.observation = self.perception.observe(self.game.state, response if self.role == "user" else observation)
        return self.observation

    def observe(self) -> Observation:
        return self.observation

    def act(self, action: Action) -> ActionResult:
        if self.done:
            return self._refused("The game is over: reset() to play again.")
        try:
            mine = (to_user_input if self.role == "user" else to_minotaur_decision)(action)
        except BadInput as exc:
            return self._refused(str(exc))
        if self.role == "user":
            problem = unexecutable(self.game.state, mine)
            if problem:
                return self._refused(problem)
            decision, why = self.opponent.decide()
            result = self._step(mine, decision, why)
        else:
            result = self._minotaur_turn(mine)
        return self._result(result)

    # --- inside ---------------------------------------------------------------

    def _minotaur_turn(self, decision: MinotaurDecision) -> TurnResult:
        """The user agent's command with this decision; a refused command is asked again
        (after three in a row the user is given LOOK), so the Minotaur's turn always happens."""
        for _ in range(ERROR_STREAK + 1):
            command, why = self.opponent.decide()
            if not unexecutable(self.game.state, command):
                break
            self.opponent.tell(self.game.step(command, decision), why, done=False)
        return self._step(command, decision, why)

    def replay(self, history: list[tuple[UserInput, MinotaurDecision]]) -> None:
        """Play recorded turns again, the opponent's agent re-living each of its decisions
        (so its memory is where it was) while the recorded ones are played."""
        for command, decision in history:
            self.opponent.decide()
            self._step(command, decision, None, replaying=True)

    def _step(self, command: UserInput, decision: MinotaurDecision, why: str | None,
              replaying: bool = False) -> TurnResult:
        result = self.game.step(command, decision)
        self.turns += 1
        self.history.append((command, decision))
        self.digest.turn(result)
        self.opponent.tell(result, why, done=self.done)
        if self.done and self.log is not None and not replaying:  # a game replayed was remembered when played
            self._remember(result)
        view = result.response if self.role == "user" else result.observation
        self.observation = self.perception.observe(result.state, view, result.events)
        return result

    def _remember(self, result: TurnResult) -> None:
        """The finished game's reflections into the log; a model opponent then puts its own in its words."""
        agents = {self.role: SimpleNamespace(name=self.agent_name), self.opponent.role: self.opponent.agent}
        self.memory.remember(self.digest, result.state, result.state.outcome or "TIMEOUT", self.turns, agents)
        self.memory.refine(agents)

    def _result(self, result: TurnResult) -> ActionResult:
        seconds = result.response.environment.time_taken
        if self.role == "user":
            held = sum("STONE" in item for item in result.state.inventory)
            earned, table = user_unlocked(result.events, held), USER_ACHIEVEMENTS
            reward, message = user_reward(result.events, seconds), result.response.raw_text_output
        else:
            earned, table = minotaur_unlocked(result.events), MINOTAUR_ACHIEVEMENTS
            reward, message = minotaur_reward(result.events, seconds), result.observation.raw_text_output
        new = sorted(earned - self.unlocked)
        self.unlocked |= earned
        return ActionResult(True, message, reward, [table[name].description for name in new], self.done,
                            self.observation)

    def _refused(self, why: str) -> ActionResult:
        """Nothing happened: the message says why and what is valid."""
        return ActionResult(False, why, 0.0, [], self.done, self.observation)


def make_adapter(role: str = "user", seed: int = 1, preset: str = "standard", difficulty: str = "normal",
                 opponent: str | Agent = "builtin", max_turns: int = DEFAULT_MAX_TURNS,
                 memory: Experience | None = None, agent_name: str = "wsap") -> LabyrinthAdapter:
    """A WSAP GameAdapter for ``role``; ``opponent`` (an agent, or a registry name) plays the other role.
    ``memory`` (an experience log, e.g. ``Experience()`` for the user's own) makes both roles learn;
    ``agent_name`` names the WSAP agent in the reflections (the adapter never sees the agent itself).
    An opponent given as an agent is taken as it is, without lessons; a log that could not be read
    is kept aside with a warning."""
    return LabyrinthAdapter(role, seed, preset, difficulty, opponent, max_turns, memory, agent_name)
