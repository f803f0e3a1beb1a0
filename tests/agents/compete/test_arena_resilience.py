"""The arena when the disk or the operating system works against it: a log that
cannot be written, a data directory that cannot be used, a kill -9 midway.

The results always reach stdout, each finished match's reflections are in the
log as soon as it ends, and no worker process outlives the arena."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from labyrinth.saves.experience import Experience

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
QUICK = ("--preset", "small", "--max-turns", "150", "--learn", "both")  # the log is what they try
WAIT_S = 90  # bound on every wait below; each is a poll that ends as soon as its condition holds


def _data(tmp_path: Path) -> Path:
    """The game's data directory under the test's XDG_DATA_HOME (set by conftest)."""
    return tmp_path / "data" / "labyrinth"


def _arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LABYRINTH, "arena", *args], capture_output=True, text=True, timeout=120, check=False)


def _wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {WAIT_S} s waiting for {what}")
        time.sleep(0.05)


def test_a_log_path_that_is_a_directory_still_gives_the_results(tmp_path):
    (_data(tmp_path) / "experience_log.json").mkdir(parents=True)
    done = _arena("--games", "2", *QUICK, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2  # the whole of stdout is the JSON
    assert "Traceback" not in done.stderr
    assert all(line.startswith("labyrinth arena: ") for line in done.stderr.splitlines())
    assert "experience log" in done.stderr
    table = _arena("--games", "2", *QUICK)
    assert table.returncode == 0 and "escape rate" in table.stdout and "Traceback" not in table.stderr


def test_a_log_with_one_poisoned_reflection_keeps_the_rest_and_the_memory(tmp_path):
    """The bad reflection is set aside alone (saves/experience.py); the run learns from the good one
    and adds its own."""
    from tests.saves.test_experience import reflection

    good, bad = (reflection(n).model_dump(mode="json") for n in (1, 2))
    Experience().path.parent.mkdir(parents=True)
    Experience().path.write_text(json.dumps({"version": 1, "reflections": [good, {**bad, "game_time": "1e999"}]})
                                 .replace('"1e999"', "1e999"))
    done = _arena("--games", "2", *QUICK, "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["reflections"] == 4
    assert "without memory" not in done.stderr and "rejected" in done.stderr
    kept = Experience().read()
    assert kept[0].id == good["id"] and len(kept) == 5


def test_a_log_that_fails_to_be_written_loses_the_reflections_not_the_results(monkeypatch, capsys):
    """A full disk at every write: the JSON is printed in full, and one line counts what was not kept."""
    from labyrinth.tui.cli import main

    def full_disk(self, reflections):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Experience, "add", full_disk)
    assert main(["arena", "--games", "2", *QUICK, "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["games"] == 2 and data["reflections"] == 4
    assert err.count("\n") == 1 and "No space left on device" in err and "4 reflections" in err


@pytest.mark.skipif(sys.platform == "win32", reason="a file size limit is POSIX's")
def test_a_file_size_limit_loses_the_reflections_not_the_results():
    """RLIMIT_FSIZE at one byte: every write of the log fails (EFBIG), as on a full disk."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1, 1))

    done = subprocess.run([LABYRINTH, "arena", "--games", "3", *QUICK, "--json"], capture_output=True, text=True,
                          timeout=120, check=False, preexec_fn=limited)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 3
    assert done.stderr.count("\n") == 1 and "6 reflections of this run were not kept" in done.stderr


