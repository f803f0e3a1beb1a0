"""The Minotaur's observation in the kernel (agents/rl/kernel/minotaur_obs.py) against the scalar env's, which is
MinotaurView's: whole episodes of the Minotaur's tiny tasks (a user that waits, one that walks at random, the
built-in user) and a few on small (whose coarse map pools blocks of cells), a row each, every key of every row equal
(np.array_equal, dtype and shape too) at the start and after every turn. The actions are random among the allowed
ones, JUMP taken whenever allowed in some episodes (so that the timers, VANISHING, VANISHED and the re-entry alert
are met), WAIT mostly in others (so that they last to the turn limit); the test counts that each status, a
sighting, a noise heard this turn and one heard before, and the turn limit were met. The lantern's paralysis, which
random play seldom reaches, is put into played states apart. A row falls back only where its window leaves its
region, or where it is kept whole."""

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.rl.gym_env import LabyrinthEnv, task_env
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.minotaur_obs import coarse_levels, observations, observe, pool_levels
from labyrinth.agents.rl.kernel.signals import B_TICK, before_turn
from labyrinth.agents.rl.kernel.state import StateRows
from labyrinth.agents.rl.kernel.work import KEPT, LEFT_REGION, PLAYED
from labyrinth.agents.rl.minotaur_view import SPACES
from labyrinth.agents.rl.user_view import STATUSES

pytestmark = pytest.mark.xdist_group("kernel")
TASKS = ("Labyrinth/Minotaur-Tiny-Wait-v1", "Labyrinth/Minotaur-Tiny-Random-v1", "Labyrinth/Minotaur-Tiny-v1")
SMALL = "Labyrinth/Minotaur-v0 on small"
# How an episode picks its actions among the allowed: at random, JUMP whenever it may, or WAIT mostly.
STYLES = ("random", "jumps", "waits")


def make(task_id: str) -> LabyrinthEnv:
    """A task's env, or SMALL's: the Minotaur on small, whose coarse map pools blocks of 2 x 2 cells."""
    if task_id == SMALL:
        return LabyrinthEnv("minotaur", "small", opponent="random", max_turns=120)
    return task_env(task_id)


def pick(env, style: str, rng: np.random.Generator) -> int:
    mask = env.action_masks()
    allowed = np.flatnonzero(mask)
    jump, wait = env.action_names.index("jump"), env.action_names.index("wait")
    if style == "jumps" and mask[jump]:
        return jump
    if style == "waits" and rng.random() < 0.9:
        return wait
    return int(rng.choice(allowed))


def check(rows: StateRows, envs: list, observed: dict, since: np.ndarray, live: list[int], seen: Counter) -> None:
    """Every live row's kernel observation equal to its env's (``observed``: the env's last, by row)."""
    out = observations(len(envs))
    turns = np.array([env.match.turns for env in envs])
    levels = coarse_levels(rows)
    pool_levels(rows, levels, np.ones(len(envs), dtype=np.bool_))
    why = observe(rows, levels, turns, since, envs[0].max_turns, out)
    for row in live:
        seen["checked"] += 1
        if why[row] != PLAYED:
            assert why[row] == LEFT_REGION, why[row]
            seen["fell back"] += 1
            continue
        expected = observed[row]
        assert set(out) == set(expected) == set(SPACES)
        for key, value in expected.items():
            assert out[key][row].dtype == value.dtype and out[key][row].shape == value.shape, key
            assert np.array_equal(out[key][row], value), (key, row, envs[row].match.turns,
                                                          np.flatnonzero(out[key][row] != value))
        cue = expected["cue"]
        seen[STATUSES[int(np.argmax(cue[:len(STATUSES)]))]] += 1
        seen["sees"] += cue[len(STATUSES)]
        seen["heard this turn"] += cue[len(STATUSES) + 1]
        seen["heard before"] += expected["intruder"][5] and not cue[len(STATUSES) + 1]


