"""The numeric observation: planes that agree with what the role perceives, positions and
ways as fractions of the hunting ground, LOOK's hums as bearings, the same shapes on
every preset, and Stable-Baselines3's own checker on both roles."""

import math
import warnings

import numpy as np
import pytest
from gymnasium import spaces

from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.pettingzoo_env import parallel_env
from labyrinth.agents.rl.planes import COMPASS_VECTORS, RADIUS
from labyrinth.agents.rl.spaces import unflat_planes
from labyrinth.agents.rl.user_view import MEMORY_PLANES, WINDOW_PLANES
from labyrinth.engine.cells import CELL_CHARS
from labyrinth.engine.items import ITEM_ORDER, STONES

W = {name: i for i, name in enumerate(WINDOW_PLANES)}


def _user(seed: int = 3, **kwargs) -> tuple[LabyrinthEnv, dict, dict]:
    env = LabyrinthEnv("user", preset="tiny", opponent="wait", **kwargs)
    obs, info = env.reset(seed=seed)
    return env, obs, info


def test_the_window_planes_are_what_the_user_remembers():
    env, obs, _ = _user()
    state, perception = env.match.game.state, env.match.seats["user"].perception
    assert obs["map"].dtype == np.float32 and obs["map"].ndim == 1  # neither uint8 nor 3-D: nobody's image
    planes = unflat_planes(obs["map"], "user", "map")
    assert set(np.unique(planes)) <= {0.0, 1.0}
    kinds = planes[[W["rock"], W["open"], W["unknown"]]]
    assert (kinds.sum(axis=0) == 1).all()  # each cell is rock, open or not seen: one of the three
    x, y, z = state.user
    for row in range(2 * RADIUS + 1):
        for col in range(2 * RADIUS + 1):
            pos = (x + col - RADIUS, y + RADIUS - row, z)
            known = perception.seen.get(pos)
            assert planes[W["unknown"], row, col] == (known is None)
            if known is not None:
                assert planes[W["open"], row, col] == (CELL_CHARS[known] != "#")
    assert planes[W["trail"], RADIUS, RADIUS] == 1 and planes[W["trail"]].sum() == 1  # only where it stands


def test_the_memory_map_remembers_beyond_the_window():
    env, obs, info = _user()
    memory = unflat_planes(obs["memory"], "user", "memory")
    unknown = memory[MEMORY_PLANES.index("unknown")].sum()
    you = memory[MEMORY_PLANES.index("you")]
    assert you.sum() == 1 and tuple(np.argwhere(you)[0]) == (207 - 200, 200 - 192)  # north first: tiny's y 192..207
    far = [i for i, name in enumerate(env.action_names) if name.endswith("_walk_far")]
    for _ in range(15):
        action = next((a for a in far if info["action_mask"][a]), None)
        obs, _, _, _, info = env.step(action if action is not None else env.action_names.index("halt"))
    memory = unflat_planes(obs["memory"], "user", "memory")
    assert memory[MEMORY_PLANES.index("unknown")].sum() < unknown
    assert memory[MEMORY_PLANES.index("trail")].sum() > 1 and memory[MEMORY_PLANES.index("you")].sum() == 1


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_where_a_stone_may_lie_always_holds_the_missing_stones_of_the_level(seed):
    """The memory map's reckoning from the hums heard and the cells seen: after each LOOK, a missing
    stone on the user's level lies in one of the cells marked."""
    env, obs, info = _user(seed=seed)
    plane = MEMORY_PLANES.index("stone_may_lie")
    assert unflat_planes(obs["memory"], "user", "memory")[plane].sum() == 0  # nothing heard yet: no reckoning
    rng, look = np.random.default_rng(seed), env.action_names.index("look")
    walks = [a for a, name in enumerate(env.action_names) if name.endswith("_walk_far")]
    ground = env.game.views["user"].ground
    for _ in range(6):
        obs, _, terminated, truncated, info = env.step(look)
        state = env.match.game.state
        for stone, pos in state.items:
            if stone in STONES and stone not in state.inventory and pos[2] == state.user[2]:
                assert unflat_planes(obs["memory"], "user", "memory")[(plane, *ground.coarse_cell(pos))] == 1, stone
        for _ in range(3):
            if terminated or truncated:
                return
            choices = [a for a in walks if info["action_mask"][a]]
            obs, _, terminated, truncated, info = env.step(int(rng.choice(choices)) if choices else look)


def test_positions_are_fractions_of_the_hunting_ground():
    _, obs, _ = _user()
    assert obs["position"].tolist() == pytest.approx([8 / 15, 8 / 15, 1.0])  # (200, 200, 100) in tiny's ground
    for key in ("stamina", "timers", "cue", "exits", "inventory"):
        assert ((0 <= obs[key]) & (obs[key] <= 1)).all(), key
    assert obs["cue"].sum() == 3  # one proximity, one direction (or none), one temporal status


