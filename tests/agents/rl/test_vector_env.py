"""The vector env (agents/rl/vector_env.py) against the scalar env it batches: N LabyrinthEnvs and one
LabyrinthVectorEnv given the same seeds and the same random masked actions agree at every step, through
several episodes and gymnasium's NEXT_STEP autoreset, on every observation key, reward, flag, action mask and
info (key by key, with gymnasium's "_key" masks), and on each game's state itself. With the [fast] extra the
kernel plays the tasks it ports (kernel/steps.py) and hands the games it cannot go on with to their envs, here
too: every task, whoever plays it, must be the scalar env's. Episodes are cut short (a few turns) so that many
end; make_vec serves the ladder's finite tasks; and the vector env plays without numba too."""

import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labyrinth.agents.rl import gym_env  # noqa: F401 - registers the ids
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.kernel import state
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.state import REGION_PRESETS
from labyrinth.agents.rl.tasks import TASKS
from labyrinth.agents.rl.vector_env import LabyrinthVectorEnv
from labyrinth.engine.rng import DRAWN_SEEDS
from labyrinth.engine.wsap.roles import ROLES

pytestmark = pytest.mark.xdist_group("kernel")  # with numba it compiles the kernel: once, on one worker
FINITE = [t for t in TASKS.values() if t.role in ROLES and t.preset in REGION_PRESETS]
ENVS, SEED, STEPS, TURNS = 3, 40, 30, 6


def same_obs(batch: Mapping[str, np.ndarray], i: int, obs: Mapping[str, np.ndarray]) -> None:
    assert set(batch) == set(obs)
    for key, value in obs.items():
        assert batch[key].dtype == value.dtype and np.array_equal(batch[key][i], value), key


def same_info(batch: Mapping[str, Any], i: int, info: Mapping[str, Any]) -> None:
    """Env ``i``'s part of a vector info is the scalar ``info``: each key's value, its "_key" mask set, and
    every other key's mask clear."""
    for key, value in info.items():
        assert batch[f"_{key}"][i], key
        if isinstance(value, dict):
            same_info(batch[key], i, value)
        else:
            assert np.array_equal(batch[key][i], value), (key, batch[key][i], value)
    assert not any(batch[f"_{key}"][i] for key in batch if not key.startswith("_") and key not in info)


def kept_rows(vector: LabyrinthVectorEnv) -> np.ndarray:
    """Which of the kernel's rows hold no state (kernel.state: kept whole beside the arrays)."""
    return np.zeros(ENVS, dtype=np.bool_) if vector.kernel is None else vector.kernel.rows.kept.copy()


def play_both(settings: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """N scalar envs and a vector env of ``settings`` played side by side, every step compared; which rows
    were ever kept aside (kernel.state's rows that a state did not fit), and which the kernel ever gave up to their
    envs (none of either without the kernel)."""
    scalars = [LabyrinthEnv(**settings) for _ in range(ENVS)]
    vector = LabyrinthVectorEnv(ENVS, **settings)
    batch, infos = vector.reset(seed=SEED)
    for i, env in enumerate(scalars):
        obs, info = env.reset(seed=SEED + i)
        same_obs(batch, i, obs)
        same_info(infos, i, info)
    rng, ended, ends, kept = np.random.default_rng(SEED), [False] * ENVS, 0, kept_rows(vector)
    handed = np.zeros(ENVS, dtype=np.bool_)
    for _ in range(STEPS):
        masks = [env.action_masks() for env in scalars]
        assert np.array_equal(vector.action_masks(), np.stack(masks))
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in masks]
        batch, rewards, terminations, truncations, infos = vector.step(np.array(actions))
        for i, env in enumerate(scalars):
            if ended[i]:  # NEXT_STEP: the step after the end starts the next game, its action unplayed
                (obs, info), reward, terminated, truncated = env.reset(), 0.0, False, False
            else:
                obs, reward, terminated, truncated, info = env.step(actions[i])
            same_obs(batch, i, obs)
            same_info(infos, i, info)
            assert (rewards[i], terminations[i], truncations[i]) == (reward, terminated, truncated)
            assert vector.state(i) == env.match.game.state  # the game itself, not only what it shows
            ended[i] = terminated or truncated
            ends += ended[i]
        kept |= kept_rows(vector)
        if vector.kernel is not None:
            handed |= vector.kernel.on_engine & ~kept_rows(vector)
    assert ends >= 2 * ENVS, "several games of each env end, and the next begin"
    return kept, handed


@pytest.mark.parametrize("rung", FINITE, ids=[t.id for t in FINITE])
def test_the_vector_env_plays_each_game_as_the_scalar_env(rung):
    kept, _ = play_both({**rung.settings(), "max_turns": TURNS})
    assert not kept.any(), "the games' states fit the rows"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, DRAWN_SEEDS - ENVS))
