"""The RL env's mechanics: every step is a turn (a refused command is one second of standing
still), so every episode ends within max_turns whatever the actions; the info tells the
game; the env pickles and copies into games that play on identically; it refuses to be
used before reset and a turn limit below 1; and it renders in every mode."""

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the environments)
from labyrinth.agents.rl.commands import COMMANDS
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.shaping import APPROACH, NEW_CELL_BONUS, Shaping
from labyrinth.engine.geometry import HORIZONTAL
from labyrinth.engine.items import STONES
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.wsap.roles import ROLES

IDS = {"user": "Labyrinth/User-v0", "minotaur": "Labyrinth/Minotaur-v0"}


def test_a_refused_command_is_a_second_of_standing_still():
    """The stall of issue 25: a masked GRAB over and over used to stay at turn 0 forever."""
    env = LabyrinthEnv(preset="tiny", max_turns=5)
    _, info = env.reset(seed=3)
    grab = env.action_names.index("grab_red_stone")
    assert info["action_mask"][grab] == 0 and env.action_masks()[grab] == 0
    outcomes = []
    for turn in range(1, 6):
        _, reward, terminated, truncated, info = env.step(grab)
        assert info["turn"] == turn and "GRAB failed" in info["refused"] and reward == pytest.approx(-0.001)
        outcomes.append((terminated, truncated))
    assert outcomes[-1] == (False, True) and not any(t or u for t, u in outcomes[:-1])
    assert env.match.game.state.tick == 10  # five seconds passed
    assert [user.command for user, _ in env.match.played] == ["HALT"] * 5
    with pytest.raises(RuntimeError, match="over"):
        env.step(grab)


def test_a_played_command_says_nothing_was_refused():
    env = LabyrinthEnv(preset="tiny", max_turns=5)
    env.reset(seed=3)
    _, _, _, _, info = env.step(env.action_names.index("look"))
    assert "refused" not in info and info["turn"] == 1


@settings(max_examples=15, deadline=None)
@given(role=st.sampled_from(sorted(IDS)), seed=st.integers(0, 10**6), max_turns=st.integers(1, 25),
       actions=st.lists(st.integers(0, 40), min_size=1, max_size=8), masked=st.booleans())
def test_no_sequence_of_actions_keeps_an_episode_from_ending_within_max_turns(role, seed, max_turns, actions,
                                                                               masked):
    """Any actions, masked or not, cycled: the episode ends at step max_turns at the latest, and
    every step before the end is one turn further."""
    env = LabyrinthEnv(role, preset="tiny", max_turns=max_turns, opponent="builtin")
    n = len(COMMANDS[role])
    _, info = env.reset(seed=seed)
    for step in range(1, max_turns + 1):
        action = actions[step % len(actions)] % n
        if masked:
            allowed = np.flatnonzero(info["action_mask"])
            action = int(allowed[action % len(allowed)])
        _, _, terminated, truncated, info = env.step(action)
        assert info["turn"] == step
        if terminated or truncated:
            break
    assert terminated or truncated
    assert info["outcome"] in ("ESCAPED", "DEATH", "TIMEOUT") and 0.0 <= info["progression"] <= 1.0


def test_the_last_info_tells_the_outcome_the_achievements_and_the_progression():
    env = LabyrinthEnv(preset="tiny", max_turns=3)
    _, info = env.reset(seed=2)
    assert set(info) == {"action_mask", "turn", "stones"} and info["stones"] == 0
    halt = env.action_names.index("halt")
    for _ in range(3):
        _, _, _, truncated, info = env.step(halt)
    assert truncated and info["outcome"] == "TIMEOUT" and info["progression"] == 0.0
    assert info["achievements"] == dict.fromkeys(ROLES["user"].achievements, 0)


def test_an_escape_earns_its_achievements_and_a_progression_of_one():
    """The built-in user plays a game it wins; the env's info at its end, replayed step by step
    through the env's own actions, tells the escape (the game is the same: seeded)."""
    from labyrinth.agents.match.runner import Match
    from labyrinth.agents.registry import make_agent

    env = LabyrinthEnv(preset="tiny", max_turns=400)
    for seed in range(40):
        env.reset(seed=seed)
        game_seed = env.match.seed
        match = Match(make_agent("user", "builtin", game_seed, preset="tiny"),
                      make_agent("minotaur", "builtin", game_seed, preset="tiny"), seed=game_seed, preset="tiny")
        if match.play().outcome == "ESCAPED":
            break
    else:
        pytest.fail("the built-in user escaped none of 40 tiny games")
    env.reset(seed=seed)
    env.game.replay(match.played)  # the same turns, through the env's game
    assert env.game.info("user")["outcome"] == "ESCAPED" and env.game.info("user")["progression"] == 1.0
    earned = env.game.info("user")["achievements"]
    assert earned["escaped"] == earned["first_stone"] == earned["two_stones"] == 1


