"""The arena's side of the experience log: the lessons a run starts from, and each
match's reflections written as the match ends.

Only the process that runs the arena touches the log (the workers only play),
and every match learns from the log as it was when the run began, so writing as
matches end changes nothing in the results, while a kill loses only the matches
still being played (and, with a log near its cap, those of the last second or
so). The log failing is never the run failing: a log that cannot be used means a
run without memory, a write that fails keeps its reflections for the next write,
and what was never written is told in one line at the end.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable

from labyrinth.saves.experience import Experience, Reflection

from ..match.runner import MatchResult

# The errors of the log's storage: the operating system's, and the saves package's own (all ValueErrors).
LOG_ERRORS = (OSError, ValueError)
REST = 3.0  # after a write, the keeper waits this many times as long as the write took


def describe(error: Exception) -> str:
    """One line for a person: which file, and what is wrong with it."""
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    return " ".join(str(error).split()) or type(error).__name__


def open_memory(say: Callable[[str], None], seeds: Iterable[int] = ()) \
        -> tuple[ReflectionKeeper | None, tuple[Reflection, ...]]:
    """The keeper of a run's reflections (written in the order of ``seeds`` when given) and the
    lessons in the experience log to learn from; no keeper (a run without memory) when the log
    can be neither read nor safely written. What the user must know of it (a damaged log set
    aside beside it, so writing loses nothing; no memory) is said in one line through ``say``."""
    log = Experience()
    try:
        lessons = tuple(log.read())
    except LOG_ERRORS as error:
        say(f"the experience log cannot be used ({describe(error)}); playing without memory")
        return None, ()
    notice = log.take_notice()
    if notice:
        say(notice)
    return ReflectionKeeper(log, seeds), lessons


class ReflectionKeeper:
    """Adds finished matches' reflections to the log from a thread of its own; ``keep`` is an
    arena's ``on_result`` and returns at once, ``close`` writes the last ones.

    Each write reads and replaces the whole log (megabytes at its cap), so the writer takes
    everything that arrived while it was busy in one write, and after a write it rests
    ``rest`` times as long as the write took: with a small log every match is written as it
    ends, with a full one the writes take at most 1 / (1 + rest) of the time, and a kill loses
    the matches in flight and at most those of the last pause."""

    def __init__(self, log: Experience, seeds: Iterable[int] = (), rest: float = REST) -> None:
        self.log, self.rest = log, rest
        self.waiting: list[Reflection] = []  # drawn but not yet written, in the order of the seeds
        # The log ranks lessons by their place in it, so they enter it in seed order, not in the order the
        # matches end: the next run learns the same whatever --jobs this one had. A match that ends early
        # waits only for the earlier seeds still being played.
        self._unended = deque(seeds)
        self._ended: dict[int, list[Reflection]] = {}
        self.problem: str | None = None  # why the last write failed
        self._changed = threading.Condition()
        self._fresh = False  # reflections arrived since the writer last took them
        self._closing = False
        self._writer = threading.Thread(target=self._write_on, name="reflection-keeper", daemon=True)
        self._writer.start()

    def keep(self, result: MatchResult) -> None:
        with self._changed:
            if result.seed in self._unended:
                self._ended[result.seed] = result.reflections
            else:  # a seed the run did not announce: in the order it ended
                self.waiting.extend(result.reflections)
            while self._unended and self._unended[0] in self._ended:
                self.waiting.extend(self._ended.pop(self._unended.popleft()))
            self._fresh = bool(self.waiting)
            self._changed.notify()

    def close(self) -> str | None:
        """Write what is still waiting; one line about the reflections that could not be written
        and about a log found damaged (and set aside) during the run, or None when all went well."""
        with self._changed:
            self._closing = True
            self.waiting.extend(r for seed in self._unended for r in self._ended.pop(seed, ()))  # cut short
            self._changed.notify()
        self._writer.join()
        self._write()
        said = [self.log.take_notice()]  # another program may have damaged the log while this run wrote it
        if self.waiting:
            said.append(f"the experience log could not be written ({self.problem}); {len(self.waiting)} reflections "
                        f"of this run were not kept")
        return " ".join(line for line in said if line) or None

    def _write_on(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._fresh or self._closing)
                if self._closing:
                    return
            began = time.perf_counter()
            self._write()
            with self._changed:  # rest, unless the run is over
                self._changed.wait_for(lambda: self._closing, timeout=self.rest * (time.perf_counter() - began))

    def _write(self) -> None:
        with self._changed:
            batch, self._fresh = list(self.waiting), False
        if not batch:
            return
        try:
            self.log.add(batch)
        except Exception as error:  # noqa: BLE001 - whatever happens to the log, the run's results are printed
            self.problem = describe(error)
            return
        with self._changed:
            del self.waiting[:len(batch)]  # keep() only appends: the batch is still the front
