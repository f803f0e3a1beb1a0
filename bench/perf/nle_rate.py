"""NetHack's NLE step rate, measured in the benchmark's own run so that the
Game State Manager's speed is read against a known environment on the same
machine. Optional: ``pip install -e '.[bench]'`` brings nle in."""

from __future__ import annotations

import random
import time


def nle_steps_per_second(steps: int, seed: int) -> float | None:
    """Steps per CPU second of this process (NetHack's C runs in it) of ``NetHackScore-v0`` under
    random actions, resetting when an episode ends; None when nle is not installed."""
    try:
        import gymnasium as gym
        import nle  # noqa: F401  (importing it registers the NetHack environments)
    except ImportError:
        return None
    env = gym.make("NetHackScore-v0")
    try:
        env.unwrapped.seed(seed, seed, reseed=False)
        env.reset(seed=seed)
        rng = random.Random(seed)
        actions = [rng.randrange(env.action_space.n) for _ in range(steps)]
        start = time.process_time()
        for action in actions:
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                env.reset()
        return steps / (time.process_time() - start)
    finally:
        env.close()
