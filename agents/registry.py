"""Agents by name, as the command line and the TUI offer them."""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent
from .builtin_minotaur import BuiltinMinotaur
from .builtin_user import BuiltinUser
from .naive import RandomWalker, Waiter

USER_AGENTS: dict[str, Callable[[int], Agent]] = {"builtin": BuiltinUser, "random": RandomWalker}
MINOTAUR_AGENTS: dict[str, Callable[[int], Agent]] = {"builtin": BuiltinMinotaur, "wait": Waiter}


def make_agent(role: str, kind: str, seed: int) -> Agent:
    """A fresh agent for ``role`` ("user" or "minotaur"), seeded from the match seed."""
    table = USER_AGENTS if role == "user" else MINOTAUR_AGENTS
    if kind not in table:
        raise ValueError(f"no {role} agent called {kind!r}: choose one of {', '.join(table)}")
    return table[kind](seed)