@pytest.mark.parametrize("role", sorted(IDS))
def test_the_env_pickles_and_deep_copies_and_the_copies_play_on_identically(role):
    env = LabyrinthEnv(role, preset="tiny", max_turns=80, text=True)
    _, info = env.reset(seed=7)  # a game both roles' random play survives past the copy
    rng = np.random.default_rng(4)
    for _ in range(12):
        _, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for _ in range(25):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        outs = [e.step(action) for e in (env, *copies)]
        info = outs[0][4]
        for out in outs[1:]:
            assert out[1:4] == outs[0][1:4] and out[0]["text"] == outs[0][0]["text"]
            assert all(np.array_equal(out[0][k], outs[0][0][k]) for k in out[0] if k != "text")
        if outs[0][2] or outs[0][3]:
            break
    fresh = pickle.loads(pickle.dumps(LabyrinthEnv(role, preset="tiny")))
    assert fresh.game is None and fresh.observation_space.contains(fresh.reset(seed=6)[0])


def test_before_reset_every_use_says_to_reset():
    env = LabyrinthEnv(preset="tiny")
    for use in (env.action_masks, lambda: env.step(0)):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\) or action_masks\(\)"):
            use()


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, np.True_, "10", None])
def test_a_turn_limit_below_one_or_not_an_integer_is_refused(bad):
    with pytest.raises(ValueError, match="max_turns must be an integer of at least 1"):
        LabyrinthEnv(preset="tiny", max_turns=bad)
    assert LabyrinthEnv(preset="tiny", max_turns=np.int64(3)).max_turns == 3


def test_bools_of_numpy_and_python_are_alike():
    """As flags they mean the same; as actions neither is a command's number."""
    assert LabyrinthEnv(preset="tiny", text=np.True_).observation_space.keys() == \
        LabyrinthEnv(preset="tiny", text=True).observation_space.keys()
    env = LabyrinthEnv(preset="tiny")
    env.reset(seed=1)
    for flag in (True, np.True_, False, np.False_):
        with pytest.raises(ValueError, match="integer in"):
            env.step(flag)


def test_shaping_adds_its_terms_to_the_wsap_reward_and_only_with_the_flag():
    """The same game with and without: the difference is the new cells seen and the approach to the
    nearest stone, each step; over a game the approach telescopes to its potential's change."""
    plain, shaped = LabyrinthEnv(preset="tiny", opponent="wait"), LabyrinthEnv(preset="tiny", opponent="wait",
                                                                              shaping=True)
    _, info = plain.reset(seed=9)
    shaped.reset(seed=9)
    first = Shaping(shaped.match)
    seen, potential = first.seen, first.potential
    rng, extra = np.random.default_rng(3), 0.0
    for _ in range(60):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = plain.step(action)
        extra += shaped.step(action)[1] - reward
        if terminated or truncated:
            break
    last = Shaping(shaped.match)
    assert last.seen > seen and extra == pytest.approx(NEW_CELL_BONUS * (last.seen - seen)
                                                       + APPROACH * (last.potential - potential))
    # only the hunting ground's cells pay: the labyrinth beyond it holds no stone
    assert last.seen == sum(PRESETS["tiny"].contains(*p) for p in shaped.match.seats["user"].perception.seen)
    assert shaped.shaping.seen == last.seen
    copy_ = pickle.loads(pickle.dumps(shaped))
    assert (copy_.shaping.seen, copy_.shaping.potential) == (shaped.shaping.seen, shaped.shaping.potential)
    with pytest.raises(ValueError, match="shaping"):
        LabyrinthEnv("minotaur", shaping=True)


def test_the_approach_distance_is_the_walk_to_the_stone():
    env = LabyrinthEnv(preset="tiny", opponent="wait", shaping=True)
    env.reset(seed=2)
    match = env.match
    stone, where = next((name, pos) for name, pos in match.game.state.items if name in STONES)
    field = env.shaping.fields[stone]
    assert field[where] == 0
    for pos, steps in list(field.items())[:200]:  # a neighbour one step nearer, for every cell but the stone's
        if steps:
            near = [field.get(n) for n in _neighbours(match.game.world, pos)]
            assert steps - 1 in near and all(d is None or d >= steps - 1 for d in near)


def _neighbours(world, pos):
    ways = {"UP RAMP": (0, 0, 1), "DOWN RAMP": (0, 0, -1), **{d: (dx, dy, 0) for d, (dx, dy) in HORIZONTAL.items()}}
    return [(pos[0] + ways[w][0], pos[1] + ways[w][1], pos[2] + ways[w][2]) for w in world.user_exits(pos)]


@pytest.mark.parametrize("role", sorted(IDS))
def test_every_render_mode_draws_the_window_and_the_status(role, capsys):
    env = gym.make(IDS[role], preset="tiny", render_mode="rgb_array")
    env.reset(seed=4)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert len({tuple(c) for c in picture.reshape(-1, 3)}) > 4  # tiles of several colours, not a blank
    env = gym.make(IDS[role], preset="tiny", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    rows = text.splitlines()
    me = "@" if role == "user" else "M"
    assert rows[len(rows[0]) // 2][len(rows[0]) // 2] == me and rows[-1].startswith("turn 0/400")
    env = gym.make(IDS[role], preset="tiny", render_mode="human")
    env.reset(seed=4)
    assert env.render() is None and capsys.readouterr().out.count("turn 0/400") == 2  # reset and render drew
