"""The RL ladder (agents/rl/tasks.py): every id is registered from the one table and fixes its
settings, passes Gymnasium's checker and Stable-Baselines3's without a word (PettingZoo's for the
two-role task), its games are pinned by an episode digest, the env card's table is the table, and
the first rungs are what their ids say (a frozen Minotaur, a user that waits)."""

import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments)
from labyrinth.agents.rl.gym_env import LabyrinthEnv, task_env
from labyrinth.agents.rl.pettingzoo_env import task_parallel_env
from labyrinth.agents.rl.protocol import episode_digest
from labyrinth.agents.rl.tasks import BOTH, TASKS, Task, card_table
from labyrinth.engine import Game, UserInput
from labyrinth.engine.wsap import rewards

ONE_ROLE = [task_id for task_id, rung in TASKS.items() if rung.role != BOTH]
CARD = Path(__file__).resolve().parents[3] / "docs" / "rl.md"


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_each_tasks_games_are_pinned_by_their_digest(task_id):
    """Each task's digest (protocol.episode_digest: the settings the id fixes, what each reward pays, and three
    seeds' games played to their end by the built-in agent and at random, the random ones cut at DIGEST_TURNS) is
    the one its row of tasks.py pins. A change that alters a task's games or what it pays changes it: raise the
    task's version (a new id), pin the new id's digest there, and say on docs/rl.md's card why it rose."""
    assert episode_digest(task_id) == TASKS[task_id].digest, f"{task_id}'s games changed: raise its version"


def test_the_digest_tells_games_and_seeds_apart():
    assert len({rung.digest for rung in TASKS.values()}) == len(TASKS)
    assert episode_digest("Labyrinth/User-Tiny-v1", seeds=(0,)) != episode_digest("Labyrinth/User-Tiny-v1", seeds=(1,))


@pytest.mark.parametrize(("paid", "task_id"), [("STONE", "Labyrinth/Stones-Tiny-v1"),
                                                ("ESCAPE", "Labyrinth/User-Tiny-Wait-v1"),
                                                ("CATCH", "Labyrinth/Minotaur-Tiny-Wait-v1")])
def test_the_digests_games_reach_what_each_reward_pays(monkeypatch, paid, task_id):
    """Random play seldom finds a stone; the built-in agent's games in the digest do, and escape and catch: a
    change to what one of them pays shows in the games' returns, not only in the numbers hashed beside them."""
    monkeypatch.setattr(rewards, paid, getattr(rewards, paid) * 2)
    assert episode_digest(task_id) != TASKS[task_id].digest


def test_every_one_role_task_is_registered_and_fixes_its_settings():
    for task_id in ONE_ROLE:
        rung, env = TASKS[task_id], gym.make(task_id)
        made = env.unwrapped
        assert (made.role, made.preset, made.difficulty, made.opponent, made.max_turns, made.frozen) == (
            rung.role, rung.preset, rung.difficulty, rung.opponent, rung.max_turns, rung.frozen)
        assert not made.shapes and not made.text  # the game's own reward, the numbers alone
        with pytest.raises(TypeError, match="fixes its settings"):
            gym.make(task_id, max_turns=50)
    assert gym.make("Labyrinth/User-Tiny-v1", render_mode="ansi").unwrapped.render_mode == "ansi"
    assert {"Labyrinth/User-v0", "Labyrinth/Minotaur-v0"} <= set(gym.registry)  # the configurable envs stay
    assert "Labyrinth/Duel-Tiny-v1" not in gym.registry  # two roles: PettingZoo's


def test_a_task_is_checked_when_the_table_is_built():
    with pytest.raises(ValueError, match="Bad: unknown preset 'nowhere'"):
        Task("Bad", 1, "user", "nowhere", "builtin", 10, "nothing", "0")
    with pytest.raises(ValueError, match="Bad: no role 'theseus'"):
        Task("Bad", 1, "theseus", "tiny", "builtin", 10, "nothing", "0")
    with pytest.raises(ValueError, match="only a user's task freezes"):
        Task("Bad", 1, "minotaur", "tiny", "builtin", 10, "nothing", "0", frozen=True)
    with pytest.raises(ValueError, match="no task"):
        task_env("Labyrinth/User-Huge-v9")
    with pytest.raises(ValueError, match="task of one role"):
        task_parallel_env("Labyrinth/User-Tiny-v1")


