"""Speed and memory benchmarks of the Game State Manager. They print figures
next to their targets (PASS/MISS) and assert nothing: a slow machine must not
fail a build, but a regression should be plain to see.

The MOVE and gsm rows play one workload: a seeded walk of one-step MOVEs, each along a way open
from where the user stands on seed SEED's ``standard`` labyrinth against a Minotaur that waits
(so none is a move into rock or a bump into a wall), worked out once before any timing. Each
row is timed REPEATS times, in turn with NLE (so that all see the same load), and printed with
its ratio to NLE and a digest of the games it played (final states, or every answer).

Every figure is by CPU time, steadier than the wall clock on a shared machine (issue 43): this
process's for what runs in it (the engine, the built-in Minotaur's loop, NLE, whose C runs in the
process too), and for `labyrinth gsm` the child's own, read with ``os.wait4`` as it ends. The pipe's
start-up is a second child of the same command given no line, so the pipe's rate after start-up is
its lines over the difference, and its whole-run rate counts the start-up a user pays. Each row is
the median of its repetitions with their spread (lowest..highest); a ratio to NLE is the median of
the repetitions' ratios.

    .venv/bin/python bench/perf/run.py [--quick]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import installed_env, report, row, spread
from nle_rate import nle_steps_per_second  # bench/perf/ is on sys.path, as this file runs as a script

from labyrinth.engine import Game, GameStateResponse, MinotaurDecision, UserInput
from labyrinth.engine.cells import ROCK
from labyrinth.engine.constants import CHUNKS_PER_SIDE
from labyrinth.engine.geometry import HORIZONTAL
from labyrinth.engine.maze import generate_chunk
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.tui.jsonlines import gsm_match

SEED = 7
BENCH = Path(__file__).resolve().parent
STEPS = {d: UserInput(command="MOVE", direction=d, steps=1) for d in HORIZONTAL}
WAIT = MinotaurDecision(action="WAIT")
MEMORY_TIMEOUT_S = 120
# Workload sizes: full run, --quick run.
SIZES = {
    "steps": (100_000, 20_000),  # in-process MOVE steps, per Minotaur
    "gsm_lines": (200_000, 30_000),
    "nle_steps": (100_000, 20_000),
    "new_games": (300, 100),
    "chunks": (20_000, 5_000),
    "memory_commands": (2_000, 500),
}
REPEATS = (5, 3)  # of the in-process MOVEs and NLE beside them (full, --quick)


def open_way(game: Game, rng: random.Random) -> UserInput:
    """A one-step MOVE along a way open from where the user stands, never into the Minotaur's cell."""
    (x, y, z), minotaur, world = game.state.user, game.state.minotaur, game.world
    ways = [d for d, (dx, dy) in HORIZONTAL.items()
            if world.cell(x + dx, y + dy, z) != ROCK and (x + dx, y + dy, z) != minotaur]
    return STEPS[rng.choice(ways)]


def walk(count: int) -> list[UserInput]:
    """The MOVE and gsm rows' workload: ``count`` steps of the seeded open-way walk (module docstring)."""
    game, rng, moves = Game.new(SEED, "standard"), random.Random(f"{SEED}:walk"), []
    for _ in range(count):
        moves.append(open_way(game, rng))
        game.step(moves[-1], WAIT)
    assert game.state.outcome is None, "a waiting Minotaur never ends the walk"
    return moves


class Games:
    """The games a row played: each game's final state hashed in turn, when it ends or the row does."""

    def __init__(self) -> None:
        self.count, self.longest, self._hash = 0, 0, hashlib.sha256()

    def ended(self, game: Game, turns: int) -> None:
        self.count, self.longest = self.count + 1, max(self.longest, turns)
        self._hash.update(game.state.digest().encode())

    @property
    def digest(self) -> str:
        return self._hash.hexdigest()[:16]


def steps_per_second(action: str, moves: list[UserInput]) -> tuple[float, Games]:
    """The walk's MOVEs in process against a Minotaur deciding ``action`` every turn, a new game
    (the next seed, the walk going on) whenever one ends; (steps a CPU second, the games played)."""
    decision = MinotaurDecision(action=action)
    seed, began, played = SEED, 0, Games()
    game = Game.new(seed, "standard")
    start = time.process_time()
    for i, move in enumerate(moves):
        if game.state.outcome:
            played.ended(game, i - began)
            seed, began = seed + 1, i
            game = Game.new(seed, "standard")
        game.step(move, decision)
    rate = len(moves) / (time.process_time() - start)
    played.ended(game, len(moves) - began)
    return rate, played