def play(task_id: str, styles: list[str], seed: int, seen: Counter) -> None:
    envs = [make(task_id) for _ in styles]
    rng = np.random.default_rng(seed)
    observed = {row: env.reset(seed=seed + row)[0] for row, env in enumerate(envs)}
    rows = StateRows(len(envs), envs[0].preset)
    for row, env in enumerate(envs):
        rows.lay_region(row, env.match.game.world)
        rows.write(row, env.match.game.state)
    live = list(range(len(envs)))
    check(rows, envs, observed, rows.tick.copy(), live, seen)
    while live:
        since = before_turn(rows)[:, B_TICK]
        for row in live:
            env = envs[row]
            observed[row], _, _, cut, _ = env.step(pick(env, styles[row], rng))
            rows.write(row, env.match.game.state)
            seen["truncated"] += cut
        check(rows, envs, observed, since, live, seen)
        live = [row for row in live if envs[row].match.outcome is None]


@pytest.mark.parametrize("task_id", [*TASKS, SMALL])
def test_the_kernels_observation_is_the_minotaur_views(task_id):
    seen: Counter = Counter()
    play(task_id, list(STYLES), 7 + len(task_id), seen)
    print(task_id, dict(seen))
    assert seen["fell back"] <= seen["checked"] // 20
    assert seen["CHASING_3D"] and seen["sees"], seen


def test_every_status_clue_and_end_is_met():
    """Over the three tasks' episodes, everything the observation tells was met at least once."""
    seen: Counter = Counter()
    for number, task_id in enumerate(TASKS):
        play(task_id, ["jumps", "jumps"], 100 + number, seen)
    play(TASKS[0], ["waits"], 200, seen)
    for what in (*(s for s in STATUSES if s != "PARALYZED"), "sees", "heard this turn", "heard before", "truncated"):
        assert seen[what], f"no {what} met: the test would not see it broken ({dict(seen)})"


def test_frozen_or_out_of_time_at_any_moment():
    """States of a played episode with the lantern's paralysis, a jump's time left (begun this turn or before) and a
    cooldown put in, each told as a game's opening (Game.opening): the view's timers and status, the kernel's."""
    env = task_env(TASKS[1])
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    game, view = env.match.game, env.game.views["minotaur"]
    frozen = [(0, 0, 0, 3), (7, 0, 0, 0), (1, 0, 0, 1199), (240, 0, 0, 5), (0, 20, 0, 0), (0, 4, 0, 0), (0, 21, 2, 1)]
    rows, seen = StateRows(1, "tiny"), Counter()
    rows.lay_region(0, game.world)
    for _ in range(12):
        played = game.state
        for paralysis, jump_left, started, cooldown in frozen:
            game.state = replace(played, paralysis=paralysis, jump_left=jump_left, jump_cooldown=cooldown,
                                 jump_started_turn=played.turn - started)
            env.match.last = game.opening()
            rows.write(0, game.state)
            expected = {key: np.asarray(value, np.float32).reshape(-1) for key, value in view.observe().items()}
            check(rows, [env], {0: expected}, rows.tick.copy(), [0], seen)
        game.state = played
        if env.step(pick(env, "random", rng))[2]:
            break
    assert all(seen[status] for status in STATUSES), seen


@settings(max_examples=6 if COMPILED else 2, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(TASKS), st.sampled_from(STYLES))
def test_any_seed(seed, task_id, style):
    play(task_id, [style], seed, Counter())


def test_a_kept_row_or_a_window_past_the_region_is_not_observed():
    env = task_env(TASKS[0])
    env.reset(seed=3)
    rows = StateRows(3, "tiny")
    for row in range(3):
        rows.lay_region(row, env.match.game.world)
        rows.write(row, env.match.game.state)
    rows.minotaur[1] = rows.origin[1]  # the region's corner: the window reaches west and south of it
    rows.kept[2] = True
    out = observations(3)
    for key in out:
        out[key][:] = 7.0
    levels = coarse_levels(rows)
    pool_levels(rows, levels, np.array([True, True, False]))  # a kept row needs none
    why = observe(rows, levels, np.zeros(3, dtype=np.int64), rows.tick.copy(), env.max_turns, out)
    assert why.tolist() == [PLAYED, LEFT_REGION, KEPT]
    assert all(not out[key][1:].any() for key in out)
