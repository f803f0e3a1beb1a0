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

from labyrinth.agents.builtin.stone_search import StoneSearch
from labyrinth.agents.rl.demos import Demonstrator
from labyrinth.agents.rl.gym_env import LabyrinthEnv, task_env
from labyrinth.agents.rl.kernel.draws import Draws
from labyrinth.agents.rl.kernel.ground import ground_vector
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.region import around
from labyrinth.agents.rl.kernel.state import StateRows
from labyrinth.agents.rl.kernel.stone_search import COUNT, ENDS_KNOWN, LEVEL, WORDS, hear, look, seen_at
from labyrinth.agents.rl.kernel.turn import Told, command_row, decision_row, play_turns
from labyrinth.agents.rl.kernel.user_memory import UserMemory
from labyrinth.agents.rl.kernel.user_obs import new_observations, observe_opening, observe_turn
from labyrinth.agents.rl.kernel.work import PLAYED, REASONS
from labyrinth.agents.rl.user_view import SPACES
from labyrinth.engine import events as ev
from labyrinth.engine.geometry import compass
from labyrinth.engine.items import STONES
from labyrinth.engine.presets import PRESETS

pytestmark = pytest.mark.xdist_group("kernel")
# (task, episodes side by side, share of LOOKs, share of the built-in user's actions)
TASKS = (("Labyrinth/User-Tiny-v1", 3, 0.3, 0.5), ("Labyrinth/User-Tiny-Wait-v1", 2, 0.5, 0.0),
         ("Labyrinth/Stones-Tiny-v1", 3, 0.3, 0.6), ("Labyrinth/User-Small-v1", 2, 0.3, 0.5))
TASK_IDS = [task for task, *_ in TASKS]
HARD = {"role": "user", "preset": "tiny", "difficulty": "hard", "opponent": "builtin"}  # no hums: LOOK tells nothing
TURNS = None if COMPILED else 25  # without numba, each episode's first turns only


def check(out: dict[str, np.ndarray], row: int, obs: dict[str, np.ndarray], where: str) -> None:
    for key in SPACES:
        assert out[key][row].dtype == obs[key].dtype and out[key][row].shape == obs[key].shape, (key, where)
        assert np.array_equal(out[key][row], obs[key]), (key, where)


def play(task_id: str, episodes: int, looks: float, demonstrated: float, seed: int, seen: Counter,
         turns: int | None = TURNS) -> None:
    envs = [task_env(task_id) if task_id in TASK_IDS else LabyrinthEnv(**HARD) for _ in range(episodes)]
    rng = np.random.default_rng(seed)
    demonstrators = [Demonstrator(env) for env in envs]
    opening = [env.reset(seed=seed + row)[0] for row, env in enumerate(envs)]
    max_turns, preset = envs[0].max_turns, envs[0].preset
    rows, draws, memory = StateRows(episodes, preset), Draws(episodes), UserMemory(episodes, preset)
    out, stops = new_observations(episodes), Told(episodes)
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
@given(seed=st.integers(0, 2**31 - 1), task_id=st.sampled_from([*TASK_IDS, "hard"]))
def test_user_observations_of_any_game_equal_the_env(seed: int, task_id: str) -> None:
    """Games of any seed, of the tasks or on hard (where a LOOK hears nothing)."""
    play(task_id, 2, 0.4, 0.4, seed, Counter(), 60 if COMPILED else 10)


@settings(max_examples=60 if COMPILED else 15, deadline=None)
@given(preset=st.sampled_from(["tiny", "small"]), data=st.data())
def test_stone_search_equals_the_builtin_search(preset: str, data: st.DataObject) -> None:
    """kernel/stone_search.py against agents/builtin/stone_search.py, rule for rule, on sequences the games seldom
    play: hums heard from anywhere on the ground (a true stone's bearing, or a word that contradicts it, or the
    same hum again), cells seen in bulk (rows of the ground or a whole level, so that a first hearing finds its
    sector or its level seen) and stones seen lying (again where they were seen). After each, every stone's places
    and the bounds on their rows are the same."""
    g = ground_vector(preset)
    x0, y0, z0, width, height, levels = (int(n) for n in g[:6])
    memory = UserMemory(1, preset)
    box = around(PRESETS[preset])
    origin = np.array([box.x0, box.y0, box.z0], dtype=np.int64)
    seen_map, places, search, ends = memory.seen[0], memory.places[0], memory.search[0], memory.ends[0]
    scratch = np.zeros((height, 3), dtype=np.int64)
    looked: set = set()
    builtin = StoneSearch({"x0": x0, "y0": y0, "z0": z0, "width": width, "height": height, "levels": levels}, looked)
    cells = st.tuples(st.integers(x0, x0 + width - 1), st.integers(y0, y0 + height - 1),
                      st.integers(z0, z0 + levels - 1))
    stones = [data.draw(cells) for _ in STONES]
    for _ in range(data.draw(st.integers(1, 30))):
        what = data.draw(st.sampled_from(["hear", "hear", "hear", "look", "rows", "seen"]))
        s = data.draw(st.integers(0, len(STONES) - 1))
        if what == "hear":
            at = data.draw(cells)
            word = compass(stones[s][0] - at[0], stones[s][1] - at[1])
            if data.draw(st.integers(0, 3)) == 0:
                word = data.draw(st.sampled_from(WORDS))
            builtin.hear(STONES[s], at, word, stones[s][2] - at[2])
            hear(places, search, ends, scratch, g, seen_map, origin, s, *at, WORDS.index(word), stones[s][2] - at[2])
        elif what in ("look", "rows"):
            if what == "look":
                fresh = data.draw(st.lists(cells, max_size=40, unique=True))
            else:
                z, whole = data.draw(st.integers(z0, z0 + levels - 1)), data.draw(st.booleans())
                first = y0 if whole else data.draw(st.integers(y0, y0 + height - 1))
                last = y0 + height if whole else min(first + 6, y0 + height)
                fresh = [(x, y, z) for y in range(first, last) for x in range(x0, x0 + width)]
            fresh = [cell for cell in fresh if cell not in looked]
            looked.update(fresh)
            for x, y, z in fresh:
                seen_map[z - origin[2], y - origin[1], x - origin[0]] = 0
            builtin.look(fresh)
            look(places, search, g, np.array(fresh, dtype=np.int64).reshape(-1, 3), len(fresh))
        else:
            stones[s] = data.draw(st.sampled_from([stones[s], data.draw(cells)]))
            builtin.seen(STONES[s], stones[s])
            seen_at(places, search, g, s, *stones[s])
        for k, stone in enumerate(STONES):
            expected = builtin.candidates.get(stone, set())
            got = {(x0 + i, y0 + j, int(search[k, LEVEL])) for j, i in zip(*np.nonzero(places[k]), strict=True)}
            assert got == expected and search[k, COUNT] == len(expected), (what, stone)
            known = builtin._ends.get(stone)
            assert bool(search[k, ENDS_KNOWN]) == (known is not None), (what, stone)
            if known is not None:
                assert {y0 + j: (int(w), int(e)) for j, (present, w, e) in enumerate(ends[k]) if present} == known
