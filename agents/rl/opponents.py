"""The players an RL env seats in the role it does not learn, by name: the registry's (``builtin``,
``random`` for the user, ``wait`` for the Minotaur, an LLM), and a user that only waits, for the
Minotaur's first task, which the fronts do not offer (naive.Halter)."""

from __future__ import annotations

from collections.abc import Callable

from ..base import ProjectAgent
from ..builtin.naive import Halter
from ..registry import make_agent

RL_ONLY: dict[str, dict[str, Callable[[int], ProjectAgent]]] = {"user": {"wait": Halter}}


def make_opponent(role: str, name: str, seed: int, preset: str) -> ProjectAgent:
    """A fresh player of ``role`` called ``name``, seeded by the game's seed, as the registry seats one."""
    made = RL_ONLY.get(role, {}).get(name)
    return made(seed) if made is not None else make_agent(role, name, seed, preset=preset)


def seated_opponent(role: str, name: str, seed: int, preset: str, difficulty: str) -> ProjectAgent:
    """make_opponent's player as a Match's seat leaves it before its first decision (side.Side tells a rule agent
    the difficulty; their initialize and plan change nothing): what the vector env's kernel loads into a row."""
    agent = make_opponent(role, name, seed, preset)
    agent.seated(difficulty)
    return agent
