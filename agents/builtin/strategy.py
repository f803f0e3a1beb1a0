"""The built-in agents' named strategy choices, and how one is chosen for a game.

Each choice has a few arms; the first is how the agent plays without memory (today's
play, exactly). With memory, every choice is made by Thompson sampling: each arm's
win rate is drawn from Beta(1 + wins, 1 + losses) (a draw half of each) over the games of the behaviour
lessons in which that arm was played (behaviour_lessons: situation GAME, ``choice=arm``),
and the arm with the highest draw is played. Arms with little evidence are tried (their
draws spread wide), arms that keep losing fade. The draw comes from an RNG seeded with
the game's seed, the role and the choice, so the same seed and the same log give the
same strategy.
"""

from __future__ import annotations

import random

from labyrinth.engine.schemas import WIN
from labyrinth.saves.results_terms import USER_SCORE

from ..learning.behaviour_lessons import GAME, Book

# choice -> arms, the first the default. The agents read their arm by the choice's name; an arm
# of a choice about a number ("as built", "shorter", ...) scales the agent's own number by SCALE.
CHOICES = {
    "user": {
        "lantern": ("at the last moment", "when the hooves sound close"),  # VERY CLOSE only, or CLOSE too
        "listening": ("as built", "shorter", "longer"),  # how long between two LOOKs for the stones' hum
        # Whether a dare (after its patience runs out it goes on whatever it hears for a while) holds when
        # the hooves sound close. Daring on towards a Minotaur heard within 8 steps walks into its 6-step
        # sight, and a chase at its 2 steps a second is lost in the open: calling the dare off then, and
        # keeping away as when it is not daring, escaped 13 points more often (forced on 2 x 200 new
        # standard labyrinths against the built-in Minotaur), more than any number it plays by.
        "daring": ("whatever it hears", "not when the hooves sound close"),
        # Not choices: how long it waits before it dares, how far it keeps from the Minotaur and how long
        # it looks for the first lantern. Forced on 200 new labyrinths, no arm of theirs (half, twice, or
        # a quarter less and more) beat the number as built, alone or with the wary dare, so every game
        # that tried one was lost to exploring: without them the learner gained 10.5 to 14.5 points from its
        # second round of 200 games (bench/play/learning_bench.py), with them 5 to 16.
    },
    "minotaur": {
        "guarding": ("as built", "shorter", "longer"),  # how long it lies in wait by one stone
        "rounds": ("as built", "stone to stone"),  # between two guards: as its difficulty says, or the next stone
        "jumping": ("after a face-to-face", "never"),  # when it jumps out of time
    },
}
SCALE = {"as built": 1.0, "shorter": 0.5, "longer": 2.0}
DRAW = USER_SCORE["TIMEOUT"]  # a TIMEOUT is a draw (as the tournament rates it): half a win for either side


def default_strategy(role: str) -> dict[str, str]:
    """Today's play: the first arm of every choice."""
    return {choice: arms[0] for choice, arms in CHOICES[role].items()}


def choose_strategy(role: str, seed: int, book: Book | None) -> dict[str, str]:
    """The arm of each choice for a game on ``seed``: the default without a book (memory off) or
    before the book holds a game played by a strategy (the first game plays as today), else by
    Thompson sampling on the book's games."""
    if book is None or not any(book.outcomes(f"{choice}={arm}") for choice, arms in CHOICES[role].items()
                               for arm in arms):
        return default_strategy(role)
    chosen = {}
    for choice, arms in CHOICES[role].items():
        rng = random.Random(f"{seed}:strategy:{role}:{choice}")
        draws = []
        for arm in arms:
            outcomes = book.outcomes(f"{choice}={arm}")
            wins = outcomes[WIN[role]] + DRAW * outcomes["TIMEOUT"]
            draws.append((rng.betavariate(1 + wins, 1 + sum(outcomes.values()) - wins), arm))
        chosen[choice] = max(draws)[1]
    return chosen


def strategy_observations(strategy: dict[str, str], outcome: str) -> list[dict[str, str]]:
    """What a game teaches about the strategy played in it: one observation per choice."""
    return [{"when": GAME, "did": f"{choice}={arm}", "led_to": outcome} for choice, arm in strategy.items()]
