"""The ladder's envs as bench/rl/train_rllib.py's masked PPO module reads them, without Ray or torch, so
that the suite tests them where the [ray] extra is absent: the PettingZoo parallel env of a two-role task
(``Masked``) and the Gymnasium env of a one-role task (``MaskedOne``), each observation one vector.

The vector's keys come in the order the role's view declares them (``spaces.VIEWS``: the plane keys, then
the numbers as the card's tables list them), not the observation dict's (by name, as its space's): the
RLlib runs docs/rl.md publishes were made in that order, and a network's inputs in another order would
train to other figures."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from pettingzoo.utils import BaseParallelWrapper

from labyrinth.agents.rl.spaces import VIEWS


def flat_space(observation_space: gym.spaces.Dict, action_space: gym.spaces.Discrete) -> gym.spaces.Box:
    """The space of ``masked``'s vectors for an env of these spaces."""
    size = int(action_space.n) + sum(int(np.prod(space.shape)) for space in observation_space.spaces.values())
    return gym.spaces.Box(-1.0, 1.0, (size,), np.float32)


def masked(observation: dict[str, Any], info: dict[str, Any], role: str) -> np.ndarray:
    """One observation of ``role`` as one vector: the action mask of its info first, then its keys flattened in
    the order its view declares them."""
    return np.concatenate([info["action_mask"].astype(np.float32),
                           *(np.asarray(observation[key], np.float32).ravel() for key in VIEWS[role][0])])


class MaskedOne(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """A one-role task's env with each observation as ``masked`` makes it (the mask is its info's);
    recorded as Gymnasium's own wrappers are, so that its spec makes it again."""

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        self.observation_space = flat_space(env.observation_space, env.action_space)
        self.role: str = env.unwrapped.role  # type: ignore[attr-defined]  # a task's env: LabyrinthEnv

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        observation, info = self.env.reset(seed=seed, options=options)
        return masked(observation, info, self.role), info

    def step(self, action: int):
        observation, reward, terminated, truncated, info = self.env.step(action)
        return masked(observation, info, self.role), reward, terminated, truncated, info


class Masked(BaseParallelWrapper):
    """The parallel env with each agent's observation as one vector: its action mask first (a number a
    command, 1 where it can be carried out), then its observation's keys flattened, as its view declares them.
    The module reads the mask off the front to mask the logits; its network reads the whole."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._spaces = {agent: flat_space(env.observation_space(agent), env.action_space(agent))
                        for agent in env.possible_agents}

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
        return {agent: masked(obs, infos[agent], agent) for agent, obs in observations.items()}
