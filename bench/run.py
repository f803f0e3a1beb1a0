"""Speed and memory benchmarks of the Game State Manager. They print figures
next to their targets (PASS/MISS) and assert nothing: a slow machine must not
fail a build, but a regression should be plain to see.

    .venv/bin/python bench/run.py [--quick]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# bench/ is on sys.path, as this file runs as a script.
from nle_rate import nle_steps_per_second

from labyrinth.engine import Game, GameStateResponse, MinotaurDecision, UserInput
from labyrinth.engine.constants import CHUNKS_PER_SIDE
from labyrinth.engine.maze import generate_chunk
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.tui.jsonlines import gsm_match

SEED = 7
BENCH = Path(__file__).resolve().parent
MOVES = tuple(UserInput(command="MOVE", direction=d, steps=1) for d in ("NORTH", "EAST", "SOUTH", "WEST"))
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


def report(name: str, value: float, unit: str, fmt: str = ",.0f", target: tuple[str, float] | None = None,
           note: str = "") -> None:
    """Print one row of the table; ``target`` is (">=" or "<", bound)."""
    if target is None:
        goal, verdict = "", ""
    else:
        op, bound = target
        goal = f"{op} {bound:{fmt}} {unit}"
        verdict = "PASS" if (value >= bound if op == ">=" else value < bound) else "MISS"
    row(name, f"{value:{fmt}} {unit}", goal, verdict, note)


def row(name: str, figure: str, goal: str = "", verdict: str = "", note: str = "") -> None:
    print(f"{name:<40} {figure:>16} {goal:>16} {verdict:<5} {note}".rstrip(), flush=True)


def steps_per_second(action: str, steps: int) -> tuple[float, int, int]:
    """One-step MOVEs in process, a new game whenever one ends; (steps/s, games
    played, steps of the longest game)."""
    decision = MinotaurDecision(action=action)
    seed, began, longest = SEED, 0, 0
    game = Game.new(seed, "standard")
    start = time.perf_counter()
    for i in range(steps):
        if game.state.outcome:
            seed, began, longest = seed + 1, i, max(longest, i - began)
            game = Game.new(seed, "standard")
        game.step(MOVES[i % 4], decision)
    return steps / (time.perf_counter() - start), seed - SEED + 1, max(longest, steps - began)


def gsm_run(lines: int) -> tuple[float, float, float, str]:
    """``labyrinth gsm --minotaur wait`` fed ``lines`` one-step MOVEs through a pipe;
    (whole run s, start-up s until the initial state arrived, lines/s after it, a digest of every
    line it answered: a faster pipe that answers otherwise shows)."""
    labyrinth = shutil.which("labyrinth", path=Path(sys.executable).parent)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "moves.jsonl")
        text = [m.model_dump_json(exclude_defaults=True) for m in MOVES]
        path.write_text("".join(text[i % 4] + "\n" for i in range(lines)))
        start = time.perf_counter()
        with path.open("rb") as source, subprocess.Popen(
                [labyrinth, "gsm", "--seed", str(SEED), "--preset", "standard", "--minotaur", "wait"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0) as proc:
            feeder = threading.Thread(target=_feed, args=(source, proc.stdin))
            feeder.start()
            received, first_at, tail, answers = 0, None, b"", hashlib.sha256()
            while chunk := proc.stdout.read(1 << 16):
                if first_at is None:
                    first_at = time.perf_counter()
                received += chunk.count(b"\n")
                answers.update(chunk)
                tail = (tail + chunk)[-8192:]  # holds the last response line whole
            end = time.perf_counter()
            feeder.join()
    if proc.returncode or received != lines + 1:
        raise RuntimeError(f"labyrinth gsm exited {proc.returncode} after {received} of {lines + 1} lines")
    last = GameStateResponse.model_validate_json(tail.splitlines()[-1])
    if last.status != "SUCCESS":
        raise RuntimeError(f"labyrinth gsm answered the last MOVE with {last.status}")
    return end - start, first_at - start, lines / (end - first_at), answers.hexdigest()[:16]


def deciding_lines_per_second(lines: int) -> tuple[float, int]:
    """The gsm pipe's turn loop in process with the built-in Minotaur deciding every line: ``lines``
    one-step MOVEs, each answered with the user's validated response as JSON, a new game (the next
    seed) whenever one ends, so that no line is a finished game's cheap answer (through the pipe, the
    built-in Minotaur catches this walk within a few hundred lines, and the rest answer nothing new);
    (lines/s, games)."""
    text = [m.model_dump_json(exclude_defaults=True).encode() for m in MOVES]
    seed, match, games = SEED, gsm_match(SEED, "standard"), 1
    start = time.perf_counter()
    for i in range(lines):
        if match.outcome is not None:
            seed, games = seed + 1, games + 1
            match = gsm_match(seed, "standard")
        turn = match.play_turn(user=text[i % 4])
        ROLES["user"].view(turn.result).model_dump_json()
    return lines / (time.perf_counter() - start), games


def _feed(source, pipe) -> None:
    with pipe:
        shutil.copyfileobj(source, pipe)


def new_game_times(games: int) -> list[float]:
    """Seconds for Game.new on ``standard`` plus the first view, one per seed."""
    times = []
    for seed in range(SEED, SEED + games):
        start = time.perf_counter()
        Game.new(seed, "standard").view()
        times.append(time.perf_counter() - start)
    return times


def chunk_seconds(count: int) -> float:
    """Seconds per generate_chunk over the first ``count`` chunks of the cube, level by level."""
    side = CHUNKS_PER_SIDE
    coords = [(i % side, i // side % side, i // side ** 2) for i in range(count)]
    start = time.perf_counter()
    for cx, cy, z in coords:
        generate_chunk(SEED, cx, cy, z)
    return (time.perf_counter() - start) / count


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

    # One-step MOVEs against a waiting Minotaur, the gsm pipe and NLE in turns, REPEATS times each (so that
    # all see the same load): the medians, and the medians of the repetitions' ratios against the targets
    # (issue 29).
    waits, pipes, nles = [], [], []
    for _ in range(REPEATS[quick]):
        waits.append(steps_per_second("WAIT", size["steps"]))
        pipes.append(gsm_run(size["gsm_lines"]))
        nle = nle_steps_per_second(size["nle_steps"], SEED)
        if nle is not None:
            nles.append(nle)
    rate, games, longest = sorted(waits)[len(waits) // 2]
    report("in process: MOVE steps/s, WAIT", rate, "/s", target=(">=", 20_000),
           note=f"{size['steps']:,} steps, {games} game(s), the longest {longest:,} steps; median of {len(waits)}")
    if nles:
        report("  / NLE NetHackScore-v0, interleaved", statistics.median(w[0] / n for w, n in zip(waits, nles, strict=True)),
               "x", ".2f", target=(">=", 2.5), note=f"NLE {statistics.median(nles):,.0f}/s, median of {len(nles)}")
    rate, games, longest = steps_per_second("CHASE", size["steps"])  # the engine's too: new games and paths
    report("in process: MOVE steps/s, CHASE", rate, "/s",
           note=f"{size['steps']:,} steps, {games} game(s), the longest {longest:,} steps")

    total, startup, gsm_rate, answered = sorted(pipes, key=lambda run: run[2])[len(pipes) // 2]
    if len({run[3] for run in pipes}) != 1:
        raise RuntimeError("labyrinth gsm answered the same lines differently from one run to the next")
    report("gsm: lines/s, whole run", size["gsm_lines"] / total, "/s",
           note=f"{size['gsm_lines']:,} lines in {total:.2f} s, the engine's own WAITing Minotaur; answers {answered}")
    report("gsm: lines/s, after start-up", gsm_rate, "/s",
           note=f"start-up {startup * 1e3:.0f} ms; median of {len(pipes)}")
    agent_rate, games = deciding_lines_per_second(size["gsm_lines"] // 4)
    report("gsm's loop, built-in Minotaur: lines/s", agent_rate, "/s",
           note=f"in process, {size['gsm_lines'] // 4:,} lines, {games} games each played to its end: it decides every line")
    if not nles:
        row("NLE NetHackScore-v0: steps/s", "skipped", note="nle is not installed: pip install -e '.[bench]'")
    else:
        report("NLE NetHackScore-v0: steps/s", statistics.median(nles), "/s",
               note=f"{size['nle_steps']:,} random actions, the median above")
        report("gsm after start-up / NLE, interleaved",
               statistics.median(run[2] / n for run, n in zip(pipes, nles, strict=True)), "x", ".2f",
               target=(">=", 1.5), note=f"median of {len(nles)}")

    times = new_game_times(size["new_games"])
    for label, value in (("median", statistics.median(times)), ("p95", statistics.quantiles(times, n=20)[-1])):
        report(f"new game + first view, {label}", value * 1e3, "ms", ".2f", target=("<", 5),
               note=f"{len(times)} seeds, standard")

    report("chunk generation", chunk_seconds(size["chunks"]) * 1e6, "us/chunk", ".1f",
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
