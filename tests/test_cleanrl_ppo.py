"""bench/rl/cleanrl_ppo.py, PPO in one file over the vector env: its advantages under NEXT_STEP autoreset,
its masking, and a short run of it beside SB3's, the same each time. It needs the [train] extra (torch,
sb3-contrib) and skips, saying so, without it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="bench/rl/cleanrl_ppo.py needs the [train] extra (torch, sb3-contrib)")
pytest.importorskip("sb3_contrib", reason="bench/rl/cleanrl_ppo.py needs the [train] extra (torch, sb3-contrib)")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench" / "rl"))

import cleanrl_ppo  # bench/rl/ is a folder of scripts: on sys.path above
from cleanrl_ppo import Agent, CleanRun, Settings, gae


def test_advantages_cut_at_an_end_bootstrap_a_truncation_and_skip_the_autoreset_step():
    """One env, four steps: a plain step, a game that ended (terminated), the autoreset step that follows it
    (no one's transition), a game cut by the turn limit (truncated: its final observation's value counts)."""
    settings = Settings(gamma=0.9, gae_lambda=0.8)
    rewards = torch.tensor([[1.0], [2.0], [0.0], [3.0]])
    values = torch.tensor([[0.5], [0.4], [0.3], [0.2]])
    terminated = torch.tensor([[False], [True], [False], [False]])
    truncated = torch.tensor([[False], [False], [False], [True]])
    valid = torch.tensor([[True], [True], [False], [True]])
    got = gae(rewards, values, torch.tensor([0.1]), terminated, truncated, valid, settings)
    last = 3 + 0.9 * 0.1 - 0.2  # truncated: the final observation's value is bootstrapped
    ended = 2 - 0.4  # terminated: nothing after it
    first = (1 + 0.9 * 0.4 - 0.5) + 0.9 * 0.8 * ended
    assert got.squeeze(1).tolist() == pytest.approx([first, ended, 0.0, last])


def test_a_refused_command_is_never_drawn():
    torch.manual_seed(3)
    agent = Agent(5, 6)
    rng = np.random.default_rng(3)
    masks = torch.as_tensor(rng.random((400, 6)) < 0.3)
    masks[np.arange(400), rng.integers(0, 6, 400)] = True  # at least one allowed
    action, logp, _, _ = agent.act(torch.as_tensor(rng.normal(size=(400, 5)), dtype=torch.float32), masks)
    assert masks[torch.arange(400), action].all() and torch.isfinite(logp).all()


def test_a_short_run_learns_and_plays_the_same_games_each_time(capsys):
    """Two iterations a side: the policy's weights move, and a second run of the same seed prints the same
    games (each side's digest) and steps."""
    run = CleanRun("Labyrinth/User-Tiny-v1", 2, 5, Settings(num_steps=16, batch_size=8, epochs=2))
    before = [p.detach().clone() for p in run.agent.parameters()]
    run.iteration()
    assert run.steps == 32 and any(not torch.equal(a, b) for a, b in zip(before, run.agent.parameters(), strict=True))
    printed = []
    for _ in range(2):
        assert cleanrl_ppo.main(["--envs", "2", "--num-steps", "16", "--iterations", "2", "--seed", "5", "--sb3"]) == 0
        printed.append([line for line in capsys.readouterr().out.splitlines() if "digest" in line])
    assert len(printed[0]) == 2 and printed[0] == printed[1]
