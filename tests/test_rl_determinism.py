"""Whole RL episodes are byte-identical: the guard of every speed-up of the step (issue 29).

A digest of 100 whole episodes per role (the Gymnasium envs with text=False, the built-in
opponent, masked random actions from a seeded generator) hashes every step's observation
arrays, reward and info; a few more episodes do the same with the WSAP text in the
observation, and through the PettingZoo parallel env. The hashes were taken before the
first change made for speed: a change to them is a change to the games, to be made on
purpose (update the table and say why), never a side effect of a faster step.
"""

import hashlib
import random

import gymnasium as gym
import numpy as np
import pytest

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments)
from labyrinth.agents.rl.pettingzoo_env import parallel_env

pytestmark = pytest.mark.slow

# By env, preset, text and episodes. The random user dies within about 30 turns on small, 15 on tiny;
# the random Minotaur's games run about 100 turns on tiny, escapes among them.
GOLDEN = {
    ("Labyrinth/User-v0", "small", False, 100): "1afe6a3e85e02f6c027d19104a67c46af2edb2783d72cba84c1d182da2201d64",
    ("Labyrinth/Minotaur-v0", "tiny", False, 100): "d78ef696b4f8e23f3e732eb738ad801079c5ec314ad4aa258c9836309130f3ea",
    # Issue 41's words (the hunting ground's edge, the end said in words) changed the text's, and only them: as
    # before, they hash as before (0ae9ae10898b2872d9a9db426d7bbe72bc34ab1d61570af419f18692b52bd9f6 here).
    ("Labyrinth/User-v0", "small", True, 10): "a9daca679eaeed32726a9ab5100d56fe524c59ec199e70df050fa522f6e21ede",
    ("Labyrinth/Minotaur-v0", "tiny", True, 10): "83c62bbdbe9c8c882688ce6d646b2d6ff1d3e39dfa746e40f822491118829424",
    # A wider ground, whose margin the Minotaur's window reads a chunk at a time (level_kinds.py): taken on the
    # code before that change, as every other.
    ("Labyrinth/Minotaur-v0", "standard", False, 12):
        "9517b2692ce4cdc5beb46a7f9e081ef5580752547b8c1ab2a6e5cc9b33939760",
}
PARALLEL_GOLDEN = {
    ("tiny", False, 20): "3b1ba2906790fbea463a3348e8d1cbd2afcc9e4f42b3a2b07dbbc7a8da75d7ca",
    # The same words of issue 41, and only them (as before: the hash was
    # fafbf5a61b23297f66cd3ad109af29ddf779426712f690185ba484186c9f80dc).
    ("tiny", True, 5): "3a898fa4440a38be1e75a624b3738dca3a9210f94294896c9279212533d0694f",
}


def _feed(digest, value) -> None:
    """Every value of a step, in a stable order, with its type: arrays as dtype, shape and bytes."""
    if isinstance(value, np.ndarray):
        digest.update(f"a{value.dtype.str}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        digest.update(b"{")
        for key in sorted(value):
            digest.update(repr(key).encode())
            _feed(digest, value[key])
        digest.update(b"}")
    else:
        digest.update(f"{type(value).__name__}:{value!r};".encode())


def _choose(rng: random.Random, mask: np.ndarray) -> int:
    valid = np.flatnonzero(mask)
    return int(valid[rng.randrange(len(valid))])


def episodes_digest(env_id: str, preset: str, text: bool, episodes: int) -> str:
    """``episodes`` whole episodes, the first seeded with 0 and the next drawn by the env."""
    env = gym.make(env_id, preset=preset, opponent="builtin", text=text)
    rng, digest = random.Random(1), hashlib.sha256()
    obs, info = env.reset(seed=0)
    for episode in range(episodes):
        _feed(digest, obs)
        _feed(digest, info)
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(_choose(rng, info["action_mask"]))
            for value in (obs, reward, terminated, truncated, info):
                _feed(digest, value)
            done = terminated or truncated
        if episode + 1 < episodes:
            obs, info = env.reset()
    env.close()
    return digest.hexdigest()


def parallel_digest(preset: str, text: bool, episodes: int) -> str:
    """The PettingZoo parallel env, both roles masked random, ``episodes`` whole episodes."""
    game = parallel_env(preset=preset, text=text)
    rng, digest = random.Random(2), hashlib.sha256()
    for episode in range(episodes):
        observations, infos = game.reset(seed=episode)
        _feed(digest, observations)
        _feed(digest, infos)
        while game.agents:
            actions = {agent: _choose(rng, infos[agent]["action_mask"]) for agent in game.agents}
            step = game.step(actions)
            for value in step:
                _feed(digest, value)
            infos = step[-1]
    return digest.hexdigest()


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_whole_episodes_are_byte_identical(key):
    assert episodes_digest(*key) == GOLDEN[key]


@pytest.mark.parametrize("key", sorted(PARALLEL_GOLDEN))
def test_whole_parallel_episodes_are_byte_identical(key):
    assert parallel_digest(*key) == PARALLEL_GOLDEN[key]
