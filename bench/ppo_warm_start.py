"""Behaviour cloning before PPO (bench/train_ppo.py ``--demos N``): an open warm start from
the built-in scripted user's play, never a hidden one. The report of a run says how many
demonstration steps it was given, and its learning curve's first row (step 0) is the cloned
policy's own evaluation, before PPO has played a step.

The demonstrations are the built-in user's decisions mapped onto the env's commands
(labyrinth.agents.rl_demos), played in the training env's settings on training seeds (drawn
from ``--seed``, never the held-out ones). The policy is fitted to their actions (cross-entropy
under the action mask) and its value head to their discounted returns (the rewards PPO will
see, shaping included), so that PPO's first updates start from a value that matches the policy
rather than from noise that would pull the policy away from what it cloned.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch.nn import functional

from labyrinth.agents.rl_demos import demonstrations


def discounted_returns(rewards: np.ndarray, ends: np.ndarray, gamma: float) -> np.ndarray:
    """Each step's discounted sum of rewards to the end of its game."""
    returns, following = np.zeros(len(rewards), np.float32), 0.0
    last_steps = set(ends.tolist())
    for i in range(len(rewards) - 1, -1, -1):
        following = rewards[i] + (0.0 if i in last_steps else gamma * following)
        returns[i] = following
    return returns


def clone(model: Any, env: Any, steps: int, epochs: int, seed: int, batch: int = 256,
          lr: float = 1e-3) -> dict[str, Any]:
    """Fit ``model``'s policy to ``steps`` steps (whole games) of the built-in user on ``env``; what it
    was given and how well it fitted."""
    demos = demonstrations(env, steps, seed)
    policy = model.policy
    returns = torch.as_tensor(discounted_returns(demos["rewards"], demos["ends"], model.gamma))
    observations = {k: torch.as_tensor(v) for k, v in demos["observations"].items()}
    actions, masks = torch.as_tensor(demos["actions"]), torch.as_tensor(demos["masks"])
    generator = torch.Generator().manual_seed(seed)
    n = len(actions)
    # Its own optimiser, with a learning rate for supervised fitting (PPO's is for small steps), and the value
    # loss scaled by the returns' variance: unscaled, a return's -10 outweighs the actions' loss many times
    # over, and the gradient's clipping would leave the policy almost nothing.
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    spread = float(returns.var()) or 1.0
    policy.set_training_mode(True)
    hits = 0
    for epoch in range(epochs):
        for idx in torch.randperm(n, generator=generator).split(batch):
            obs = {k: v[idx].float() for k, v in observations.items()}
            values, log_prob, _ = policy.evaluate_actions(obs, actions[idx], action_masks=masks[idx])
            loss = -log_prob.mean() + functional.mse_loss(values.flatten(), returns[idx]) / spread
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if epoch == epochs - 1:  # how often the fitted policy's likeliest action is the demonstrated one
                with torch.no_grad():
                    likeliest = policy.get_distribution(obs, action_masks=masks[idx]).distribution.probs.argmax(1)
                hits += int((likeliest == actions[idx]).sum())
    policy.set_training_mode(False)
    outcomes = demos["outcomes"]
    return {"steps": n, "games": len(outcomes), "escaped": outcomes.count("ESCAPED"),
            "caught": outcomes.count("DEATH"), "agreement": hits / n, "epochs": epochs, "seeds": demos["seeds"]}
