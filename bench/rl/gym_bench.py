"""Environment steps per second through the Farama interfaces, each Labyrinth row measured beside
MiniGrid in the same run.

What is measured: ``gym.make("Labyrinth/User-v0")`` and ``Labyrinth/Minotaur-v0`` on the
``standard`` preset, difficulty ``normal``, the built-in opponent playing the other role, a
random valid policy (uniform over the commands ``info["action_mask"]`` allows), with and
without the WSAP text in the observation; the PettingZoo parallel env with both roles so
played; the tiny tasks of VECTOR_TASKS as the vector env of 1,024 games (``gym.make_vec``, their vector entry
point) and as one env; MiniGrid DoorKey-8x8 and Crafter
under uniform random actions (they have no mask).
Every env resets when an episode ends, and resets are timed with the steps.

Each figure is steps per CPU second of this process (one core, steadier than the wall clock on a
shared machine) and, in the note, per wall second. A Labyrinth row and MiniGrid are timed in turns,
``REPEATS`` times each (interleaved, so that both see the same load), and each is the median of its
repetitions, printed with their spread (lowest..highest); the ratio is the median of the
repetitions' ratios, with theirs. The targets: User-v0 (text=False) at least 0.6x MiniGrid
DoorKey-8x8, Minotaur-v0 0.35x (issue 43), the PettingZoo parallel env 0.4x (issue 29); the vector env
of 1,024 tiny games (the tasks' vector entry point) 10x for the user's task and 5x for the Minotaur's (the
random user's: the kernel does not play the built-in user), each beside its task as one env (issue 43). Each row
prints the digest of the games it played (their seeds, every turn's inputs and final states): the
same in every repetition, and the same as before a change that is only meant to be faster. Prints
PASS/MISS and asserts nothing. Under each text=False row, the engine alone replays each repetition's
turns (``Game.new`` and ``Game.step`` with the inputs both roles sent), timed in the same turn as
that repetition and its MiniGrid run: the ceiling of any wrapper on this workload, as a ratio to
MiniGrid beside the row's target (a target above its ceiling cannot be met by the env, only by a
faster engine); under the one-role rows, the Match alone replays them too, the learner's inputs
pushed and the built-in opponent deciding each turn (as it did in the env: checked), with no
observation, mask or view of the learner: the ceiling of any env with that opponent, which only a
faster engine or opponent raises. Against a Minotaur that only waits, the env and the engine alone give
the env's own cost a step.

    .venv/bin/pip install -q -e '.[bench]' && .venv/bin/python bench/rl/gym_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Self

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, row, spread

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments)
from labyrinth.agents.match.runner import Outside
from labyrinth.agents.rl.commands import STAND_IN
from labyrinth.agents.rl.game import new_match
from labyrinth.agents.rl.opponents import make_opponent
from labyrinth.agents.rl.pettingzoo_env import parallel_env
from labyrinth.engine import Game
from labyrinth.engine.wsap.roles import ROLES

SEED = 7
PRESET = "standard"
DIFFICULTY = "normal"
TARGET = 10_000  # env steps per CPU second, the built-in opponent playing (issue 15)
# Against MiniGrid DoorKey-8x8 in the same run, by row (issue 29's; issue 43 set the Minotaur's at 0.35x).
RATIO_TARGETS = {"User-v0, text=False": 0.6, "Minotaur-v0, text=False": 0.35, "PettingZoo parallel, text=False": 0.4,
                 # the vector env's (issue 43): 1,024 games on one core; the Minotaur's on the task whose
                 # opponent the kernel plays (the built-in user of Minotaur-Tiny-v1 stays in Python)
                 "User-Tiny-v1, vector x1024": 10.0, "Minotaur-Tiny-Random-v1, vector x1024": 5.0}
# The vector env's rows: the two targets' tasks, a task whose games last (no hunter: the kernel's steady step,
# resets rare) and the Minotaur's task against the built-in user (every row on the engine).
VECTOR_TASKS = ("Labyrinth/User-Tiny-v1", "Labyrinth/Stones-Tiny-v1", "Labyrinth/Minotaur-Tiny-Random-v1",
                "Labyrinth/Minotaur-Tiny-v1")
VECTOR_ENVS = 1024
# Steps a repetition (full, --quick), and the repetitions of each row and of MiniGrid beside it. The vector env's
# are steps of all its envs, enough for games of a few dozen turns to end and start again (their starts, the
# costly part, would be missed by a run shorter than a game).
SIZES = {"labyrinth": (10_000, 2_000), "minigrid": (25_000, 5_000), "crafter": (3_000, 600), "vector": (60, 20)}
REPEATS = (5, 3)


@dataclass(frozen=True)
class Rate:
    """Steps timed, on the CPU clock of this process and on the wall clock."""

    steps: int
    cpu_s: float
    wall_s: float
    episodes: int = 0

    @property
    def per_cpu_s(self) -> float:
        return self.steps / self.cpu_s

    @property
    def per_wall_s(self) -> float:
        return self.steps / self.wall_s


class Timer:
    """Both clocks at once, around the timed loop only (making the env is not timed)."""

    def __enter__(self) -> Self:
        self.cpu, self.wall = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.cpu_s, self.wall_s = time.process_time() - self.cpu, time.perf_counter() - self.wall


def masked(rng: random.Random) -> Callable[[np.ndarray], int]:
    """A random policy over the commands the mask allows."""
    def choose(mask: np.ndarray) -> int:
        valid = np.flatnonzero(mask)
        return int(valid[rng.randrange(len(valid))])
    return choose


Games = list[tuple[int, list, str]]  # each episode's game seed, the engine inputs of its turns, its last state's digest


def games_digest(games: Games) -> str:
    """The games played, as one short hash: what a speed-up must leave as it was."""
    digest = hashlib.sha256()
    for seed, played, last in games:
        digest.update(json.dumps([seed, [[u.model_dump(exclude_none=True), m.model_dump(exclude_none=True)]
                                         for u, m in played], last]).encode())
    return digest.hexdigest()[:16]


def gym_rate(env_id: str, steps: int, **kwargs) -> tuple[Rate, Games]:
    """A registered env under the masked random policy, resetting when an episode ends; and
    the games it played, for ``engine_rate``."""
    env = gym.make(env_id, **kwargs)
    policy = masked(random.Random(SEED))
    _, info = env.reset(seed=SEED)
    episodes, games = 1, []
    with Timer() as timer:
        for _ in range(steps):
            _, _, terminated, truncated, info = env.step(policy(info["action_mask"]))
            if terminated or truncated:
                games.append(env.unwrapped.match)
                _, info = env.reset()
                episodes += 1
    games.append(env.unwrapped.match)
    return Rate(steps, timer.cpu_s, timer.wall_s, episodes), [(m.seed, m.played, m.game.state.digest()) for m in games]


def vector_rate(task_id: str, num_envs: int, vector_steps: int) -> tuple[Rate, Games]:
    """The task's vector env (its ``vector_entry_point``: vector_env.py) of ``num_envs`` games, each env a
    random masked command a step, Gymnasium's autoreset starting the next game; the steps counted are env
    steps (``vector_steps`` times ``num_envs``, autoreset steps included). Its making, first reset (every
    env's region laid) and first step (numba loading the kernel's machine code from its disk cache) are not timed;
    the new games' starts are. And the games it played."""
    envs = gym.make_vec(task_id, num_envs=num_envs, vectorization_mode="vector_entry_point")
    rng = np.random.default_rng(SEED)
    envs.reset(seed=SEED)
    envs.step((rng.random(envs.action_masks().shape) * envs.action_masks()).argmax(axis=1))
    games, episodes = [], num_envs
    with Timer() as timer:
        for _ in range(vector_steps):
            # uniform over each env's allowed commands, drawn for all envs at once (a trainer's policy is batched too)
            masks = envs.action_masks()
            chosen = (rng.random(masks.shape) * masks).argmax(axis=1)
            _, _, terminated, truncated, _ = envs.step(chosen)
            for i in np.flatnonzero(terminated | truncated).tolist():
                games.append(envs.record(i))  # the game that ended: the next step starts another
                episodes += 1
    games += [envs.record(i) for i in range(num_envs)]
    envs.close()
    return Rate(vector_steps * num_envs, timer.cpu_s, timer.wall_s, episodes), games


