"""The Minotaur's observation in the numba kernel (agents/rl/kernel/minotaur_obs.py) against MinotaurView's (issue 43):
observations per CPU second (time.process_time) for ``--rows`` rows, the share of rows the kernel does not observe
(by reason), and a digest of the observations of the rows it observes, as the kernel wrote them and as the view made
them (its planes flat in float32, as spaces.observe hands them over).

The rows: moments of the Minotaur's tiny tasks played at random (the Minotaur's allowed actions, JUMP among them;
the opponents of Minotaur-Tiny-Random-v1 and Minotaur-Tiny-v1), ``--per-game`` moments of each of ``rows / per-game``
games, each a turn's result with the Match's turn count and the tick the turn began at. The two rows, each the median
of ``--rounds`` interleaved rounds (figures.interleaved):

- view: MinotaurView.observe for each row, one view a game, as an env holds it (its level kinds and coarse planes
  made at the game's first moment and kept: the first round makes them, the others read them);
- kernel: minotaur_obs.observe for all the rows in one call (the rows written from the states beforehand, and their
  levels' coarse planes pooled, once a game as the view makes them: untimed, and timed apart below).

Equal digests show the same observations. Prints figures and asserts nothing.

    .venv/bin/pip install -q -e '.[fast]' && .venv/bin/python bench/rl/kernel_minotaur_obs_bench.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import interleaved, report, row

from labyrinth.agents.rl.gym_env import task_env
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.minotaur_obs import coarse_levels, observations, observe, pool_levels
from labyrinth.agents.rl.kernel.state import StateRows
from labyrinth.agents.rl.kernel.work import PLAYED, REASONS
from labyrinth.agents.rl.minotaur_view import SPACES, MinotaurView
from labyrinth.agents.rl.protocol import masked_choice
from labyrinth.engine.turn import TurnResult

TASKS = ("Labyrinth/Minotaur-Tiny-Random-v1", "Labyrinth/Minotaur-Tiny-v1")


Moment = tuple[MinotaurView, TurnResult, int, int]  # a game's view, a turn's result, the turns played, its first tick


def moments(games: int, per_game: int, seed: int) -> tuple[list[Moment], int]:
    """``per_game`` moments of each of ``games`` games, and the games' turn limit. Each game's view reads a stand-in
    of its Match: the game and preset, and the moment's result and turn count, set before each observe."""
    rng, found, max_turns = np.random.default_rng(seed), [], 0
    for g in range(games):
        env = task_env(TASKS[g % len(TASKS)])
        env.reset(seed=seed + g)
        match, max_turns = env.match, env.max_turns
        view = MinotaurView(SimpleNamespace(game=match.game, preset=match.preset), max_turns)  # type: ignore[arg-type]
        taken = [(view, match.last, match.turns, match.game.state.tick)]
        while match.outcome is None:
            since = match.game.state.tick
            env.step(masked_choice(rng, env.action_masks()))
            taken.append((view, match.last, match.turns, since))
        found += [taken[k] for k in np.linspace(0, len(taken) - 1, per_game).round().astype(int).tolist()]
    return found, max_turns


def digest(observed: list[dict[str, np.ndarray]]) -> str:
    h = hashlib.sha256()
    for o in observed:
        for key in SPACES:
            h.update(np.ascontiguousarray(o[key], dtype=np.float32).tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1024)
    parser.add_argument("--per-game", type=int, default=16)
    args = parser.parse_args()
    print(f"numba compiled: {COMPILED}")
    began = time.process_time()
    asked, max_turns = moments(args.rows // args.per_game, args.per_game, seed=43)
    row("tiny: moments played (engine)", f"{time.process_time() - began:.1f} s", note=f"{len(asked)} rows")
    n = len(asked)
    rows, out = StateRows(n, "tiny"), observations(n)
    laid: dict[int, int] = {}
    for i, (view, result, _, _) in enumerate(asked):
        state = result.state
        if state.seed in laid:  # one region per labyrinth, copied to its other rows
            rows.kinds[i], rows.origin[i] = rows.kinds[laid[state.seed]], rows.origin[laid[state.seed]]
        else:
            rows.lay_region(i, view.match.game.world)
            laid[state.seed] = i
        rows.write(i, state)
    turns = np.array([played for _, _, played, _ in asked], dtype=np.int64)
    since = np.array([tick for _, _, _, tick in asked], dtype=np.int64)
    levels = coarse_levels(rows)
    wall = time.perf_counter()
    pool_levels(rows, levels, np.ones(n, dtype=np.bool_))
    why = observe(rows, levels, turns, since, max_turns, out)
    row("tiny: first kernel call", f"{time.perf_counter() - wall:.2f} s", note="compile or cache load")
    observed = why == PLAYED
    for reason, count in sorted(Counter(REASONS[code] for code in why.tolist()).items(), key=lambda kv: -kv[1]):
        report(f"tiny: rows {reason}", 100 * count / n, "%", ",.1f", note=f"{count} rows")

    def by_view() -> tuple[str, float]:
        spent, made = 0.0, []
        for view, result, played, _ in asked:
            view.match.last, view.match.turns = result, played
            started = time.process_time()
            o: dict[str, Any] = view.observe()
            spent += time.process_time() - started
            made.append(o)
        return digest([o for o, kept in zip(made, observed, strict=True) if kept]), spent

    def by_kernel() -> tuple[str, float]:
        started = time.process_time()
        observe(rows, levels, turns, since, max_turns, out)
        spent = time.process_time() - started
        return digest([{key: out[key][i] for key in SPACES} for i in np.flatnonzero(observed)]), spent

    started = time.process_time()
    pool_levels(rows, levels, np.ones(n, dtype=np.bool_))
    report("tiny: pool_levels, every row", 1e6 * (time.process_time() - started) / n, "us/row", ",.1f",
           note="once a game")
    rates, digests = interleaved({"view": by_view, "kernel": by_kernel}, args.rounds, n)
    for name, rate in rates.items():
        report(f"tiny: {name}", statistics.median(rate), "obs/s", note=f"digest of observed rows "
                                                                       f"{', '.join(sorted(digests[name]))}")
    report("tiny: kernel / view", statistics.median(rates["kernel"]) / statistics.median(rates["view"]), "x", ",.1f")


if __name__ == "__main__":
    main()
