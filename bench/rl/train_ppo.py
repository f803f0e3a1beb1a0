"""A baseline that learns: sb3-contrib's MaskablePPO on Labyrinth/User-v0, with a curriculum,
evaluated on held-out seeds as it trains, next to random masked play and the built-in
scripted user on the same seeds.

The curriculum (``--stages``, "preset:opponent:from_step" items) changes the training env's
preset and opponent when training reaches a stage's first step; a game under way finishes
under the old settings. The default first meets a Minotaur that only waits (finding and
grabbing the stones is learnt without being eaten first), then the built-in Minotaur.
Evaluation is always on ``--preset`` against the built-in Minotaur, on seeds that training
never draws: each evaluation game is reset with a seed of the eval split (rl_eval.held_out), each training env draws its
games from a generator seeded with ``--seed`` plus its index (the game seeds of both are checked apart).

``--shaping`` pays the training envs for progress (agents/rl/shaping.py): cells first seen, and
walking distance gained on the nearest missing stone, a distance computed from the world the
policy never sees: a privileged aid, off by default, named in the first line of the log with the
others (``--memory``, ``--routes``, ``--demos``).

``--demos N`` warm-starts the policy openly by behaviour cloning N steps of the built-in
scripted user's play (ppo_warm_start.py) before PPO's first step; the network is
ppo_network.py's (``--network``: a small CNN over the planes by default).

``--memory K`` feeds the policy a short memory too (ppo_memory.py): the observation's numbers
and the actions of the last K steps, so that it can tell whether the hooves are nearing and
where it was heading. It is worn wherever the policy is fed: the training envs, the
demonstrations it is cloned from, the held-out evaluation. 0 (the default) feeds it the env's
observation alone, as every run before it.

``--routes`` feeds it routes too (ppo_routes.py): the first step and the length of the shortest
known way to where a stone may lie, to the edge of what the user has seen, and to an item it saw,
planned over its map as the built-in user plans them (a feed-forward policy cannot plan them). It is
worn where the memory is, over it (the memory does not remember the routes), with or without it.

First (step 0, the policy before PPO: untrained, or as cloned) and then every
``--eval-every`` steps it prints a row of the learning curve: the policy's escape rate
on the held-out seeds with its Wilson 95 % interval, and the paired difference with random
masked play on the same seeds (Newcombe's interval for paired proportions); the two yardsticks are
measured once, first. The rows also go to ``<out>/curve.jsonl``, the model of the last row to
``<out>/model.zip`` (and the reward scaling's running figures to ``<out>/vecnormalize.pkl``).
``--resume DIR`` goes on training the model saved in DIR for ``--steps`` more, with its own
hyperparameters, appending to its curve: a run can be lengthened once its curve says it is still
rising. The training env is built from the command line as ever: give the first run's ``--stages``,
``--envs``, ``--normalize``, ``--shaping``, ``--memory``, ``--routes`` and end costs again, and another
``--seed`` for games it has not played.
One core: torch is held to one thread and the envs (``--envs``, side by side for less correlated
rollouts) run in process.

    .venv/bin/pip install -e '.[train]'
    nohup .venv/bin/python bench/rl/train_ppo.py --shaping --steps 1000000 --out bench/results/ppo \
        > bench/results/ppo.log &
    nohup .venv/bin/python bench/rl/train_ppo.py --shaping --demos 100000 --stages tiny:builtin:0 --lr 1e-4 \
        --ent 0.001 --out bench/results/ppo_bc > bench/results/ppo_bc.log &
    nohup .venv/bin/python bench/rl/train_ppo.py --shaping --demos 100000 --stages tiny:builtin:0 --lr 1e-4 \
        --ent 0.001 --timeout-cost 10 --envs 8 --n-steps 256 --normalize --steps 300000 --out bench/results/ppo_cand &
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from ppo_memory import ShortMemory
from ppo_network import NETWORKS  # bench/rl/ is on sys.path, as this file runs as a script
from ppo_routes import Routes
from ppo_warm_start import clone
from rl_eval import Stage, held_out, paired, play_builtin, play_policy, rate, stages
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.protocol import masked_choice
from labyrinth.engine.wsap.rewards import CATCH


class EndCost(gym.Wrapper):
    """Training only: what a game's end costs, changed. A game that runs out of turns costs
    ``timeout`` at its last step (the game's own rewards charge about 0.4 for it, a capture 10, so
    hiding until the end is the easy optimum); a capture costs ``caught`` instead of the game's
    CATCH (a smaller figure makes going for the stones worth its risk). Neither is potential-based:
    they change the best policy, towards the game's aim (escape). Evaluation never wears it."""

    def __init__(self, env: gym.Env, timeout: float, caught: float) -> None:
        super().__init__(env)
        self.timeout, self.caught = timeout, caught

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if truncated and info.get("outcome") == "TIMEOUT":
            reward -= self.timeout
        elif terminated and info.get("outcome") == "DEATH":
            reward += CATCH - self.caught
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


