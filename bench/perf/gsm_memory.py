"""The memory of a `labyrinth gsm` pipe whose game never ends: a seeded random walk of
one-step to five-step MOVEs (and now and then a LOOK) is fed line by line, each line's
answer read before the next is counted, and the process's resident memory is read from
/proc at 10k, 100k and 1M turns, for each seed. A pipe cannot be saved, so it keeps
nothing per turn: the figures should be flat within a few MB (target: the 1M-turn figure
within 8 MB of the 10k one), whatever the walk explored.

    .venv/bin/python bench/perf/gsm_memory.py [--turns 1000000] [--seeds 1 2 3] [--minotaur wait]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import report, row

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
CHECKPOINTS = (10_000, 100_000, 1_000_000)
BATCH = 2_000  # lines written before their answers are read: a pipe's buffer holds them
DIRECTIONS = ("NORTH", "EAST", "SOUTH", "WEST")
TARGET_MB = 8.0
STOP = b'"stop_reason":"'


def walk(seed: int):
    """An endless seeded random walk as UserInput lines."""
    rng = random.Random(f"{seed}:gsm-memory")
    while True:
        if rng.random() < 0.1:
            yield b'{"command":"LOOK"}\n'
        else:
            yield b'{"command":"MOVE","direction":"%s","steps":%d}\n' % (rng.choice(DIRECTIONS).encode(),
                                                                        rng.randint(1, 5))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(seed: int, turns: int, minotaur: str) -> dict[int, tuple[float, float]]:
    """RSS (MB) and seconds taken at each checkpoint up to ``turns``."""
    proc = subprocess.Popen([LABYRINTH, "gsm", "--seed", str(seed), "--preset", "full", "--minotaur", minotaur],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    proc.stdout.readline()  # the initial state
    lines, figures, began, answers = walk(seed), {}, time.perf_counter(), Counter()

    def count(n: int) -> None:
        for _ in range(n):
            answers[kind(proc.stdout.readline())] += 1

    done = 0
    try:
        for checkpoint in (c for c in CHECKPOINTS if c <= turns):
            while done < checkpoint:
                n = min(BATCH, checkpoint - done)
                reader = threading.Thread(target=count, args=(n,))
                reader.start()
                proc.stdin.write(b"".join(next(lines) for _ in range(n)))
                reader.join()
                done += n
            figures[checkpoint] = (rss_mb(proc.pid), time.perf_counter() - began)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    say_answers(seed, done, answers)
    return figures


def say_answers(seed: int, lines: int, answers: Counter) -> None:
    """What the walk's lines met: most bump into walls, and the game plays those (it does not refuse them), so the
    wall stops and the refusals are counted apart."""
    reasons = ", ".join(f"{kind} {n:,}" for kind, n in sorted(answers.items()) if kind != "ERROR")
    row(f"gsm memory: seed {seed}", f"{answers['COLLISION']:,} wall stops, {answers['ERROR']:,} errors",
        note=f"of {lines:,} lines; a MOVE that meets a wall is played up to it (SUCCESS, stop_reason COLLISION), "
             f"not refused; the played lines' stop reasons: {reasons}")


def kind(answer: bytes) -> str:
    """What an answer line says happened: ERROR when the line was refused, else the turn's stop_reason (a wall
    bump is played, SUCCESS with COLLISION). Found by search, not json.loads, so the reader keeps up with the pipe."""
    if b'"status":"ERROR"' in answer[:40]:
        return "ERROR"
    at = answer.find(STOP)
    return answer[at + len(STOP):answer.find(b'"', at + len(STOP))].decode() if at >= 0 else "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=1_000_000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--minotaur", default="wait", choices=["wait", "builtin"])
    args = parser.parse_args()
    for seed in args.seeds:
        figures = run(seed, args.turns, args.minotaur)
        for turns, (mb, seconds) in figures.items():
            row(f"gsm memory: seed {seed}, {turns:,} turns", f"{mb:,.1f} MB", note=f"{seconds:,.0f} s in")
        first, last = figures[min(figures)][0], figures[max(figures)][0]
        report(f"gsm memory: seed {seed}, growth", last - first, "MB", ".1f", target=("<", TARGET_MB),
               note=f"{min(figures):,} to {max(figures):,} turns, --minotaur {args.minotaur}")


if __name__ == "__main__":
    main()
