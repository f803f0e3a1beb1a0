"""Each role's knowledge in one value: what it is told at setup, what it may do,
what it perceives, how its action becomes engine input, what it is rewarded
and what it unlocks, and what is played when its answer cannot be.

Everything that plays a role (the turn loop's seats, the WSAP adapter) reads
it from here instead of asking ``role == "user"``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .. import events as ev
from ..schemas import GameStateResponse, MinotaurDecision, MinotaurObservation, UserInput
from ..state import GameState
from ..turn import TurnResult
from ..world import World
from .achievements import MINOTAUR_ACHIEVEMENTS, USER_ACHIEVEMENTS, minotaur_unlocked, user_unlocked
from .actions import (
    MINOTAUR_ACTIONS,
    MINOTAUR_DESCRIPTION,
    NOOP,
    USER_ACTIONS,
    USER_DESCRIPTION,
    to_minotaur_decision,
    to_user_input,
)
from .perception import MinotaurPerception, UserPerception
from .rewards import minotaur_reward, user_reward
from .types import Achievement, Action, ActionSpace, Observation

RoleView = TypeVar("RoleView", GameStateResponse, MinotaurObservation)


class Perceiver(Protocol):
    """A role's perception of one game: it takes in each turn's result (the role's view of it built
    only if read), and gives the observation its agent decides from."""

    def observe(self, result: TurnResult, /) -> Observation: ...


@dataclass(frozen=True)
class Role(Generic[RoleView]):
    """One side of the game (``name`` is "user" or "minotaur"); ``RoleView``, the view of the
    game it is given: the user's response or the Minotaur's observation."""

    name: str
    other: str
    description: str  # the rules as the role's agent is told them
    actions: ActionSpace
    model: type[UserInput | MinotaurDecision]  # the engine input it sends
    fallback: UserInput | MinotaurDecision  # played when its answer cannot be: its noop
    achievements: dict[str, Achievement]
    perception: Callable[[World], Perceiver]
    to_engine: Callable[[Action], UserInput | MinotaurDecision]  # raises BadInput
    _view: Callable[[Any], RoleView]
    _reward: Callable[[tuple[ev.Event, ...], float], float]
    _unlocked: Callable[[tuple[ev.Event, ...], GameState], set[str]]
    _refused: Callable[[Any], bool]

    def view(self, result: Any) -> RoleView:
        """The role's own view of a turn (anything with ``response`` and ``observation``)."""
        return self._view(result)

    def reward(self, result: Any) -> float:
        """The turn's reward, from its events and the time it took: read without either side's view."""
        return self._reward(result.events, result.time_taken)

    def unlocked(self, result: Any) -> set[str]:
        """The achievements this turn's events earn."""
        return self._unlocked(result.events, result.state)

    def refused(self, result: Any) -> bool:
        """Whether the role's own input was refused this turn (nothing happened because of it)."""
        return self._refused(result)


# What is played when a side's answer cannot be, typed as the input each side sends.
USER_NOOP: UserInput = to_user_input(Action(NOOP))
MINOTAUR_NOOP: MinotaurDecision = to_minotaur_decision(Action(NOOP))
USER: Role[GameStateResponse] = Role("user", "minotaur", USER_DESCRIPTION, USER_ACTIONS, UserInput, USER_NOOP,
            USER_ACHIEVEMENTS, UserPerception, to_user_input, lambda r: r.response, user_reward,
            lambda events, state: user_unlocked(events, state.inventory),
            lambda r: r.status == "ERROR")
MINOTAUR: Role[MinotaurObservation] = Role("minotaur", "user", MINOTAUR_DESCRIPTION, MINOTAUR_ACTIONS, MinotaurDecision,
                MINOTAUR_NOOP, MINOTAUR_ACHIEVEMENTS, MinotaurPerception, to_minotaur_decision,
                lambda r: r.observation, minotaur_reward, lambda events, state: minotaur_unlocked(events),
                lambda r: False)  # a decision the rules refuse is answered in the observation, as a turn
ROLES: dict[str, Role[Any]] = {"user": USER, "minotaur": MINOTAUR}  # by name: each view is known at run time