def gsm_run(moves: list[UserInput]) -> tuple[float, str]:
    """``labyrinth gsm --minotaur wait`` fed the walk's MOVEs through a pipe; (the CPU seconds the
    child used, start-up included, a digest of every line it answered: a faster pipe that answers
    otherwise shows). Given no MOVE, it answers the initial state alone: its start-up."""
    labyrinth = shutil.which("labyrinth", path=Path(sys.executable).parent)
    lines = len(moves)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "moves.jsonl")
        path.write_text("".join(m.model_dump_json(exclude_defaults=True) + "\n" for m in moves))
        with path.open("rb") as source, subprocess.Popen(
                [labyrinth, "gsm", "--seed", str(SEED), "--preset", "standard", "--minotaur", "wait"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=installed_env()) as proc:
            feeder = threading.Thread(target=_feed, args=(source, proc.stdin))
            feeder.start()
            received, tail, answers = 0, b"", hashlib.sha256()
            while chunk := proc.stdout.read(1 << 16):
                received += chunk.count(b"\n")
                answers.update(chunk)
                tail = (tail + chunk)[-8192:]  # holds the last response line whole
            _, status, usage = os.wait4(proc.pid, 0)  # the child's own CPU time, read as it is reaped
            proc.returncode = os.waitstatus_to_exitcode(status)
            feeder.join()
    if proc.returncode or received != lines + 1:
        raise RuntimeError(f"labyrinth gsm exited {proc.returncode} after {received} of {lines + 1} lines")
    last = GameStateResponse.model_validate_json(tail.splitlines()[-1])
    if lines and last.status != "SUCCESS":
        raise RuntimeError(f"labyrinth gsm answered the last MOVE with {last.status}")
    return usage.ru_utime + usage.ru_stime, answers.hexdigest()[:16]


def deciding_lines_per_second(moves: list[UserInput]) -> tuple[float, int, str]:
    """The gsm pipe's turn loop in process with the built-in Minotaur deciding every line: the walk's
    MOVEs as lines, each answered with the user's validated response as JSON, a new game (the next
    seed, the walk going on) whenever one ends, so that no line is a finished game's cheap answer
    (through the pipe, the built-in Minotaur ends the game within a few hundred lines, and the rest
    answer nothing new); (lines a CPU second, games, a digest of every answer)."""
    lines = [m.model_dump_json(exclude_defaults=True).encode() for m in moves]
    seed, match, games, answers = SEED, gsm_match(SEED, "standard"), 1, hashlib.sha256()
    start = time.process_time()
    for line in lines:
        if match.outcome is not None:
            seed, games = seed + 1, games + 1
            match = gsm_match(seed, "standard")
        turn = match.play_turn(user=line)
        answers.update(ROLES["user"].view(turn.result).model_dump_json().encode())  # a few µs of a line's 400
    rate = len(lines) / (time.process_time() - start)
    return rate, games, answers.hexdigest()[:16]


def _feed(source, pipe) -> None:
    with pipe:
        shutil.copyfileobj(source, pipe)


def new_game_times(games: int) -> list[float]:
    """CPU seconds for Game.new on ``standard`` plus the first view, one per seed."""
    times = []
    for seed in range(SEED, SEED + games):
        start = time.process_time()
        Game.new(seed, "standard").view()
        times.append(time.process_time() - start)
    return times


def chunk_seconds(count: int) -> float:
    """CPU seconds per generate_chunk over the first ``count`` chunks of the cube, level by level."""
    side = CHUNKS_PER_SIDE
    coords = [(i % side, i // side % side, i // side ** 2) for i in range(count)]
    start = time.process_time()
    for cx, cy, z in coords:
        generate_chunk(SEED, cx, cy, z)
    return (time.process_time() - start) / count


def memory_probe(commands: int) -> dict | None:
    """The full-preset game of memory_probe.py in a fresh process; None if it timed out."""
    try:
        out = subprocess.run([sys.executable, str(BENCH / "memory_probe.py"), "--seed", str(SEED),
                              "--commands", str(commands)],
                             stdout=subprocess.PIPE, text=True, check=True, timeout=MEMORY_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads: under 20 s")
    quick = parser.parse_args().quick
    size = {name: pair[quick] for name, pair in SIZES.items()}
    began = time.perf_counter()
    print(f"Labyrinth benchmarks: {'quick' if quick else 'full'} run, seed {SEED}, "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}")
    row("measure", "figure", "target", "", "note")

    # Every row of the walk and NLE in turns, REPEATS times each (so that all see the same load): the
    # medians, and the medians of the repetitions' ratios to NLE, against the targets where there are
    # (issue 29).
    moves = walk(max(size["steps"], size["gsm_lines"]))
    gsm_lines = moves[:size["gsm_lines"]]
    waits, chases, pipes, starts, deciding, nles = [], [], [], [], [], []
    gsm_run([])  # untimed: a first start writes the bytecode a user's install has (installed_env)
    for _ in range(REPEATS[quick]):
        waits.append(steps_per_second("WAIT", moves[:size["steps"]]))
        chases.append(steps_per_second("CHASE", moves[:size["steps"]]))  # the engine's too: new games, paths
        pipes.append(gsm_run(gsm_lines))
        starts.append(gsm_run([])[0])
        deciding.append(deciding_lines_per_second(moves[:size["gsm_lines"] // 4]))
        nle = nle_steps_per_second(size["nle_steps"], SEED)
        if nle is not None:
            nles.append(nle)

    def against_nle(rates: list[float], target: float | None = None) -> None:
        if nles:
            ratios = [r / n for r, n in zip(rates, nles, strict=True)]
            report("  / NLE NetHackScore-v0, interleaved", statistics.median(ratios), "x", ".2f",
                   target=(">=", target) if target else None, note=f"median of {len(nles)}, {spread(ratios, '.2f')}")

    for name, runs, target in (("WAIT", waits, 2.5), ("CHASE", chases, None)):
        games = {played.digest for _, played in runs}
        if len(games) != 1:
            raise RuntimeError(f"the {name} row played other games from one repetition to the next")
        rate, played = sorted(runs, key=lambda run: run[0])[len(runs) // 2]
        report(f"in process: MOVE steps/CPU s, {name}", rate, "/s",
               target=(">=", 20_000) if name == "WAIT" else None,
               note=f"{size['steps']:,} steps, {played.count} game(s), the longest {played.longest:,} steps; "
                    f"median of {len(runs)}, {spread([run[0] for run in runs])}; games {played.digest}")
        against_nle([run[0] for run in runs], target)

    if len({answered for _, answered in pipes}) != 1:
        raise RuntimeError("labyrinth gsm answered the same lines differently from one run to the next")
    lines, answered = len(gsm_lines), pipes[0][1]
    whole = [lines / cpu for cpu, _ in pipes]
    after = [lines / (cpu - start) for (cpu, _), start in zip(pipes, starts, strict=True)]
    report("gsm: lines/CPU s, with its start-up", statistics.median(whole), "/s",
           note=f"{lines:,} lines, the engine's own WAITing Minotaur, the child's CPU time; median of "
                f"{len(pipes)}, {spread(whole)}; answers {answered}")
    against_nle(whole, 1.0)
    report("gsm: lines/CPU s, after start-up", statistics.median(after), "/s",
           note=f"start-up {statistics.median(starts) * 1e3:.0f} ms of CPU (a run given no line), "
                f"{spread([start * 1e3 for start in starts])} ms; median of {len(pipes)}, {spread(after)}")
    against_nle(after, 1.5)
    if len({run[2] for run in deciding}) != 1:
        raise RuntimeError("the built-in Minotaur's loop answered otherwise from one repetition to the next")
    agent_rate, games, answered = sorted(deciding)[len(deciding) // 2]
    report("gsm's loop, built-in Minotaur: lines/CPU s", agent_rate, "/s",
           note=f"in process, {size['gsm_lines'] // 4:,} lines, {games} games each played to its end: it decides "
                f"every line; median of {len(deciding)}, {spread([run[0] for run in deciding])}; answers {answered}")
    against_nle([run[0] for run in deciding])
    if not nles:
        row("NLE NetHackScore-v0: steps/CPU s", "skipped", note="nle is not installed: pip install -e '.[bench]'")
    else:
        report("NLE NetHackScore-v0: steps/CPU s", statistics.median(nles), "/s",
               note=f"{size['nle_steps']:,} random actions, the median of {len(nles)}, {spread(nles)}")

    times = new_game_times(size["new_games"])
    for label, value in (("median", statistics.median(times)), ("p95", statistics.quantiles(times, n=20)[-1])):
        report(f"new game + first view, CPU {label}", value * 1e3, "ms", ".2f", target=("<", 5),
               note=f"{len(times)} seeds, standard")

    report("chunk generation, CPU", chunk_seconds(size["chunks"]) * 1e6, "us/chunk", ".1f",
           note=f"{size['chunks']:,} chunks")

    memory = memory_probe(size["memory_commands"])
    if memory is None:
        row("memory: full preset, peak RSS", "timed out", "< 150.0 MB", "MISS", f"after {MEMORY_TIMEOUT_S} s")
    else:
        report("memory: full preset, peak RSS", memory["peak_rss_mb"], "MB", ".1f", target=("<", 150),
               note=f"one game, {memory['commands']:,} random commands ({memory['game_time']:,.0f} s of game time, "
                    f"{memory['outcome'] or 'still playing'}) in {memory['wall_s']:.2f} s, {memory['chunks']:,} chunks")
    print(f"total {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