def test_any_seeds_games_are_the_scalar_envs_to_their_ends(seed):
    """Games of any seeds (bench/rl/vector_identity.py plays a thousand of each task), each played to its end."""
    settings_ = TASKS["Labyrinth/User-Tiny-v1"].settings()
    vector, scalars = LabyrinthVectorEnv(ENVS, **settings_), [LabyrinthEnv(**settings_) for _ in range(ENVS)]
    vector.reset(seed=seed)
    for i, env in enumerate(scalars):
        env.reset(seed=seed + i)
    rng, playing = np.random.default_rng(seed), np.ones(ENVS, dtype=np.bool_)
    while playing.any():
        masks = vector.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        batch, rewards, terminations, truncations, infos = vector.step(actions)
        for i in np.flatnonzero(playing).tolist():
            obs, reward, terminated, truncated, info = scalars[i].step(int(actions[i]))
            same_obs(batch, i, obs)
            same_info(infos, i, info)
            assert (rewards[i], terminations[i], truncations[i]) == (reward, terminated, truncated)
            playing[i] = not (terminated or truncated)


@pytest.mark.skipif(not COMPILED, reason="only the kernel keeps games in rows: the [fast] extra's numba")
def test_games_the_kernel_gives_up_play_on_as_the_others(monkeypatch):
    """No room for a seen item in the rows: a game whose user sees one is given up by the kernel mid-game (its
    turn falls back) and handed to its env, or kept aside at its start; each plays on as the scalar env's."""
    monkeypatch.setattr(state, "SEEN_SLOTS", 0)
    kept, handed = play_both({**TASKS["Labyrinth/User-Tiny-v1"].settings(), "max_turns": TURNS})
    assert (kept | handed).any()


def test_an_action_out_of_range_is_refused_unless_its_game_has_ended():
    vector = LabyrinthVectorEnv(ENVS, **{**TASKS["Labyrinth/User-Tiny-v1"].settings(), "max_turns": 1})
    vector.reset(seed=3)
    with pytest.raises(ValueError, match="integers in"):
        vector.step(np.full(ENVS, -1))
    _, _, _, truncations, _ = vector.step(np.zeros(ENVS, dtype=np.int64))  # one turn: every game cut
    assert truncations.all()
    _, _, _, _, infos = vector.step(np.full(ENVS, -1))  # NEXT_STEP: the actions of ended games are ignored
    assert infos["_turn"].all() and not infos["turn"].any()


def test_a_reset_mask_resets_only_its_envs_as_gymnasiums_sync_env_does():
    settings = {**TASKS["Labyrinth/User-Tiny-v1"].settings(), "max_turns": TURNS}
    sync = gym.vector.SyncVectorEnv([lambda: LabyrinthEnv(**settings)] * ENVS,
                                    autoreset_mode=AutoresetMode.NEXT_STEP)
    vector = LabyrinthVectorEnv(ENVS, **settings)
    with pytest.raises(RuntimeError, match="reset every env once"):
        vector.reset(options={"reset_mask": np.array([True, False, False])})
    for env in (sync, vector):
        env.reset(seed=[5, 6, 7])
        env.step(np.zeros(ENVS, dtype=np.int64))  # move north: a way out or a refused command, either a turn
    mask = np.array([False, True, False])
    (a, a_infos), (b, b_infos) = (env.reset(seed=9, options={"reset_mask": mask}) for env in (sync, vector))
    for i in range(ENVS):
        same_obs(b, i, {key: values[i] for key, values in a.items()})
    assert set(b_infos) == set(a_infos) and b_infos["_turn"].tolist() == a_infos["_turn"].tolist() == mask.tolist()


def test_make_vec_makes_the_vector_env_of_each_finite_task():
    for rung in FINITE:
        envs = gym.make_vec(rung.id, num_envs=2, vectorization_mode="vector_entry_point")
        assert isinstance(envs.unwrapped, LabyrinthVectorEnv)
        assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
        first = envs.unwrapped.envs[0]
        assert (first.role, first.preset, first.max_turns, first.opponent, first.frozen) == (
            rung.role, rung.preset, rung.max_turns, rung.opponent, rung.frozen)
        assert envs.action_space == gym.spaces.MultiDiscrete([first.action_space.n] * 2)
    with pytest.raises(gym.error.Error, match="vector entry point"):
        gym.make_vec("Labyrinth/User-Standard-v1", num_envs=2, vectorization_mode="vector_entry_point")
    with pytest.raises(TypeError, match="fixes its settings"):
        gym.make_vec("Labyrinth/User-Tiny-v1", num_envs=2, vectorization_mode="vector_entry_point", max_turns=5)
    with pytest.raises(ValueError, match="tiny or small"):
        LabyrinthVectorEnv(2, preset="standard")


NO_NUMBA = """
import sys

tried = []


class NoNumba:  # as if the [fast] extra were not installed, and noting who asks for it
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "numba":
            tried.append(name)
            raise ImportError("numba is not installed")


sys.meta_path.insert(0, NoNumba())
import gymnasium as gym
import numpy as np

import labyrinth.agents.rl.gym_env

envs = gym.make_vec("Labyrinth/User-Tiny-v1", num_envs=2, vectorization_mode="vector_entry_point")
envs.reset(seed=1)
for _ in range(3):
    envs.step(np.array([np.flatnonzero(mask)[0] for mask in envs.unwrapped.action_masks()]))
print(tried)
"""


def test_the_vector_env_plays_without_numba_asking_for_it_once():
    """Without the [fast] extra the env plays on, every game by its own LabyrinthEnv: the kernel's modules ask
    for numba once (kernel/jit.py, at import) and go on without it."""
    out = subprocess.run([sys.executable, "-c", NO_NUMBA], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['numba']"
