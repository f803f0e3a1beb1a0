"""The kernel's step of the vector env (agents/rl/kernel/steps.py) against the scalar env: N LabyrinthEnvs played
with random actions (the masked ones mostly, and some the game refuses), and the same games played by
KernelSteps over state rows, agree at every step on the observation, the reward, the flags, the mask, the info
(the refusal's words, the turn, the stones, and at the end the outcome, the achievements and the progression)
and the state itself, for every task the kernel plays, both roles. A row the kernel gives up is handed to its own
env (hand_over: the game made again from the row's inputs), which must then stand exactly where the scalar env
stands, and play on alike; so must a row whose turn the kernel played but whose outputs it could not make
(settle)."""

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.kernel import steps as kernel_steps
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.state import REGION_PRESETS, StateRows
from labyrinth.agents.rl.kernel.steps import KernelSteps, kernel_plays
from labyrinth.agents.rl.kernel.work import LEFT_REGION
from labyrinth.agents.rl.tasks import TASKS

pytestmark = [pytest.mark.xdist_group("kernel"),
              pytest.mark.skipif(not COMPILED, reason="the kernel's step is compiled code: the [fast] extra's numba")]
RUNGS = [t for t in TASKS.values() if t.preset in REGION_PRESETS and t.opponent and kernel_plays(t.role, t.opponent)]


def same(step: tuple[Any, ...], expected: tuple[Any, ...], what: str) -> None:
    """Two steps (observation, reward, terminated, truncated, info) alike, key by key."""
    obs, *figures, info = step
    want_obs, *want_figures, want_info = expected
    assert figures == want_figures, what
    assert obs.keys() == want_obs.keys() and info.keys() == want_info.keys(), what
    for key, value in want_obs.items():
        assert np.array_equal(obs[key], value), (what, key)
    for key, value in want_info.items():
        assert np.array_equal(info[key], value) if isinstance(value, np.ndarray) else info[key] == value, (what, key)


def kernel_info(kernel: KernelSteps, i: int, refused: str | None) -> dict[str, Any]:
    """Row ``i``'s info, read out of the kernel's batch of infos (its keys whose "_key" mask holds row i)."""
    only = np.zeros(len(kernel.turns), dtype=np.bool_)
    only[i] = True

    def row(batch: Mapping[str, Any]) -> dict[str, Any]:
        return {key: row(value) if isinstance(value, dict) else value[i]
                for key, value in batch.items() if not key.startswith("_") and batch[f"_{key}"][i]}
    return row(kernel.infos(only, {i: refused}))


def kernel_obs(kernel: KernelSteps, i: int) -> Mapping[str, np.ndarray]:
    return {key: value[i] for key, value in kernel.observations.items()}


@pytest.mark.parametrize("rung", RUNGS, ids=[t.id for t in RUNGS])
def test_kernel_steps_play_the_scalar_envs_games(rung):
    play(rung, steps=160)


@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_a_turn_played_whose_observation_the_kernel_cannot_make_is_the_envs(role, monkeypatch):
    """Row 2's observation refused every 7th call, and again each time it is asked again while its region is not
    whole (as a sight past the region's box would be, which no chunk laid can mend): the turn stands, the env
    takes the game over with it, and reports that step."""
    module = kernel_steps.user_obs if role == "user" else kernel_steps.minotaur_obs
    name = "observe_turn" if role == "user" else "observe"
    real, calls, refused = getattr(module, name), [0], [False]

    def refusing(rows: Any, *args: Any) -> np.ndarray:
        why = real(rows, *args)
        calls[0] += 1
        refused[0] = calls[0] % 7 == 0 or (refused[0] and bool(rows.partial[2]))
        if refused[0]:
            why[2] = LEFT_REGION
        return why
    monkeypatch.setattr(module, name, refusing)
    counts = play(next(t for t in RUNGS if t.role == role and t.opponent == "wait"), steps=60)
    assert counts["unsettled"] >= 2, counts


def play(rung: Any, steps: int) -> dict[str, int]:
    """``steps`` steps of the scalar envs and of the kernel's rows side by side, compared; what was counted."""
    n, seed = 6, 11
    settings = {**rung.settings(), "max_turns": 40}  # short games: many end, by escape, death and turn limit
    scalars = [LabyrinthEnv(**settings) for _ in range(n)]
    mine = [LabyrinthEnv(**settings) for _ in range(n)]
    rows = StateRows(n, rung.preset)
    kernel = KernelSteps(rows, rung.role, rung.opponent, settings["max_turns"], settings["difficulty"],
                         settings.get("frozen", False))
    rng = np.random.default_rng(seed)
    counts = dict.fromkeys(("games", "kernel", "fallen", "unsettled", "refused", "engine"), 0)

    def start(rows_started: list[int], seeds: list[int]) -> None:
        openings, game_seeds = {}, np.zeros(n, dtype=np.int64)
        for i, env_seed in zip(rows_started, seeds, strict=True):
            openings[i] = scalars[i].reset(seed=env_seed)
            game_seeds[i] = mine[i].seed_game(env_seed)
        started = np.zeros(n, dtype=np.bool_)
        started[rows_started] = True
        kernel.start(started, game_seeds)
        for i, (obs, info) in openings.items():
            assert rows.region_seed[i] == scalars[i].match.seed
            if kernel.on_engine[i]:  # the kernel does not take it: the env makes it
                same(mine[i].start_game(int(game_seeds[i])), (obs, info), f"row {i}'s opening, on the engine")
            else:
                same((kernel_obs(kernel, i), kernel_info(kernel, i, None)), (obs, info), f"row {i}'s opening")
                assert rows.state(i) == scalars[i].match.game.state, f"row {i}'s first state"

    start(list(range(n)), [seed + i for i in range(n)])
    for step in range(steps):
        masks = [env.action_masks() for env in scalars]
        actions = np.array([int(rng.choice(np.flatnonzero(m) if rng.random() < 0.85 else np.arange(len(m))))
                            for m in masks])
        done = kernel.step(actions, np.ones(n, dtype=np.bool_))
        ended = []
        for i, env in enumerate(scalars):
            expected = env.step(int(actions[i]))
            what = f"row {i} at step {step}"
            refused = done.refused.get(i)
            counts["refused"] += refused is not None
            if done.played[i]:
                counts["kernel"] += 1
                got = (kernel_obs(kernel, i), done.rewards[i], done.terminated[i], done.truncated[i],
                       kernel_info(kernel, i, refused))
            elif done.unsettled[i]:
                counts["unsettled"] += 1
                kernel.hand_over(i, mine[i])
                got = kernel.settle(mine[i], refused)
            else:
                if done.fallen[i]:
                    counts["fallen"] += 1
                    kernel.hand_over(i, mine[i])
                counts["engine"] += 1
                assert kernel.on_engine[i], what
                got = mine[i].step(int(actions[i]))
            same(got, expected, what)
            state = mine[i].match.game.state if kernel.on_engine[i] else rows.state(i)
            assert state == env.match.game.state, what
            if expected[2] or expected[3]:
                ended.append(i)
        if ended:
            counts["games"] += len(ended)
            start(ended, [seed + 1000 * (step + 1) + i for i in ended])
    assert counts["games"] > steps // 40 * n // 2, f"several games of each row end, and the next begin: {counts}"
    assert counts["kernel"] > 0.6 * n * steps, f"the kernel played most turns: {counts}"
    if rung.role == "user":
        assert counts["refused"] > 0, f"some commands were refused, and played as the stand-in: {counts}"
    return counts
