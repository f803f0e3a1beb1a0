"""A tournament's concurrency against its latency bound: 200 model-vs-model matches of
20 turns with --concurrency 200, every model call answered by a local stub server
after 1 s (the real OpenAI SDK, over HTTP). Played one after another they would take
over an hour; at once, the bound is the calls one match makes in a row (a plan call,
then one per turn, both sides asked together) times 1 s: (20 + 1) x 1 s = 21 s, fixed
by the settings, not taken from the games played. Target: within 1.5x of the 21 s
bound, under 1.5 GB peak memory, on 2 cores.

The stub answers from the prompt alone (tests.stubs.Steady), so the matches are the
same whatever order their requests reach it in; a digest of them (user, Minotaur,
seed, outcome, turns, sorted) is printed, so a run that played other games shows. The
stub's users all answer alike, so on seed 2 every match is one game that lasts the 20
turns (TIMEOUT): each match makes the bound's 21 calls in a row, and no fewer.

The stub runs in a process of its own, so that its threads do not share this
process's GIL. Figures taken while other programs use the cores are noisy: the CPU
time this process spent is printed beside the wall time, to tell waiting from working.

    .venv/bin/python bench/tournament/tournament_bench.py [--matches 200] [--concurrency 200]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows

from figures import report, row
from steady_server import steady_server

from labyrinth.agents.compete.tournament import Entrant, Run, Tournament, run_tournament
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.saves.results_db import ResultsDB

ANSWER_S = 1.0  # the stub's latency per call
TURNS = 20
SEED = 2  # Steady's user outlasts the chasing stub on it: every match plays all 20 turns, the calls the bound counts
BOUND_S = (TURNS + 1) * ANSWER_S  # a plan call, then one call per turn, both sides at once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=200)
    args = parser.parse_args()
    with steady_server(ANSWER_S) as url:
        run(url, args.matches, args.concurrency)


def run(url: str, matches: int, concurrency: int) -> None:
    """Play the tournament and print its figures, the bound and the digest beside the wall time."""
    rows, void, wall, cpu = play(url, matches, concurrency)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    longest = max(r.turns for r in rows)
    row("tournament: matches", f"{len(rows)} kept, {sum(r.turns for r in rows):,} turns, at most {longest} a match",
        note=f"concurrency {concurrency}, {os.cpu_count()} cores, stub answers after {ANSWER_S:g} s")
    row("tournament: digest of the matches", digest(rows), note="user, Minotaur, seed, outcome, turns; sorted")
    report("tournament: wall time", wall, "s", ".1f", target=("<", 1.5 * BOUND_S),
           note=f"latency bound {BOUND_S:.0f} s ({TURNS} turns + a plan call); this process's CPU {cpu:.1f} s")
    report("tournament: wall / latency bound", wall / BOUND_S, "x", ".2f", target=("<", 1.5))
    report("tournament: peak memory (RSS)", peak_mb, "MB", ",.0f", target=("<", 1536))
    row("tournament: mean match wall time", f"{sum(r.wall_s for r in rows) / len(rows):.1f} s")
    tokens = sum(r.user_side.tokens_in + r.minotaur_side.tokens_in for r in rows)
    fallbacks = sum(r.user_side.fallbacks + r.minotaur_side.fallbacks for r in rows)
    row("tournament: fallbacks / tokens in", f"{fallbacks} / {tokens:,}")
    row("tournament: valid / void matches", f"{sum(r.valid for r in rows)} / {void}")


def play(url: str, matches: int, concurrency: int) -> tuple[list, int, float, float]:
    """10 users against matches / 10 Minotaurs on SEED, all at the stub: (rows kept, void matches, wall s, CPU s)."""
    def model(name: str) -> Entrant:
        return Entrant(name, ProviderSettings("openai", name.partition("/")[2], url + "/v1", timeout_s=30.0))

    users = tuple(model(f"openai/user-{i}") for i in range(10))
    minotaurs = tuple(model(f"openai/minotaur-{i}") for i in range(max(1, matches // 10)))
    tournament = Tournament(users, minotaurs, (SEED,), "standard", "normal", TURNS)
    with tempfile.TemporaryDirectory() as folder, ResultsDB(Path(folder) / "results.db") as db:
        cpu, began = time.process_time(), time.perf_counter()
        done = run_tournament(tournament, db, concurrency=concurrency, replays=Path(folder) / "replays", run=Run())
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
        return db.matches(), len(done.void), wall, cpu


def digest(rows) -> str:
    """The matches played, in a fixed order: two runs that print the same digest played the same games, so a
    change of speed between them is not a change of workload."""
    games = sorted((r.user, r.minotaur, r.seed, r.outcome, r.turns) for r in rows)
    return hashlib.sha256(repr(games).encode()).hexdigest()[:12]


if __name__ == "__main__":
    main()
