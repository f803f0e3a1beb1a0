"""The hostile-input harness's judge: a tally per way in, a watchdog that turns a hang into a
count instead of a stuck run, and a decoy directory outside the data directory whose every
change is a file the game should not have touched."""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HANG_S = 6.0  # a command or a call with no end by then is hung (the CLI starts in about half a second)
EXAMPLES = 3  # failures listed per way in
FAILURE_NAMES = {"crashes": "crash", "hangs": "hang", "wrong": "wrong answer", "slow": "slow",
                 "replaced": "not a regular file, replaced", "deleted": "replay deleted",
                 "leaked": "key received where it was not given"}
SLOW_S = 1.0  # an input to an in-process call that takes longer is counted as slow


@dataclass
class Tally:
    """What one way in did with the inputs thrown at it."""

    way: str
    tried: int = 0
    crashes: int = 0
    hangs: int = 0
    wrong: int = 0
    outside: int = 0
    slow: int = 0  # inputs that took more than SLOW_S, though they ended
    replaced: int = 0  # paths that were not regular files (devices, FIFOs, links, ...) and were replaced
    deleted: int = 0  # replays a results row names that are gone, or another worker's replay removed
    leaked: int = 0  # keys a server received that it was not given (a redirect's target, another endpoint)
    stopped: bool = False  # the time budget ran out before every input was tried
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)  # file cases run in threads

    def count(self) -> None:
        with self.lock:
            self.tried += 1

    def fail(self, kind: str, label: str, detail: str) -> None:
        """Count one failure of ``kind`` (crashes, hangs, wrong or slow) and keep the first few to show."""
        with self.lock:
            setattr(self, kind, getattr(self, kind) + 1)
            if len(self.failures) < EXAMPLES:
                self.failures.append(f"{FAILURE_NAMES[kind]}: {label}: {' '.join(detail.split())[:160]}")


class Hang(BaseException):
    """The watchdog's alarm: a BaseException, so no `except Exception` in the code under test swallows it."""


class Watchdog:
    """Raise Hang in this thread after ``seconds`` (POSIX; elsewhere the call is trusted to end).
    A class, not @contextmanager: that one writes to the escaping exception (its __traceback__),
    which a frozen dataclass exception such as NotACommand refuses."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.armed = hasattr(signal, "setitimer")

    def __enter__(self) -> None:
        if self.armed:
            self.previous = signal.signal(signal.SIGALRM, _ring)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc_info: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)


def _ring(signum: int, frame: Any) -> None:
    raise Hang


def call(tally: Tally, label: str, fn: Callable[[], Any], fine: tuple[type[BaseException], ...]) -> Any:
    """``fn()`` under the watchdog: an exception outside ``fine`` is a crash."""
    tally.count()
    began = time.monotonic()
    try:
        with Watchdog(HANG_S):
            return fn()
    except Hang:
        tally.fail("hangs", label, f"no end after {HANG_S} s")
    except fine:
        return None
    except RecursionError as exc:
        tally.fail("crashes", label, f"RecursionError: {exc}")
    except Exception as exc:  # noqa: BLE001 - the point of the harness: whatever escapes is counted
        tally.fail("crashes", label, f"{type(exc).__name__}: {exc}")
    finally:
        if SLOW_S < (took := time.monotonic() - began) < HANG_S:
            tally.fail("slow", label, f"{took:.1f} s")
    return None


def command(tally: Tally, label: str, args: list[str], env: dict[str, str], hang_s: float = HANG_S,
            stdin: bytes | None = None) -> subprocess.CompletedProcess | None:
    """``args`` run to its end (bytes in, bytes out): a traceback, a MemoryError or a death by a signal is a
    crash and no end within ``hang_s`` a hang, each counted and None; else what it did, for the caller to
    judge."""
    tally.count()
    try:
        done = subprocess.run(args, input=stdin, capture_output=True, timeout=hang_s, env=env, check=False)
    except subprocess.TimeoutExpired:
        tally.fail("hangs", label, f"no end after {hang_s} s")
        return None
    err = done.stderr.decode(errors="replace")
    if done.returncode < 0 or "Traceback (most recent call last)" in err or "MemoryError" in err:
        last = err.strip().splitlines()[-1] if err.strip() else f"killed by signal {-done.returncode}"
        tally.fail("crashes", label, last)
        return None
    return done


FAULTS = {"crashes": "crashes", "hangs": "hangs", "wrong": "wrong", "replaced": "not regular and replaced",
          "deleted": "replays deleted", "leaked": "keys leaked"}  # what a way of what the game keeps counts


def run_alone(doc: str, way: str, lines: Callable[[Tally, int], Iterable[str]]) -> int:
    """A way of what the game keeps run as a script (`--seed N ...`, default 0 1 2): ``lines(tally, seed)``
    counts one seed's cases into the tally and gives a line for each, printed as they come; then the
    totals and the first failures. Exit status 1 when any case failed."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--seed", type=int, nargs="+", default=[0, 1, 2])
    args = parser.parse_args()
    tally = Tally(way)
    began = time.monotonic()
    for seed in args.seed:
        started = time.monotonic()
        for line in lines(tally, seed):
            print(f"seed {seed}: {' '.join(line.split())[:240]}", flush=True)
        print(f"seed {seed}: {time.monotonic() - started:.1f} s", flush=True)
    counts = ", ".join(f"{getattr(tally, kind)} {words}" for kind, words in FAULTS.items())
    print(f"{way}: {tally.tried} cases, {counts}, in {time.monotonic() - began:.0f} s")
    for failure in tally.failures:
        print(f"  {failure!a}")
    return 1 if any(getattr(tally, kind) for kind in FAULTS) else 0


class Decoy:
    """A directory outside the data directory, holding what a careless program might delete or
    overwrite; links from the data directory point into it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.reset()

    def reset(self) -> None:
        """The decoy as it was made, so the next way in is judged on its own."""
        shutil.rmtree(self.root, ignore_errors=True)
        (self.root / "inner").mkdir(parents=True)
        (self.root / "victim.txt").write_text("keep me\n")
        (self.root / "victim.json").write_text('{"version": 1, "reflections": []}')
        (self.root / "inner" / "notes.md").write_text("# mine\n")

    def snapshot(self) -> dict[str, tuple]:
        seen = {}
        for folder, dirs, files in os.walk(self.root):
            for name in [*dirs, *files]:
                path = Path(folder) / name
                info = path.lstat()
                digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
                seen[str(path.relative_to(self.root))] = (info.st_mode, info.st_size, info.st_mtime_ns, digest)
        return seen

    def changes(self, before: dict[str, tuple]) -> list[str]:
        after = self.snapshot()
        return sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
