"""The RL benches' own parts (bench/rl/rl_eval.py, rllib_masked.py, rllib_window.py, ppo_memory.py,
ppo_routes.py, train_ppo.py, baseline.py and baseline_table.py, gym_bench.py's ceilings): the learning
curve's and the baseline table's numbers are only as good as the evaluation that makes them. The parts
without torch or Ray run everywhere; the training script's end-to-end run needs the [train] extra and
skips, saying so, without it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

BENCH = Path(__file__).resolve().parent.parent / "bench" / "rl"
sys.path.insert(0, str(BENCH))

import baseline
import baseline_table
import gym_bench
import rl_eval
import vector_bench  # bench/rl/ is a folder of scripts, not a package: on sys.path above
from baseline import result_path
from ppo_memory import ACTIONS, ShortMemory, past_key
from ppo_routes import GOALS, ROUTE_SPAN, ROUTES, Routes
from rllib_masked import Masked, MaskedOne
from rllib_window import Window

from labyrinth.agents.builtin.usermap import path_to
from labyrinth.agents.rl.commands import action_names
from labyrinth.agents.rl.demos import Demonstrator, demonstrations
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.pettingzoo_env import parallel_env
from labyrinth.agents.rl.protocol import BUILTIN, RandomPolicy, evaluate


def test_stages_are_read_in_order_of_their_first_step_and_must_start_at_zero():
    assert rl_eval.stages("tiny:builtin:60000,tiny:wait:0") == [
        rl_eval.Stage("tiny", "wait", 0), rl_eval.Stage("tiny", "builtin", 60000)]
    with pytest.raises(SystemExit, match="starts at step 0"):
        rl_eval.stages("tiny:wait:10")
    for bad in ("tiny:wait", "tiny:wait:soon", "tiny:wait:0,,"):
        with pytest.raises(SystemExit, match="preset:opponent:from_step"):
            rl_eval.stages(bad)


def test_rate_gives_the_escape_share_inside_its_wilson_interval_and_the_caught_share():
    games = [{"outcome": "ESCAPED"}] * 3 + [{"outcome": "DEATH"}] * 5 + [{"outcome": "TIMEOUT"}] * 2
    r = rl_eval.rate(games)
    assert r["escape"] == pytest.approx(0.3) and r["caught"] == pytest.approx(0.5)
    assert 0 < r["low"] < 0.3 < r["high"] < 1


def _games(escaped: int, n: int = 200) -> list[dict]:
    return [{"outcome": "ESCAPED"}] * escaped + [{"outcome": "DEATH"}] * (n - escaped)


def test_paired_difference_is_per_seed_and_its_interval_excludes_zero_only_when_it_should():
    lost = _games(0)
    four = rl_eval.paired(_games(4), lost)
    assert four["mean"] == pytest.approx(0.02) and four["low"] < 0 < four["high"]  # 4 against none: sign test p 0.125
    six = rl_eval.paired(_games(6), lost)
    assert six["low"] > 0  # 6 against none: p 0.031
    same = rl_eval.paired(lost, lost)
    assert same["mean"] == 0 and same["low"] < 0 < same["high"]  # never a point: 200 games are not all games
    mirrored = rl_eval.paired(lost, _games(6))
    assert (mirrored["low"], mirrored["high"]) == pytest.approx((-six["high"], -six["low"]))


@pytest.mark.parametrize(("both", "only_first", "only_second"), [(0.0, 0.01, 0.0), (0.0, 0.02, 0.01),
                                                                  (0.05, 0.10, 0.02), (0.10, 0.05, 0.05)])
def test_the_paired_interval_covers_the_truth_at_least_nineteen_times_in_twenty(both, only_first, only_second):
    """Coverage, simulated: 2,000 evaluations of 200 seeds for each truth (rare escapes first, where a
    paired t interval covers at most 87 %: it shrinks to a point whenever neither player escapes)."""
    rng = np.random.default_rng(25)
    cells = rng.multinomial(200, [both, only_first, only_second, 1 - both - only_first - only_second], size=2_000)
    covered = 0
    for a, b, c, d in cells:
        first = [{"outcome": "ESCAPED"}] * (a + b) + [{"outcome": "DEATH"}] * (c + d)
        second = [{"outcome": "ESCAPED"}] * a + [{"outcome": "DEATH"}] * b + [{"outcome": "ESCAPED"}] * c \
            + [{"outcome": "DEATH"}] * d
        interval = rl_eval.paired(first, second)
        covered += interval["low"] <= only_first - only_second <= interval["high"]
    assert covered / len(cells) >= 0.93


def test_a_policy_and_the_builtin_user_are_judged_on_the_very_same_held_out_games():
    rng = np.random.default_rng(0)
    seeds = rl_eval.held_out(3)
    first = rl_eval.play_policy(lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), "tiny", 30, seeds)
    again = rl_eval.play_policy(lambda obs, mask: int(np.flatnonzero(mask)[0]), "tiny", 30, seeds)
    assert [g["seed"] for g in first] == [g["seed"] for g in again]  # the held-out seed fixes the game
    assert len({g["seed"] for g in first}) == 3
    assert all(g["outcome"] in ("ESCAPED", "DEATH", "TIMEOUT") and 1 <= g["turns"] <= 30 for g in first)
    builtin = rl_eval.play_builtin("tiny", 30, [g["seed"] for g in first])
    assert [g["seed"] for g in builtin] == [g["seed"] for g in first]
    assert all(g["outcome"] in ("ESCAPED", "DEATH", "TIMEOUT") for g in builtin)


@pytest.mark.parametrize(("env_id", "role"), [("Labyrinth/User-v0", "user"), ("Labyrinth/Minotaur-v0", "minotaur")])
def test_the_match_alone_plays_the_envs_games_again_and_refuses_an_opponent_that_plays_others(env_id, role):
    """gym_bench's Match ceiling: the env's games replayed through the one turn loop, the opponent deciding
    again. Its figure is a ceiling of that env only if they are the same games; another opponent's are not."""
    _, games = gym_bench.gym_rate(env_id, 120, opponent="builtin", text=False, preset="tiny", difficulty="normal",
                                    max_turns=50)
    assert len(games) >= 2 and sum(len(played) for _, played, _ in games) == 120
    rate = gym_bench.match_rate(games, role, "builtin", "tiny", "normal")
    assert (rate.steps, rate.episodes) == (120, len(games)) and rate.cpu_s > 0
    other = "wait" if role == "user" else "random"
    with pytest.raises(ValueError, match="decided otherwise"):
        gym_bench.match_rate(games, role, other, "tiny", "normal")


