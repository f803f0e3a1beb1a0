"""The Labyrinth as a WSAP v0.1 environment: a GameAdapter for either role, the
other role played by an agent of this project (the built-in one by default).

The WSAP caller's role is an Outside seat of a Match (runner.py), the one turn
loop every front plays through: `act` maps a WSAP action one to one onto the
role's engine input and pushes it; an unknown action, bad params or a command
the game refuses change nothing and say what is valid, and the other role's
agent is asked only for a turn that is played. Rewards and achievements are
the role's (engine/wsap/roles.py).

With an experience log (``memory``) a generic agent learns like ours: the
role's lessons (about behaviour, and this labyrinth's places) end its
``game_description`` (the one text WSAP hands an agent at setup), an opponent
named from the registry is given its own, and a finished game adds one
reflection per role to the log.
"""

from __future__ import annotations

import warnings

from labyrinth.engine import DEFAULT_DIFFICULTY, DEFAULT_PRESET, Game, MinotaurDecision, UserInput
from labyrinth.engine.commands import BadInput
from labyrinth.engine.turn import TurnResult
from labyrinth.engine.wsap import Action, ActionResult, ActionSpace, Observation
from labyrinth.engine.wsap.actions import GAME_NAME
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.experience import Experience

from ..base import Agent, fresh_copy
from ..learning.memory_manager import GameMemory, learning_injection
from ..match.runner import DEFAULT_MAX_TURNS, Match, Outside
from ..match.side import Side
from ..registry import make_agent


class LabyrinthAdapter:
    """One role of one game, for a WSAP agent."""

    def __init__(self, role: str, seed: int, preset: str = DEFAULT_PRESET, difficulty: str = DEFAULT_DIFFICULTY,
                 opponent: str | Agent = "builtin", max_turns: int = DEFAULT_MAX_TURNS,
                 memory: Experience | None = None, agent_name: str = "wsap") -> None:
        if role not in ROLES:
            raise ValueError(f"role must be 'user' or 'minotaur', not {role!r}")
        self.role, self.knowledge = role, ROLES[role]
        self.seed, self.preset, self.difficulty = seed, preset, difficulty
        self.max_turns = max_turns
        # The opponent: a name the registry makes an agent of for each game, or an agent copied as given.
        self.opponent_given: str | Agent = opponent if isinstance(opponent, str) else fresh_copy(opponent)
        self.log, self.agent_name = memory, agent_name
        self.reset()

    @property
    def name(self) -> str:
        """The game's name, as the reference implementation's adapters give it (for the system message)."""
        return GAME_NAME

    @property
    def game_description(self) -> str:
        """The role's rules, then the lessons of its earlier games (when there are any): the behaviour
        lessons of its role, then the place lessons of this labyrinth, as our models are given them."""
        memory = self.memory
        lessons = learning_injection(memory.lessons[self.role], memory.books[self.role])
        return f"{self.knowledge.description}\n\n{lessons}" if lessons else self.knowledge.description

    @property
    def action_space(self) -> ActionSpace:
        return self.knowledge.actions

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def turns(self) -> int:
        return self.match.turns

    @property
    def history(self) -> list[tuple[UserInput, MinotaurDecision]]:
        """The turns played (resumed ones too): what a save holds."""
        return self.match.played

    @property
    def done(self) -> bool:
        return self.match.outcome is not None

    @property
    def observation(self) -> Observation:
        observation = self.match.seats[self.role].observation
        if observation is None:  # the seat is an Outside that observes (reset): it always has one
            raise RuntimeError(f"the {self.role}'s seat keeps no observation")
        return observation

    @property
    def opponent(self) -> Side:
        """The other role's seat: its agent, and how its answers went."""
        return self.match.sides[self.knowledge.other]

    def reset(self) -> Observation:
        """A fresh game with the same seed and settings (and the log's lessons as they are now)."""
        memory = self.memory = GameMemory(self.log, self.seed, self.preset, self.difficulty)
        notice = self.log.take_notice() if self.log is not None else None
        if notice:  # a log that could not be read was kept aside and a fresh one started
            warnings.warn(notice, stacklevel=2)
        other = self.knowledge.other
        opponent = self.opponent_given
        agent = make_agent(other, opponent, self.seed, lessons=memory.lessons[other], preset=self.preset,
                           book=memory.books[other]) if isinstance(opponent, str) else fresh_copy(opponent)
        seats: dict[str, Agent | Outside] = {self.role: Outside(self.agent_name), other: agent}
        self.match = Match(seats["user"], seats["minotaur"], seed=self.seed, preset=self.preset,
                           difficulty=self.difficulty, max_turns=self.max_turns, memory=memory)
        self.unlocked: set[str] = set()
        return self.observation

    def observe(self) -> Observation:
        return self.observation

    def act(self, action: Action) -> ActionResult:
        try:
            mine = self.knowledge.to_engine(action)
        except BadInput as exc:
            return ActionResult(False, str(exc), 0.0, [], self.done, self.observation)
        turn = self.match.play_turn(**{self.role: mine})
        result = turn.result
        assert result is not None, "play_turn returns the turn done"
        message = self.knowledge.view(result).raw_text_output
        if turn.record is None:  # refused, or sent after the end: nothing happened
            return ActionResult(False, message, 0.0, [], self.done, self.observation)
        if self.done:
            self.match.refine()  # a model opponent puts its reflection in its own words (the match remembered)
        return ActionResult(True, message, self.knowledge.reward(result), self.earn(result), self.done,
                            self.observation)

    def earn(self, result: TurnResult) -> list[str]:
        """The achievements a played turn unlocks for the first time, described (a resumed game's
        turns are given here too, so that what was earned before stays earned)."""
        earned = self.knowledge.unlocked(result)
        new = sorted(earned - self.unlocked)
        self.unlocked |= earned
        return [self.knowledge.achievements[name].description for name in new]


def make_adapter(role: str = "user", seed: int = 1, preset: str = DEFAULT_PRESET, difficulty: str = DEFAULT_DIFFICULTY,
                 opponent: str | Agent = "builtin", max_turns: int = DEFAULT_MAX_TURNS,
                 memory: Experience | None = None, agent_name: str = "wsap") -> LabyrinthAdapter:
    """A WSAP GameAdapter for ``role``; ``opponent`` (an agent, or a registry name) plays the other role.
    ``memory`` (an experience log, e.g. ``Experience()`` for the user's own) makes both roles learn;
    ``agent_name`` names the WSAP agent in the reflections (the adapter never sees the agent itself).
    An opponent given as an agent is taken as it is, without lessons, and each game (each reset) is
    played by a fresh copy of it (base.fresh_copy); a log that could not be read is kept aside with
    a warning."""
    return LabyrinthAdapter(role, seed, preset, difficulty, opponent, max_turns, memory, agent_name)
