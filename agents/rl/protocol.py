"""The ladder's evaluation protocol: named seed splits, the metrics of a set of games with their
intervals, ``evaluate(policy, task, split, episodes)``, the policies every baseline table starts
from, and each task's episode digest.

**Splits.** A split is a set of reset seeds: the games an env plays when reset with them
(``env.reset(seed=s)`` draws the game's seed from a generator seeded with ``s``). ``eval`` is
1,000,000 to 1,999,999, ``test`` 2,000,000 to 2,999,999, ``train`` 3,000,000 on; seeds below
1,000,000 belong to none (examples, checkers). ``split_seeds(split, count, start)`` gives them in
order. Training draws its games from ``train`` only (``SplitGames``, ``training_env``: run ``r``
from index ``r * RUN_GAMES``, so that two runs do not play the same games), and a policy is
chosen on ``eval`` and reported on ``test``.

**Metrics.** Each game's outcome, return (the game's own rewards), turns, stones the user holds
at the end, achievements and progression (``Episode``); over a set of games (``Report``), the
rate of each outcome and of each achievement with its Wilson 95 % interval, and the mean stones,
turns and return with Student's t 95 % interval (agents/compete/intervals.py: the project's one
home of intervals). ``win`` is the role's aim: ESCAPED for the user, DEATH (caught) for the
Minotaur.

**Policies.** A policy is a callable ``(observation, mask) -> action``; one with a ``begin(env)``
method is told of each new game first (a recurrent policy resets its state there).
``RandomPolicy`` draws uniformly among the commands the mask allows, seeded by the game;
``BUILTIN`` is the built-in agent of the task's role seated in the learner's place, playing the
engine's commands itself (not through the env's list of commands): the scripted yardstick.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from itertools import islice
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding

from labyrinth.engine.items import stones_held
from labyrinth.engine.schemas import OUTCOMES, WIN, Outcome
from labyrinth.engine.wsap.rewards import CATCH, ESCAPE, PER_SECOND, STONE
from labyrinth.engine.wsap.roles import ROLES

from ..compete.intervals import mean_interval, wilson_interval
from .game import draw_game_seed, ending, new_match
from .gym_env import LabyrinthEnv, task_env
from .opponents import make_opponent
from .tasks import BOTH, task

SPLITS: dict[str, tuple[int, int | None]] = {  # a split's first reset seed and how many it holds (None: no end)
    "eval": (1_000_000, 1_000_000),
    "test": (2_000_000, 1_000_000),
    "train": (3_000_000, None),
}
EPISODES = 200  # the games of a split a baseline is evaluated on (evaluate's default, baseline.py's)
RUN_GAMES = 10_000_000  # the train split's games each training run may draw, run r from r * RUN_GAMES
DIGEST_SEEDS = (0, 1, 2)  # the reset seeds whose games a task's digest covers
# The turns of a random episode a digest covers at most: the pinned seeds' episodes of every task to their end but
# User-Full's (User-Large's, of 1,200 turns at most, end within 58 to 819), whose three last all 10,000 (26 CPU s).
DIGEST_TURNS = 1_000
PAID = {"stone": STONE, "escape": ESCAPE, "catch": CATCH, "per_second": PER_SECOND}  # in each digest

Policy = Callable[[dict[str, Any], np.ndarray], int]


def split_seeds(split: str, count: int, start: int = 0) -> list[int]:
    """The reset seeds ``start`` to ``start + count - 1`` of ``split``, in order."""
    if split not in SPLITS:
        raise ValueError(f"no split {split!r}: the splits are {', '.join(SPLITS)}")
    first, size = SPLITS[split]
    if start < 0 or count < 0 or (size is not None and start + count > size):
        span = "0 on" if size is None else f"0 to {size - 1}"
        raise ValueError(f"the {split} split's seeds are numbered {span}, not {start} to {start + count - 1}")
    return list(range(first + start, first + start + count))


def split_of(seed: int) -> str | None:
    """The split a reset seed belongs to (None below the first split)."""
    return next((name for name, (first, size) in SPLITS.items()
                 if first <= seed and (size is None or seed < first + size)), None)


def game_seed_of(reset_seed: int) -> int:
    """The seed of the game an env plays when reset with ``reset_seed`` (as gymnasium seeds its generator)."""
    return draw_game_seed(seeding.np_random(reset_seed)[0])


class SplitGames(gym.Wrapper):
    """An env that plays the games of one split in order, the ``first`` seed's index, then every
    ``stride``-th (env ``i`` of ``n`` side by side: ``first + i``, ``stride`` n). The split chooses
    the games: a seed given to ``reset`` (a trainer's, as Stable-Baselines3 seeds its envs) is not used."""

    def __init__(self, env: gym.Env, split: str, first: int = 0, stride: int = 1) -> None:
        super().__init__(env)
        self.split, self.next, self.stride = split, first, stride
        split_seeds(split, 1, first)  # a clear error now for a split or index that does not exist

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        (chosen,) = split_seeds(self.split, 1, self.next)
        self.next += self.stride
        return self.env.reset(seed=chosen, options=options)


def training_env(task_id: str, run: int, index: int = 0, envs: int = 1) -> SplitGames:
    """Env ``index`` of ``envs`` of training run ``run`` on ``task_id``: the train split's games from
    ``run * RUN_GAMES + index``, every ``envs``-th."""
    return SplitGames(gym.make(task_id), "train", run * RUN_GAMES + index, envs)


@dataclass(frozen=True)
class Episode:
    """One game played to its end, as the metrics count it."""

    seed: int  # the reset seed (the split's)
    game_seed: int
    outcome: Outcome
    reward: float  # the return: the game's own rewards summed
    turns: int
    stones: int  # stones the user holds at the end
    achievements: dict[str, int]
    progression: float


@dataclass(frozen=True)
class Rate:
    """A share of games with its Wilson 95 % interval."""

    value: float
    low: float
    high: float
    count: int
    games: int


def rate(count: int, games: int) -> Rate:
    low, high = wilson_interval(count, games)
    return Rate(count / games if games else 0.0, low, high, count, games)


@dataclass(frozen=True)
class Mean:
    """A mean over games with Student's t 95 % interval (None when it cannot be had: one game, no spread)."""

    value: float
    low: float | None
    high: float | None


@dataclass
class Report:
    """A policy's games on a task's split, and their metrics."""

    task: str
    split: str
    policy: str
    episodes: list[Episode] = field(default_factory=list)

    @property
    def role(self) -> str:
        return task(self.task).role

    def rate(self, outcome: str) -> Rate:
        return rate(sum(e.outcome == outcome for e in self.episodes), len(self.episodes))

    def mean(self, of: Callable[[Episode], float]) -> Mean:
        return Mean(*mean_interval([float(of(e)) for e in self.episodes]))

    def summary(self) -> dict[str, Any]:
        """The metrics as plain data: win, each outcome's and achievement's rate, mean stones, turns, return."""
        achievements = ROLES[self.role].achievements
        return {"task": self.task, "split": self.split, "policy": self.policy, "episodes": len(self.episodes),
                "win": asdict(self.rate(WIN[self.role])),
                **{outcome.lower(): asdict(self.rate(outcome)) for outcome in OUTCOMES},
                "stones": asdict(self.mean(lambda e: e.stones)), "turns": asdict(self.mean(lambda e: e.turns)),
                "return": asdict(self.mean(lambda e: e.reward)),
                "progression": statistics.fmean(e.progression for e in self.episodes),
                "achievements": {name: asdict(rate(sum(e.achievements[name] for e in self.episodes),
                                                   len(self.episodes))) for name in achievements}}

    def to_dict(self) -> dict[str, Any]:
        return {**self.summary(), "games": [asdict(e) for e in self.episodes]}


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A command ``mask`` allows, drawn uniformly: random masked play's one draw, so that its games (the task
    digests, the random yardstick of every baseline, the benches' workloads) are drawn alike everywhere."""
    return int(rng.choice(np.flatnonzero(mask)))


class RandomPolicy:
    """Uniform among the commands the mask allows; its draws seeded by ``seed`` and each game's seed,
    so a game is played alike whatever the order of an evaluation."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def begin(self, env: gym.Env) -> None:
        game = env.unwrapped
        assert isinstance(game, LabyrinthEnv), "a policy plays a Labyrinth env"
        self.rng = np.random.default_rng([self.seed, game.match.seed])

    def __call__(self, obs: dict[str, Any], mask: np.ndarray) -> int:
        return masked_choice(self.rng, mask)


@dataclass(frozen=True)
class Seated:
    """A rule agent of the registry seated in the learner's place (``evaluate`` plays it in the
    engine's own commands): the built-in agent's yardstick."""

    agent: str

    @property
    def name(self) -> str:
        return self.agent


BUILTIN = Seated("builtin")


def evaluate(policy: Policy | Seated, task_id: str, split: str, episodes: int = EPISODES, *, start: int = 0,
             wrap: Callable[[gym.Env], gym.Env] | None = None, name: str | None = None) -> Report:
    """``policy`` on ``episodes`` games of ``task_id``'s ``split`` (by default the baselines' EPISODES; its seeds
    from index ``start``), each played to its end; ``wrap`` is worn by the env when the policy reads wrapped
    observations."""
    rung = task(task_id)
    if rung.role == BOTH:
        raise ValueError(f"{task_id} has both roles learn: evaluate a policy on a task of one role")
    label = str(name or getattr(policy, "name", type(policy).__name__))
    report = Report(task_id, split, label)
    seeds = split_seeds(split, episodes, start)
    if isinstance(policy, Seated):
        report.episodes += [_seated(policy.agent, task_id, seed) for seed in seeds]
        return report
    game = task_env(task_id)
    env = game if wrap is None else wrap(game)
    report.episodes += [play_episode(env, policy, seed) for seed in seeds]
    return report


def play_episode(env: gym.Env, policy: Policy, seed: int) -> Episode:
    """The game ``env`` plays when reset with ``seed``, played to its end by ``policy`` (told of it first
    when it has a ``begin``): evaluate's games, and the privileged bench's (bench/rl/rl_eval.py) on envs
    no task fixes."""
    game = env.unwrapped
    assert isinstance(game, LabyrinthEnv), "a policy plays a Labyrinth env"
    obs, info = env.reset(seed=seed)
    begin = getattr(policy, "begin", None)
    if begin is not None:
        begin(env)
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
        total += float(reward)
        done = terminated or truncated
    return Episode(seed, game.match.seed, info["outcome"], total, info["turn"], info["stones"], info["achievements"],
                   info["progression"])


def _seated(agent: str, task_id: str, seed: int, role: str | None = None) -> Episode:
    """A game of the task played by the registry's ``agent`` in the learner's role, on the game the env
    plays when reset with ``seed`` (the same opponent, seeded alike). On the two-role task ``agent`` takes
    both seats and ``role`` says whose return and achievements the episode counts."""
    rung = task(task_id)
    return play_seated(agent, role or rung.role, rung.opponent or agent, game_seed_of(seed), preset=rung.preset,
                       difficulty=rung.difficulty, max_turns=rung.max_turns, frozen=rung.frozen, seed=seed)


def play_seated(agent: str, role: str, opponent: str, game: int, *, preset: str, difficulty: str, max_turns: int,
                frozen: bool = False, seed: int | None = None) -> Episode:
    """Game ``game`` played to its end by the registry's ``agent`` in ``role``'s seat against ``opponent``, both
    seeded by the game as the env seats its opponent: the built-in yardstick of the ladder's tasks (``_seated``)
    and of the privileged bench's envs that no task fixes (bench/rl/rl_eval.py). ``seed``: the reset seed the
    episode is filed under (the game's own when none)."""
    other = ROLES[role].other
    seats = {role: make_opponent(role, agent, game, preset), other: make_opponent(other, opponent, game, preset)}
    match = new_match(seats, seed=game, preset=preset, difficulty=difficulty, max_turns=max_turns, frozen=frozen)
    total, unlocked = 0.0, set()
    try:
        while match.outcome is None:
            result = match.play_turn().result
            assert result is not None, "play_turn returns a finished turn"
            total += ROLES[role].reward(result)
            unlocked |= ROLES[role].unlocked(result)
    finally:
        match.close()
    end = ending(match, role, unlocked)
    return Episode(game if seed is None else seed, game, end["outcome"], total, match.turns,
                   stones_held(match.game.state.inventory), end["achievements"], end["progression"])


def _steps(task_id: str, seed: int) -> Iterator[Any]:
    """What each step of a seeded random masked episode gives, in order, to the episode's end (every task
    ends within its turn limit, whatever is played): for the digest."""
    rng = np.random.default_rng(seed)
    if task(task_id).role == BOTH:
        from .pettingzoo_env import task_parallel_env  # pettingzoo only when a two-role task is digested

        game = task_parallel_env(task_id)
        observations, infos = game.reset(seed=seed)
        yield observations, infos
        while game.agents:
            actions = {agent: masked_choice(rng, infos[agent]["action_mask"]) for agent in game.agents}
            observations, rewards, terminations, truncations, infos = game.step(actions)
            yield observations, rewards, terminations, truncations, infos
        return
    env = task_env(task_id)
    obs, info = env.reset(seed=seed)
    yield obs, info
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(masked_choice(rng, info["action_mask"]))
        yield obs, reward, terminated, truncated, info
        done = terminated or truncated


def _plain(value: Any) -> Any:
    """A step's parts as JSON: arrays as their dtype, shape and bytes' hash, mappings by sorted key."""
    if isinstance(value, np.ndarray):
        return [str(value.dtype), list(value.shape), hashlib.sha256(value.tobytes()).hexdigest()]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, float | np.floating):
        return repr(float(value))
    if isinstance(value, np.integer | np.bool_):
        return value.item()
    return value


def episode_digest(task_id: str, seeds: tuple[int, ...] = DIGEST_SEEDS) -> str:
    """The digest of ``task_id``'s games on ``seeds``, hashed: for each seed, a random masked episode (every
    observation, reward, flag and info, to its end or its DIGEST_TURNS-th turn) and the built-in agent's game in
    the learner's seat to its end (both seats on the two-role task; its whole Episode: seeds, outcome, return,
    turns, stones, achievements and progression), after the settings the id fixes and what each reward pays.
    Random play covers the observations and the refusals but seldom finds a stone or ends a game early; the
    built-in agents find stones, escape and catch. A change that alters a task's games or its reward changes it."""
    rung = task(task_id)
    digest = hashlib.sha256(json.dumps({"settings": rung.settings(), "rewards": PAID}, sort_keys=True).encode())
    for seed in seeds:
        for step in islice(_steps(task_id, seed), DIGEST_TURNS + 1):  # the reset's, then a step's each turn
            digest.update(json.dumps(_plain(step), sort_keys=True).encode())
        for role in ROLES if rung.role == BOTH else (rung.role,):
            digest.update(json.dumps(_plain(asdict(_seated("builtin", task_id, seed, role))), sort_keys=True).encode())
    return digest.hexdigest()[:16]
