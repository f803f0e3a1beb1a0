"""The feature extractors bench/rl/train_ppo.py offers its policy (``--network``), both shared by
the policy and the value head. The observation's planes are 0 or 1 already and its numbers in
[-1, 1], so neither rescales anything. The env gives the planes flat (a vector no trainer takes for
an image): ``cnn`` reshapes them to their planes (spaces.PLANE_SHAPES) to convolve.

- ``cnn`` (the default): two small convolutions over each plane key (the 15 x 15 window, the
  16 x 16 memory map), the numbers as they are, joined by one layer. A corridor, a wall or
  the Minotaur two cells off is the same pattern wherever it lies in the window; a
  convolution learns it once, where a flat layer must learn it at each of the 225 places.
- ``flat``: every key flattened into one layer (the first baseline's network), kept to
  compare with.
"""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from labyrinth.agents.rl.spaces import PLANE_SHAPES


def _convolutions(channels: int, side: int) -> tuple[nn.Module, int]:
    """Two 3 x 3 convolutions, the second halving the side; the module and its output's size."""
    half = (side + 1) // 2
    return nn.Sequential(nn.Conv2d(channels, 16, 3, padding=1), nn.ReLU(),
                         nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten()), 16 * half * half


class Planes(BaseFeaturesExtractor):
    """Convolutions over each plane key (``shapes``: the role's, channel first; the user's by default),
    the other keys flattened, then one layer of ``features``."""

    def __init__(self, observation_space: spaces.Dict, features: int = 128,
                 shapes: dict[str, tuple[int, int, int]] = PLANE_SHAPES["user"]) -> None:
        super().__init__(observation_space, features)
        self.planes, self.numbers, self.shapes = nn.ModuleDict(), [], shapes
        inputs = 0
        for key, space in observation_space.spaces.items():
            if key in shapes:
                self.planes[key], size = _convolutions(shapes[key][0], shapes[key][1])
            else:
                self.numbers.append(key)
                size = int(np.prod(space.shape))
            inputs += size
        self.joint = nn.Sequential(nn.Linear(inputs, features), nn.ReLU())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        parts = [net(observations[key].reshape(-1, *self.shapes[key])) for key, net in self.planes.items()]
        parts += [observations[key].flatten(1) for key in self.numbers]
        return self.joint(torch.cat(parts, dim=1))


class Flat(BaseFeaturesExtractor):
    """Every key flattened into one layer of ``features``."""

    def __init__(self, observation_space: spaces.Dict, features: int = 128) -> None:
        super().__init__(observation_space, features)
        inputs = sum(int(np.prod(space.shape)) for space in observation_space.spaces.values())
        self.keys = list(observation_space.spaces)
        self.layer = nn.Sequential(nn.Linear(inputs, features), nn.ReLU())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        return self.layer(torch.cat([observations[k].flatten(1) for k in self.keys], dim=1))


NETWORKS = {"cnn": Planes, "flat": Flat}
