"""The built-in user's decisions as the user env's actions: demonstrations a learner can be
warm-started from (``bench/rl/train_ppo.py --demos``, behaviour cloning), and the check that the
env's action list can play the game about as well as the built-in user does.

The built-in user decides from the WSAP observation that the env's user seat keeps every turn
(what ``text=True`` renders), so it knows only what the rules let the user know. Its decision
is mapped onto the nearest command of commands.py: a MOVE of one or two steps onto one step,
a longer one (a leg of its plan) onto far, which follows the corridor to the next place worth
a stop; a HALT of several seconds onto the one-second halt (it is asked again the next turn).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from labyrinth.engine.geometry import RAMP_LEVELS
from labyrinth.engine.rng import DRAWN_SEEDS
from labyrinth.engine.wsap import Action

from ..registry import make_agent
from .commands import SPEED_WORDS, STEP_COUNTS, action_word


def command_name(action: Action) -> str:
    """The name of the user env's command nearest to a built-in user's ``action``."""
    name, params = action.name, action.parameters
    if name == "MOVE":
        direction = params["direction"]
        if direction in RAMP_LEVELS:
            return f"move_{action_word(direction)}"
        steps = params.get("steps")
        stride = 1 if steps is not None and steps <= 2 and 1 in STEP_COUNTS else "far"
        return f"move_{action_word(direction)}_{SPEED_WORDS[params.get('speed') or 1]}_{stride}"
    if name in ("GRAB", "USE"):
        return f"{action_word(name)}_{action_word(params['target'])}"
    return action_word(name)  # LOOK, HALT


class Demonstrator:
    """The built-in user beside a user env (a LabyrinthEnv of role "user"): after each reset,
    ``action()`` is the number of the command it would play now. A fresh built-in user a game,
    seeded by the game's seed, as the registry seats it. The env may be wrapped (its observations
    changed for a learner): the demonstrator reads the game itself, underneath."""

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self.numbers = {name: i for i, name in enumerate(self.env.action_names)}
        self.agent: Any = None
        self.seed: int | None = None

    def action(self) -> int:
        match = self.env.match
        if self.seed != match.seed or match.turns == 0:
            self.agent, self.seed = make_agent("user", "builtin", match.seed, preset=match.preset), match.seed
        return self.numbers[command_name(self.agent.decide(match.seats["user"].observation))]


def demonstrations(env: Any, steps: int, seed: int,
                   play: Callable[[dict, np.ndarray], int] | None = None) -> dict[str, Any]:
    """``steps`` steps of the built-in user on ``env`` (games reset from a generator seeded by ``seed``):
    each step's observation, the built-in user's action, the mask and the reward, where games ended,
    their outcomes and their game seeds. With ``play`` (observation, mask -> action) the games are
    played by that instead, the built-in user only saying what it would do (DAgger: it labels the
    states a learner reaches, not only those it reaches itself)."""
    demonstrator, rng = Demonstrator(env), np.random.default_rng(seed)
    observations: list[dict[str, Any]] = []
    actions: list[int] = []
    masks: list[np.ndarray] = []
    rewards: list[float] = []
    ends: list[int] = []  # the step each game ended on
    outcomes: list[str] = []
    seeds: list[int] = []
    obs, info = env.reset(seed=int(rng.integers(DRAWN_SEEDS)))
    while len(actions) < steps or not ends or ends[-1] != len(actions) - 1:
        action = demonstrator.action()
        observations.append(obs)
        actions.append(action)
        masks.append(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action if play is None else play(obs, masks[-1]))
        rewards.append(reward)
        if terminated or truncated:
            ends.append(len(actions) - 1)
            outcomes.append(info["outcome"])
            seeds.append(env.unwrapped.match.seed)
            obs, info = env.reset(seed=int(rng.integers(DRAWN_SEEDS)))
    return {"observations": {k: np.stack([o[k] for o in observations]) for k in observations[0]},
            "actions": np.array(actions), "masks": np.stack(masks).astype(bool), "rewards": np.array(rewards),
            "ends": np.array(ends), "outcomes": outcomes, "seeds": seeds}
