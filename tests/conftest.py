"""Shared test settings: a deterministic Hypothesis profile on CI."""

import gc
import os
import shutil

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


import pytest

RAM_DISK = "/dev/shm"  # Linux's memory-backed tmpfs
RAM_DISK_FREE = 4 << 30  # what it must have free: the wheel's test installs a virtual environment in tmp, and
# pytest keeps the last three runs' folders (some 275 MB here); a container's /dev/shm is often 64 MB


def pytest_configure(config):
    """tmp_path (and so every test's data folder, saves, replays, results.db and logs) lives in memory where Linux
    offers it, unless PYTEST_DEBUG_TEMPROOT names a root already: the code under test syncs what it writes
    (atomic.replace_file's fsync, SQLite's commits), some 9 ms each on a disk and nothing in memory, and what
    a test reads back is the same bytes either way; no test can see whether a sync reached a platter. Read
    once, by the process that makes the base folder (xdist's controller, which hands each worker its own). A
    small one (RAM_DISK_FREE) is left alone: the folders stay on disk."""
    if ("PYTEST_DEBUG_TEMPROOT" not in os.environ and os.path.isdir(RAM_DISK) and os.access(RAM_DISK, os.W_OK)
            and shutil.disk_usage(RAM_DISK).free >= RAM_DISK_FREE):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = RAM_DISK


def pytest_unconfigure(config):
    """One full collection, then every object still alive set aside from the collector (gc.freeze), before pytest's
    own clean-up collects five times over to find an exception raised in a finaliser. By the end of the suite an
    xdist worker holds some 800,000 objects, 2 s a full collection on a loaded 2-core machine (0.7 s of CPU), and
    execnet sends SIGINT to a worker still busy 5 s after it was told to end: seen as a KeyboardInterrupt inside
    hypothesis's gc callback after the last test. Garbage this first collection finds still reaches pytest's check."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _own_data_directory(monkeypatch, tmp_path):
    """Saves, replays and the rest go to a fresh folder per test, never the user's."""
    from labyrinth.saves.providers import PROVIDERS

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for variable in (variable for row in PROVIDERS.values() for variable in row.variables):
        monkeypatch.delenv(variable, raising=False)  # the developer's keys never reach a test


class ManualClock:
    """A clock that moves only when the test moves it: the TUI's waits (the game-over screen's quiet moment,
    the Minotaur's thinking time) then see the same seconds however loaded the machine is."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def stub():
    """A local stub server answering as the providers' public APIs do (tests/stubs.py)."""
    from tests.stubs import Stub

    server = Stub()
    yield server
    server.close()


@pytest.fixture
def quick_backoff(monkeypatch):
    """Retries of 5xx answers back off in hundredths of a second, not halves (the schedule is the same)."""
    from labyrinth.agents.llm.providers import retry

    monkeypatch.setattr(retry, "BASE_DELAY_S", 0.01)