def test_rllib_sees_each_role_as_one_vector_its_mask_first_inside_its_space():
    env = Masked(parallel_env(preset="tiny", max_turns=5))
    observations, infos = env.reset(seed=3)
    for _ in range(5):
        for agent, obs in observations.items():
            space = env.observation_space(agent)
            assert space.contains(obs), agent
            mask = infos[agent]["action_mask"]
            assert np.array_equal(obs[:len(mask)].astype(bool), mask)  # the mask first, then the keys
        if not env.agents:
            break
        actions = {a: int(np.flatnonzero(infos[a]["action_mask"])[0]) for a in env.agents}
        observations, _, _, _, infos = env.step(actions)


def test_rllib_rates_are_over_the_last_iterations_holding_at_least_the_window_of_episodes():
    window = Window(size=10)
    ended = escaped = 0
    for episodes, escapes in [(4, 1), (4, 0), (4, 4), (12, 3), (3, 3)]:
        ended, escaped = ended + episodes, escaped + escapes
        count, rates = window.rates({"total_ended": ended, "total_ESCAPED": escaped, "num_env_steps": 9})
        if ended <= 12:  # not yet the window's worth: every episode so far
            assert count == ended and rates["ESCAPED"] == pytest.approx(escaped / ended)
    assert count == 15 and rates["ESCAPED"] == pytest.approx(6 / 15)  # the last two iterations hold 15 >= 10
    assert set(rates) == {"ESCAPED"}  # RLlib's own results are not totals
    empty = Window(size=10)
    assert empty.rates({"total_ended": 0, "total_ESCAPED": 0})[0] == 0
    assert np.isnan(empty.rates({"total_ended": 0, "total_ESCAPED": 0})[1]["ESCAPED"])


@pytest.mark.parametrize("task_id", ["Labyrinth/Stones-Tiny-v1", "Labyrinth/Minotaur-Tiny-Wait-v1"])
def test_rllib_sees_a_one_role_task_as_one_vector_its_mask_first_inside_its_space(task_id):
    env = MaskedOne(gym.make(task_id))
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(30):
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs[:len(info["action_mask"])].astype(bool), info["action_mask"])
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            obs, info = env.reset()


@pytest.mark.parametrize(("task_id", "keys"), [
    ("Labyrinth/Stones-Tiny-v1", ("map", "memory", "position", "stamina", "timers", "cue", "exits", "hums",
                                  "items_seen", "inventory", "sighting")),
    ("Labyrinth/Minotaur-Tiny-Wait-v1", ("map", "memory", "position", "timers", "cue", "exits", "items_lying",
                                         "intruder"))])
