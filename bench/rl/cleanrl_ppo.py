"""PPO in one file, CleanRL's way, over the Labyrinth's vector env (issue 43): how fast a plain training
loop learns on ``gym.make_vec(task, N, vectorization_mode="vector_entry_point")``, beside SB3's
MaskablePPO on N scalar envs in a DummyVecEnv, the way bench/rl/baseline.py trains.

Both sides get the same settings, SB3's defaults (a rollout of ``--num-steps`` per env, minibatches of 64,
10 epochs, Adam at 3e-4, gamma 0.99, GAE lambda 0.95, clip 0.2, value loss 0.5, no entropy bonus, the
gradient norm clipped at 0.5, advantages normalised per minibatch) and the same network (SB3's
MultiInputPolicy: the observation's arrays flattened side by side, then separate 64-64 tanh layers for the
policy and the value, orthogonally initialised), and both mask the commands the game would refuse. So the
ratio of their training steps per CPU second is the loop's and the env's, not the learning's: the games
differ (each side draws its own actions), so each side prints the digest of its own games (every step's
action, reward and end, the seeds being the run's): the same run to run for one seed, one core. The two
are timed an iteration (a rollout and its update) each in turn, so both see the machine's load of the
moment; the figures are the iterations' medians, with their spread.

Gymnasium's NEXT_STEP autoreset: the step after a game ends starts the next one and ignores its action.
That transition is left out of the loss; the ending step bootstraps from the final observation when the game
was cut by the turn limit (truncated), from nothing when it ended (terminated).

    .venv/bin/pip install -q -e '.[train,fast]' --config-settings editable_mode=strict
    .venv/bin/python bench/rl/cleanrl_ppo.py --task Labyrinth/User-Tiny-v1 --envs 8 --iterations 3 --sb3
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, spread

import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the tasks and their vector entry point)

MASKED = -1e8  # a refused command's logit: never drawn, and its gradient nil


@dataclass(frozen=True)
class Settings:
    """SB3's PPO defaults, for both sides of the comparison."""

    num_steps: int = 2048  # per env, a rollout
    batch_size: int = 64
    epochs: int = 10
    learning_rate: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.0
    max_grad_norm: float = 0.5


def layer(inputs: int, outputs: int, gain: float) -> nn.Linear:
    """A linear layer as SB3 initialises its policy's: orthogonal weights, zero biases."""
    made = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(made.weight, gain)
    nn.init.zeros_(made.bias)
    return made


class Agent(nn.Module):
    """SB3's MultiInputPolicy for a Dict of flat boxes: the arrays side by side, then a 64-64 tanh policy
    and a 64-64 tanh value, apart (gains sqrt(2), then 0.01 for the logits and 1 for the value)."""

    def __init__(self, inputs: int, actions: int) -> None:
        super().__init__()
        hidden = np.sqrt(2)
        self.policy = nn.Sequential(layer(inputs, 64, hidden), nn.Tanh(), layer(64, 64, hidden), nn.Tanh(),
                                    layer(64, actions, 0.01))
        self.value = nn.Sequential(layer(inputs, 64, hidden), nn.Tanh(), layer(64, 64, hidden), nn.Tanh(),
                                   layer(64, 1, 1.0))

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """An action drawn among the allowed (or ``action`` scored), its log-probability, the entropy, the
        value."""
        logits = torch.where(mask, self.policy(obs), torch.tensor(MASKED))
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(obs).squeeze(-1)


def flat(space: gym.spaces.Dict, obs: dict[str, np.ndarray]) -> torch.Tensor:
    """A batch of Dict observations as one float tensor, the arrays in the space's key order (SB3's
    CombinedExtractor's order)."""
    return torch.as_tensor(np.concatenate([obs[key].reshape(len(obs[key]), -1) for key in space.spaces], axis=1),
                           dtype=torch.float32)


@dataclass
class Games:
    """What the games a run played were: each ended game's return, and a digest of every step's actions,
    rewards and flags (the seeds are the run's)."""

    returns: list[float] = field(default_factory=list)
    digest: Any = field(default_factory=hashlib.sha256)
    running: np.ndarray | None = None

    def played_one(self, index: int, count: int, action: int, reward: float, ended: bool) -> None:
        """One env's step, as a scalar env sees it (every step counts: SB3 resets at once)."""
        self.played(np.array([action]), np.array([reward]), np.array([ended]), np.array([True]), index, count)

    def played(self, actions: np.ndarray, rewards: np.ndarray, ended: np.ndarray, counted: np.ndarray,
               first: int = 0, count: int | None = None) -> None:
        """A step of envs ``first`` on (of ``count``, all given by default): the steps ``counted`` are
        transitions of a game (not an autoreset's)."""
        if self.running is None:
            self.running = np.zeros(count or len(actions))
        for value in (actions.astype(np.int64), rewards.astype(np.float64), ended, counted):
            self.digest.update(np.ascontiguousarray(value).tobytes())
        envs = slice(first, first + len(actions))
        self.running[envs] += np.where(counted, rewards, 0.0)
        for i in np.flatnonzero(ended & counted) + first:
            self.returns.append(float(self.running[i]))
            self.running[i] = 0.0


