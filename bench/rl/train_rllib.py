"""Both roles trained at once: RLlib's PPO on a two-role task of the ladder (``--task``, by default
``Labyrinth/Duel-Tiny-v1``: tiny, 400 turns), a policy per role (multi-agent self-play: the user
learns against the learning Minotaur and the other way round), two env runners on a local Ray cluster.

The env is labyrinth.agents.rl.pettingzoo_env's task env, wrapped for RLlib's
ParallelPettingZooEnv by ``Masked``: each agent's observation becomes one vector, the mask of its
commands first, then its numeric keys flattened. ``MaskedPPO`` is RLlib's own PPO module
(DefaultPPOTorchRLModule, of RLlib's API, not of its examples) reading that vector whole and
setting the logits of the masked commands to the lowest float, so a policy never samples a
command the game would refuse. Every iteration prints a row: env steps, each role's mean
episode return, and the user's escape and caught rates over the episodes that ended.

    .venv/bin/pip install -e '.[ray]'
    .venv/bin/python bench/rl/train_rllib.py --iterations 40 --minutes 30 > bench/results/rllib.log
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv
from ray.tune.registry import register_env
from rllib_masked import Masked  # bench/rl/ is on sys.path, as this file runs as a script

from labyrinth.agents.rl.pettingzoo_env import task_parallel_env

ENV_NAME = "labyrinth_masked"
ROLES = ("user", "minotaur")
OUTCOMES = ("ESCAPED", "DEATH", "TIMEOUT")


class MaskedPPO(DefaultPPOTorchRLModule):
    """RLlib's PPO module over Masked's vector, the commands its first numbers mark out never sampled."""

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked(super()._forward(batch, **kwargs), batch)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked(super()._forward_train(batch, **kwargs), batch)

    def _masked(self, out: dict[str, Any], batch: dict[str, Any]) -> dict[str, Any]:
        logits = out[Columns.ACTION_DIST_INPUTS]
        allowed = batch[Columns.OBS][..., :logits.shape[-1]] > 0.5
        out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(~allowed, torch.finfo(logits.dtype).min)
        return out


def make_env(config: dict) -> ParallelPettingZooEnv:
    return ParallelPettingZooEnv(Masked(task_parallel_env(config["task"])))


class Outcomes(RLlibCallback):
    """Counts each ended episode's outcome (the user's last info), for the escape and caught rates."""

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        outcome = episode.get_infos(-1).get("user", {}).get("outcome")
        for name in OUTCOMES:
            metrics_logger.log_value(f"outcome_{name}", float(outcome == name), reduce="mean", window=200)


def config(args: argparse.Namespace) -> PPOConfig:
    spec = RLModuleSpec(module_class=MaskedPPO,
                        model_config={"fcnet_hiddens": [128], "head_fcnet_hiddens": [128]})
    return (PPOConfig()
            .environment(ENV_NAME, env_config={"task": args.task})
            .multi_agent(policies=set(ROLES), policy_mapping_fn=lambda agent_id, episode, **kw: agent_id)
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(ROLES, spec)))
            # sample_timeout_s: a busy machine's runner may take minutes for its share of a batch, and the
            # default (60 s) drops what comes late, leaving the iteration with nothing to train on
            .env_runners(num_env_runners=2, num_envs_per_env_runner=1, num_cpus_per_env_runner=1,
                         rollout_fragment_length="auto", sample_timeout_s=None)
            .learners(num_learners=0)
            .resources(num_cpus_for_main_process=0)
            .training(train_batch_size_per_learner=args.batch, minibatch_size=256, num_epochs=5, lr=3e-4,
                      gamma=0.995, entropy_coeff=0.01)
            .callbacks(Outcomes)
            .debugging(seed=args.seed))


def row(result: dict, began: float) -> str:
    runners = result.get("env_runners", {})
    returns = runners.get("module_episode_returns_mean", {})
    rates = {name: runners.get(f"outcome_{name}", float("nan")) for name in OUTCOMES}
    return (f"{result['training_iteration']:>4}  {int(runners.get('num_env_steps_sampled_lifetime', 0)):>9,} steps  "
            f"{time.perf_counter() - began:>7.0f} s  return user {returns.get('user', float('nan')):+7.2f}  "
            f"minotaur {returns.get('minotaur', float('nan')):+7.2f}  escape {rates['ESCAPED']:.3f}  "
            f"caught {rates['DEATH']:.3f}  timeout {rates['TIMEOUT']:.3f}  "
            f"episodes {int(runners.get('num_episodes_lifetime', 0)):,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=None, help="stop after the iteration that passes this")
    parser.add_argument("--task", default="Labyrinth/Duel-Tiny-v1", help="a two-role task of the ladder")
    parser.add_argument("--batch", type=int, default=4000, help="env steps an iteration trains on")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    register_env(ENV_NAME, make_env)
    algo = config(args).build_algo()
    began = time.perf_counter()
    print(f"RLlib PPO, both roles (a policy each), on {args.task}; "
          f"2 env runners, {args.batch:,} steps an iteration; escape and caught over the last 200 episodes",
          flush=True)
    for _ in range(args.iterations):
        print(row(algo.train(), began), flush=True)
        if args.minutes is not None and time.perf_counter() - began > 60 * args.minutes:
            break
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
