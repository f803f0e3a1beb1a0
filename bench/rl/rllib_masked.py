"""The PettingZoo parallel env as bench/rl/train_rllib.py's masked PPO module reads it, without Ray or
torch, so that the suite tests it where the [ray] extra is absent."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from pettingzoo.utils import BaseParallelWrapper


class Masked(BaseParallelWrapper):
    """The parallel env with each agent's observation as one vector: its action mask first (a number a
    command, 1 where it can be carried out), then its observation's keys flattened, in their order.
    The module reads the mask off the front to mask the logits; its network reads the whole."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._spaces = {}
        for agent in env.possible_agents:
            inner = env.observation_space(agent)
            size = env.action_space(agent).n + sum(int(np.prod(space.shape)) for space in inner.spaces.values())
            self._spaces[agent] = gym.spaces.Box(-1.0, 1.0, (size,), np.float32)

    def observation_space(self, agent: str) -> gym.spaces.Box:
        return self._spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        observations, infos = self.env.reset(seed=seed, options=options)
        return self._masked(observations, infos), infos

    def step(self, actions: dict[str, int]):
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return self._masked(observations, infos), rewards, terminations, truncations, infos

    @staticmethod
    def _masked(observations: dict[str, dict], infos: dict[str, dict]) -> dict[str, np.ndarray]:
        return {agent: np.concatenate([infos[agent]["action_mask"].astype(np.float32),
                                       *(np.asarray(v, np.float32).ravel() for v in obs.values())])
                for agent, obs in observations.items()}
