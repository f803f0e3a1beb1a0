"""The Labyrinth as a PettingZoo environment: PettingZoo's own checkers pass (the parallel
and AEC API tests, seeding, max_cycles, rendering), both agents' actions are played every
step even when the user's is refused, and each agent has the Gymnasium env's spaces."""

import types
import warnings

import gymnasium as gym
import numpy as np
import pytest

with warnings.catch_warnings():  # pettingzoo.test imports PettingZoo's own deprecated example envs: not ours to fix
    warnings.filterwarnings("ignore", "The old environment creation API", DeprecationWarning)
    from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, render_test
from pettingzoo.utils import parallel_to_aec

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments)
from labyrinth.agents.rl.pettingzoo_env import env as aec_env
from labyrinth.agents.rl.pettingzoo_env import parallel_env


def test_the_parallel_api_and_seed_tests_pass():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(parallel_env(preset="tiny", max_turns=40), num_cycles=60)
        parallel_seed_test(lambda: parallel_env(preset="tiny", max_turns=40))


def test_the_aec_version_passes_the_api_test():
    """PettingZoo's AEC checker only advises here (dict observations, agents not named
    player_0, spaces that differ per role): the roles are what they are."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(preset="tiny", max_turns=40), num_cycles=60)


def _seeded(**kwargs):
    """A parallel env whose unseeded resets draw their games from a seeded generator: the
    checkers below reset without a seed, and a test must see the same games every run."""
    game = parallel_env(preset="tiny", **kwargs)
    game.reset(seed=5)
    return game


def test_max_cycles_is_max_turns_and_passes_the_max_cycles_test():
    """PettingZoo's test samples actions without their masks: refused user commands must count."""
    max_cycles_test(types.SimpleNamespace(parallel_env=_seeded, env=lambda **kw: parallel_to_aec(_seeded(**kw))))
    assert parallel_env(max_cycles=7).max_turns == 7
    with pytest.raises(ValueError, match="max_cycles is max_turns"):
        parallel_env(max_cycles=7, max_turns=8)


def test_the_render_test_passes_in_every_mode():
    render_test(lambda render_mode=None: aec_env(preset="tiny", max_turns=40, render_mode=render_mode))


def test_a_refused_user_command_is_a_turn_for_both():
    """GRAB with nothing in reach: one second of standing still, and the Minotaur's action is played."""
    game = parallel_env(preset="tiny", max_turns=10)
    _, infos = game.reset(seed=3)
    names = game.action_names
    grab, jump = names["user"].index("grab_red_stone"), names["minotaur"].index("jump")
    assert infos["user"]["action_mask"][grab] == 0 and infos["minotaur"]["action_mask"][jump] == 1
    _, rewards, _, _, infos = game.step({"user": grab, "minotaur": jump})
    assert infos["user"]["turn"] == 1 and "GRAB failed" in infos["user"]["refused"]
    assert "refused" not in infos["minotaur"]
    assert game.game.match.played[-1][0].command == "HALT"
    assert game.game.match.last.observation.temporal_status == "VANISHING"  # its jump was played
    assert rewards["user"] == pytest.approx(-0.001) == -rewards["minotaur"]


def test_agents_have_the_gymnasium_spaces():
    game = parallel_env(preset="tiny")
    for role, env_id in (("user", "Labyrinth/User-v0"), ("minotaur", "Labyrinth/Minotaur-v0")):
        single = gym.make(env_id, preset="tiny")
        assert game.observation_space(role) == single.observation_space
        assert game.action_space(role) == single.action_space


def test_the_env_pickles_and_a_copy_plays_on_identically():
    import copy
    import pickle

    game = parallel_env(preset="tiny", max_turns=60)
    _, infos = game.reset(seed=8)
    rng = np.random.default_rng(2)

    def actions(infos):
        return {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in game.agents}

    for _ in range(10):
        _, _, _, _, infos = game.step(actions(infos))
    copies = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game)]
    for _ in range(20):
        if not game.agents:
            break
        chosen = actions(infos)
        outs = [g.step(dict(chosen)) for g in (game, *copies)]
        infos = outs[0][4]
        for out in outs[1:]:
            assert out[1:4] == outs[0][1:4]
            for agent in outs[0][0]:
                assert all(np.array_equal(out[0][agent][k], outs[0][0][agent][k]) for k in outs[0][0][agent])
