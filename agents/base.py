"""The agent interface of WSAP v0.1, shared by every agent of this project.

Whatever drives an agent (rules or an LLM), the turn loop (runner.py) only
calls these four methods; a person or a pipe is not an agent but an Outside
seat whose input is pushed. ``blocking`` tells the loop whether ``decide`` may
wait on the outside world (a network call): the seats that must be asked are
then asked in threads, at once, with one deadline for the turn.

An agent object handed to a front that plays many games with it (a Gymnasium env's or
a WSAP adapter's opponent) plays each game as a fresh copy of the agent as it was
handed over (``fresh_copy``): what one game taught it (a map, a search, a strategy)
never leaks into the next, so the same seed plays the same game. An agent holding what
must be shared rather than copied (a model's transport) says so in ``__deepcopy__``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from labyrinth.engine.wsap import Action, ActionResult, ActionSpace, Goal, Observation

from .learning.behaviour_lessons import Book

if TYPE_CHECKING:  # the experience log's model is built only when lessons are (start-up)
    from labyrinth.saves.experience import Reflection

    from .llm.providers.base import Transport
    from .llm.providers.pacing import Waiting
    from .match.side import SideStats


@runtime_checkable
class Agent(Protocol):
    name: str
    blocking: bool

    def initialize(self, game_description: str, action_space: ActionSpace) -> None:
        """Called once, before the first decision, with the role's rules and actions."""

    def decide(self, observation: Observation) -> Action:
        """The next action for this observation."""

    def reflect(self, result: ActionResult) -> None:
        """Feedback on the last action: success, message, reward, the new observation."""

    def plan(self, goals: list[Goal]) -> list[str]:
        """A short high-level plan for the goals, asked once at the start."""


@runtime_checkable
class ProjectAgent(Agent, Protocol):
    """An agent of this project (the registry makes them): besides WSAP's calls, it is given
    the lessons of earlier games, its role's behaviour lessons and the game's difficulty."""

    def learn(self, lessons: Sequence[Reflection], preset: str) -> None: ...

    def follow(self, book: Book) -> None: ...

    def seated(self, difficulty: str) -> None: ...


@runtime_checkable
class ModelPlayer(ProjectAgent, Protocol):
    """A project agent whose moves are a model's answers (llm_agent.LLMAgent, which the type checker holds to
    every member): what the turn loop, the fronts and the memory read of its calls besides WSAP's methods,
    asked through ``isinstance`` so that a renamed member is a type error, not a silent default. A foreign
    WSAP agent or a rule agent is not one, and is asked nothing more."""

    last_exchange: dict[str, Any] | None  # the last call's prompt and reply, for the trajectory; the seat clears it

    @property
    def transport(self) -> Transport:
        """Its model at its endpoint: the name a line about the model says."""

    @property
    def patience_s(self) -> float:
        """How long the turn loop waits for one decision, the transport's retries included."""

    @property
    def failure(self) -> Exception | None:
        """Why its last decision is the noop it answered (None: it was its model's answer)."""

    @property
    def replacement(self) -> ProjectAgent | None:
        """The built-in agent playing in its place, once its provider kept failing."""

    @property
    def waiting(self) -> Waiting | None:
        """What its model's call waits for right now (a quota, the pace), for a front's countdown."""

    def held_s(self) -> float:
        """Seconds its calls have been held by a quota or the pace: the turn loop waits that much longer."""

    def count_calls_in(self, stats: SideStats, usable: Callable[[Action], object] | None = None) -> None:
        """Where each model call is counted with its outcome as it ends (``usable``: the game's check of an
        action)."""

    def lesson(self, what_happened: str) -> str | None:
        """Its model's own words on the finished game; None when it has none."""


class RuleAgent:
    """Common ground of the agents that decide by rules, in process: no waiting,
    the game's rules known in advance, the last result kept."""

    name = "rules"
    blocking = False

    def initialize(self, game_description: str, action_space: ActionSpace) -> None:
        """Nothing to learn: the rules are written into the agent."""

    def reflect(self, result: ActionResult) -> None:
        """Nothing to keep: each decision reads the observation it is given."""

    def learn(self, lessons: Sequence[Reflection], preset: str) -> None:
        """Lessons from earlier games, given once at setup, for a game on ``preset`` (the seed
        the agent was made with); a rule agent with no use for them ignores them. Not part of
        WSAP: the registry gives them to this project's agents."""

    def follow(self, book: Book) -> None:
        """The behaviour lessons of its role (behaviour_lessons.Book), given once at setup when it
        learns: a rule agent without strategy choices ignores them. Not part of WSAP."""

    def seated(self, difficulty: str) -> None:
        """The game's difficulty (engine/presets.py DIFFICULTIES), told once by the seat it takes
        (side.py), before the first decision: what every player of the game knows. A rule agent
        that plays alike on every difficulty ignores it. Not part of WSAP."""

    def plan(self, goals: list[Goal]) -> list[str]:
        return [goal.description for goal in goals]


def fresh_copy(agent: Agent) -> Agent:
    """A copy of ``agent`` in the state it is in now, sharing nothing that a game changes; a
    ValueError saying what to do instead when the agent cannot be copied."""
    try:
        return copy.deepcopy(agent)
    except (TypeError, copy.Error, RecursionError) as exc:  # a lock, a socket; a proxy's __getattr__
        raise ValueError(f"the agent {getattr(agent, 'name', agent)!r} cannot be copied for each game ({exc}): "
                         "give a registry name instead, or share what cannot be copied in its __deepcopy__") from exc


class InvalidAnswer(ValueError):
    """A model's reply that holds no action: the LLM agent answers noop and keeps this as its
    ``failure``, which the turn loop counts as invalid (side.py) before playing the fallback."""
