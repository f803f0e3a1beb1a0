"""The Minotaur tasks' user opponents in the kernel (agents/rl/kernel/user_opponents.py) against the Python agents the
scalar env seats (naive.Halter, naive.RandomWalker): whole episodes of Labyrinth/Minotaur-Tiny-Wait-v1 and
Minotaur-Tiny-Random-v1 with random allowed actions of the Minotaur (JUMPs among them), a row each, and at every
turn the kernel's command, from the row the state is written into, equal to the one the Match played
(Match.played), and the walker's stream after it equal to the agent's. The walker often wanders past its region
(tiny's ground and two chunks around it: the turn then falls back too), and only there is it left to Python.
Apart, states of played games with items put beside the user, on it, a step too far or behind a wall, and the user
put in rock (no way out): every branch of the walker's decide, from a fresh perception's observation of the state."""

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.builtin.naive import RandomWalker
from labyrinth.agents.rl.gym_env import task_env
from labyrinth.agents.rl.kernel import mt
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.region import Region
from labyrinth.agents.rl.kernel.state import StateRows
from labyrinth.agents.rl.kernel.turn import COMMAND_WORDS, command_row
from labyrinth.agents.rl.kernel.user_opponents import HALT_ROW, decide_rows, streams
from labyrinth.agents.rl.kernel.work import KEPT, LEFT_REGION, PLAYED
from labyrinth.engine.cells import ROCK
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.engine.wsap.perception import UserPerception

pytestmark = pytest.mark.xdist_group("kernel")
TASKS = {"Labyrinth/Minotaur-Tiny-Wait-v1": "wait", "Labyrinth/Minotaur-Tiny-Random-v1": "random"}


def region(rows: StateRows, row: int) -> Region:
    return Region(rows.kinds[row], (int(rows.origin[row, 0]), int(rows.origin[row, 1]), int(rows.origin[row, 2])))


def around_user(rows: StateRows, row: int) -> list[tuple[int, int, int]]:
    x, y, z = rows.user[row].tolist()
    return [(x, y, z), (x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z)]


def play(task_id: str, episodes: int, seed: int, seen: Counter) -> None:
    opponent = TASKS[task_id]
    envs = [task_env(task_id) for _ in range(episodes)]
    rng = np.random.default_rng(seed)
    for row, env in enumerate(envs):
        env.reset(seed=seed + row)
    agents = [env.match.sides["user"].agent for env in envs]
    if opponent == "random":
        assert all(isinstance(agent, RandomWalker) for agent in agents)
    rows = StateRows(episodes, envs[0].preset)
    for row, env in enumerate(envs):
        rows.lay_region(row, env.match.game.world)
    stream = streams(agents) if opponent == "random" else np.zeros((episodes, mt.STATE), dtype=np.uint32)
    out = np.zeros((episodes, HALT_ROW.shape[0]), dtype=np.int64)
    live = list(range(episodes))
    while live:
        asked = np.zeros(episodes, dtype=np.bool_)
        asked[live] = True
        for row in live:
            rows.write(row, envs[row].match.game.state)
        why = decide_rows(opponent, rows, stream, asked, out)
        for row in live:
            env = envs[row]
            mask = env.action_masks()
            jump = env.action_names.index("jump")
            action = jump if mask[jump] and rng.random() < 0.2 else int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
            where = f"{task_id} row {row}, turn {env.match.turns}"
            if why[row] != PLAYED:  # only where the walker stands at its region's edge, or past it
                assert why[row] == LEFT_REGION, where
                assert not all(map(region(rows, row).contains, around_user(rows, row))), where
                seen["fell back"] += 1
                stream[row] = streams([agents[row]])[0]  # the Python agent decided: the kernel goes on from it
                continue
            seen["decided"] += 1
            played = command_row(env.match.played[-1][0])
            seen[COMMAND_WORDS[played[0]]] += 1
            assert out[row].tolist() == played.tolist(), where
            if opponent == "random":
                assert np.array_equal(stream[row], streams([agents[row]])[0]), where
        live = [row for row in live if envs[row].match.outcome is None]


