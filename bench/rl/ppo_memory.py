"""A short memory for the policy bench/rl/train_ppo.py trains (``--memory K``): the observation of
Labyrinth/User-v0 is what the user senses now (an egocentric window, a coarse map, numbers), so
a policy fed it alone is purely reactive. It cannot tell whether the Minotaur's hooves are
getting nearer or fading, nor where it was heading a few steps ago. ShortMemory adds the last K
steps of the observation's numbers (its keys of one dimension: the cue, the stones' bearings,
the position, ...) and of the actions taken, so that a feed-forward policy can read a trend.

It is a training-side wrapper, not a part of the env: the same K must be worn wherever the
policy is fed (the training envs, the cloned demonstrations, the held-out evaluation), and
train_ppo.py wears it at all three. The planes (``map`` and ``memory``, given flat) are not
remembered: they are large, and the coarse memory map already keeps what was seen.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from labyrinth.agents.rl.planes import PLANES

ACTIONS = "past_actions"


def past_key(key: str) -> str:
    return f"past_{key}"


class ShortMemory(gym.Wrapper):
    """The observation plus, for each number key ``k`` of shape (n,), ``past_k`` of shape (K * n,):
    its values one step ago (the first n), two steps ago (the next n), ... K steps ago, each
    within the key's own bounds; and ``past_actions`` (K * actions,), the actions taken then,
    one-hot. Flat, as SB3 expects a vector that is no image to be. The steps before the game's
    first are zeros (which lie within every remembered key's bounds), so a new game starts with
    an empty memory. The memory is arrays in the wrapper's own attributes: it pickles and
    copies with the env, and a reset with the same seed gives the same observations."""

    def __init__(self, env: gym.Env, steps: int) -> None:
        super().__init__(env)
        if steps < 1:
            raise ValueError(f"a short memory keeps at least one step, not {steps}")
        self.steps = steps
        base = env.observation_space
        assert isinstance(base, spaces.Dict) and isinstance(env.action_space, spaces.Discrete)
        self.keys = [key for key, space in base.spaces.items() if isinstance(space, spaces.Box) and
                     key not in PLANES]
        extra: dict[str, spaces.Box] = {}
        for key in self.keys:
            space = base[key]
            extra[past_key(key)] = spaces.Box(np.tile(space.low, steps), np.tile(space.high, steps), dtype=space.dtype)
        extra[ACTIONS] = spaces.Box(0.0, 1.0, (steps * int(env.action_space.n),), dtype=np.float32)
        for key, space in extra.items():
            assert space.contains(np.zeros(space.shape, space.dtype)), f"{key}: zero is outside its bounds"
        self.extra = extra
        self.observation_space = spaces.Dict({**base.spaces, **extra})
        self.past: dict[str, np.ndarray] = {}
        self.latest: dict[str, np.ndarray] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self.past = {key: np.zeros(space.shape, space.dtype) for key, space in self.extra.items()}
        self.latest = obs
        return self._remembering(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        taken = np.zeros(int(self.env.action_space.n), np.float32)
        taken[int(action)] = 1.0
        # New arrays each step, never filled in place: an observation handed out (kept among the
        # demonstrations, or in a rollout buffer) must not change afterwards.
        now = {**{past_key(key): self.latest[key] for key in self.keys}, ACTIONS: taken}
        self.past = {key: np.concatenate([now[key], past[:-len(now[key])]]) for key, past in self.past.items()}
        self.latest = obs
        return self._remembering(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def _remembering(self, obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        kept = {**obs, **self.past}
        return {key: kept[key] for key in self.observation_space.spaces}  # in the space's order, as the env's