def test_rllib_vectors_keep_the_order_its_published_runs_were_made_in(task_id, keys):
    """The view's own order of its keys (the observation dict's when docs/rl.md's RLlib runs were made), not the
    dict's order now (by name, as its space's): the same vector, so the same runs; the two-role task's alike."""
    env = MaskedOne(gym.make(task_id))
    vector, info = env.reset(seed=5)
    observation = env.unwrapped.game.observation(env.role)
    assert list(observation) == sorted(keys)
    assert np.array_equal(vector, np.concatenate([info["action_mask"], *(observation[key] for key in keys)]))
    duel = Masked(parallel_env(preset="tiny", max_turns=5))
    vectors, infos = duel.reset(seed=5)
    observation = duel.unwrapped.game.observation(env.role)
    assert np.array_equal(vectors[env.role], np.concatenate([infos[env.role]["action_mask"],
                                                             *(observation[key] for key in keys)]))


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped")  # gymnasium's note that it is a wrapper
def test_a_short_memory_holds_the_last_steps_numbers_and_actions_and_forgets_them_at_reset():
    memory, plain = (ShortMemory(LabyrinthEnv(preset="tiny", max_turns=40), 4),
                     LabyrinthEnv(preset="tiny", max_turns=40))
    obs, info = memory.reset(seed=5)
    seen, _ = plain.reset(seed=5)
    assert memory.observation_space.contains(obs) and list(obs) == list(memory.observation_space.spaces)
    assert all(not obs[key].any() for key in memory.extra)  # nothing remembered at the start
    numbers = [k for k in plain.observation_space.spaces if k not in ("map", "memory")]
    assert sorted(memory.keys) == sorted(numbers)
    history, actions = [seen], []
    for _ in range(3):
        action = int(np.flatnonzero(info["action_mask"])[-1])
        obs, _, _, _, info = memory.step(action)
        seen, *_ = plain.step(action)
        history.append(seen)
        actions.append(action)
        assert memory.observation_space.contains(obs)
        assert all(np.array_equal(obs[key], seen[key]) for key in seen)  # the env's own observation unchanged
    for key in numbers:  # one step ago first, then two, three; the fourth is before the game: zeros
        n = seen[key].size
        expected = np.concatenate([history[2][key], history[1][key], history[0][key], np.zeros(n)])
        assert np.array_equal(obs[past_key(key)], expected), key
    taken = obs[ACTIONS].reshape(4, -1)
    assert [int(row.argmax()) for row in taken[:3]] == actions[::-1] and taken.sum() == 3
    obs, _ = memory.reset(seed=6)
    assert all(not obs[key].any() for key in memory.extra)
    check_env(ShortMemory(LabyrinthEnv(preset="tiny", max_turns=40), 2), skip_render_check=True)


def test_a_short_memory_pickles_and_copies_mid_game_and_plays_on_identically():
    import copy
    import pickle

    env = ShortMemory(LabyrinthEnv(preset="tiny", max_turns=40), 3)
    _, info = env.reset(seed=9)
    for _ in range(4):
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    action = int(np.flatnonzero(info["action_mask"])[-1])
    played = [e.step(action)[0] for e in (env, *copies)]
    assert all(np.array_equal(played[0][k], other[k]) for other in played[1:] for k in played[0])


def test_the_demonstrations_and_the_evaluation_feed_a_policy_through_its_short_memory():
    env = ShortMemory(LabyrinthEnv(preset="tiny", opponent="wait", max_turns=30), 2)
    demos = demonstrations(env, 40, seed=3)
    assert set(demos["observations"]) == set(env.observation_space.spaces)
    first = demos["ends"][0] + 1  # a game's first step remembers nothing, its second the first
    assert not demos["observations"][ACTIONS][first].any()
    assert demos["observations"][ACTIONS][first + 1].argmax() == demos["actions"][first]
    fed = []
    rl_eval.play_policy(lambda obs, mask: fed.append(obs) or int(np.flatnonzero(mask)[0]), "tiny", 5,
                        rl_eval.held_out(2), wrap=lambda e: ShortMemory(e, 2))
    assert all(ACTIONS in obs for obs in fed) and not fed[0][ACTIONS].any() and fed[1][ACTIONS].any()


def _routed_game(seed: int, memory: int = 0):
    """A game of the built-in user on ``tiny`` worn with Routes (over a short memory of ``memory`` steps):
    yields the env, each observation and its info, before the move is played."""
    inner = LabyrinthEnv(preset="tiny", max_turns=200)
    env = Routes(ShortMemory(inner, memory) if memory else inner)
    demonstrator = Demonstrator(env)
    obs, info = env.reset(seed=seed)
    while True:
        yield env, obs, info
        obs, _, terminated, truncated, info = env.step(demonstrator.action())
        if terminated or truncated:
            return


def _rows(obs: dict) -> np.ndarray:
    return obs[ROUTES].reshape(len(GOALS), -1)


def test_routes_stay_in_their_space_and_each_first_step_is_a_move_the_mask_allows():
    moves = [name.removeprefix("move_") for name in action_names("user")]
    words = ["north", "south", "east", "west", "up_ramp", "down_ramp"]  # DIRECTIONS, as the commands name them
    steps = 0
    for env, obs, info in _routed_game(seed=3, memory=2):
        assert env.observation_space.contains(obs)
        for row in _rows(obs):
            if row[:-2].any():
                assert row[-2] == 1 and row[:-2].sum() == 1
                word = words[int(row[:-2].argmax())]
                assert any(info["action_mask"][i] for i, m in enumerate(moves) if m.split("_walk")[0] == word), word
                steps += 1
            else:
                assert row[-1] == 0 or row[-2] == 1  # a length only for a goal found (0 when it is here)
    assert steps > 50  # the routes were there to check


