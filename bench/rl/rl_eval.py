"""The held-out evaluation bench/rl/train_ppo.py prints its learning curve with, without torch (so that
the suite tests it where the [train] extra is absent): the curriculum's stages, a policy's games
on the held-out seeds, the built-in user's on the very same games, escape rates with their
Wilson intervals and the paired difference of two players over the same seeds."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import gymnasium as gym
import numpy as np

from labyrinth.agents.compete.intervals import paired_proportions, wilson_interval
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.protocol import play_episode, play_seated, split_seeds

EVAL_DIFFICULTY = "normal"  # the held-out games' difficulty, the policy's and the built-in user's alike


@dataclass(frozen=True)
class Stage:
    preset: str
    opponent: str
    start: int  # the training step it begins at


def stages(text: str) -> list[Stage]:
    """``"tiny:wait:0,tiny:builtin:100000"`` as stages, in order of their first step."""
    try:
        parsed = sorted((Stage(preset, opponent, int(start)) for preset, opponent, start in
                         (item.split(":") for item in text.split(","))), key=lambda s: s.start)
    except ValueError:  # a part missing or too many, or a step that is no number
        raise SystemExit(f"--stages: {text!r} is not preset:opponent:from_step items, comma-separated") from None
    if parsed[0].start != 0:
        raise SystemExit("--stages: the first stage starts at step 0")
    return parsed


def eval_env(preset: str, max_turns: int) -> LabyrinthEnv:
    return LabyrinthEnv("user", preset=preset, difficulty=EVAL_DIFFICULTY, opponent="builtin", max_turns=max_turns)


def held_out(games: int) -> list[int]:
    """The reset seeds of the first ``games`` held-out games: the eval split's, which training never draws."""
    return split_seeds("eval", games)


def play_policy(choose: Callable[[dict, np.ndarray], int], preset: str, max_turns: int, seeds: Iterable[int],
                wrap: Callable[[gym.Env], gym.Env] | None = None) -> list[dict]:
    """Each held-out game played to its end by ``choose(obs, mask)`` (protocol.play_episode, as the ladder's
    evaluation plays them): outcome, return, turns, game seed. ``wrap`` is worn by the env when the policy
    was trained on wrapped observations (train_ppo's ``--memory``): it must see them as it learnt them."""
    env = eval_env(preset, max_turns) if wrap is None else wrap(eval_env(preset, max_turns))
    return [{"seed": played.game_seed, "outcome": played.outcome, "return": played.reward, "turns": played.turns}
            for played in (play_episode(env, choose, seed) for seed in seeds)]


def play_builtin(preset: str, max_turns: int, game_seeds: list[int], opponent: str = "builtin") -> list[dict]:
    """The built-in scripted user against the ``opponent`` Minotaur on the very same games (protocol.play_seated,
    as the ladder's built-in yardstick plays them)."""
    played = (play_seated("builtin", "user", opponent, game, preset=preset, difficulty=EVAL_DIFFICULTY,
                          max_turns=max_turns) for game in game_seeds)
    return [{"seed": game.game_seed, "outcome": game.outcome, "turns": game.turns} for game in played]


def escapes(games: list[dict]) -> list[float]:
    return [float(g["outcome"] == "ESCAPED") for g in games]


def rate(games: list[dict]) -> dict:
    won = escapes(games)
    low, high = wilson_interval(int(sum(won)), len(won))
    return {"escape": sum(won) / len(won), "low": low, "high": high,
            "caught": sum(g["outcome"] == "DEATH" for g in games) / len(games)}


def paired(first: list[dict], second: list[dict]) -> dict:
    """The difference of two players' escape rates over the same seeds (first minus second) with
    Newcombe's 95 % interval for paired proportions (intervals.paired_proportions): escapes are rare
    here, where a paired t interval says too much."""
    mean, low, high = paired_proportions([(a["outcome"] == "ESCAPED", b["outcome"] == "ESCAPED")
                                          for a, b in zip(first, second, strict=True)])
    return {"mean": mean, "low": low, "high": high}
