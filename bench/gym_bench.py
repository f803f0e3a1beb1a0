"""Environment steps per second through the Farama interfaces, next to MiniGrid
and Crafter measured in the same run: ``gym.make("Labyrinth/User-v0")`` and
``Labyrinth/Minotaur-v0`` with the built-in opponent and a random valid (masked)
policy, with and without the WSAP text, and the PettingZoo parallel env with both
roles random. Prints figures next to their targets and asserts nothing.

    .venv/bin/pip install -q -e '.[bench]' && .venv/bin/python bench/gym_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable

import gymnasium as gym
import numpy as np

# bench/ is on sys.path, as this file runs as a script.
from run import report, row

import labyrinth.agents.gym_env  # noqa: F401  (registers the environments)
from labyrinth.agents.pettingzoo_env import parallel_env

SEED = 7
# CPU seconds of this process: "steps per second on one core", steady on a machine others share too.
clock = time.process_time
PRESET = "standard"
TARGET = 10_000  # env steps/s on one core, the built-in opponent playing (issue 15)
SIZES = {"labyrinth": (20_000, 4_000), "minigrid": (50_000, 10_000), "crafter": (3_000, 600)}  # full, --quick


def masked(rng: random.Random) -> Callable[[np.ndarray], int]:
    """A random policy over the commands the mask allows."""
    def choose(mask: np.ndarray) -> int:
        valid = np.flatnonzero(mask)
        return int(valid[rng.randrange(len(valid))])
    return choose


def gym_rate(env_id: str, steps: int, **kwargs) -> tuple[float, int]:
    """Steps/s of a registered env under the masked random policy, resetting when an episode
    ends (resets are timed too); (steps/s, episodes)."""
    env = gym.make(env_id, **kwargs)
    policy = masked(random.Random(SEED))
    _, info = env.reset(seed=SEED)
    episodes = 1
    start = clock()
    for _ in range(steps):
        _, _, terminated, truncated, info = env.step(policy(info["action_mask"]))
        if terminated or truncated:
            _, info = env.reset()
            episodes += 1
    return steps / (clock() - start), episodes


def parallel_rate(turns: int, **kwargs) -> float:
    """Turns/s of the PettingZoo parallel env, both roles random and masked (a turn: both act)."""
    game = parallel_env(**kwargs)
    policy = masked(random.Random(SEED))
    _, infos = game.reset(seed=SEED)
    start = clock()
    for _ in range(turns):
        if not game.agents:
            _, infos = game.reset()
        _, _, _, _, infos = game.step({agent: policy(infos[agent]["action_mask"]) for agent in game.agents})
    return turns / (clock() - start)


def unmasked_rate(make: Callable[[], object], steps: int, legacy: bool = False) -> float:
    """Steps/s of a reference env under uniform random actions (it has no mask), resetting
    when an episode ends. ``legacy``: Crafter's own four-value step and seedless reset."""
    env = make()
    rng = np.random.default_rng(SEED)
    env.reset() if legacy else env.reset(seed=SEED)
    actions = rng.integers(env.action_space.n, size=steps).tolist()
    start = clock()
    for action in actions:
        out = env.step(action)
        if (out[2] if legacy else out[2] or out[3]):
            env.reset()
    return steps / (clock() - start)


def minigrid_rate(steps: int) -> float | None:
    try:
        import minigrid  # noqa: F401  (importing it registers the MiniGrid environments)
    except ImportError:
        return None
    return unmasked_rate(lambda: gym.make("MiniGrid-DoorKey-8x8-v0"), steps)


def crafter_rate(steps: int) -> float | None:
    try:
        import crafter
    except ImportError:
        return None
    return unmasked_rate(lambda: crafter.Env(seed=SEED), steps, legacy=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads: under a minute")
    quick = parser.parse_args().quick
    size = {name: pair[quick] for name, pair in SIZES.items()}
    warnings.filterwarnings("ignore", category=DeprecationWarning)  # the reference envs' own
    print(f"Gymnasium / PettingZoo benchmarks: {'quick' if quick else 'full'} run, seed {SEED}, preset {PRESET}, "
          "one core, random valid commands, the built-in opponent", flush=True)
    began = time.perf_counter()
    minigrid = minigrid_rate(size["minigrid"])
    rates = {}
    for env_id, text in (("Labyrinth/User-v0", False), ("Labyrinth/User-v0", True),
                         ("Labyrinth/Minotaur-v0", False), ("Labyrinth/Minotaur-v0", True)):
        rate, episodes = gym_rate(env_id, size["labyrinth"], preset=PRESET, opponent="builtin", text=text)
        rates[env_id, text] = rate
        report(f"{env_id.split('/')[1]}{'' if text else ', text=False'}: steps/s", rate, "/s",
               target=(">=", TARGET), note=f"{size['labyrinth']:,} steps, {episodes} episodes")
    report("PettingZoo parallel, text=False: turns/s", parallel_rate(size["labyrinth"], preset=PRESET, text=False),
           "/s", note="both roles random")
    report("PettingZoo parallel: turns/s", parallel_rate(size["labyrinth"], preset=PRESET), "/s")
    if minigrid is None:
        row("MiniGrid DoorKey-8x8: steps/s", "skipped", note="minigrid is not installed: pip install -e '.[bench]'")
    else:
        report("MiniGrid DoorKey-8x8: steps/s", minigrid, "/s", note=f"{size['minigrid']:,} random actions")
        best = max(rates[("Labyrinth/User-v0", False)], rates[("Labyrinth/Minotaur-v0", False)])
        report("Labyrinth (text=False) / MiniGrid", best / minigrid, "x", ".2f", target=(">=", 1.0))
    crafter = crafter_rate(size["crafter"])
    if crafter is None:
        row("Crafter: steps/s", "skipped", note="crafter is not installed: pip install -e '.[bench]'")
    else:
        report("Crafter: steps/s", crafter, "/s", note=f"{size['crafter']:,} random actions")
    print(f"total {time.perf_counter() - began:.1f} s (figures per CPU second of this process)")


if __name__ == "__main__":
    main()