def test_the_stone_route_ends_where_a_stone_may_lie_or_on_the_frontier_nearest_one():
    on_a_place = 0
    for env, obs, _ in _routed_game(seed=7):
        found, goals = env.plan()
        if goals[0] is None:
            continue
        view = env.unwrapped.game.views["user"]
        held = env.unwrapped.game.match.game.state.inventory
        places = {p for name, cells in view.search.candidates.items() if name not in held for p in cells}
        cell, length = goals[0]
        dist = found[cell][0]

        def gap(c, places=places):  # the straight line (a level counting 8) to the nearest place
            return min(abs(c[0] - p[0]) + abs(c[1] - p[1]) + 8 * abs(c[2] - p[2]) for p in places)
        if cell in places:
            on_a_place += 1
            assert length == dist
        else:  # a frontier cell: the known route, then the straight line
            assert env.map.is_frontier(cell) and length == dist + gap(cell)
        # and no place it can reach, nor any frontier cell, is nearer by that count
        assert length == min(d + gap(c) for c, (d, _) in found.items() if c in places or env.map.is_frontier(c))
        assert _rows(obs)[0][-1] == pytest.approx(min(length / ROUTE_SPAN, 1))
        path = path_to(found, cell)
        assert path[0] == env.unwrapped.game.match.game.state.user and len(path) == dist + 1
    assert on_a_place > 0  # the user saw a stone lying: its route went to it


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped")  # gymnasium's note that it is a wrapper
def test_routes_start_from_the_new_game_alone_at_reset_and_pass_the_env_checker():
    env = Routes(LabyrinthEnv(preset="tiny", max_turns=40))
    obs, info = env.reset(seed=5)
    assert not _rows(obs)[0].any()  # no hum heard yet: nowhere a stone may lie is known
    for _ in range(10):
        obs, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    obs, _ = env.reset(seed=6)
    fresh = Routes(LabyrinthEnv(preset="tiny", max_turns=40))
    first, _ = fresh.reset(seed=6)
    assert np.array_equal(obs[ROUTES], first[ROUTES]) and env.map.cells == fresh.map.cells
    assert not _rows(obs)[0].any() and list(obs) == list(env.observation_space.spaces)
    check_env(Routes(LabyrinthEnv(preset="tiny", max_turns=40)), skip_render_check=True)
    check_env(Routes(ShortMemory(LabyrinthEnv(preset="tiny", max_turns=40), 2)), skip_render_check=True)


def test_routes_pickle_and_copy_mid_game_and_play_on_identically():
    import copy
    import pickle

    env = Routes(ShortMemory(LabyrinthEnv(preset="tiny", max_turns=60), 2))
    demonstrator = Demonstrator(env)
    env.reset(seed=11)
    for _ in range(12):
        env.step(demonstrator.action())
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for _ in range(6):
        action = demonstrator.action()
        played = [e.step(action)[0] for e in (env, *copies)]
        assert all(np.array_equal(played[0][k], other[k]) for other in played[1:] for k in played[0])
    assert all(c.map.cells == env.map.cells and c.map.frontier == env.map.frontier for c in copies)


