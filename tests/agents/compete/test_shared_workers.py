"""Two workers on one tournament and one results.db, as containers on one host share it: in
separate PID namespaces, or with one's clock 300 s ahead. Neither takes the other's live
matches: every match is played once, every row's replay is there, and no file is left
over or deleted. Real `labyrinth tournament` processes of rule agents."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from labyrinth.saves.results_db import ResultsDB, results_path

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
TOURNAMENT = ["tournament", "--users", "builtin,random", "--minotaurs", "builtin,wait", "--games", "4", "--preset",
              "small", "--max-turns", "100", "--no-memory", "--concurrency", "1", "--json"]
MATCHES = 16
ENDS_S = 120  # each worker ends in seconds (more on a loaded machine); one that has not by then never would


def unshared() -> bool:
    return bool(shutil.which("unshare")) and not subprocess.run(
        ["unshare", "-pf", "--mount-proc", "true"], capture_output=True, check=False).returncode


def in_namespace(spacers: int) -> list[str]:
    """A worker in a PID namespace of its own, as in a container: under a shell (PID 1) and after ``spacers``
    commands that have ended, so the two workers' PIDs differ and neither's is a live process in the
    other's namespace (which a PID probe took for a dead worker)."""
    return ["unshare", "-pf", "--mount-proc", "sh", "-c", "/bin/true; " * spacers + '"$@"; exit $?', "sh"]


def shared(*prefixes: list[str]) -> None:
    """Run the tournament by one worker per prefix at once, then check that together they played every
    match once: the rows are every key once, and the replay files are exactly the rows' (none deleted,
    none of a second attempt left)."""
    workers = [subprocess.Popen([*prefix, LABYRINTH, *TOURNAMENT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=os.environ.copy()) for prefix in prefixes]
    try:
        said = [worker.communicate(timeout=ENDS_S) for worker in workers]
    finally:
        for worker in workers:
            worker.kill()
    assert [worker.returncode for worker in workers] == [0] * len(workers), [err for _, err in said]
    played = [json.loads(out)["played"] for out, _ in said]
    with ResultsDB() as db:
        rows = db.matches()
    assert sum(played) == len(rows) == len({row.key for row in rows}) == MATCHES  # none played twice
    kept = {Path(row.replay) for row in rows if row.replay}
    assert all(path.is_file() for path in kept) and len(kept) == MATCHES  # every row's replay is there
    assert set((results_path().parent / "replays" / "tournament").glob("*.jsonl")) == kept  # and no other


@pytest.mark.skipif(not unshared(), reason="needs `unshare -pf --mount-proc` (util-linux, as root) for PID namespaces")
def test_two_workers_in_separate_pid_namespaces_take_none_of_each_others_matches():
    shared(in_namespace(0), in_namespace(2))


@pytest.mark.skipif(not shutil.which("faketime"), reason="needs faketime (Debian's faketime package; .ci/run installs "
                                                         "it as root) to set a worker's clock ahead")
def test_a_worker_whose_clock_is_300_s_ahead_takes_none_of_the_others_matches():
    shared([], ["faketime", "-f", "+300s"])
