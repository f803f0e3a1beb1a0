"""One row of the ladder's baseline table, one command: a policy trained on a task's ``train`` split
(or a yardstick that needs none) and evaluated on its ``eval`` and ``test`` splits by the package's
protocol (labyrinth.agents.rl.protocol.evaluate), written as JSON for baseline_table.py.

Algorithms (``--algo``):

- ``random``: uniform among the commands the mask allows (protocol.RandomPolicy); no training.
- ``builtin``: the built-in agent of the task's role seated in the learner's place (protocol.BUILTIN);
  no training.
- ``ppo``: Stable-Baselines3's PPO, ``MultiInputPolicy``, every hyperparameter SB3's default; it
  does not read the mask (a command the game refuses is played as a second of standing still).
- ``maskable``: sb3-contrib's MaskablePPO, the same defaults, reading ``action_masks()``.
- ``recurrent``: sb3-contrib's RecurrentPPO, ``MultiInputLstmPolicy``, its defaults (an LSTM of 256
  for a partially observed task) but one: the keys flattened into one layer of 256 before the LSTM
  (ppo_network.Flat), the width the default extractor gives an image. By default the LSTM reads
  the 5,083 raw numbers (the planes are no image), and its input weights alone make a step cost
  twenty times as much: about 1 step a second here. Its sequences go through the LSTM in one call
  where the library steps them a time-step at a time (recurrent_policy.py: the same arithmetic). It
  does not read the mask.

Nothing else: the task's own observation and reward (no privileged features, no shaping beyond the
task's, no demonstrations; those are bench/rl/train_ppo.py's labelled options). Training plays the
train split's games (protocol.training_env: run ``--seed`` draws its own), ``--envs`` side by side
in this process (8 by default: a batch of 8 observations costs the policy little more than one, and
it trains about 1.3 times as fast; SB3's hyperparameters are per env, so a rollout is 8 x
``n_steps``), torch on one thread. The trained policy samples
its actions (``--deterministic`` takes the likeliest), with torch seeded by ``--seed`` before each
split, so an evaluation is reproducible. The result goes to
``<out>/<task>/<algo>-seed<seed>.json``: the settings, the training's wall and CPU time and steps a
second of each (the CPU figure is steadier on a shared machine), and each split's metrics and games.

A trained run is saved to ``<algo>-seed<seed>.ckpt`` beside it as each rollout begins
(bench/rl/checkpoint.py): the same command run again after its process ended takes the run up where
it was and plays on exactly as if it had not stopped. The record names the steps at which it was
taken up (``resumed_at``); the checkpoint goes once the record is written.

    .venv/bin/python bench/rl/baseline.py --task Labyrinth/User-Tiny-v1 --algo maskable --seed 0 \\
        --steps 1000000 --out bench/rl/results
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from labyrinth.agents.rl.protocol import BUILTIN, EPISODES, RandomPolicy, Report, Seated, evaluate, training_env
from labyrinth.agents.rl.tasks import BOTH, TASKS

TRAINED = ("ppo", "maskable", "recurrent")
RECURRENT_FEATURES = 256  # the recurrent policy's one layer before its LSTM
ALGOS = ("random", "builtin", *TRAINED)
STEPS = 1_000_000  # a training run's steps, the protocol's (baseline_table.py names the runs it lacks with it)


def result_path(out: Path, task_id: str, algo: str, seed: int) -> Path:
    """Where a row's result goes (baseline_table.py reads them from there)."""
    return out / task_id.replace("/", "_") / f"{algo}-seed{seed}.json"


def train(args: argparse.Namespace, checkpoint: Path, policy_class: Any = None,
          **hyper: Any) -> tuple[Any, dict[str, Any]]:
    """The model of ``args.algo`` trained for ``args.steps`` on the task's train split, and how long it took.

    The run is saved at ``checkpoint`` as each rollout begins and taken up from there if it exists
    (bench/rl/checkpoint.py). ``hyper`` overrides SB3's defaults: for tests only, never on the command line;
    ``policy_class`` the algorithm's policy (recurrent_bench.py: sb3-contrib's own, timed against ours).
    """
    import torch
    from checkpoint import Checkpoint, Spent, resume  # bench/rl/ is on sys.path, as this file runs as a script
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import DummyVecEnv
    from training_curve import Curve

    torch.set_num_threads(1)
    policy: Any
    if args.algo == "ppo":
        algo_class: Any = PPO
        policy, kwargs = "MultiInputPolicy", {}
    elif args.algo == "maskable":
        from sb3_contrib import MaskablePPO

        algo_class, policy, kwargs = MaskablePPO, "MultiInputPolicy", {}
    else:
        from ppo_network import Flat
        from recurrent_policy import SequenceLstmPolicy
        from sb3_contrib import RecurrentPPO

        algo_class, policy = RecurrentPPO, SequenceLstmPolicy
        kwargs = {"policy_kwargs": {"features_extractor_class": Flat,
                                    "features_extractor_kwargs": {"features": RECURRENT_FEATURES}}}
    if policy_class is not None:
        policy = policy_class
    settings = {"task": args.task, "algo": args.algo, "seed": args.seed, "steps": args.steps, "envs": args.envs,
                **({} if policy_class is None else {"policy": policy_class.__name__}), **hyper}
    curve = Curve(TASKS[args.task].role, f"{args.task} {args.algo} seed {args.seed}")
    taken_up = resume(checkpoint, settings, algo_class)
    if taken_up is None:
        envs = DummyVecEnv([lambda index=index: training_env(args.task, args.seed, index, args.envs)
                            for index in range(args.envs)])
        model, spent = algo_class(policy, envs, seed=args.seed, verbose=0, **kwargs, **hyper), Spent()
    else:
        model, spent, carried = taken_up
        curve.take_up(carried)
        print(f"{args.task} {args.algo} seed {args.seed}: taken up at {model.num_timesteps:,} steps "
              f"from {checkpoint}", flush=True)
    saver = Checkpoint(checkpoint, settings, spent, curve.carried)
    model.learn(args.steps - model.num_timesteps, callback=[curve, saver], reset_num_timesteps=taken_up is None)
    spent = saver.elapsed()
    return model, {"train_seconds": round(spent.seconds, 1),
                   "steps_per_second": round(model.num_timesteps / spent.seconds, 1),
                   "train_cpu_seconds": round(spent.cpu_seconds, 1),
                   "steps_per_cpu_second": round(model.num_timesteps / spent.cpu_seconds, 1),
                   "trained_steps": model.num_timesteps, "resumed_at": spent.resumed_at, "curve": curve.points}