@pytest.mark.slow
def test_train_ppo_prints_a_learning_curve_from_step_zero(tmp_path):
    pytest.importorskip("sb3_contrib", reason="bench/rl/train_ppo.py needs the [train] extra (torch, sb3-contrib)")
    out = tmp_path / "ppo"
    run = subprocess.run(
        [sys.executable, str(BENCH / "train_ppo.py"), "--steps", "128", "--n-steps", "64", "--batch", "32",
         "--epochs", "1", "--eval-every", "128", "--eval-games", "2", "--max-turns", "8", "--timeout-cost", "5",
         "--caught-cost", "1",
         "--stages", "tiny:wait:0,tiny:builtin:64", "--out", str(out)],
        capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert rows[0]["step"] == 0 and rows[-1]["step"] >= 128
    assert all(0 <= r["low"] <= r["escape"] <= r["high"] <= 1 for r in rows)
    assert "curriculum stage tiny against builtin" in run.stdout
    assert run.stdout.splitlines()[0].endswith("; aids: caught cost 1, timeout cost 5")  # what it was given, no more
    assert (out / "model.zip").is_file()

    # --resume goes on from the saved policy and its reward scaling, appending to the same curve
    run = subprocess.run(
        [sys.executable, str(BENCH / "train_ppo.py"), "--resume", str(out), "--steps", "64", "--eval-every", "128",
         "--eval-games", "2", "--max-turns", "8", "--normalize", "--seed", "1", "--stages", "tiny:builtin:0"],
        capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert f"resumed at step {rows[-1]['step']:,}" in run.stdout
    more = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert more[:len(rows)] == rows and more[len(rows)]["step"] == rows[-1]["step"]
    assert more[-1]["step"] >= rows[-1]["step"] + 64
    record = json.loads((out / "yardsticks.json").read_text())
    assert record["args"]["caught_cost"] == "1.0" and record["resumes"][0]["args"]["seed"] == "1"

    # a run is taken up with the shaping it was trained with, or not at all; one from before --shaping was an
    # option (the shaping on unless --no-shaping) too
    refused = subprocess.run([sys.executable, str(BENCH / "train_ppo.py"), "--resume", str(out), "--shaping"],
                             capture_output=True, text=True, timeout=600, check=False)
    assert refused.returncode == 2 and "trained without --shaping" in refused.stderr
    import train_ppo  # the [train] extra is here (above): its imports resolve

    (out / "yardsticks.json").write_text(json.dumps({"args": {"no_shaping": "False"}}))
    assert train_ppo.trained_with_shaping(out / "yardsticks.json") is True
    assert train_ppo.trained_with_shaping(tmp_path / "missing.json") is None


@pytest.mark.slow
def test_train_ppo_feeds_its_short_memory_and_routes_to_the_clone_the_training_and_the_evaluation(tmp_path):
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="bench/rl/train_ppo.py needs the [train] extra")
    out = tmp_path / "ppo"
    run = subprocess.run(
        [sys.executable, str(BENCH / "train_ppo.py"), "--shaping", "--memory", "2", "--routes", "--demos", "40",
         "--demo-epochs", "1", "--steps", "64", "--n-steps", "32", "--batch", "32", "--epochs", "1",
         "--eval-every", "64", "--eval-games", "2", "--max-turns", "8", "--envs", "2", "--stages", "tiny:builtin:0",
         "--out", str(out)],
        capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines()[0].endswith("; aids: shaping, memory 2, routes, demos 40")
    assert json.loads((out / "yardsticks.json").read_text())["args"]["memory"] == "2"
    model = sb3_contrib.MaskablePPO.load(out / "model.zip")
    assert model.observation_space[ACTIONS].shape == (2 * 25,)
    assert {"past_cue", ACTIONS, ROUTES} <= set(model.policy.features_extractor.numbers)  # the flat part, not the CNN
    assert model.observation_space[ROUTES].shape == (len(GOALS) * 8,) and "past_routes" not in model.observation_space


def _baseline(out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH / "baseline.py"), "--out", str(out), *args],
                          capture_output=True, text=True, timeout=600, check=False)


def _baseline_here(monkeypatch, out: Path, *args: str) -> None:
    """baseline.py's command line, run in this process (its untrained rows import no torch)."""
    monkeypatch.setattr(sys, "argv", ["baseline.py", "--out", str(out), *args])
    baseline.main()


def test_a_baseline_row_is_one_command_and_the_table_reads_it(tmp_path, monkeypatch, capsys):
    """The untrained rows end to end (no torch needed), then a trained row of three runs made up from
    them: the table gives the mean over runs, compares each with random, and names the missing runs."""
    task = "Labyrinth/User-Tiny-v1"
    for algo in ("random", "builtin"):
        _baseline_here(monkeypatch, tmp_path, "--task", task, "--algo", algo, "--episodes", "2")
    builtin = json.loads(result_path(tmp_path, task, "builtin", 0).read_text())
    assert [g["seed"] for g in builtin["test"]["games"]] == [2_000_000, 2_000_001]
    assert builtin["eval"]["games"][0]["seed"] == 1_000_000 and builtin["test"]["policy"] == "builtin"
    for seed in range(3):  # three "training runs": the built-in games, labelled as MaskablePPO's
        result_path(tmp_path, task, "maskable", seed).write_text(json.dumps({**builtin, "seed": seed,
                                                                            "steps": 1000}))
    found = baseline_table.kept(tmp_path)
    text, missing = baseline_table.table(found)
    rows = {tuple(cell.strip() for cell in line.split("|")[1:3]): line for line in text.splitlines()[2:]}
    win = builtin["test"]["win"]["value"]
    assert f"| 3 x 1,000 | {win:.3f} |" in rows[(f"`{task}`", "maskable")]  # no spread over the runs: no interval
    assert "0 of 3 runs clear of 0" in rows[(f"`{task}`", "maskable")]  # two games a run prove nothing
    assert baseline_table.NOT_RUN in rows[(f"`{task}`", "ppo")]
    each = baseline_table.each_run(found).splitlines()[2:]  # each run's own row, its seed and steps
    assert [line.split(" | ")[1:4] for line in each] == [["maskable", str(seed), "1,000"] for seed in range(3)]
    assert all(line.split(" | ")[4].startswith(f"{win:.3f} (") for line in each)  # a run's own Wilson interval
    assert f".venv/bin/python bench/rl/baseline.py --task {task} --algo ppo --seed 2 --steps 1000000" in missing
    assert not any(f"--task {task} --algo maskable" in line or f"--task {task} --algo random" in line
                   for line in missing)
    upper = "Labyrinth/User-Full-v1"  # a rung above the first: its yardsticks' rows only, not yet run here
    assert [algo for shown, algo in rows if shown == f"`{upper}`"] == ["random", "builtin"]
    assert [line.split(" --algo ")[1].split()[0] for line in missing if f"--task {upper} " in line] == \
        ["random", "builtin"]
    with pytest.raises(SystemExit):
        _baseline_here(monkeypatch, tmp_path, "--task", "Labyrinth/Duel-Tiny-v1", "--algo", "random")
    assert "invalid choice" in capsys.readouterr().err  # both roles learn: no one-role row


