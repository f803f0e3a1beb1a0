"""The rule agents by role and name (``builtin``, ``random``, ``wait``), and the one way a
fresh agent is taught what earlier games left: the registry seats them by name, and the LLM
agent's built-in stand-in comes from here too, so that the LLM agent never imports the
registry, which imports it (no import cycle).

Each built-in agent's module loads when one is first seated: every front imports the registry,
and a front that seats only one of them (`labyrinth gsm`, where the pipe plays the user) does
not wait at start-up for the other's planner (issue 29)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..base import ProjectAgent
from .naive import RandomWalker, Waiter

if TYPE_CHECKING:  # the experience log's model is built only when lessons are, the book when followed (start-up)
    from labyrinth.saves.experience import Reflection

    from ..learning.behaviour_lessons import Book


def builtin_user(seed: int) -> ProjectAgent:
    from .builtin_user import BuiltinUser

    return BuiltinUser(seed)


def builtin_minotaur(seed: int) -> ProjectAgent:
    from .builtin_minotaur import BuiltinMinotaur

    return BuiltinMinotaur(seed)


USER_AGENTS: dict[str, Callable[[int], ProjectAgent]] = {"builtin": builtin_user, "random": RandomWalker}
MINOTAUR_AGENTS: dict[str, Callable[[int], ProjectAgent]] = {"builtin": builtin_minotaur, "wait": Waiter}
RULE_AGENTS = {"user": USER_AGENTS, "minotaur": MINOTAUR_AGENTS}


def taught(agent: ProjectAgent, lessons: Sequence[Reflection] = (), preset: str = "",
           book: Book | None = None) -> ProjectAgent:
    """``agent`` given the lessons of earlier games (for a game on ``preset``) and, when it learns,
    the behaviour lessons of its role (``book``: None plays as without memory)."""
    if lessons:
        agent.learn(lessons, preset)
    if book is not None:
        agent.follow(book)
    return agent
