"""Behaviour cloning before PPO (bench/rl/train_ppo.py ``--demos N``): an open warm start from
the built-in scripted user's play, never a hidden one. The report of a run says how many
demonstration steps it was given, and its learning curve's first row (step 0) is the cloned
policy's own evaluation, before PPO has played a step.

With ``--dagger R`` (DAgger, Ross et al. 2011), R rounds follow: the cloned policy plays as many
steps again, the built-in user says at each what it would do, and the policy is fitted again
to all the labelled steps so far, so that it learns what to do in the states its own mistakes
lead to, which the built-in user's games never show. The report counts these steps too.

The demonstrations are the built-in user's decisions mapped onto the env's commands
(labyrinth.agents.rl.demos), played in the training env's settings on training seeds (drawn
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

from labyrinth.agents.rl.demos import demonstrations


def discounted_returns(rewards: np.ndarray, ends: np.ndarray, gamma: float) -> np.ndarray:
    """Each step's discounted sum of rewards to the end of its game."""
    returns, following = np.zeros(len(rewards), np.float32), 0.0
    last_steps = set(ends.tolist())
    for i in range(len(rewards) - 1, -1, -1):
        following = rewards[i] + (0.0 if i in last_steps else gamma * following)
        returns[i] = following
    return returns


def clone(model: Any, env: Any, steps: int, epochs: int, seed: int, rounds: int = 0, batch: int = 256,
          lr: float = 1e-3) -> dict[str, Any]:
    """Fit ``model``'s policy to ``steps`` steps (whole games) of the built-in user on ``env``, then, for
    each of ``rounds`` DAgger rounds, to as many steps more played by the policy itself and labelled by
    the built-in user (all the steps so far each time); what it was given and how well it fitted."""
    policy = model.policy
    # Its own optimiser, with a learning rate for supervised fitting (PPO's is for small steps).
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    generator = torch.Generator().manual_seed(seed)
    parts = [demonstrations(env, steps, seed)]
    played = parts[0]["outcomes"]
    agreement = _fit(model, optimizer, parts, epochs, batch, generator)
    for round_ in range(1, rounds + 1):
        def act(obs: dict, mask: np.ndarray) -> int:
            return int(model.predict(obs, action_masks=mask)[0])
        parts.append(demonstrations(env, steps, seed + round_, play=act))
        agreement = _fit(model, optimizer, parts, epochs, batch, generator)
    dagger = [o for part in parts[1:] for o in part["outcomes"]]
    return {"steps": len(parts[0]["actions"]), "games": len(played), "escaped": played.count("ESCAPED"),
            "caught": played.count("DEATH"), "epochs": epochs, "rounds": rounds,
            "labelled_steps": sum(len(part["actions"]) for part in parts[1:]),
            "labelled_games_escaped": dagger.count("ESCAPED"), "labelled_games": len(dagger),
            "agreement": agreement, "seeds": [s for part in parts for s in part["seeds"]]}


def _fit(model: Any, optimizer: Any, parts: list[dict], epochs: int, batch: int, generator: Any) -> float:
    """Cross-entropy of the labelled actions under their masks, and the value head's error on the
    discounted returns scaled by their variance (unscaled, a return's -10 would outweigh the
    actions' loss many times over); the share of steps whose likeliest action is the label."""
    policy = model.policy
    observations = {k: torch.as_tensor(np.concatenate([p["observations"][k] for p in parts]))
                    for k in parts[0]["observations"]}
    actions = torch.as_tensor(np.concatenate([p["actions"] for p in parts]))
    masks = torch.as_tensor(np.concatenate([p["masks"] for p in parts]))
    returns = torch.as_tensor(np.concatenate([discounted_returns(p["rewards"], p["ends"], model.gamma)
                                              for p in parts]))
    spread, n, hits = float(returns.var()) or 1.0, len(actions), 0
    policy.set_training_mode(True)
    for epoch in range(epochs):
        for idx in torch.randperm(n, generator=generator).split(batch):
            obs = {k: v[idx].float() for k, v in observations.items()}
            values, log_prob, _ = policy.evaluate_actions(obs, actions[idx], action_masks=masks[idx])
            loss = -log_prob.mean() + functional.mse_loss(values.flatten(), returns[idx]) / spread
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if epoch == epochs - 1:
                with torch.no_grad():
                    likeliest = policy.get_distribution(obs, action_masks=masks[idx]).distribution.probs.argmax(1)
                hits += int((likeliest == actions[idx]).sum())
    policy.set_training_mode(False)
    return hits / n