class Curriculum(BaseCallback):
    """Moves the training env to the next stage when training reaches its first step."""

    def __init__(self, envs: list[LabyrinthEnv], plan: list[Stage]) -> None:
        super().__init__()
        self.envs, self.plan = envs, plan

    def _on_step(self) -> bool:
        stage = [s for s in self.plan if s.start <= self.num_timesteps][-1]
        if (self.envs[0].preset, self.envs[0].opponent) != (stage.preset, stage.opponent):
            for env in self.envs:
                env.preset, env.opponent = stage.preset, stage.opponent
            print(f"step {self.num_timesteps}: curriculum stage {stage.preset} against {stage.opponent}", flush=True)
        return True


class LearningCurve(BaseCallback):
    """Evaluates the policy on the held-out seeds every ``every`` steps and prints a row."""

    def __init__(self, args: argparse.Namespace, random_games: list[dict], out: Path) -> None:
        super().__init__()
        self.args, self.random_games, self.out = args, random_games, out
        self.began = time.perf_counter()
        self.next_at = args.eval_every
        self.evaluated = -1  # the step of the last evaluation
        self.trained: list[dict] = []  # the training episodes' last infos since the last evaluation

    def _on_step(self) -> bool:
        self.trained += [info for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True) if done]
        if self.num_timesteps >= self.next_at:
            self.next_at += self.args.eval_every
            self.evaluate()
        return True

    def evaluate(self) -> dict:
        args, model = self.args, self.model

        def choose(obs, mask):
            action, _ = model.predict(obs, action_masks=mask, deterministic=args.deterministic)
            return int(action)

        self.evaluated = self.num_timesteps
        # The policy samples its actions: the same draws at every evaluation, and training's own draws
        # taken up where they were, so that how often a run is evaluated never changes how it trains.
        training_draws = torch.get_rng_state()
        torch.manual_seed(args.seed)
        try:
            games = play_policy(choose, args.preset, args.max_turns, held_out(args.eval_games),
                                wrap=fed(args.memory, args.routes))
        finally:
            torch.set_rng_state(training_draws)
        row = {"step": self.num_timesteps, "wall_s": round(time.perf_counter() - self.began, 1), **rate(games),
               "return": statistics.fmean(g["return"] for g in games),
               "vs_random": paired(games, self.random_games),
               "training": {"episodes": len(self.trained),
                            "escape": statistics.fmean(i.get("outcome") == "ESCAPED" for i in self.trained or [{}]),
                            "progression": statistics.fmean(i.get("progression", 0) for i in self.trained or [{}])}}
        self.trained = []
        pair = row["vs_random"]
        print(f"{row['step']:>9,}  {row['wall_s']:>8.0f} s  escape {row['escape']:.3f} "
              f"({row['low']:.3f}..{row['high']:.3f})  caught {row['caught']:.2f}  return {row['return']:+.2f}  "
              f"vs random {pair['mean']:+.3f} ({pair['low']:+.3f}..{pair['high']:+.3f})"
              f"  | training: {row['training']['episodes']} games, escape {row['training']['escape']:.3f}, "
              f"progression {row['training']['progression']:.2f}", flush=True)
        with (self.out / "curve.jsonl").open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        model.save(self.out / "model.zip")  # the policy of the last row: a long run can be looked at, or stopped
        if (scaling := model.get_vec_normalize_env()) is not None:
            scaling.save(str(self.out / "vecnormalize.pkl"))
        return row


class SeedLog(BaseCallback):
    """The game seeds training played, to check them apart from the evaluation's."""

    def __init__(self, envs: list[LabyrinthEnv]) -> None:
        super().__init__()
        self.envs, self.seeds = envs, set()

    def _on_step(self) -> bool:
        self.seeds.update(env.match.seed for env in self.envs)
        return True


def fed(memory: int, routes: bool = False) -> Callable[[gym.Env], gym.Env]:
    """What the policy's envs wear to feed it: a short memory of ``memory`` steps (``--memory``; none
    for 0), and over it the routes (``--routes``)."""
    def wear(env: gym.Env) -> gym.Env:
        if memory:
            env = ShortMemory(env, memory)
        return Routes(env) if routes else env
    return wear