class Trained:
    """A trained SB3 model as a protocol policy: ``(obs, mask) -> action``, its LSTM state (RecurrentPPO's)
    begun afresh at each game."""

    def __init__(self, model: Any, algo: str, deterministic: bool) -> None:
        self.model, self.algo, self.deterministic = model, algo, deterministic
        self.name = algo
        self.state: Any = None
        self.starts = np.ones(1, bool)

    def begin(self, env: Any) -> None:
        self.state, self.starts = None, np.ones(1, bool)

    def __call__(self, obs: dict[str, Any], mask: np.ndarray) -> int:
        if self.algo == "maskable":
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        elif self.algo == "recurrent":
            action, self.state = self.model.predict(obs, state=self.state, episode_start=self.starts,
                                                    deterministic=self.deterministic)
            self.starts = np.zeros(1, bool)
        else:
            action, _ = self.model.predict(obs, deterministic=self.deterministic)
        return int(action)


def splits(policy: Callable[[dict[str, Any], np.ndarray], int] | Seated, args: argparse.Namespace,
           reseed: Callable[[], None]) -> dict[str, Report]:
    """The policy's report on each evaluation split, its draws reseeded before each."""
    reports = {}
    for split in ("eval", "test"):
        reseed()
        began = time.perf_counter()
        reports[split] = evaluate(policy, args.task, split, args.episodes, name=args.algo)
        win = reports[split].summary()["win"]
        print(f"{args.task} {args.algo} seed {args.seed} {split}: win {win['value']:.3f} "
              f"({win['low']:.3f}..{win['high']:.3f}) over {args.episodes} games, "
              f"{time.perf_counter() - began:.0f} s", flush=True)
    return reports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", required=True, choices=[t for t, rung in TASKS.items() if rung.role != BOTH])
    parser.add_argument("--algo", required=True, choices=ALGOS)
    parser.add_argument("--seed", type=int, default=0, help="the training run's seed (and its train games')")
    parser.add_argument("--steps", type=int, default=STEPS, help="training steps (trained algorithms)")
    parser.add_argument("--envs", type=int, default=8, help="training envs side by side, in this process")
    parser.add_argument("--episodes", type=int, default=EPISODES, help="games on each of the eval and test splits")
    parser.add_argument("--deterministic", action="store_true", help="evaluate the likeliest action")
    parser.add_argument("--out", type=Path, default=Path("bench/rl/results"))
    args = parser.parse_args()
    path = result_path(args.out, args.task, args.algo, args.seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {"task": args.task, "algo": args.algo, "seed": args.seed, "episodes": args.episodes}
    if args.algo in TRAINED:
        import torch

        model, timing = train(args, path.with_suffix(".ckpt"))
        record.update(steps=args.steps, envs=args.envs, deterministic=args.deterministic, **timing)
        print(f"{args.task} {args.algo} seed {args.seed}: {timing['trained_steps']:,} steps in "
              f"{timing['train_seconds']:,.0f} s ({timing['steps_per_second']:.0f} steps/s; "
              f"{timing['steps_per_cpu_second']:.0f} a CPU second of this process)", flush=True)
        reports = splits(Trained(model, args.algo, args.deterministic), args, lambda: torch.manual_seed(args.seed))
        model.save(path.with_suffix(".zip"))
    else:
        policy = BUILTIN if args.algo == "builtin" else RandomPolicy(args.seed)
        reports = splits(policy, args, lambda: None)
    record.update({split: report.to_dict() for split, report in reports.items()})
    path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    path.with_suffix(".ckpt").unlink(missing_ok=True)  # the run is done: its result and model say the rest
    print(f"written to {path}", flush=True)


if __name__ == "__main__":
    main()
