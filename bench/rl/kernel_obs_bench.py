"""The RL user's observation in the numba kernel (agents/rl/kernel/user_obs.py) against the scalar env's view
(user_view.UserView, issue 43): observations per CPU second (time.process_time) for ``--rows`` rows, the share of
rows the kernel falls back on (by reason), and a digest of the observations both made.

The rows: ``--rows`` games of the ground (LabyrinthEnv's, reset with seeds 0, 1, ...), each turn a random valid
command of the RL user (a LOOK one time in three, so that the stones hum and their search narrows) and a Minotaur
that mostly CHASEs, played on the engine (Game.step) and, for the kernel, by turn.play_turns on the rows (both
untimed). ``--warmup`` turns are observed untimed, then ``--rounds`` turns, each observed by both, the order
turned each round as figures.interleaved turns it:

- view: for each row, what the scalar env does after the engine's turn: the user's perception observes the result
  (the seat's UserPerception), its UserView updates, and spaces.observe reads the observation (float32 planes);
- kernel: user_obs.observe_turn for all the rows in one call, into preallocated arrays.

A row the kernel fell back on (in the turn or the observation), and a game that ended, are left out from then on,
on both sides. The rates are the median of the rounds; equal digests show the same observations. Prints figures
and asserts nothing.

    .venv/bin/pip install -q -e '.[fast]' && .venv/bin/python bench/rl/kernel_obs_bench.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, row

from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl.kernel.draws import Draws
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.state import StateRows
from labyrinth.agents.rl.kernel.turn import USER_ACTIONS, USER_COMMANDS, Told, decision_row, play_turns
from labyrinth.agents.rl.kernel.user_memory import UserMemory
from labyrinth.agents.rl.kernel.user_obs import new_observations, observe_opening, observe_turn
from labyrinth.agents.rl.kernel.work import PLAYED, REASONS
from labyrinth.agents.rl.spaces import observe
from labyrinth.agents.rl.user_view import SPACES, UserView
from labyrinth.engine import MinotaurDecision
from labyrinth.engine.turn import unexecutable

LOOK = next(a for a, c in enumerate(USER_COMMANDS) if c.command == "LOOK")


def pick(rng: random.Random, env: LabyrinthEnv) -> tuple[int, MinotaurDecision]:
    """A random valid action of the RL user (its number; a LOOK one time in three) and a decision."""
    game = env.match.game
    exits = game.world.user_exits(game.state.user)
    actions = [a for a, c in enumerate(USER_COMMANDS) if (c.direction in exits if c.command == "MOVE"
                                                 else unexecutable(game.state, c) is None)]
    action = LOOK if rng.random() < 1 / 3 else rng.choice(actions)
    return action, MinotaurDecision(action=rng.choice(["CHASE"] * 6 + ["WAIT", "JUMP"]))


Made = dict[int, dict[str, np.ndarray]]  # the observations a run made, by row


def digest(made: Made, rows: list[int]) -> str:
    h = hashlib.sha256()
    for i in rows:
        for key in SPACES:
            h.update(np.ascontiguousarray(made[i][key], dtype=np.float32).tobytes())
    return h.hexdigest()[:16]


def user_view(env: LabyrinthEnv) -> UserView:
    """The scalar env's view of its user."""
    game = env.game
    assert game is not None, "the env was reset"
    view = game.views["user"]
    assert isinstance(view, UserView)
    return view