class CleanRun:
    """PPO over the task's vector env, a rollout and its update at a time."""

    def __init__(self, task: str, envs_count: int, seed: int, settings: Settings) -> None:
        torch.manual_seed(seed)
        self.rng = np.random.default_rng(seed)
        self.settings = settings
        self.envs = gym.make_vec(task, num_envs=envs_count, vectorization_mode="vector_entry_point")
        self.space = self.envs.single_observation_space
        inputs, actions = gym.spaces.flatdim(self.space), int(self.envs.single_action_space.n)
        self.agent = Agent(inputs, actions)
        self.optimizer = torch.optim.Adam(self.agent.parameters(), lr=settings.learning_rate, eps=1e-5)
        t, n = settings.num_steps, envs_count
        self.obs_buf, self.mask_buf = torch.zeros((t, n, inputs)), torch.zeros((t, n, actions), dtype=torch.bool)
        self.act_buf = torch.zeros((t, n), dtype=torch.long)
        self.logp_buf, self.value_buf, self.reward_buf = torch.zeros((t, n)), torch.zeros((t, n)), torch.zeros((t, n))
        self.term_buf, self.trunc_buf, self.valid_buf = (torch.zeros((t, n), dtype=torch.bool) for _ in range(3))
        self.games = Games()
        self.steps = 0
        raw, _ = self.envs.reset(seed=seed)
        self.obs, self.mask = flat(self.space, raw), torch.as_tensor(self.envs.action_masks().astype(np.bool_))
        self.resetting = np.zeros(n, dtype=np.bool_)  # the envs whose next step starts a game (NEXT_STEP)

    def iteration(self) -> None:
        """One rollout of ``num_steps`` per env, then PPO's epochs over it."""
        for step in range(self.settings.num_steps):
            self.obs_buf[step], self.mask_buf[step] = self.obs, self.mask
            self.valid_buf[step] = torch.as_tensor(~self.resetting)
            with torch.no_grad():
                action, logp, _, value = self.agent.act(self.obs, self.mask)
            self.act_buf[step], self.logp_buf[step], self.value_buf[step] = action, logp, value
            chosen = action.numpy()
            raw, reward, terminated, truncated, _ = self.envs.step(chosen)
            self.games.played(chosen, reward, terminated | truncated, ~self.resetting)
            self.reward_buf[step] = torch.as_tensor(reward, dtype=torch.float32)
            self.term_buf[step], self.trunc_buf[step] = torch.as_tensor(terminated), torch.as_tensor(truncated)
            self.resetting = terminated | truncated
            self.obs, self.mask = flat(self.space, raw), torch.as_tensor(self.envs.action_masks().astype(np.bool_))
        self.steps += self.settings.num_steps * self.envs.num_envs
        with torch.no_grad():
            next_value = self.agent.act(self.obs, self.mask)[3]
        advantages = gae(self.reward_buf, self.value_buf, next_value, self.term_buf, self.trunc_buf, self.valid_buf,
                         self.settings)
        update(self.agent, self.optimizer, self.settings, self.rng, self.obs_buf, self.mask_buf, self.act_buf,
               self.logp_buf, advantages, advantages + self.value_buf, self.valid_buf)


def gae(rewards: torch.Tensor, values: torch.Tensor, next_value: torch.Tensor, terminated: torch.Tensor,
        truncated: torch.Tensor, valid: torch.Tensor, settings: Settings) -> torch.Tensor:
    """Generalised advantages. Step t's next value is step t+1's (for an ending step, the value of the game's
    final observation, which NEXT_STEP hands back as the next step's observation): cut when the game ended
    (terminated), kept when the turn limit cut it (truncated); the chain of advantages stops at either.
    An autoreset step's transition is no one's: its advantage is 0 and it starts no chain."""
    advantages = torch.zeros_like(rewards)
    running = torch.zeros_like(next_value)
    for step in reversed(range(len(rewards))):
        following = next_value if step == len(rewards) - 1 else values[step + 1]
        ended = terminated[step] | truncated[step]
        delta = rewards[step] + settings.gamma * following * (~terminated[step]) - values[step]
        running = delta + settings.gamma * settings.gae_lambda * (~ended) * running
        running = torch.where(valid[step], running, torch.zeros_like(running))
        advantages[step] = running
    return advantages