@pytest.mark.slow
def test_a_trained_baseline_row_plays_its_policy_with_its_memory(tmp_path):
    """RecurrentPPO, the policy whose state must begin afresh each game, through one rollout."""
    pytest.importorskip("sb3_contrib", reason="bench/rl/baseline.py's trained rows need the [train] extra")
    run = _baseline(tmp_path, "--task", "Labyrinth/User-Tiny-v1", "--algo", "recurrent", "--steps", "1",
                    "--envs", "1", "--episodes", "2")
    assert run.returncode == 0, run.stderr[-2000:]
    record = json.loads(result_path(tmp_path, "Labyrinth/User-Tiny-v1", "recurrent", 0).read_text())
    assert record["trained_steps"] == 128 and len(record["test"]["games"]) == 2  # one rollout of its default size
    assert [point["steps"] for point in record["curve"]] == [128]  # the curve: a point a rollout
    assert result_path(tmp_path, "Labyrinth/User-Tiny-v1", "recurrent", 0).with_suffix(".zip").is_file()


def test_the_recurrent_policy_runs_a_sequence_at_once_as_the_library_steps_it():
    """bench/rl/recurrent_policy.py against sb3-contrib's own _process_sequence: the same outputs, final states and
    (to the floating point sums' last bits) gradients when episodes start only on a sequence's first step, as
    RecurrentPPO's buffer cuts them; the library's very loop when one starts inside a sequence."""
    torch = pytest.importorskip("torch", reason="RecurrentPPO needs the [train] extra (torch, sb3-contrib)")
    pytest.importorskip("sb3_contrib", reason="RecurrentPPO needs the [train] extra (torch, sb3-contrib)")
    from recurrent_policy import SequenceLstmPolicy
    from sb3_contrib.common.recurrent.policies import RecurrentActorCriticPolicy

    torch.manual_seed(0)
    lstm, n_seq, steps = torch.nn.LSTM(16, 32), 6, 40
    features = torch.randn(n_seq * steps, 16, requires_grad=True)  # the buffer's layout: a sequence after another
    states = (torch.randn(1, n_seq, 32), torch.randn(1, n_seq, 32))
    starts = torch.zeros(n_seq, steps)
    starts[[0, 2, 5], 0] = 1.0
    ours = SequenceLstmPolicy._process_sequence(features, states, starts.flatten(), lstm)
    theirs = RecurrentActorCriticPolicy._process_sequence(features, states, starts.flatten(), lstm)
    assert torch.allclose(ours[0], theirs[0], atol=1e-6) and all(torch.allclose(a, b, atol=1e-6)
                                                                  for a, b in zip(ours[1], theirs[1], strict=True))
    weights = [*lstm.parameters(), features]
    for a, b in zip(torch.autograd.grad(ours[0].sum(), weights), torch.autograd.grad(theirs[0].sum(), weights),
                    strict=True):
        assert torch.allclose(a, b, rtol=1e-4, atol=1e-4)
    starts[1, 7] = 1.0  # inside a sequence: not a layout the buffer makes, and left to the library
    assert torch.equal(SequenceLstmPolicy._process_sequence(features, states, starts.flatten(), lstm)[0],
                       RecurrentActorCriticPolicy._process_sequence(features, states, starts.flatten(), lstm)[0])


