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
# Issue 42 gave the planes (map, memory) flat in float32, so that no trainer takes them for an image: every hash
# changed with that and only by it (with the planes turned back to uint8 of PLANE_SHAPES' shapes the games hash
# as before: 1afe6a3e85e02f6c, d78ef696b4f8e23f, 0ae9ae10898b2872, 83c62bbdbe9c8c88, 9517b2692ce4cdc5; the
# parallel env's 3b1ba2906790fbea and fafbf5a61b23297f).
GOLDEN = {
    ("Labyrinth/User-v0", "small", False, 100): "05adfc7059c5475cef87dbdcea10a423345ea59a198f006b97fbf1889ba0a6f1",
    ("Labyrinth/Minotaur-v0", "tiny", False, 100): "3803846f0cb10588b932c51c0bfb273a18c5e0632baa4e5160ee0b1c11d3d651",
    # Issue 41's words (the hunting ground's edge, the end said in words) changed the text's too, and only them.
    ("Labyrinth/User-v0", "small", True, 10): "405985ed15d1fc4dc604e88529128ae595189d2de54608edce7a96a0714ca84b",
    ("Labyrinth/Minotaur-v0", "tiny", True, 10): "65064e7e25c4f2badab1426a74496fd98e75bc4b13d64c078670db955d43cbf4",
    # A wider ground, whose margin the Minotaur's window reads a chunk at a time (level_kinds.py): taken on the
    # code before that change, as every other.
    ("Labyrinth/Minotaur-v0", "standard", False, 12):
        "e4b0408cb4bb7341170f31dabb1ac05c03c1c7cd0e53e4ea5a76bfb7ef959925",
}
PARALLEL_GOLDEN = {
    ("tiny", False, 20): "ca262b74d179483c4ded87c59bf311082ac4e84c83573ef025b87565038e691d",
    # With issue 41's words as well (the user's text).
    ("tiny", True, 5): "d1f1d473cacc93c2779f62fdd394bce0e65d3637368cfbe96a786ae57cc9eabc",
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