def test_look_gives_each_stone_a_bearing_that_follows_the_user():
    env, _, info = _user(seed=5)
    obs, _, _, _, info = env.step(env.action_names.index("look"))
    hums = obs["hums"].reshape(len(STONES), 6)
    heard = env.match.seats["user"].perception.hums
    for i, stone in enumerate(STONES):
        direction, levels = heard[stone]
        assert hums[i, 0] == 1 and tuple(hums[i, 1:3]) == pytest.approx(COMPASS_VECTORS.get(direction, (0, 0)))
        assert hums[i, 3] == pytest.approx(max(-1, min(1, levels / 1)))  # tiny has two levels: one apart at most
        assert math.hypot(*hums[i, 1:3]) in (pytest.approx(1.0), 0.0) and tuple(hums[i, 4:]) == (0, 0)
    moves = [a for a, name in enumerate(env.action_names) if name.endswith("_walk_1") and info["action_mask"][a]]
    obs, _, _, _, _ = env.step(moves[0])
    assert np.abs(obs["hums"].reshape(len(STONES), 6)[:, 4:]).sum() == pytest.approx(1 / 15 * len(STONES))


def test_an_item_seen_is_a_way_to_it():
    """The built-in user's game against a waiting Minotaur, replayed into the env's game until it sees an item."""
    from labyrinth.agents.match.runner import Match
    from labyrinth.agents.registry import make_agent

    env, _, _ = _user(seed=1)
    seed = env.match.seed
    played = Match(make_agent("user", "builtin", seed, preset="tiny"), make_agent("minotaur", "wait", seed),
                   seed=seed, preset="tiny", max_turns=200)
    played.play()
    items = env.match.seats["user"].perception.items
    for turn in played.played:
        if items:
            break
        env.game.replay([turn])
    assert items, "the built-in user saw no item in its game"
    obs = env.game.observation("user")
    here = env.match.game.state.user
    table = obs["items_seen"].reshape(len(ITEM_ORDER), 4)  # an item a row: seen, then its offset
    for i, name in enumerate(ITEM_ORDER):
        if name in items:
            pos = items[name]
            assert table[i].tolist() == pytest.approx([1, (pos[0] - here[0]) / 15, (pos[1] - here[1]) / 15,
                                                       pos[2] - here[2]])
        else:
            assert not table[i].any()


def test_the_minotaur_sees_its_labyrinth_and_where_the_stones_lie():
    from labyrinth.agents.rl.minotaur_view import WINDOW_PLANES as MW

    env = LabyrinthEnv("minotaur", preset="tiny")
    obs, _ = env.reset(seed=2)
    o = env.match.last.observation
    x, y, z = o.position.x, o.position.y, o.position.z
    world = env.match.game.world
    rock = unflat_planes(obs["map"], "minotaur", "map")[MW.index("rock")]
    for row in range(2 * RADIUS + 1):
        assert "".join("#" if v else "." for v in rock[row]) == "".join(
            "#" if c == 0 else "." for c in world.row(x - RADIUS, 2 * RADIUS + 1, y + RADIUS - row, z))
    view = env.game.views["minotaur"]  # beyond the ground's margin the window is read from the world row by row
    far = view._cells((x + 60, y, z))
    assert far == b"".join(world.row(x + 60 - RADIUS, 2 * RADIUS + 1, y + RADIUS - r, z) for r in range(2 * RADIUS + 1))
    lying = obs["items_lying"].reshape(len(ITEM_ORDER), 4)
    assert lying[:, 0].sum() == len(o.items)
    assert not obs["intruder"].any()  # nothing heard or seen yet


def test_the_shapes_are_the_same_on_every_preset():
    for role in ("user", "minotaur"):
        tiny, large = LabyrinthEnv(role, preset="tiny"), LabyrinthEnv(role, preset="large")
        assert tiny.observation_space == large.observation_space
    env = LabyrinthEnv("user", preset="large", opponent="wait")
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("text", [False, True])
@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_an_observation_holds_its_keys_in_the_spaces_order(role, text):
    """So that the dict's values, concatenated, are what ``spaces.flatten`` gives (Gymnasium's Dict sorts the
    keys by name), from the scalar env and from PettingZoo's alike."""
    env = LabyrinthEnv(role, preset="tiny", opponent="wait", text=text)
    obs, info = env.reset(seed=1)
    order = list(env.observation_space.spaces)
    assert list(obs) == order and order == sorted(order)
    obs, *_ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert list(obs) == order
    if not text:
        assert np.array_equal(np.concatenate(list(obs.values())), spaces.flatten(env.observation_space, obs))
    pettingzoo = parallel_env(preset="tiny", text=text)
    observations, _ = pettingzoo.reset(seed=1)
    assert list(observations[role]) == list(pettingzoo.observation_space(role).spaces) == order


@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_stable_baselines3_checker_passes_on_the_default_observation_without_a_word(role):
    """Not even its image heuristics: the plane keys are flat float32 vectors of 0 and 1, which it
    takes for numbers (a uint8 or three-dimensional box it would take for a picture)."""
    check_env = pytest.importorskip("stable_baselines3.common.env_checker",
                                    reason="Stable-Baselines3 is not installed: pip install -e '.[train]'").check_env
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(LabyrinthEnv(role, preset="tiny", max_turns=30))
    assert [str(w.message) for w in caught] == []
