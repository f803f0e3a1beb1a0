"""The kernel's user observation (agents/rl/kernel/user_obs.py) against the scalar env's, which is UserView's: whole
episodes of the user's tiny and small tasks, rows in lockstep with N LabyrinthEnvs. Each step the env plays its
action; the row plays the same turn (the env's own inputs, Match.played) through turn.play_turns, its state checked
equal, then user_obs.observe_turn writes its observation, equal to the env's key for key, array for array, at every
turn (and the opening's, from observe_opening). Actions are random among the allowed, or often a LOOK (so that the
stones hum and their search narrows: the stone_may_lie plane), a GRAB when one is allowed, or the built-in user's
(demos.Demonstrator, which finds the stones); the test counts that stones were heard, grabbed, seen and sighted, and
that the rows that fall back (to the engine's view) are few. Without numba the same code runs as Python, on fewer
turns."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.rl.demos import Demonstrator
from labyrinth.agents.rl.gym_env import task_env
from labyrinth.agents.rl.kernel.draws import Draws
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.state import StateRows
from labyrinth.agents.rl.kernel.stone_search import COUNT
from labyrinth.agents.rl.kernel.turn import Stops, command_row, decision_row, play_turns
from labyrinth.agents.rl.kernel.user_memory import UserMemory
from labyrinth.agents.rl.kernel.user_obs import new_observations, observe_opening, observe_turn
from labyrinth.agents.rl.kernel.work import PLAYED, REASONS
from labyrinth.agents.rl.user_view import SPACES
from labyrinth.engine import events as ev

pytestmark = pytest.mark.xdist_group("kernel")
# (task, episodes side by side, share of LOOKs, share of the built-in user's actions)
TASKS = (("Labyrinth/User-Tiny-v1", 3, 0.3, 0.5), ("Labyrinth/User-Tiny-Wait-v1", 2, 0.5, 0.0),
         ("Labyrinth/Stones-Tiny-v1", 3, 0.3, 0.6), ("Labyrinth/User-Small-v1", 2, 0.3, 0.5))
TURNS = None if COMPILED else 25  # without numba, each episode's first turns only


def check(out: dict[str, np.ndarray], row: int, obs: dict[str, np.ndarray], where: str) -> None:
    for key in SPACES:
        assert out[key][row].dtype == obs[key].dtype and out[key][row].shape == obs[key].shape, (key, where)
        assert np.array_equal(out[key][row], obs[key]), (key, where)


def play(task_id: str, episodes: int, looks: float, demonstrated: float, seed: int, seen: Counter,
         turns: int | None = TURNS) -> None:
    envs = [task_env(task_id) for _ in range(episodes)]
    rng = np.random.default_rng(seed)
    demonstrators = [Demonstrator(env) for env in envs]
    opening = [env.reset(seed=seed + row)[0] for row, env in enumerate(envs)]
    max_turns, preset = envs[0].max_turns, envs[0].preset
    rows, draws, memory = StateRows(episodes, preset), Draws(episodes), UserMemory(episodes, preset)
    out, stops = new_observations(episodes), Stops(episodes)
    for row, env in enumerate(envs):
        rows.lay_region(row, env.match.game.world)
        rows.write(row, env.match.game.state)
        draws.write(row, env.match.seed)
    why = observe_opening(rows, memory, np.ones(episodes, dtype=np.bool_), max_turns, out)
    live = []
    for row, env in enumerate(envs):
        seen["rows"] += 1
        if why[row] == PLAYED:
            check(out, row, opening[row], f"{task_id} row {row} opening")
            live.append(row)
        else:
            seen[f"fell back: {REASONS[why[row]]}"] += 1
    while live:
        commands, decisions = np.zeros((episodes, 5), dtype=np.int64), np.zeros((episodes, 5), dtype=np.int64)
        observed, ended = {}, set()
        for row in live:
            env = envs[row]
            mask = env.action_masks()
            names = [env.action_names[a] for a in range(len(mask))]
            grabs = [a for a in np.flatnonzero(mask) if names[a].startswith("grab_")]
            if grabs and rng.random() < 0.7:
                action = int(rng.choice(grabs))
            elif rng.random() < looks:
                action = names.index("look")
            elif rng.random() < demonstrated:
                action = demonstrators[row].action()
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            observed[row], _, terminated, truncated, _ = env.step(action)
            user, minotaur = env.match.played[-1]
            commands[row], decisions[row] = command_row(user), decision_row(minotaur)
            events = env.match.last.events
            seen["hummed"] += any(isinstance(e, ev.StonesHummed) and e.hums for e in events)
            seen["stone grabbed"] += any(isinstance(e, ev.StoneGrabbed) for e in events)
            if terminated or truncated or (turns is not None and env.match.turns >= turns):
                ended.add(row)
        why = play_turns(rows, commands, decisions, draws, stops)
        why = observe_turn(rows, memory, commands, stops, why, np.array([env.match.turns for env in envs]),
                           max_turns, out)
        for row in live:
            env, where = envs[row], f"{task_id} row {row} turn {envs[row].match.turns}"
            seen["turns"] += 1
            if why[row] != PLAYED:  # the env replays this episode on the engine: the row is done with
                seen[f"fell back: {REASONS[why[row]]}"] += 1
                ended.add(row)
                continue
            assert rows.state(row) == env.match.game.state, where
            check(out, row, observed[row], where)
            view = env.game.views["user"]
            seen["stone seen"] += any(name.endswith("STONE") for name in view.perception.items)
            seen["minotaur sighted"] += view.sighted is not None
            seen["narrowed"] += int((memory.search[row, :, COUNT] > 1).sum())
            counts = [len(view.search.candidates.get(stone, ())) for stone in ("RED STONE", "BLUE STONE",
                                                                              "YELLOW STONE")]
            assert memory.search[row, :, COUNT].tolist() == counts, where
        for row in ended:
            rows.kept[row] = True  # played no further: play_turns leaves a kept row alone
        live = [row for row in live if row not in ended]


def test_user_observations_equal_the_env_over_whole_episodes() -> None:
    seen: Counter = Counter()
    for number, (task_id, episodes, looks, demonstrated) in enumerate(TASKS):
        play(task_id, episodes, looks, demonstrated, 100 * number + 5, seen)
    fell_back = sum(n for what, n in seen.items() if what.startswith("fell back"))
    assert fell_back <= seen["rows"] // 5, seen
    for what in ("hummed", "stone grabbed", "stone seen", "minotaur sighted", "narrowed"):
        assert seen[what], f"no {what}: the test would not see that rule broken ({seen})"


@settings(max_examples=4 if COMPILED else 1, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), task_id=st.sampled_from([task for task, *_ in TASKS]))
def test_user_observations_of_any_game_equal_the_env(seed: int, task_id: str) -> None:
    play(task_id, 2, 0.4, 0.4, seed, Counter(), 60 if COMPILED else 10)
