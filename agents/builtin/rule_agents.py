"""The rule agents by role and name (``builtin``, ``random``, ``wait``), and the one way a
fresh agent is taught what earlier games left: the registry seats them by name, and the LLM
agent's built-in stand-in comes from here too, so that the LLM agent never imports the
registry, which imports it (no import cycle)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..base import ProjectAgent
from ..learning.behaviour_lessons import Book
from .builtin_minotaur import BuiltinMinotaur
from .builtin_user import BuiltinUser
from .naive import RandomWalker, Waiter

if TYPE_CHECKING:  # the experience log's model is built only when lessons are (start-up)
    from labyrinth.saves.experience import Reflection

USER_AGENTS: dict[str, Callable[[int], ProjectAgent]] = {"builtin": BuiltinUser, "random": RandomWalker}
MINOTAUR_AGENTS: dict[str, Callable[[int], ProjectAgent]] = {"builtin": BuiltinMinotaur, "wait": Waiter}
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