def update(agent: Agent, optimizer: torch.optim.Optimizer, settings: Settings, rng: np.random.Generator,
           obs: torch.Tensor, masks: torch.Tensor, actions: torch.Tensor, old_logp: torch.Tensor,
           advantages: torch.Tensor, returns: torch.Tensor, valid: torch.Tensor) -> None:
    """The clipped-objective epochs over the rollout's valid transitions, in shuffled minibatches."""
    keep = valid.reshape(-1)
    flat_obs, flat_masks = obs.reshape(-1, obs.shape[-1])[keep], masks.reshape(-1, masks.shape[-1])[keep]
    flat_actions, flat_logp = actions.reshape(-1)[keep], old_logp.reshape(-1)[keep]
    flat_adv, flat_returns = advantages.reshape(-1)[keep], returns.reshape(-1)[keep]
    for _ in range(settings.epochs):
        order = torch.as_tensor(rng.permutation(len(flat_actions)))
        for start in range(0, len(order), settings.batch_size):
            batch = order[start:start + settings.batch_size]
            _, logp, entropy, value = agent.act(flat_obs[batch], flat_masks[batch], flat_actions[batch])
            adv = flat_adv[batch]
            if len(batch) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            ratio = (logp - flat_logp[batch]).exp()
            policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - settings.clip, 1 + settings.clip)).mean()
            value_loss = ((flat_returns[batch] - value) ** 2).mean()
            loss = policy_loss + settings.value_coef * value_loss - settings.entropy_coef * entropy.mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), settings.max_grad_norm)
            optimizer.step()


class Digested(gym.Wrapper):
    """A scalar env whose steps go into a run's Games, env ``index`` of ``count`` (SB3 steps them in turn)."""

    def __init__(self, env: gym.Env, games: Games, index: int, count: int) -> None:
        super().__init__(env)
        self.games, self.index, self.count = games, index, count

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.games.played_one(self.index, self.count, int(action), float(reward), terminated or truncated)
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


class Sb3Run:
    """SB3's MaskablePPO on scalar envs in a DummyVecEnv, the same settings, a rollout and its update at a
    time (``learn`` of one rollout, its count of steps carried on)."""

    def __init__(self, task: str, envs_count: int, seed: int, settings: Settings) -> None:
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv

        self.games = Games()
        envs = DummyVecEnv([lambda index=index: Digested(gym.make(task), self.games, index, envs_count)
                            for index in range(envs_count)])
        envs.seed(seed)
        self.rollout = settings.num_steps * envs_count
        self.model = MaskablePPO("MultiInputPolicy", envs, seed=seed, verbose=0, n_steps=settings.num_steps,
                                 batch_size=settings.batch_size, n_epochs=settings.epochs,
                                 learning_rate=settings.learning_rate, gamma=settings.gamma,
                                 gae_lambda=settings.gae_lambda, clip_range=settings.clip,
                                 vf_coef=settings.value_coef, ent_coef=settings.entropy_coef,
                                 max_grad_norm=settings.max_grad_norm)
        self.steps = 0

    def iteration(self) -> None:
        self.model.learn(self.rollout, reset_num_timesteps=self.steps == 0)
        self.steps = self.model.num_timesteps


def timed(run: CleanRun | Sb3Run) -> float:
    """CPU seconds of one iteration of ``run``."""
    began = time.process_time()
    run.iteration()
    return time.process_time() - began


def shown(name: str, rates: list[float], steps: int, games: Games) -> None:
    """A side's row (its iterations' median rate and spread) and its games: how many ended, the last ones'
    mean return, and their digest."""
    report(name, statistics.median(rates), "steps/CPU s", note=f"{spread(rates)}; {steps:,} steps")
    late = games.returns[-50:]
    print(f"  {len(games.returns)} games ended, the last {len(late)}'s mean return "
          f"{np.mean(late) if late else float('nan'):+.3f}; digest {games.digest.hexdigest()[:16]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="Labyrinth/User-Tiny-v1")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=2, help="rollouts and updates a side")
    parser.add_argument("--num-steps", type=int, default=Settings.num_steps, help="a rollout's steps per env")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sb3", action="store_true", help="SB3's MaskablePPO beside it, iteration for iteration")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # one core, as bench/rl/baseline.py trains
    settings = Settings(num_steps=args.num_steps)
    clean = CleanRun(args.task, args.envs, args.seed, settings)
    sb3 = Sb3Run(args.task, args.envs, args.seed, settings) if args.sb3 else None
    clean_s, sb3_s, ratios = [], [], []
    for _ in range(args.iterations):  # interleaved: both see the machine's load of the moment
        clean_s.append(timed(clean))
        if sb3 is not None:
            sb3_s.append(timed(sb3))
            ratios.append(sb3_s[-1] / clean_s[-1])
    rollout = settings.num_steps * args.envs
    shown(f"CleanRL-style PPO, vector env x{args.envs}", [rollout / s for s in clean_s], clean.steps, clean.games)
    if sb3 is not None:
        shown(f"SB3 MaskablePPO, scalar envs x{args.envs}", [rollout / s for s in sb3_s], sb3.steps, sb3.games)
        report("CleanRL-style / SB3", statistics.median(ratios), "x", fmt=".2f", note=spread(ratios, ".2f"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