@pytest.mark.parametrize("task_id", ONE_ROLE)
def test_every_task_passes_gymnasiums_checker_without_a_word(task_id):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make(task_id).unwrapped)


@pytest.mark.parametrize("task_id", ONE_ROLE)
def test_every_task_passes_stable_baselines3s_checker_without_a_word(task_id):
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker",
                              reason="Stable-Baselines3 is not installed: pip install -e '.[train]'")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3.check_env(gym.make(task_id))


@pytest.mark.parametrize("task_id", ONE_ROLE)
def test_every_task_gives_what_stable_baselines3_reads_as_plain_vectors(task_id):
    """What SB3's checker warns about, checked without SB3 (the [train] extra, not installed in CI): a key of
    three dimensions or of uint8 it takes for an image (and would divide by 255 and convolve), any other shape
    but a vector it cannot read, a nested Dict or a Discrete not starting at 0 it does not support."""
    env = gym.make(task_id)
    assert isinstance(env.action_space, gym.spaces.Discrete) and env.action_space.start == 0
    assert isinstance(env.observation_space, gym.spaces.Dict)
    for key, space in env.observation_space.spaces.items():
        assert isinstance(space, gym.spaces.Box) and len(space.shape) == 1, key
        assert space.dtype == np.float32 and np.isfinite(space.low).all() and np.isfinite(space.high).all(), key
        assert space.low.min() >= -1 and space.high.max() <= 1, key  # fractions and planes, nothing to rescale


def test_the_two_role_task_passes_pettingzoos_tests():
    with warnings.catch_warnings():  # pettingzoo.test imports PettingZoo's deprecated example envs: not ours
        warnings.filterwarnings("ignore", "The old environment creation API", DeprecationWarning)
        from pettingzoo.test import parallel_api_test, parallel_seed_test
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(task_parallel_env("Labyrinth/Duel-Tiny-v1"), num_cycles=40)
        parallel_seed_test(lambda: task_parallel_env("Labyrinth/Duel-Tiny-v1"))


def test_the_env_cards_table_of_tasks_is_the_table():
    assert card_table() in CARD.read_text(encoding="utf-8")


def test_in_the_stones_task_the_minotaur_stays_frozen_whatever_the_user_does():
    """Random masked play to the turn limit: never caught, the Minotaur PARALYZED at every step and
    never moved; the observation's cue says so."""
    env, rng = task_env("Labyrinth/Stones-Tiny-v1"), np.random.default_rng(3)
    _, info = env.reset(seed=4)
    start = env.match.game.state.minotaur
    done = False
    while not done:
        state = env.match.game.state
        assert state.paralysis > 0 and state.minotaur == start
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    assert info["outcome"] != "DEATH" and env.match.game.state.paralysis > 0
    assert LabyrinthEnv("user", preset="tiny").observation_space == env.observation_space


def test_a_lantern_never_shortens_a_paralysis_under_way():
    game = Game.new(3, "tiny")
    game.state.inventory = ("LANTERN",)
    game.state.paralysis = 10_000
    game.step(UserInput(command="USE", target="LANTERN"))
    assert game.state.paralysis == 10_000 - 2  # the second USE takes, not the lantern's 240 ticks
    game.state.inventory, game.state.paralysis = ("LANTERN",), 0
    game.step(UserInput(command="USE", target="LANTERN"))
    assert 0 < game.state.paralysis <= 240  # as ever from nothing


def test_the_minotaurs_first_task_seats_a_user_that_only_waits():
    env = task_env("Labyrinth/Minotaur-Tiny-Wait-v1")
    env.reset(seed=2)
    start = env.match.game.state.user
    wait = env.action_names.index("wait")
    for _ in range(30):
        *_, terminated, truncated, _ = env.step(wait)
        assert env.match.game.state.user == start and not truncated
        if terminated:
            break