@pytest.mark.parametrize("task_id", TASKS)
def test_the_kernels_opponents_decide_as_the_python_agents(task_id):
    seen: Counter = Counter()
    play(task_id, 4, 31, seen)
    print(task_id, dict(seen))
    assert seen["HALT" if TASKS[task_id] == "wait" else "MOVE"] > 50, seen


@settings(max_examples=6 if COMPILED else 2, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(list(TASKS)))
def test_any_seed(seed, task_id):
    play(task_id, 1, seed, Counter())


def test_every_branch_of_the_walker_from_states_put_to_it():
    """Items put on the user's cell, beside it, a step too far, across a wall and on the level above, and the user
    put in rock (no way out): the kernel's decision and stream are those of RandomWalker.decide on a fresh
    perception, over the states of a few played games."""
    seen: Counter = Counter()
    for seed in (41, 42, 43):
        put_in_a_game(seed, seen)
    assert seen["GRAB"] and seen["MOVE"] and seen["LOOK"], seen


def put_in_a_game(seed: int, seen: Counter) -> None:
    env = task_env("Labyrinth/Minotaur-Tiny-Random-v1")
    env.reset(seed=seed)
    game, side, rand = env.match.game, env.match.sides["user"], np.random.default_rng(seed)
    rows = StateRows(1, "tiny")
    rows.lay_region(0, game.world)
    out = np.zeros((1, HALT_ROW.shape[0]), dtype=np.int64)
    for _ in range(15):
        x, y, z = game.state.user
        places = [(x, y, z), (x + 1, y, z), (x, y - 1, z), (x + 1, y + 1, z), (x + 2, y, z), (x, y, z + 1)]
        rock = next(((x + dx, y + dy, z) for dx in range(-12, 13) for dy in range(-12, 13)
                     if all(game.world.cell(x + dx + ex, y + dy + ey, z) == ROCK
                            for ex, ey in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)))), None)
        for k in range(8):
            name = ITEM_ORDER[int(rand.integers(len(ITEM_ORDER)))]
            others = tuple(item for item in game.state.items if item[0] != name)
            place = places[int(rand.integers(len(places)))]
            state = replace(game.state, items=tuple(sorted(((name, place), *others),
                                                           key=lambda item: ITEM_ORDER.index(item[0]))))
            if k == 7 and rock is not None:
                state = replace(state, user=rock)
            walker = RandomWalker(seed + k)
            for _ in range(k):
                walker.rng.random()
            stream = streams([walker])
            rows.write(0, state)
            why = decide_rows("random", rows, stream, np.ones(1, dtype=np.bool_), out)
            played, game.state = game.state, state
            action = walker.decide(UserPerception(game.world).observe(game.opening()))
            game.state = played
            assert why[0] == PLAYED
            seen[action.name] += 1
            assert out[0].tolist() == command_row(side.knowledge.to_engine(action)).tolist(), (state, action)
            assert np.array_equal(stream[0], streams([walker])[0])
        if env.step(int(rand.choice(np.flatnonzero(env.action_masks()))))[2]:
            return


def test_a_kept_row_or_a_sight_past_the_region_is_left_to_python():
    env = task_env("Labyrinth/Minotaur-Tiny-Random-v1")
    env.reset(seed=3)
    rows = StateRows(3, "tiny")
    for row in range(3):
        rows.lay_region(row, env.match.game.world)
        rows.write(row, env.match.game.state)
    rows.user[1] = rows.origin[1]
    rows.kept[2] = True
    stream = streams([RandomWalker(s) for s in range(3)])
    before, out = stream.copy(), np.full((3, HALT_ROW.shape[0]), -7, dtype=np.int64)
    why = decide_rows("random", rows, stream, np.ones(3, dtype=np.bool_), out)
    assert why.tolist() == [PLAYED, LEFT_REGION, KEPT]
    assert (out[1:] == -7).all() and np.array_equal(stream[1:], before[1:])
    assert decide_rows("wait", rows, stream, np.ones(3, dtype=np.bool_), out).tolist() == [PLAYED] * 3
    assert all(row.tolist() == HALT_ROW.tolist() for row in out)
