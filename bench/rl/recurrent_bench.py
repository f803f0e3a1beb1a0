"""RecurrentPPO trained with bench/rl/recurrent_policy.py's policy against sb3-contrib's own ``MultiInputLstmPolicy``:
training steps per CPU second of each, in interleaved rounds (the order turns each round, so that the machine's
other work weighs on both alike), each row the median of its rounds with their spread, the ratio the median of the
rounds' ratios; both trained by baseline.py's ``train`` as a ``recurrent`` row is (its network, 8 envs, torch on one
thread, the same seed).

With each, a digest of its training curve (the games that ended in each rollout): the first rollout, played before
any update, is the same game for both; after the first update the two diverge, as their gradients differ in the
floating point sums' last bits (one matrix product over a sequence's steps in place of one a step), so the rest of
the curve is another run of the same algorithm, not the same games. Prints figures and asserts nothing. Needs the
[train] extra.

    .venv/bin/python bench/rl/recurrent_bench.py [--task Labyrinth/User-Tiny-v1] [--steps 8192] [--rounds 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from baseline import train  # bench/rl/ is on sys.path, as this file runs as a script
from figures import interleaved, report, spread
from recurrent_policy import SequenceLstmPolicy
from sb3_contrib.ppo_recurrent.policies import MultiInputLstmPolicy

POLICIES = {"sb3-contrib's policy": MultiInputLstmPolicy, "one call a sequence": SequenceLstmPolicy}


def digest(points: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(points, sort_keys=True).encode()).hexdigest()[:16]


def run(task: str, steps: int, policy: Any) -> tuple[str, float]:
    """One training run: the digests of its first rollout and of its whole curve, and its CPU seconds."""
    args = argparse.Namespace(task=task, algo="recurrent", seed=0, steps=steps, envs=8)
    with tempfile.TemporaryDirectory() as folder:
        _, timing = train(args, Path(folder) / "run.ckpt", policy_class=policy)
    return f"first rollout {digest(timing['curve'][:1])}, all {digest(timing['curve'])}", timing["train_cpu_seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="Labyrinth/User-Tiny-v1")
    parser.add_argument("--steps", type=int, default=8192, help="training steps a run (a rollout is 1,024)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rates, digests = interleaved({name: partial(run, args.task, args.steps, policy)
                                  for name, policy in POLICIES.items()}, args.rounds, args.steps)
    for name in POLICIES:
        report(f"{name}: steps/CPU s", statistics.median(rates[name]), "/s",
               note=f"{spread(rates[name])}; {args.steps:,} steps of {args.task}; {'; '.join(sorted(digests[name]))}")
    library, ours = POLICIES
    ratios = [a / b for a, b in zip(rates[ours], rates[library], strict=True)]
    report("one call a sequence / the library's", statistics.median(ratios), "x", fmt=".2f",
           note=spread(ratios, ".2f"))


if __name__ == "__main__":
    main()
