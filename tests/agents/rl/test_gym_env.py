"""The Labyrinth as a Gymnasium environment: the Farama checker passes for both roles
(warnings are errors), the commands come from the one action definition, the text stays
within its space, seeding is deterministic, and rewards are the WSAP adapter's. docs/rl.md's examples are
run by tests/test_docs.py, the step's mechanics by test_rl_mechanics.py, the PettingZoo env by
test_rl_pettingzoo.py, the numbers of the observation by test_rl_observation.py."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments)
from labyrinth.agents.rl.commands import COMMANDS, action_names
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.spaces import CHARSET, TEXT_MAX
from labyrinth.agents.wsap.adapters import make_adapter
from labyrinth.engine.items import ITEM_ORDER, STONES, USABLE
from labyrinth.engine.schemas import MINOTAUR_PARAMS, USER_PARAMS
from labyrinth.engine.wsap import Action
from labyrinth.engine.wsap.roles import ROLES
from tests.fronts import assert_own_play

IDS = {"user": "Labyrinth/User-v0", "minotaur": "Labyrinth/Minotaur-v0"}


def _masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("role", sorted(IDS))
@pytest.mark.parametrize("text", [True, False])
def test_the_gymnasium_checker_passes_without_warnings(role, text):
    env = gym.make(IDS[role], preset="tiny", max_turns=30, text=text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


def test_the_commands_come_from_the_one_action_definition():
    user, minotaur = action_names("user"), action_names("minotaur")
    assert len(set(user)) == len(user) and len(set(minotaur)) == len(minotaur)
    assert {"move_north_walk_1", "move_west_run_far", "move_up_ramp", "move_down_ramp", "look", "grab_red_stone",
            "grab_lantern", "use_lantern", "halt"} <= set(user)
    # a way walked or run, one step or far: no two moves alike
    assert [n for n in user if n.startswith("move_north")] == ["move_north_walk_1", "move_north_walk_far",
                                                              "move_north_run_1", "move_north_run_far"]
    moves = [n for n in user if n.startswith("move_")]  # four ways walked or run, one step or far, and two ramps
    assert len(moves) == 4 * 2 * 2 + 2
    assert len(user) == len(moves) + 1 + len(ITEM_ORDER) + len(USABLE) + 1  # look, a grab an item, a use, halt
    stones = [f"pathfind_{name.lower().replace(' ', '_')}" for name in STONES]
    assert minotaur == ["chase", "pathfind_last_noise", "pathfind_last_sighting", *stones, "wait", "jump"]
    # every action of the schemas is offered, under its own name, in the schemas' order
    for role, params in (("user", USER_PARAMS), ("minotaur", MINOTAUR_PARAMS)):
        firsts = list(dict.fromkeys(name.split("_")[0] for name in action_names(role)))
        assert firsts == [action.lower() for action in params]
    env = gym.make(IDS["user"], preset="tiny")
    assert env.unwrapped.action_names == user and env.action_space.n == len(COMMANDS["user"])


@settings(max_examples=12)
@given(role=st.sampled_from(sorted(IDS)), seed=st.integers(0, 10**6), moves=st.integers(0, 2**32 - 1))
def test_every_observation_lies_in_its_space_and_the_text_within_its_charset(role, seed, moves):
    """Random masked play to the end (escape, death or the turn limit) on the smallest ground:
    every text holds only CHARSET's characters and stays under TEXT_MAX (it is bounded by
    construction: a fixed number of sections, eight recent events, at most four items and one
    opponent nearby), and every observation is in the observation space."""
    env = gym.make(IDS[role], preset="tiny", max_turns=120, text=True)
    space, rng = env.observation_space, np.random.default_rng(moves)
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        assert space.contains(obs) and len(obs["text"]) <= TEXT_MAX and set(obs["text"]) <= set(CHARSET)
        obs, _, terminated, truncated, info = env.step(_masked_choice(rng, info["action_mask"]))
        done = terminated or truncated
    assert space.contains(obs)


@pytest.mark.parametrize("role", sorted(IDS))
def test_reset_with_a_seed_replays_the_same_game(role):
    def play(seed: int) -> list:
        env = gym.make(IDS[role], preset="tiny", max_turns=40)
        obs, info = env.reset(seed=seed)
        trail, rng = [obs["map"].tobytes()], np.random.default_rng(1)
        for _ in range(40):
            obs, reward, terminated, truncated, info = env.step(_masked_choice(rng, info["action_mask"]))
            trail.append((obs["map"].tobytes(), obs["position"].tolist(), reward))
            if terminated or truncated:
                break
        return trail

    assert play(7) == play(7)
    assert play(7) != play(8)


@pytest.mark.parametrize("role", sorted(IDS))
def test_an_opponent_given_as_an_agent_starts_every_game_afresh(role):
    """The built-in agent keeps a map and a search while it plays: each reset must start from the
    agent as it was given, or the same seed plays another game the second time."""
    from labyrinth.agents.registry import make_agent

    given = make_agent(ROLES[role].other, "builtin", 0)

    def play(env) -> list:
        obs, info = env.reset(seed=3)
        trail = []
        for _ in range(40):
            obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            trail.append((obs["position"].tolist(), reward))
            if terminated or truncated:
                break
        assert_own_play(env.match.sides[ROLES[role].other].stats)  # the fallback's play is the same every game too
        return trail

    env = LabyrinthEnv(role=role, preset="tiny", opponent=given, max_turns=40)
    first = play(env)
    assert play(env) == first == play(LabyrinthEnv(role=role, preset="tiny", opponent=given, max_turns=40))
    assert env.match.sides[ROLES[role].other].agent is not given  # the caller's agent is never played


def test_the_turn_limit_truncates_and_a_death_terminates():
    env = gym.make(IDS["user"], preset="tiny", max_turns=3)
    env.reset(seed=2)
    halt = env.unwrapped.action_names.index("halt")
    flags = [env.step(halt)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]
    env = gym.make(IDS["user"], preset="tiny", max_turns=2000)
    env.reset(seed=2)
    for turn in range(2000):  # standing still, the user is found and caught
        _, reward, terminated, truncated, _ = env.step(halt)
        if terminated:
            break
    assert terminated and not truncated and reward < -9 and env.unwrapped.match.game.state.outcome == "DEATH"


@pytest.mark.parametrize("role", sorted(IDS))
def test_rewards_and_texts_are_the_wsap_adapters(role):
    """The env and the WSAP adapter play the same game through the same turn loop."""
    env = gym.make(IDS[role], preset="tiny", max_turns=60, text=True)
    obs, info = env.reset(seed=11)
    adapter = make_adapter(role, seed=env.unwrapped.match.seed, preset="tiny", max_turns=60)
    rng = np.random.default_rng(5)
    for _ in range(60):
        number = _masked_choice(rng, info["action_mask"])
        command = COMMANDS[role][number].make(env.unwrapped.match).model_dump(exclude_unset=True, exclude_none=True)
        name = command.pop("command", None) or command.pop("action")
        result = adapter.act(Action(name, command))
        obs, reward, terminated, truncated, info = env.step(number)
        assert reward == pytest.approx(result.reward) and obs["text"] == adapter.observe().to_text()
        if terminated or truncated:
            assert result.done
            break


def test_an_action_that_is_no_command_is_told_so():
    env = gym.make(IDS["minotaur"], preset="tiny")
    env.reset(seed=1)
    for bad in (8, -1, 1.5, "jump", True, np.True_, np.False_):
        with pytest.raises(ValueError, match=r"integer in \[0, 8\)"):
            env.unwrapped.step(bad)
    assert env.unwrapped.step(np.int64(7))[4]["turn"] == 1
