"""Naive opponents, the yardsticks the built-in agents must beat: a user that
walks at random, a Minotaur that only waits, and a user that only waits (the RL
ladder's first Minotaur task seats it: agents/rl/tasks.py; the fronts do not offer it)."""

from __future__ import annotations

import random

from labyrinth.engine.items import KINDS
from labyrinth.engine.wsap import Action, Observation

from ..base import RuleAgent

MOST_STEPS = 12  # the longest walk the random walker picks (agents/rl/kernel/user_opponents.py draws the same)


class RandomWalker(RuleAgent):
    """Walks a random open direction a random number of steps; grabs what it stands by."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"{seed}:random-walker")

    def decide(self, observation: Observation) -> Action:
        reachable = [e for e in observation.nearby_entities if e.type in KINDS and e.interactable]
        if reachable:
            return Action("GRAB", {"target": reachable[0].name})
        ways = [t.direction for t in observation.nearby_terrain]
        if not ways:
            return Action("LOOK")
        return Action("MOVE", {"direction": self.rng.choice(ways), "steps": self.rng.randint(1, MOST_STEPS)})


class Waiter(RuleAgent):
    """A Minotaur that never moves."""

    name = "wait"

    def __init__(self, seed: int) -> None:
        del seed  # it has no choices to make

    def decide(self, observation: Observation) -> Action:
        return Action("WAIT")


class Halter(RuleAgent):
    """A user that never moves: it halts a second at a time where it started."""

    name = "wait"

    def __init__(self, seed: int) -> None:
        del seed  # it has no choices to make

    def decide(self, observation: Observation) -> Action:
        return Action("HALT")