def engine_rate(games: Games, preset: str, difficulty: str) -> Rate:
    """The engine alone playing the same turns (a new Game per episode, ``Game.step`` with the inputs
    both roles sent): the most any wrapper around it could reach on this workload."""
    turns = sum(len(played) for _, played, _ in games)
    with Timer() as timer:
        for seed, played, _ in games:
            game = Game.new(seed, preset, difficulty)
            for user, minotaur in played:
                game.step(user, minotaur)
    return Rate(turns, timer.cpu_s, timer.wall_s, len(games))


def match_rate(games: Games, role: str, opponent: str, preset: str, difficulty: str) -> Rate:
    """The one turn loop alone playing the same games: a Match each (as the env seats it, ``opponent`` made by
    its registry name from the game's seed and deciding every turn), ``role``'s recorded inputs pushed into an
    Outside seat that keeps no perception; no observation, mask or view of the learner. The most any env around
    this Match and this opponent could reach. ValueError when the opponent does not decide as it did in the env
    or a game ends in another state (then the figure would be of other games)."""
    other = ROLES[role].other
    matches, turns = [], sum(len(played) for _, played, _ in games)
    with Timer() as timer:
        for seed, played, _ in games:
            seats = {role: Outside("gym", observe=False, stand_in=STAND_IN),
                     other: make_opponent(other, opponent, seed, preset=preset)}
            match = new_match(seats, seed=seed, preset=preset, difficulty=difficulty, max_turns=max(len(played), 1))
            for inputs in played:
                match.play_turn(**{role: inputs[role == "minotaur"]})
            matches.append(match)
    if [(m.played, m.game.state.digest()) for m in matches] != [(played, last) for _, played, last in games]:
        raise ValueError(f"the {opponent} {other} decided otherwise than in the env: not the same games")
    return Rate(turns, timer.cpu_s, timer.wall_s, len(games))