def trained_with_shaping(saved: Path) -> bool | None:
    """Whether the run whose settings ``saved`` holds was trained with the shaping (None when it does not say):
    its ``--shaping``, or, before that was an option, the shaping on unless ``--no-shaping``."""
    if not saved.is_file():  # missing, or no regular file (a FIFO's read would wait forever)
        return None
    try:
        given = json.loads(saved.read_text(encoding="utf-8"))["args"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if "shaping" in given:
        return given["shaping"] == "True"
    if "no_shaping" in given:
        return given["no_shaping"] != "True"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--preset", default="tiny", help="the evaluation's preset (against the built-in Minotaur)")
    parser.add_argument("--stages", default="tiny:wait:0,tiny:builtin:60000")
    parser.add_argument("--max-turns", type=int, default=400)
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--deterministic", action="store_true", help="evaluate the policy's most likely action")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shaping", action="store_true",
                        help="privileged: pay the training envs for cells first seen and for walking distance gained "
                             "on the nearest missing stone, a distance the policy never sees (agents/rl/shaping.py); "
                             "evaluation counts the game's rewards alone")
    parser.add_argument("--timeout-cost", type=float, default=0.0,
                        help="training only: what a game that runs out of turns costs at its end (0: nothing)")
    parser.add_argument("--caught-cost", type=float, default=CATCH,
                        help=f"training only: what a capture costs (the game's: {CATCH:g})")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--ent", type=float, default=0.01)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--normalize", action="store_true", help="train on rewards scaled by their running spread")
    parser.add_argument("--envs", type=int, default=1, help="games played side by side (in this process)")
    parser.add_argument("--n-steps", type=int, default=2048, help="steps a rollout of each env, between two updates")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--network", choices=sorted(NETWORKS), default="cnn", help="the features extractor")
    parser.add_argument("--demos", type=int, default=0,
                        help="warm start: clone the built-in user's play for this many steps first (0: none)")
    parser.add_argument("--demo-epochs", type=int, default=8, help="passes over the demonstrations, each fit")
    parser.add_argument("--dagger", type=int, default=0,
                        help="DAgger rounds after the cloning: --demos steps more each, played by the policy and "
                             "labelled by the built-in user")
    parser.add_argument("--memory", type=int, default=0, metavar="K",
                        help="feed the policy the observation's numbers and the actions of the last K steps too "
                             "(ppo_memory.py; 0: the observation alone)")
    parser.add_argument("--routes", action="store_true",
                        help="feed the policy the first step and length of the shortest known route to a stone's "
                             "possible place, the frontier and an item seen (ppo_routes.py)")
    parser.add_argument("--resume", type=Path, metavar="DIR",
                        help="go on training the model in DIR (an --out of an earlier run) for --steps more, "
                             "with its hyperparameters, writing to DIR")
    parser.add_argument("--out", type=Path, default=Path("bench/results/ppo"))
    args = parser.parse_args()
    if args.memory < 0:
        parser.error(f"--memory {args.memory}: a number of steps, 0 for none")
    if args.resume:
        if not (args.resume / "model.zip").is_file():
            parser.error(f"--resume {args.resume}: no model.zip there (give the --out folder of an earlier run)")
        if args.demos:
            parser.error("--resume goes on from a trained policy: --demos would clone over it")
        shaped = trained_with_shaping(args.resume / "yardsticks.json")
        if shaped is not None and shaped != args.shaping:
            parser.error(f"--resume {args.resume}: its run was trained {'with' if shaped else 'without'} --shaping; "
                         "give it the same")
        args.out = args.resume
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.resume:
        (args.out / "curve.jsonl").unlink(missing_ok=True)
    plan = stages(args.stages)
    began = time.perf_counter()
    aids = [name for name, on in (("shaping", args.shaping), (f"memory {args.memory}", args.memory),
                                  ("routes", args.routes), (f"demos {args.demos}", args.demos),
                                  (f"dagger {args.dagger}", args.dagger),
                                  (f"caught cost {args.caught_cost:g}", args.caught_cost != CATCH),
                                  (f"timeout cost {args.timeout_cost:g}", args.timeout_cost)) if on]
    print(f"MaskablePPO on Labyrinth/User-v0: {args.steps:,} steps, stages {args.stages}; evaluation every "
          f"{args.eval_every:,} steps on {args.eval_games} held-out seeds of {args.preset} against the built-in "
          f"Minotaur, max_turns {args.max_turns}; aids: {', '.join(aids) or 'none'}", flush=True)

    rng = np.random.default_rng(args.seed)
    random_games = play_policy(lambda obs, mask: masked_choice(rng, mask), args.preset,
                               args.max_turns, held_out(args.eval_games))
    builtin_games = play_builtin(args.preset, args.max_turns, [g["seed"] for g in random_games])
    yardsticks = {"random": rate(random_games), "builtin": rate(builtin_games),
                  "builtin_vs_random": paired(builtin_games, random_games)}
    for name, label in (("random", "random masked play"), ("builtin", "built-in scripted user")):
        r = yardsticks[name]
        print(f"{label:>22}: escape {r['escape']:.3f} ({r['low']:.3f}..{r['high']:.3f}), caught {r['caught']:.2f}",
              flush=True)
    settings = {"args": {k: str(v) for k, v in vars(args).items()}, "stages": [asdict(s) for s in plan]}
    saved = args.out / "yardsticks.json"
    if args.resume and saved.is_file():  # the first run's settings kept; each resume's added
        earlier = json.loads(saved.read_text(encoding="utf-8"))
        record = {**earlier, "resumes": [*earlier.get("resumes", []), settings]}
    else:
        record = {**settings, **yardsticks}
    saved.write_text(json.dumps(record, indent=1), encoding="utf-8")

    envs = [LabyrinthEnv("user", preset=plan[0].preset, opponent=plan[0].opponent, max_turns=args.max_turns,
                         shaping=args.shaping) for _ in range(args.envs)]
    changed = args.timeout_cost or args.caught_cost != CATCH
    worn = [fed(args.memory, args.routes)(env) for env in envs]
    worn = [EndCost(env, args.timeout_cost, args.caught_cost) if changed else env for env in worn]
    trained = DummyVecEnv([lambda env=env: env for env in worn])  # it calls factories: these give the envs made
    trained.seed(args.seed)  # each env's games drawn from its own generator, seeded seed, seed + 1, ...
    scaling = args.out / "vecnormalize.pkl"
    if args.resume and scaling.is_file():  # the running figures the policy was trained under, taken up
        trained = VecNormalize.load(str(scaling), trained)
    elif args.normalize:  # rewards scaled by a running estimate of the returns' spread; observations as they are
        trained = VecNormalize(trained, norm_obs=False, norm_reward=True, gamma=args.gamma)
    if args.resume:
        model = MaskablePPO.load(args.resume / "model.zip", env=trained, seed=args.seed)
        print(f"resumed at step {model.num_timesteps:,} from {args.resume / 'model.zip'}", flush=True)
    else:
        model = MaskablePPO("MultiInputPolicy", trained, learning_rate=args.lr, n_steps=args.n_steps,
                            batch_size=args.batch, n_epochs=args.epochs, gamma=args.gamma, gae_lambda=0.95,
                            ent_coef=args.ent, seed=args.seed, verbose=0,
                            policy_kwargs={"features_extractor_class": NETWORKS[args.network],
                                           "net_arch": {"pi": [128], "vf": [128]}})
    demo_seeds: set[int] = set()
    if args.demos:
        demo_env = fed(args.memory, args.routes)(LabyrinthEnv("user", preset=plan[0].preset, opponent=plan[0].opponent,
                                                 max_turns=args.max_turns, shaping=args.shaping))
        cloned = clone(model, demo_env, args.demos, args.demo_epochs, args.seed, rounds=args.dagger)
        demo_seeds = set(cloned.pop("seeds"))
        print(f"warm start: behaviour cloning on {cloned['steps']:,} steps ({cloned['games']} games: "
              f"{cloned['escaped']} escaped, {cloned['caught']} caught) of the built-in user against "
              f"{plan[0].opponent} on {plan[0].preset}, {cloned['epochs']} epochs a fit; {cloned['rounds']} DAgger "
              f"rounds, {cloned['labelled_steps']:,} steps more played by the policy ({cloned['labelled_games']} "
              f"games, {cloned['labelled_games_escaped']} escaped) and labelled by the built-in user; the "
              f"policy's likeliest action is the label on {cloned['agreement']:.0%} of them all", flush=True)
        with saved.open("r+", encoding="utf-8") as f:
            record = json.load(f)
            f.seek(0)
            json.dump({**record, "warm_start": cloned}, f, indent=1)
    curve, seeds = LearningCurve(args, random_games, args.out), SeedLog(envs)
    print(f"{'step':>9}  {'wall':>10}  escape on held-out seeds (95% CI), paired difference with random (95% CI)",
          flush=True)
    curve.init_callback(model)
    curve.num_timesteps = model.num_timesteps
    curve.next_at = (model.num_timesteps // args.eval_every + 1) * args.eval_every
    curve.evaluate()  # the policy before this run's PPO: untrained, as cloned, or as resumed
    model.learn(args.steps, callback=[Curriculum(envs, plan), curve, seeds], reset_num_timesteps=not args.resume)
    if curve.evaluated != curve.num_timesteps:
        curve.evaluate()
    overlap = (seeds.seeds | demo_seeds) & {g["seed"] for g in random_games}
    print(f"trained {model.num_timesteps:,} steps in {time.perf_counter() - began:,.0f} s wall; "
          f"{len(seeds.seeds):,} training games and {len(demo_seeds):,} demonstration games, {len(overlap)} of "
          f"them among the held-out games", flush=True)


if __name__ == "__main__":
    main()
