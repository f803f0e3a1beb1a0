"""Two workers on one tournament against one: the wall time of `labyrinth tournament`
run by one worker, and by two started on the same command and database, measured
interleaved in this process (one, two, one, two, ...), with a digest of the matches
each way kept (every match's key, outcome and turns), so that a speed-up that played
other games shows. Every model call is answered by a local stub server (the real
OpenAI SDK, over HTTP) after a fixed latency: the workload is waiting, as a real
model's is, so two workers should take about half the time. Target: two workers
within 0.6x of one.

    .venv/bin/python bench/shared_tournament_bench.py [--rounds 3] [--games 12]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.stubs, the stub servers

from run import report, row  # bench/ is on sys.path, as this file runs as a script

from labyrinth.saves.results_db import ResultsDB

ANSWER_S = 0.05  # the stub's latency per call
SERVE = """
import sys
sys.path.insert(0, {root!r})
from tests.stubs import Steady, Stub  # its answer from the prompt alone: the same games at any pace

server = Stub(Steady("openai", delay_s={delay}))
print(server.url, flush=True)
sys.stdin.read()  # until the benchmark closes the pipe
"""
LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    root = str(Path(__file__).resolve().parents[1])
    stub = subprocess.Popen([sys.executable, "-c", SERVE.format(root=root, delay=ANSWER_S)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    url = stub.stdout.readline().strip()
    command = ["tournament", "--users", "openai/u1,openai/u2,openai/u3", "--minotaurs", "wait,builtin",
               "--games", str(args.games), "--preset", "tiny", "--max-turns", "20", "--concurrency", "3"]
    try:
        walls: dict[int, list[float]] = {1: [], 2: []}
        digests: dict[int, set[str]] = {1: set(), 2: set()}
        for _ in range(args.rounds):
            for workers in (1, 2):
                wall, digest, played = _run(command, url, workers)
                walls[workers].append(wall)
                digests[workers].add(digest)
                row(f"shared tournament: {workers} worker(s)", f"{wall:.1f} s", note=f"matches {played}, digest {digest}")
    finally:
        stub.stdin.close()
        stub.wait(timeout=10)
    one, two = statistics.median(walls[1]), statistics.median(walls[2])
    same = digests[1] == digests[2] and len(digests[1]) == 1
    row("shared tournament: matches played", f"{6 * args.games}", note="3 models x 2 Minotaurs x seeds")
    row("shared tournament: the same games", "yes" if same else "NO", note=", ".join(sorted(digests[1] | digests[2])))
    report("shared tournament: two workers / one", two / one, "x", ".2f", target=("<", 0.6),
           note=f"median of {args.rounds}: {one:.1f} s one worker, {two:.1f} s two, interleaved")


def _run(command: list[str], url: str, workers: int) -> tuple[float, str, list[int]]:
    """``workers`` workers on ``command`` against a fresh database: (wall s, digest of the matches, played each)."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "XDG_DATA_HOME": folder, "XDG_CONFIG_HOME": folder, "OPENAI_BASE_URL": url + "/v1"}
        began = time.perf_counter()
        runs = [subprocess.Popen([LABYRINTH, *command, "--json"], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True) for _ in range(workers)]
        outs = [run.communicate()[0] for run in runs]
        wall = time.perf_counter() - began
        played = [json.loads(out)["played"] for out in outs]
        with ResultsDB(Path(folder) / "labyrinth" / "results.db", read_only=True) as db:
            rows = db.matches()
    games = sorted((r.user, r.minotaur, r.seed, r.repeat, r.outcome, r.turns) for r in rows)
    return wall, hashlib.sha256(repr(games).encode()).hexdigest()[:12], played


if __name__ == "__main__":
    main()