def parallel_rate(turns: int, **kwargs) -> tuple[Rate, Games]:
    """The PettingZoo parallel env, both roles random and masked (a turn: both act); and the games it played."""
    game = parallel_env(**kwargs)
    policy = masked(random.Random(SEED))
    _, infos = game.reset(seed=SEED)
    episodes, games = 1, []
    with Timer() as timer:
        for _ in range(turns):
            if not game.agents:
                games.append(game.game.match)
                _, infos = game.reset()
                episodes += 1
            _, _, _, _, infos = game.step({agent: policy(infos[agent]["action_mask"]) for agent in game.agents})
    games.append(game.game.match)
    return Rate(turns, timer.cpu_s, timer.wall_s, episodes), [(m.seed, m.played, m.game.state.digest()) for m in games]


def unmasked_rate(make: Callable[[], object], steps: int, legacy: bool = False) -> Rate:
    """A reference env under uniform random actions (it has no mask), resetting when an episode
    ends. ``legacy``: Crafter's own four-value step and seedless reset."""
    env = make()
    rng = np.random.default_rng(SEED)
    env.reset() if legacy else env.reset(seed=SEED)
    actions = rng.integers(env.action_space.n, size=steps).tolist()
    episodes = 1
    with Timer() as timer:
        for action in actions:
            out = env.step(action)
            if (out[2] if legacy else out[2] or out[3]):
                env.reset()
                episodes += 1
    return Rate(steps, timer.cpu_s, timer.wall_s, episodes)


def minigrid_rate(steps: int) -> Rate | None:
    try:
        import minigrid  # noqa: F401  (importing it registers the MiniGrid environments)
    except ImportError:
        return None
    return unmasked_rate(lambda: gym.make("MiniGrid-DoorKey-8x8-v0"), steps)


def crafter_rate(steps: int) -> Rate | None:
    try:
        import crafter
    except ImportError:
        return None
    return unmasked_rate(lambda: crafter.Env(seed=SEED), steps, legacy=True)