@pytest.mark.slow
def test_the_recurrent_bench_times_both_policies_from_the_same_first_rollout():
    """bench/rl/recurrent_bench.py, one round of one rollout each: a row a policy, the ratio, and the same games in
    the first rollout (no update has been made by then)."""
    pytest.importorskip("sb3_contrib", reason="bench/rl/recurrent_bench.py needs the [train] extra")
    run = subprocess.run([sys.executable, str(BENCH / "recurrent_bench.py"), "--steps", "1024", "--rounds", "1"],
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [line for line in run.stdout.splitlines() if "steps/CPU s" in line]
    assert len(rows) == 2 and "one call a sequence / the library's" in run.stdout
    firsts = {line.split("first rollout ")[1].split(",")[0] for line in rows}
    assert len(firsts) == 1


def test_the_training_curve_counts_the_games_that_ended_in_each_rollout():
    """Two envs' rewards summed per game, a game's point made when it ends, its env's sum begun afresh."""
    pytest.importorskip("stable_baselines3", reason="the curve is a Stable-Baselines3 callback ([train] extra)")
    from training_curve import Curve

    curve = Curve("user", "test")
    curve.num_timesteps = 0
    steps = [([1.0, 0.5], [False, False], [{"stones": 1}, {"stones": 0}]),
             ([10.0, -10.0], [True, True], [{"stones": 3, "outcome": "ESCAPED"}, {"stones": 0, "outcome": "DEATH"}]),
             ([1.0, 0.0], [False, False], [{"stones": 1}, {"stones": 0}])]
    for rewards, dones, infos in steps:
        curve.num_timesteps += 2
        curve.locals = {"rewards": np.array(rewards), "dones": np.array(dones), "infos": infos}
        curve._on_step()
    curve._on_rollout_end()
    curve._on_rollout_end()  # a rollout in which no game ended: a point with no rates
    assert curve.points == [{"steps": 6, "games": 2, "win": 0.5, "stones": 1.5, "ret": 0.75},
                            {"steps": 6, "games": 0}]
    assert list(curve.returns) == [1.0, 0.0]  # the games begun after the ends


@pytest.mark.parametrize("algo", ["ppo", "maskable", "recurrent"])
def test_a_run_killed_mid_training_is_taken_up_and_ends_as_if_it_had_not_stopped(tmp_path, monkeypatch, algo):
    """Three rollouts straight, against the same run stopped at the end of its second (its last checkpoint
    the start of that rollout) and run again: the same weights, the same curve, the resume on record."""
    pytest.importorskip("sb3_contrib", reason="bench/rl/baseline.py's trained rows need the [train] extra")
    import argparse

    import torch
    from training_curve import Curve

    args = argparse.Namespace(task="Labyrinth/User-Tiny-v1", algo=algo, seed=3, steps=96, envs=2)
    hyper = {"n_steps": 16, "batch_size": 16}  # a rollout of 32 steps, so that the test runs in seconds
    straight, timing = baseline.train(args, tmp_path / "straight.ckpt", **hyper)
    assert timing["resumed_at"] == [] and (tmp_path / "straight.ckpt").is_file()

    stop = Curve._on_rollout_end

    def killed(curve):
        if curve.num_timesteps == 64:
            raise KeyboardInterrupt
        stop(curve)

    monkeypatch.setattr(Curve, "_on_rollout_end", killed)
    with pytest.raises(KeyboardInterrupt):
        baseline.train(args, tmp_path / "broken.ckpt", **hyper)
    monkeypatch.setattr(Curve, "_on_rollout_end", stop)
    resumed, again = baseline.train(args, tmp_path / "broken.ckpt", **hyper)
    assert again["resumed_at"] == [32] and again["trained_steps"] == timing["trained_steps"] == 96
    assert again["curve"] == timing["curve"] and [p["steps"] for p in again["curve"]] == [32, 64, 96]
    first, second = straight.policy.state_dict(), resumed.policy.state_dict()
    assert all(torch.equal(first[key], second[key]) for key in first)
    with pytest.raises(SystemExit, match="other settings \\(steps\\)"):
        baseline.train(argparse.Namespace(**{**vars(args), "steps": 128}), tmp_path / "broken.ckpt", **hyper)


def test_the_table_pairs_the_stones_found_with_random_plays_and_a_hunter_gains_by_fewer():
    """The stones column: each run's paired difference with random play on the same test games, in stones, and how
    many runs clear zero on each side: a user's gain is above it, a Minotaur's below it (the stones it let the user
    find), and a run worse than random shows as below, not merely as not above."""
    def games(stones: list[int]) -> dict:
        return {"games": [{"seed": seed, "outcome": "TIMEOUT", "stones": n} for seed, n in enumerate(stones)]}

    random_play = {"test": games([0] * 100 + [1] * 100)}
    more, fewer = games([1] * 100 + [2] * 100), games([0] * 200)
    assert baseline_table.versus([more], random_play, "user", "stones").startswith("+1.00 (+0.")
    assert baseline_table.versus([more, more], random_play, "user", "stones") == "+1.00, 2 of 2 runs above 0"
    assert baseline_table.versus([fewer, fewer], random_play, "minotaur", "stones") == "-0.50, 2 of 2 runs below 0"
    assert baseline_table.versus([fewer, fewer], random_play, "user", "stones") == "-0.50, 2 of 2 runs below 0"
    assert baseline_table.versus([more, fewer], random_play, "user", "stones") == "+0.25, 1 of 2 runs above 0, 1 below"
    same = games([0] * 100 + [1] * 100)
    assert baseline_table.versus([same, same], random_play, "user", "stones") == "+0.00, 0 of 2 runs clear of 0"
    assert baseline_table.versus([more], None, "user", "stones") == "random not yet run"


@pytest.mark.parametrize("algo", ["random", "builtin"])
@pytest.mark.parametrize("task_id", [*baseline_table.TABLE_TASKS, *baseline_table.UPPER_TASKS[:-1]])
def test_the_kept_yardsticks_play_again_game_for_game(task_id, algo):
    """The first five test games of each kept yardstick, played again by the code as it is: each game's outcome,
    return, turns, stones and achievements as kept, so the row's command makes the row (the random policy is seeded
    by each game, so five are the first five of the 200). Not User-Full's: its games run to thousands of turns."""
    kept = json.loads(result_path(BENCH / "results", task_id, algo, 0).read_text(encoding="utf-8"))
    report = evaluate(BUILTIN if algo == "builtin" else RandomPolicy(0), task_id, "test", 5)
    assert report.to_dict()["games"] == kept["test"]["games"][:5]


def test_the_table_command_writes_both_tables_into_the_page_and_refuses_a_page_without_them(tmp_path, monkeypatch,
                                                                                         capsys):
    """``--update docs/rl.md``: each table put in place of the one with its header line, the prose around them
    untouched; a page without one (or with two) is refused, saying so, and left as it was."""
    published = (BENCH.parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    page = tmp_path / "rl.md"
    altered = published.replace("| 0.965 (0.930..0.983) |", "| 0.999 (0.930..0.983) |")
    assert altered != published, "the figure this test alters is on the page: pick another if it changed"
    page.write_text(altered, encoding="utf-8")
    monkeypatch.chdir(BENCH.parent.parent)
    monkeypatch.setattr(sys, "argv", ["baseline_table.py", "--update", str(page)])
    baseline_table.main()
    assert page.read_text(encoding="utf-8") == published
    bare = tmp_path / "bare.md"
    bare.write_text("# no tables here\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["baseline_table.py", "--update", str(bare)])
    with pytest.raises(SystemExit, match="holds 0 tables headed"):
        baseline_table.main()
    assert bare.read_text(encoding="utf-8") == "# no tables here\n"
    if hasattr(os, "mkfifo"):  # a FIFO is refused at once, not waited on
        os.mkfifo(tmp_path / "pipe.md")
        monkeypatch.setattr(sys, "argv", ["baseline_table.py", "--update", str(tmp_path / "pipe.md")])
        with pytest.raises(SystemExit, match="a FIFO, not a file"):
            baseline_table.main()


@pytest.mark.parametrize("made", ["table", "each run"])
def test_the_tables_docs_rl_md_publishes_are_the_ones_the_kept_results_make(made):
    """The baseline table in docs/rl.md, and the table of each training run, are what bench/rl/results holds, line
    for line: a number edited by hand, a row added or left out, or a result changed without the page, fails."""
    found = baseline_table.kept(BENCH / "results")
    text = baseline_table.table(found)[0] if made == "table" else baseline_table.each_run(found)
    header = text.splitlines()[0]
    published = (BENCH.parent.parent / "docs" / "rl.md").read_text(encoding="utf-8").splitlines()
    assert published.count(header) == 1, f"docs/rl.md holds the {made} table once"
    start = published.index(header)
    end = next((i for i in range(start, len(published)) if not published[i].startswith("|")), len(published))
    assert "\n".join(published[start:end]) == text


def test_the_vector_bench_charges_each_part_its_own_time_and_puts_back_what_it_timed():
    """A part called inside another is taken out of the caller's time, a part that raises still ends; and a run
    of where_time_goes leaves every function it timed as it was, for whatever runs next in the process."""
    ticks = iter(range(100))
    clock = vector_bench.Clock(lambda: float(next(ticks)))

    def fails() -> None:
        raise KeyError("x")

    inner, failing = clock.timed("inner", lambda: None), clock.timed("inner", fails)
    clock.timed("outer", inner)()  # outer from 0 to 1 and 2 to 3, inner from 1 to 2
    with pytest.raises(KeyError):
        clock.timed("outer", failing)()  # outer from 4 to 5 and 6 to 7, inner from 5 to 6
    assert clock.seconds == {"outer": 4.0, "inner": 2.0} and clock.calls == {"outer": 2, "inner": 2}
    timed = [(owner, name, getattr(owner, name)) for _, _, functions in vector_bench.PARTS for owner, name in functions]
    parts, games, _ = vector_bench.where_time_goes("Labyrinth/User-Tiny-v1", 4, 3)
    assert {"vector env", "the turn", "observations"} <= set(parts) and games >= 0
    assert all(getattr(owner, name) is was for owner, name, was in timed)
