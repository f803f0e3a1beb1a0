"""Two workers on one tournament against one: the wall time of `labyrinth tournament`
run by one worker, and by two started on the same command and database, measured
interleaved in this process (one, two, one, two, ...), with a digest of the matches
each way kept (every match's key, outcome and turns), so that a speed-up that played
other games shows. Every model call is answered by a local stub server (the real
OpenAI SDK, over HTTP) after a fixed latency: the workload is waiting, as a real
model's is, so two workers should take about half the time. Target: two workers
within 0.6x of one.

    .venv/bin/python bench/tournament/shared_tournament_bench.py [--rounds 3] [--games 12]
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
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows

from figures import report, row
from steady_server import steady_server

from labyrinth.saves.results_db import ResultsDB

ANSWER_S = 0.05  # the stub's latency per call
LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))


class Played(NamedTuple):
    """One run of the tournament: its wall time, what it kept and what each worker said it played."""

    wall: float
    digest: str  # of every kept match's key, outcome and turns, sorted
    recorded: int  # rows the database holds afterwards, void ones included
    void: int  # of those, the void ones (a fallback played, a provider failed ...): no valid result
    played: list[int]  # the matches each worker said it played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    command = ["tournament", "--users", "openai/u1,openai/u2,openai/u3", "--minotaurs", "wait,builtin",
               "--games", str(args.games), "--preset", "tiny", "--max-turns", "20", "--concurrency", "3"]
    with steady_server(ANSWER_S) as url:
        runs = _rounds(command, url, args.rounds)
    _summary(runs, args.games)


def _rounds(command: list[str], url: str, rounds: int) -> dict[int, list[Played]]:
    """One worker, then two, ``rounds`` times: interleaved, so that a load that comes and goes falls on both."""
    runs: dict[int, list[Played]] = {1: [], 2: []}
    for _ in range(rounds):
        for workers in (1, 2):
            done = _run(command, url, workers)
            runs[workers].append(done)
            row(f"shared tournament: {workers} worker(s)", f"{done.wall:.1f} s",
                note=f"{done.recorded} recorded, {done.void} void, each worker played {done.played}, "
                     f"digest {done.digest}")
    return runs


def _summary(runs: dict[int, list[Played]], games: int) -> None:
    """The matches as counted in the databases (not as asked for), whether every run kept the same ones, the ratio."""
    every = runs[1] + runs[2]
    counts = sorted({(done.recorded, done.void) for done in every})
    row("shared tournament: matches recorded / void", "; ".join(f"{kept} / {void}" for kept, void in counts),
        note=f"each run; {6 * games} asked (3 models x 2 Minotaurs x {games} seeds)")
    digests = {done.digest for done in every}
    row("shared tournament: the same games", "yes" if len(digests) == 1 else "NO", note=", ".join(sorted(digests)))
    one, two = (statistics.median(done.wall for done in runs[workers]) for workers in (1, 2))
    report("shared tournament: two workers / one", two / one, "x", ".2f", target=("<", 0.6),
           note=f"median of {len(runs[1])}: {one:.1f} s one worker, {two:.1f} s two, interleaved")


def _run(command: list[str], url: str, workers: int) -> Played:
    """``workers`` workers on ``command`` against a fresh database, and what the database kept."""
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
    return Played(wall, hashlib.sha256(repr(games).encode()).hexdigest()[:12], len(rows),
                  sum(not r.valid for r in rows), played)

if __name__ == "__main__":
    main()
