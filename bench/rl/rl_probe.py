"""Is the user env learnable as it stands? Three players of Labyrinth/User-v0 on the same seeds,
against the waiting and the built-in Minotaur: random masked play, a hand policy that reads only
the observation dict and the mask (LOOK, follow the nearest stone's bearing, shun its own
trail, grab), and the built-in user's decisions mapped onto the env's commands (rl/demos.py);
then the built-in user itself, through the turn loop, on the very same games. If the hand policy
finds stones, the observation holds what finding them needs; if the mapped built-in user escapes
as often as the built-in user itself (the paired difference over the games, with its 95%
interval), the action list loses little. Escape rates carry their 95% Wilson intervals.

    .venv/bin/python bench/rl/rl_probe.py --games 40
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from rl_eval import held_out, paired, play_builtin, rate  # bench/rl/ is on sys.path, as this file runs as a script

from labyrinth.agents.rl.commands import action_word
from labyrinth.agents.rl.demos import Demonstrator
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.protocol import masked_choice, play_episode
from labyrinth.agents.rl.spaces import unflat_planes
from labyrinth.agents.rl.user_view import WINDOW_PLANES
from labyrinth.engine.items import STONES

WAYS = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}
LOOK_AFTER_STEPS = 12  # the hand policy listens again after this many steps
TRAIL = WINDOW_PLANES.index("trail")  # the user window's plane of the cells walked


def random_player(env: LabyrinthEnv, rng: np.random.Generator) -> Any:
    return lambda obs, mask: masked_choice(rng, mask)


def hand_player(env: LabyrinthEnv, rng: np.random.Generator) -> Any:
    """Grab a stone in reach; LOOK when no hum is fresh; else walk far the way out that best follows
    the bearing of the first stone heard (or seen), up or down a ramp when it hums on another level."""
    number = {name: i for i, name in enumerate(env.action_names)}
    since_look = [LOOK_AFTER_STEPS]

    def play(obs: dict, mask: np.ndarray) -> int:
        for stone in STONES:
            grab = number[f"grab_{action_word(stone)}"]
            if mask[grab]:
                return grab
        hums, items = obs["hums"].reshape(len(STONES), 6), obs["items_seen"].reshape(-1, 4)
        seen = [k for k in range(len(STONES)) if items[k, 0] and not obs["inventory"][k]]
        heard = [k for k in range(len(STONES)) if hums[k, 0]]
        if seen:
            target = items[seen[0], 1:4]
        elif not heard or since_look[0] >= LOOK_AFTER_STEPS:
            since_look[0] = 0
            return number["look"]
        else:
            target = hums[heard[0], 1:4]
        since_look[0] += 1
        for level, ramp in ((target[2] > 0.01, "move_up_ramp"), (target[2] < -0.01, "move_down_ramp")):
            if level and mask[number[ramp]]:
                return number[ramp]
        window = unflat_planes(obs["map"], "user", "map")
        trail, centre = window[TRAIL], window.shape[1] // 2
        scores = {number[f"move_{way}_walk_far"]: dx * target[0] + dy * target[1]
                  - 0.7 * trail[centre - dy, centre + dx] + 0.3 * rng.random()
                  for way, (dx, dy) in WAYS.items() if mask[number[f"move_{way}_walk_far"]]}
        return max(scores, key=scores.get) if scores else masked_choice(rng, mask)
    return play


def builtin_player(env: LabyrinthEnv, rng: np.random.Generator) -> Any:
    demonstrator = Demonstrator(env)
    return lambda obs, mask: demonstrator.action()


class Fresh:
    """A player made afresh for each game, its draws seeded by the game's reset seed (given in the order the
    games are played): protocol.play_episode's policy."""

    def __init__(self, player: Callable[[LabyrinthEnv, np.random.Generator], Any], seeds: list[int]) -> None:
        self.player, self.seeds, self.play = player, iter(seeds), None

    def begin(self, env: LabyrinthEnv) -> None:
        self.play = self.player(env, np.random.default_rng(next(self.seeds)))

    def __call__(self, obs: dict, mask: np.ndarray) -> int:
        return self.play(obs, mask)


PLAYERS = {"random masked": random_player, "hand (observation only)": hand_player,
           "built-in, mapped": builtin_player}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--max-turns", type=int, default=400)
    args = parser.parse_args()
    for opponent in ("wait", "builtin"):
        played: dict[str, list[dict]] = {}
        for label, player in PLAYERS.items():
            env = LabyrinthEnv("user", preset="tiny", opponent=opponent, max_turns=args.max_turns)
            seeds = held_out(args.games)
            fresh = Fresh(player, seeds)
            episodes = [play_episode(env, fresh, seed) for seed in seeds]
            played[label] = [{"seed": e.game_seed, "outcome": e.outcome} for e in episodes]
            show(opponent, label, played[label], f"progression {statistics.fmean(e.progression for e in episodes):.2f}")
        itself = play_builtin("tiny", args.max_turns, [g["seed"] for g in played["built-in, mapped"]], opponent)
        difference = paired(played["built-in, mapped"], itself)
        show(opponent, "built-in, itself", itself, f"mapped minus itself {difference['mean']:+.3f} "
                                                   f"({difference['low']:+.3f}..{difference['high']:+.3f}), paired")


def show(opponent: str, label: str, games: list[dict], note: str) -> None:
    """A player's row: its outcomes, its escape rate with the interval, and ``note``."""
    outcomes, escaped = Counter(g["outcome"] for g in games), rate(games)
    print(f"against {opponent:>7}, {label:>24}: escaped {outcomes['ESCAPED']:>3} ({escaped['low']:.3f}.."
          f"{escaped['high']:.3f}), caught {outcomes['DEATH']:>3}, timed out {outcomes['TIMEOUT']:>3} of {len(games)}; "
          f"{note}", flush=True)


if __name__ == "__main__":
    main()