class Bench:
    """``n`` games of ``preset``, as scalar envs and as kernel rows in lockstep."""

    def __init__(self, preset: str, n: int) -> None:
        self.envs = [LabyrinthEnv(role="user", preset=preset, opponent="wait") for _ in range(n)]
        for seed, env in enumerate(self.envs):
            env.reset(seed=seed)
        self.rows, self.draws, self.memory = StateRows(n, preset), Draws(n), UserMemory(n, preset)
        self.out, self.stops = new_observations(n), Told(n)
        for i, env in enumerate(self.envs):
            self.rows.lay_region(i, env.match.game.world)
            self.rows.write(i, env.match.game.state)
            self.draws.write(i, env.match.seed)
        why = observe_opening(self.rows, self.memory, np.ones(n, dtype=np.bool_), self.envs[0].max_turns, self.out)
        self.live = why == PLAYED
        self.reasons = Counter(REASONS[code] for code in why.tolist() if code != PLAYED)
        self.commands, self.why = USER_ACTIONS[np.zeros(n, dtype=np.int64)], why
        self.results: list = [None] * n

    def turn(self, rng: random.Random) -> None:
        """Every live game's next turn, on the engine and by play_turns (untimed); a game over or a row fallen
        back leaves the live rows."""
        picks = [pick(rng, env) for env in self.envs]
        for i in np.flatnonzero(self.live):
            match = self.envs[i].match
            action, decision = picks[i]
            self.results[i] = match.last = match.game.step(USER_COMMANDS[action], decision)
            match.turns += 1
        self.commands = USER_ACTIONS[[a for a, _ in picks]]
        decisions = np.stack([decision_row(d) for _, d in picks])
        self.rows.kept[~self.live] = True  # a row left out is played no further
        self.why = play_turns(self.rows, self.commands, decisions, self.draws, self.stops)
        for code in self.why[self.live].tolist():
            if code != PLAYED:
                self.reasons[REASONS[code]] += 1
        self.asked = self.live & (self.why == PLAYED)

    def view(self) -> tuple[Made, float]:
        """The scalar env's observation of each live row's turn."""
        spent, made = 0.0, {}
        for i in np.flatnonzero(self.asked).tolist():
            env, result = self.envs[i], self.results[i]
            view = user_view(env)
            began = time.process_time()
            view.perception.observe(result)
            view.update(result)
            made[i] = observe(env.match, "user", view, False)
            spent += time.process_time() - began
        return made, spent

    def kernel(self) -> tuple[Made, float]:
        """The kernel's observations of the same rows."""
        turns = np.array([env.match.turns for env in self.envs])
        began = time.process_time()
        why = observe_turn(self.rows, self.memory, self.commands, self.stops, self.why, turns,
                           self.envs[0].max_turns, self.out)
        spent = time.process_time() - began
        for code in why[self.asked].tolist():
            if code != PLAYED:
                self.reasons[REASONS[code]] += 1
        self.why = np.where(self.asked, why, self.why)
        observed = np.flatnonzero(self.asked & (why == PLAYED)).tolist()
        return {i: {key: self.out[key][i] for key in SPACES} for i in observed}, spent

    def settle(self) -> None:
        """After a turn observed by both: the games over and the rows fallen back leave."""
        for i in np.flatnonzero(self.asked):
            if self.envs[i].match.game.state.outcome is not None:
                self.live[i] = False
        self.live &= self.why == PLAYED


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--rows", type=int, default=1024)
    args = parser.parse_args()
    print(f"numba compiled: {COMPILED}")
    for preset in ("tiny", "small"):
        began = time.process_time()
        bench, rng = Bench(preset, args.rows), random.Random(43)
        row(f"{preset}: games reset (scalar envs and rows)", f"{time.process_time() - began:.1f} s",
            note=f"{args.rows} rows")
        wall = time.perf_counter()
        for _ in range(args.warmup):
            bench.turn(rng)
            bench.view()
            bench.kernel()
            bench.settle()
        row(f"{preset}: {args.warmup} turns untimed", f"{time.perf_counter() - wall:.1f} s",
            note="the kernel's compile or cache load in the first")
        names = ["view", "kernel"]
        rates: dict[str, list[float]] = {name: [] for name in names}
        digests: dict[str, list[str]] = {name: [] for name in names}
        for round_ in range(args.rounds):
            bench.turn(rng)
            observed, made = int(bench.asked.sum()), {}
            for name in names[round_ % 2:] + names[:round_ % 2]:
                made[name], spent = getattr(bench, name)()
                rates[name].append(observed / spent)
            both = sorted(made["kernel"])  # the rows the kernel observed (the view observed every row asked)
            for name in names:
                digests[name].append(digest(made[name], both))
            bench.settle()
        for name in names:
            report(f"{preset}: {name}", statistics.median(rates[name]), "obs/s",
                   note=f"digests {' '.join(d[:6] for d in digests[name])}")
        report(f"{preset}: kernel / view", statistics.median(rates["kernel"]) / statistics.median(rates["view"]),
               "x", ",.1f")
        report(f"{preset}: rows still observed", 100 * bench.live.mean(), "%", ",.1f",
               note=f"{int(bench.live.sum())} rows; fell back: {dict(bench.reasons) or 'none'}")


if __name__ == "__main__":
    main()
