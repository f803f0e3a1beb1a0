"""RLlib's PPO on a task of the ladder (``--task``): a one-role task (the user's first rung
``Labyrinth/Stones-Tiny-v1``, the Minotaur's ``Labyrinth/Minotaur-Tiny-Wait-v1``, any other) with one
policy, its role's, against the task's opponent; or a two-role task (``Labyrinth/Duel-Tiny-v1``, the default:
tiny, 400 turns) with a policy per role (multi-agent self-play: the user learns against the learning
Minotaur and the other way round). Two env runners on a local Ray cluster.

A one-role task's env is its Gymnasium env (``gym.make`` of its id) wrapped by rllib_masked's ``MaskedOne``; a
two-role task's is labyrinth.agents.rl.pettingzoo_env's task env wrapped for RLlib's ParallelPettingZooEnv by
``Masked``. Either way each observation becomes one vector, the mask of its commands first, then its numeric
keys flattened. ``MaskedPPO`` is RLlib's own PPO module (DefaultPPOTorchRLModule, of RLlib's API, not of its
examples) reading that vector whole and setting the logits of the masked commands to the lowest float, so a
policy never samples a command the game would refuse. Every iteration prints a row: env steps and, over the
last episodes that ended (those of the latest iterations that hold at least 200, counted from totals the env
runners keep), each policy's mean return, the user's escape, caught and timeout rates and the stones it held
at the end.

    .venv/bin/pip install -e '.[ray]'
    .venv/bin/python bench/rl/train_rllib.py --task Labyrinth/Minotaur-Tiny-Wait-v1 --iterations 25
    .venv/bin/python bench/rl/train_rllib.py --task Labyrinth/Stones-Tiny-v1 --iterations 500 --minutes 40
    .venv/bin/python bench/rl/train_rllib.py --iterations 500 --minutes 20

docs/rl.md's RLlib section gives what these printed.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv
from ray.tune.registry import register_env
from rllib_masked import Masked, MaskedOne  # bench/rl/ is on sys.path, as this file runs as a script
from rllib_window import PREFIX, WINDOW, Window

from labyrinth.agents.rl.pettingzoo_env import task_parallel_env
from labyrinth.agents.rl.tasks import BOTH, task
from labyrinth.engine.schemas import OUTCOMES
from labyrinth.engine.wsap.roles import ROLES as ENGINE_ROLES

ENV_NAME = "labyrinth_masked"  # the two-role tasks' env, registered with Ray's tune
ONE_ENV_NAME = "labyrinth_masked_one"  # a one-role task's
ROLES = tuple(ENGINE_ROLES)  # "user", "minotaur": a two-role task's policies


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


def make_one_env(config: dict) -> MaskedOne:
    import labyrinth.agents.rl.gym_env  # noqa: F401  (registers the one-role tasks in the env runner's process)

    return MaskedOne(gym.make(config["task"]))


class Outcomes(RLlibCallback):
    """Counts, over the run, the episodes that ended, each outcome, the stones the user held at the end (every
    role's last info says both) and each role's return: totals, which Ray sums over the env runners as they
    are, for rllib_window's ``Window`` to make rates of."""

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        info = episode.get_infos(-1)
        if isinstance(episode, MultiAgentEpisode):
            info = info.get("user", {})
            returns = {role: episode.agent_episodes[role].get_return() for role in ROLES
                       if role in episode.agent_episodes}
        else:
            returns = {"one": episode.get_return()}
        counted = {"ended": 1, "stones": info.get("stones", 0),
                   **{name: int(info.get("outcome") == name) for name in OUTCOMES},
                   **{f"return_{role}": value for role, value in returns.items()}}
        for key, value in counted.items():
            metrics_logger.log_value(f"{PREFIX}{key}", float(value), reduce="lifetime_sum")


def config(args: argparse.Namespace, roles: tuple[str, ...]) -> PPOConfig:
    """PPO with the same settings for any task; a policy for each of ``roles`` (a two-role task's both)."""
    spec = RLModuleSpec(module_class=MaskedPPO,
                        model_config={"fcnet_hiddens": [128], "head_fcnet_hiddens": [128]})
    made = PPOConfig()
    if len(roles) == 1:
        made = made.environment(ONE_ENV_NAME, env_config={"task": args.task}).rl_module(rl_module_spec=spec)
    else:
        made = (made.environment(ENV_NAME, env_config={"task": args.task})
                .multi_agent(policies=set(roles), policy_mapping_fn=lambda agent_id, episode, **kw: agent_id)
                .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(roles, spec))))
    return (made
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


def row(result: dict, began: float, roles: tuple[str, ...], window: Window) -> str:
    runners = result.get("env_runners", {})
    count, rates = window.rates(runners)
    nan = float("nan")
    returns = "  ".join(f"{role} {rates.get('return_one' if len(roles) == 1 else f'return_{role}', nan):+7.2f}"
                        for role in roles)
    return (f"{result['training_iteration']:>4}  {int(runners.get('num_env_steps_sampled_lifetime', 0)):>9,} steps  "
            f"{time.perf_counter() - began:>7.0f} s  return {returns}  escape {rates.get('ESCAPED', nan):.3f}  "
            f"caught {rates.get('DEATH', nan):.3f}  timeout {rates.get('TIMEOUT', nan):.3f}  "
            f"stones {rates.get('stones', nan):.2f}  over {count:,} episodes  "
            f"(of {int(runners.get('num_episodes_lifetime', 0)):,})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=None, help="stop after the iteration that passes this")
    parser.add_argument("--task", default="Labyrinth/Duel-Tiny-v1", help="a task of the ladder, of one role or two")
    parser.add_argument("--batch", type=int, default=4000, help="env steps an iteration trains on")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        role = task(args.task).role
    except ValueError as exc:
        parser.error(str(exc))
    roles = ROLES if role == BOTH else (role,)
    torch.set_num_threads(1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    register_env(ENV_NAME, make_env)
    register_env(ONE_ENV_NAME, make_one_env)
    algo = config(args, roles).build_algo()
    began = time.perf_counter()
    print(f"RLlib PPO on {args.task}: a policy for {' and '.join(roles)}; 2 env runners, {args.batch:,} steps an "
          "iteration; each policy's mean return and the user's outcomes and stones over the last episodes (at least "
          f"{WINDOW} once so many have ended)", flush=True)
    window = Window()
    for _ in range(args.iterations):
        print(row(algo.train(), began, roles, window), flush=True)
        if args.minutes is not None and time.perf_counter() - began > 60 * args.minutes:
            break
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