def test_a_data_directory_that_is_a_file_plays_without_memory(tmp_path):
    _data(tmp_path).parent.mkdir(parents=True)
    _data(tmp_path).write_text("not a directory")
    done = _arena("--games", "2", *QUICK, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["games"] == 2 and data["reflections"] == 0
    assert len(done.stderr.splitlines()) == 1 and "without memory" in done.stderr
    assert "not a directory (a file is in the way: move it away, then try again)" in done.stderr
    assert _data(tmp_path).read_text() == "not a directory"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes through chmod; the data-dir-is-a-file test covers the same path")
def test_a_read_only_data_directory_plays_without_memory(tmp_path):
    _data(tmp_path).mkdir(parents=True)
    _data(tmp_path).chmod(0o555)
    try:
        done = _arena("--games", "2", *QUICK, "--json")
    finally:
        _data(tmp_path).chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2
    assert len(done.stderr.splitlines()) == 1 and "without memory" in done.stderr


def _logged(path: Path) -> list:
    try:
        return json.loads(path.read_bytes())["reflections"]
    except (OSError, ValueError):  # not there yet, or being replaced right now
        return []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_kill_midway_keeps_every_finished_match(tmp_path, jobs):
    log = _data(tmp_path) / "experience_log.json"
    with subprocess.Popen([LABYRINTH, "arena", "--games", "100000", *QUICK, "--jobs", jobs, "--json"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as arena:
        try:
            _wait_for(lambda: len(_logged(log)) >= 6, "three matches' reflections in the log")
        finally:
            arena.send_signal(signal.SIGKILL)
    kept = Experience(log)
    reflections = kept.read()
    assert kept.take_notice() is None  # whole and valid: a kill never leaves half a log
    assert len(reflections) >= 6
    by_game: dict[str, set[str]] = {}
    for reflection in reflections:
        by_game.setdefault(reflection.game_id, set()).add(reflection.role)
        assert 1 <= reflection.seed <= 100000
    assert all(roles == {"user", "minotaur"} for roles in by_game.values())  # whole matches only


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (a container's init may never reap an orphan)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through Linux's /proc")
def test_workers_die_with_a_killed_arena():
    with subprocess.Popen([LABYRINTH, "arena", "--games", "100000", *QUICK, "--jobs", "2", "--json"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as arena:
        try:
            workers: set[int] = set()

            def started() -> bool:
                workers.update(_children(arena.pid))
                return len(workers) >= 2

            _wait_for(started, "two workers")
        finally:
            arena.send_signal(signal.SIGKILL)
    _wait_for(lambda: not any(_running(pid) for pid in workers), "the workers to die with the arena")


class _SlowLog:
    """A log whose first write waits until the test lets it finish; it remembers each write's batch."""

    def __init__(self, failures: int = 0, notice: str | None = None) -> None:
        self.batches: list[list] = []
        self.entered, self.release = threading.Event(), threading.Event()
        self.failures, self.notice = failures, notice

    def take_notice(self) -> str | None:
        notice, self.notice = self.notice, None
        return notice

    def add(self, reflections: list) -> None:
        if not self.batches and not self.entered.is_set():
            self.entered.set()
            assert self.release.wait(WAIT_S)
        if self.failures:
            self.failures -= 1
            raise OSError(28, "No space left on device")
        self.batches.append(list(reflections))


def _ended(*reflections: str, seed: int = 0) -> SimpleNamespace:
    return SimpleNamespace(seed=seed, reflections=list(reflections))  # all the keeper reads of a MatchResult


def test_the_keeper_writes_what_arrives_during_a_write_in_the_next_one():
    from labyrinth.agents.compete.arena_log import ReflectionKeeper

    log = _SlowLog()
    keeper = ReflectionKeeper(log, rest=0)
    keeper.keep(_ended("a-user", "a-minotaur"))
    assert log.entered.wait(WAIT_S)  # the writer is inside its first write
    keeper.keep(_ended("b-user", "b-minotaur"))
    keeper.keep(_ended("c-user", "c-minotaur"))
    log.release.set()
    assert keeper.close() is None
    assert log.batches == [["a-user", "a-minotaur"], ["b-user", "b-minotaur", "c-user", "c-minotaur"]]


def test_the_keeper_tries_a_failed_write_again_and_counts_what_was_never_written():
    from labyrinth.agents.compete.arena_log import ReflectionKeeper

    log = _SlowLog(failures=1)
    keeper = ReflectionKeeper(log, rest=0)
    keeper.keep(_ended("a-user", "a-minotaur"))
    assert log.entered.wait(WAIT_S)
    keeper.keep(_ended("b-user", "b-minotaur"))
    log.release.set()
    assert keeper.close() is None  # the second write carried the first one's reflections too
    assert log.batches == [["a-user", "a-minotaur", "b-user", "b-minotaur"]]

    never = _SlowLog(failures=10**6)
    never.release.set()
    keeper = ReflectionKeeper(never, rest=0)
    keeper.keep(_ended("a-user", "a-minotaur"))
    keeper.keep(_ended("b-user", "b-minotaur"))
    assert keeper.close() == ("the experience log could not be written (No space left on device); 4 reflections of "
                              "this run were not kept")


def test_the_keeper_writes_in_seed_order_whatever_order_the_matches_end_in():
    """The log ranks lessons by their place in it: --jobs must not change what the next run learns."""
    from labyrinth.agents.compete.arena_log import ReflectionKeeper

    log = _SlowLog()
    log.release.set()
    keeper = ReflectionKeeper(log, seeds=[1, 2, 3, 4], rest=0)
    keeper.keep(_ended("3", seed=3))
    keeper.keep(_ended("1", seed=1))
    assert keeper.close() is None  # 2 and 4 never ended (a Ctrl-C): what ended is kept all the same
    assert [r for batch in log.batches for r in batch] == ["1", "3"]


def test_the_keeper_tells_of_a_log_damaged_during_the_run():
    from labyrinth.agents.compete.arena_log import ReflectionKeeper

    damaged = "The experience log could not be read (not valid JSON); it was kept as x.json."
    log = _SlowLog(notice=damaged)
    log.release.set()
    keeper = ReflectionKeeper(log, rest=0)
    keeper.keep(_ended("a"))
    assert keeper.close() == damaged and log.batches == [["a"]]