def show(name: str, rate: Rate, target: bool = False, policy: str = "") -> None:
    """One row: steps per CPU second (against the target when ``target``), per wall second in the note."""
    note = f"{rate.per_wall_s:,.0f}/s wall; {rate.steps:,} steps, {rate.episodes} episodes{policy}"
    report(name, rate.per_cpu_s, "/s", target=(">=", TARGET) if target else None, note=note)


def median_rate(rates: list[Rate]) -> Rate:
    """The repetition of median speed (CPU clock)."""
    return sorted(rates, key=lambda r: r.per_cpu_s)[len(rates) // 2]


@dataclass
class Beside:
    """A row's repetitions and MiniGrid's, timed in turns; the games each repetition played (a
    Labyrinth row's: a reference env's are not digested)."""

    rates: list[Rate]
    minigrid: list[Rate]
    digests: list[str]
    engine: list[Rate]  # the engine alone on each repetition's turns, when asked for
    match: list[Rate] = field(default_factory=list)  # the Match alone, its opponent deciding, when asked for

    @staticmethod
    def ratio(rates: list[Rate], minigrid: list[Rate]) -> float:
        """The median of the repetitions' ratios (each against the MiniGrid run timed just before it)."""
        return statistics.median(r.per_cpu_s / m.per_cpu_s for r, m in zip(rates, minigrid, strict=True))


def beside_minigrid(run: Callable[[], tuple[Rate, Games]], repeats: int, minigrid_steps: int,
                    engine: bool = False, match: tuple[str, str] | None = None) -> Beside:
    """``run`` and MiniGrid in turns, ``repeats`` times each (MiniGrid skipped when not installed);
    with ``engine``, the engine alone replays each repetition's turns right after it; with ``match`` (the
    learner's role, the opponent's name), so does the Match with that opponent deciding (match_rate)."""
    out = Beside([], [], [], [])
    for _ in range(repeats):
        reference = minigrid_rate(minigrid_steps)
        if reference is not None:
            out.minigrid.append(reference)
        rate, games = run()
        out.rates.append(rate)
        if games:
            out.digests.append(games_digest(games))
        if engine:
            out.engine.append(engine_rate(games, PRESET, DIFFICULTY))
        if match is not None:
            out.match.append(match_rate(games, *match, PRESET, DIFFICULTY))
    return out


def show_beside(name: str, row_: Beside, target: bool = False, policy: str = "") -> None:
    """The row's median and its games' digest; MiniGrid's median beside it, and the ratio against the
    issue's target when it has one."""
    digest = row_.digests[0] if len(set(row_.digests)) == 1 else "DIFFERS: " + ", ".join(row_.digests)
    played = f", games {digest}" if row_.digests else ""
    rates = [r.per_cpu_s for r in row_.rates]
    show(name, median_rate(row_.rates), target, f"{policy}; median of {len(rates)}, {spread(rates)}{played}")
    bound = RATIO_TARGETS.get(name.removesuffix(": steps/s").removesuffix(": turns/s"))
    if row_.minigrid:
        mg = median_rate(row_.minigrid)
        ratios = [r.per_cpu_s / m.per_cpu_s for r, m in zip(row_.rates, row_.minigrid, strict=True)]
        report("  / MiniGrid DoorKey-8x8 beside it", Beside.ratio(row_.rates, row_.minigrid), "x", ".2f",
               target=(">=", bound) if bound is not None else None,
               note=f"{spread(ratios, '.2f')}; MiniGrid {mg.per_cpu_s:,.0f}/s (median of {len(row_.minigrid)}, "
                    "interleaved)")
    ceilings = (("the engine alone", "Game.step only, no env, no opponent's decision", row_.engine),
                ("the Match alone", ("the one turn loop with the opponent deciding, no learner's observation, "
                                     "mask or view"), row_.match))
    for what, how, rates in ceilings:
        if not rates:
            continue
        show(f"  {what}, the same turns: turns/s", median_rate(rates), target, f": {how}")
        if row_.minigrid:
            ceiling = Beside.ratio(rates, row_.minigrid)
            where = "within" if bound is not None and ceiling >= bound else "above"
            verdict = "" if bound is None else f"; the target {bound:.2f}x is {where} it"
            report("    / MiniGrid: a ceiling of the env", ceiling, "x", ".2f",
                   note=f"{what} beside the same MiniGrid runs{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads: a few minutes")
    quick = parser.parse_args().quick
    size = {name: pair[quick] for name, pair in SIZES.items()}
    repeats = REPEATS[quick]
    warnings.filterwarnings("ignore", category=DeprecationWarning)  # the reference envs' own
    warnings.filterwarnings("ignore", message=".*share an object.*")  # NLE's and MiniGrid's checker notes
    print(f"Gymnasium / PettingZoo benchmarks: {'quick' if quick else 'full'} run, seed {SEED}, preset {PRESET}, "
          f"difficulty {DIFFICULTY}; Labyrinth: a random valid (masked) command each step, the built-in opponent "
          "playing; MiniGrid and Crafter: uniform random actions. Figures: steps per CPU second of this process "
          f"(one core), per wall second in the notes; each the median of {repeats} repetitions, MiniGrid timed "
          "beside every Labyrinth row.", flush=True)
    began = time.perf_counter()
    if minigrid_rate(10) is None:
        row("MiniGrid DoorKey-8x8: steps/s", "skipped", note="minigrid is not installed: pip install -e '.[bench]'")
    options = {"preset": PRESET, "difficulty": DIFFICULTY}
    for env_id, text in (("Labyrinth/User-v0", False), ("Labyrinth/User-v0", True),
                         ("Labyrinth/Minotaur-v0", False), ("Labyrinth/Minotaur-v0", True)):
        learner = "user" if env_id == "Labyrinth/User-v0" else "minotaur"
        measured = beside_minigrid(
            partial(gym_rate, env_id, size["labyrinth"], opponent="builtin", text=text, **options),
            repeats, size["minigrid"], engine=not text, match=None if text else (learner, "builtin"))
        show_beside(f"{env_id.split('/')[1]}{'' if text else ', text=False'}: steps/s", measured, target=True)
    # The env's own cost: a Minotaur that only waits decides nothing and makes the engine cheap, so what
    # is left between the two figures is the wrapper (the seats, the observation, the mask).
    waiting = beside_minigrid(partial(gym_rate, "Labyrinth/User-v0", size["labyrinth"], opponent="wait", text=False,
                                      **options), repeats, size["minigrid"], engine=True, match=("user", "wait"))
    added = statistics.median(1e6 / r.per_cpu_s - 1e6 / e.per_cpu_s for r, e in zip(waiting.rates, waiting.engine,
                                                                                   strict=True))
    show_beside("User-v0 against a waiting Minotaur, text=False: steps/s", waiting,
                policy=f"; the env adds {added:,.0f} µs a step to the engine's turn (median of the repetitions)")
    for text in (False, True):
        measured = beside_minigrid(partial(parallel_rate, size["labyrinth"], text=text, **options), repeats,
                                   size["minigrid"], engine=not text)
        show_beside(f"PettingZoo parallel{'' if text else ', text=False'}: turns/s", measured,
                    policy="; both roles random")
    for task_id in VECTOR_TASKS:  # the vector env, and its task alone
        name = task_id.split("/")[1]
        show_beside(f"{name}, vector x{VECTOR_ENVS}: steps/s",
                    beside_minigrid(partial(vector_rate, task_id, VECTOR_ENVS, size["vector"]), repeats,
                                    size["minigrid"]), policy="; a random masked command per env")
        show_beside(f"{name}, one env: steps/s",
                    beside_minigrid(partial(gym_rate, task_id, size["labyrinth"]), repeats, size["minigrid"]))
    if crafter_rate(10) is None:
        row("Crafter: steps/s", "skipped", note="crafter is not installed: pip install -e '.[bench]'")
    else:  # a reference as MiniGrid is, timed as the rows are: repeated, beside MiniGrid, its median
        show_beside("Crafter: steps/s", beside_minigrid(lambda: (crafter_rate(size["crafter"]), []), repeats,
                                                        size["minigrid"]), policy="; uniform random actions")
    print(f"total {time.perf_counter() - began:.1f} s wall", flush=True)


if __name__ == "__main__":
    main()
