"""Many matches at once: the one pool the arena and the tournament play their matches in.

A match with a model in it spends its time waiting on the network, so it is played in a
daemon thread of this process: many at once, sharing each endpoint's one Pace, so that
`--llm-rpm` holds across every match (and across `--jobs`, which for model matches is how
many are played at once), and a quota answer holds every match's next call. How many
model matches are in flight is also kept to what each endpoint's pace can serve within a
call's time (``capacity``): more would only wait in line for the pace. A match of rule
agents only is CPU-bound, so with more than one to play it goes to worker processes
(worker_pool), one per core. Daemon threads, unlike a pool's, do not hold up the exit of
a run stopped with Ctrl-C.

A match that stops unfinished (a quota asks for a longer wait than a match may be held, or
its endpoint answered only quota answers for the hold budget: MatchStopped) stops the run: no
match is started after it, those under way end as they end, and the caller is told why. The caller
decides what to start (``may_start``: a tournament claims each match first) and hears of each end in
this thread (``on_end``), which is the only one that touches the caller's state.
"""

from __future__ import annotations

import math
import os
import queue
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Mapping
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..base import ModelPlayer
from ..llm.providers.pacing import SECONDS_PER_MINUTE, Waiting
from .match_records import MatchResult
from .side import MatchStopped
from .worker_pool import process_pool

if TYPE_CHECKING:
    from ..compete.arena import ArenaSettings, RecorderFactory

THREADS, PROCESSES = "threads", "processes"  # where a match is played: model matches, rule-agent matches
QUEUED_PER_WORKER = 2  # matches handed to each worker process at a time: one playing, one ready
Name = TypeVar("Name", bound=Hashable)  # how the caller knows a match: a seed, a match's key
TICK_S = 20.0  # how often a run with matches under way gives ``on_tick`` a turn (a tournament renews its claims)
POLL_S = 0.5  # how often a run with nothing to play asks ``more`` again (another worker's matches may have ended)


@dataclass(frozen=True)
class Job(Generic[Name]):
    """One match to play: how the caller knows it (a seed, a match's key), its settings and seed,
    and where to record it (a directory and a file name; none: not recorded, or by the run's
    recorder factory)."""

    name: Name
    settings: ArenaSettings
    seed: int
    replays: Path | None = None
    stem: str | None = None

    @property
    def calls_a_model(self) -> bool:
        return bool(self.settings.providers)

    def load(self) -> Counter[tuple[str, str]]:
        """The model sides of this match, per endpoint (provider, URL): what it asks of each pace."""
        models = dict(self.settings.providers)
        return Counter((s.provider, s.endpoint) for kind in (self.settings.user, self.settings.minotaur)
                       if (s := models.get(kind)) is not None)

    def capacity(self) -> dict[tuple[str, str], float]:
        """For each endpoint this match calls, how many model sides its pace serves within a call's
        time: at N requests a minute and T s a request, N * T / 60 (unbounded without a pace)."""
        return {(s.provider, s.endpoint): max(1, math.floor(s.rpm * s.timeout_s / SECONDS_PER_MINUTE))
                if s.rpm else math.inf for _, s in self.settings.providers}


@dataclass(frozen=True)
class Played(Generic[Name]):
    """A match as it came back: its result, or why it stopped unfinished (its partial replay
    is removed), and its replay file."""

    name: Name
    result: MatchResult | None
    replay: str | None
    wall_s: float
    stopped: str | None = None  # why it stopped unfinished (MatchStopped)
    wait_s: float | None = None  # the quota's wait that stopped it, when the server said


# Each match's end: how it ran (thread or process), its job, and how it came back.
Ended = queue.Queue[tuple[str, Job[Name], Played[Name] | BaseException]]


def play_job(job: Job[Name], recorder_factory: RecorderFactory | None = None,
             seated: Callable[[Mapping[str, Any]], None] | None = None) -> Played[Name]:
    """One match; a module-level function, so that a worker process can be sent it."""
    from labyrinth.saves.replays import ReplayWriter

    writer = ReplayWriter(job.replays, job.stem) if job.replays is not None else None
    factory = (lambda seed: writer) if writer else recorder_factory
    began = time.perf_counter()
    try:
        result = job.settings.play(job.seed, factory, seated)
    except MatchStopped as stop:
        partial = writer.path if writer else None
        if partial is not None:
            partial.unlink(missing_ok=True)  # a match that did not end leaves no replay
        return Played(job.name, None, None, time.perf_counter() - began, str(stop), stop.wait_s)
    path = str(writer.path) if writer and writer.path else None
    return Played(job.name, result, path, time.perf_counter() - began)


@dataclass
class Progress:
    """What a live view shows: the matches in flight (with their agents once seated), the ended ones."""

    total: int = 0
    ended: int = 0
    in_flight: dict[Hashable, Mapping[str, Any]] = field(default_factory=dict)  # agents once seated (threads)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def waits(self) -> list[str]:
        """Each model's wait (a quota, the pace) in the matches in flight, as "why: waiting N s"."""
        with self.lock:
            agents = [agent for seated in self.in_flight.values() for agent in seated.values()]
        longest: dict[str, tuple[Waiting, float, int]] = {}  # by cause: a wait, the longest left, how many
        for agent in agents:
            if isinstance(agent, ModelPlayer) and (wait := agent.waiting) is not None:
                _, left, count = longest.get(wait.cause, (wait, 0.0, 0))
                longest[wait.cause] = (wait, max(left, wait.left_s()), count + 1)
        return [f"{wait.saying(left)} ({count} waiting)" for wait, left, count in
                (longest[cause] for cause in sorted(longest))]


def play_matches(jobs: Iterable[Job[Name]], on_end: Callable[[Played[Name]], None], *, concurrency: int = 1,
                 recorder_factory: RecorderFactory | None = None, progress: Progress | None = None,
                 may_start: Callable[[Job[Name]], bool] | None = None,
                 more: Callable[[], list[Job[Name]] | None] | None = None,
                 on_tick: Callable[[], None] | None = None, tick_s: float = TICK_S,
                 poll_s: float = POLL_S) -> str | None:
    """Play ``jobs``, up to ``concurrency`` at once, telling ``on_end`` of each as it ends (in this
    thread, in finishing order). ``may_start``: asked before each match starts (False: skip it);
    ``more``: asked when nothing is left to play, for matches to play after all (a list, empty to be
    asked again after ``poll_s``) or None when the run is over; ``on_tick``: called every
    ``tick_s`` while matches are under way. Returns why the run stopped early (a quota's too long
    wait), or None. ``recorder_factory``: for jobs without a replay directory (must pickle when
    matches go to processes)."""
    progress = progress or Progress()
    waiting: dict[str, deque[Job[Name]]] = {THREADS: deque(), PROCESSES: deque()}
    for job in jobs:
        waiting[THREADS if job.calls_a_model else PROCESSES].append(job)
    workers = min(concurrency, os.cpu_count() or 1, len(waiting[PROCESSES]))
    if workers < 2:  # one core, one at a time or one match: not worth starting a worker process
        waiting[THREADS].extend(waiting.pop(PROCESSES))
    room = {THREADS: concurrency, PROCESSES: workers * QUEUED_PER_WORKER}
    running = dict.fromkeys(waiting, 0)
    load: Counter[tuple[str, str]] = Counter()  # model sides in flight per endpoint
    ended: Ended[Name] = queue.Queue()
    pool = process_pool(workers) if PROCESSES in waiting else None
    stopped: str | None = None
    last_tick = time.monotonic()
    try:
        while True:
            if stopped is None:
                for way, jobs_left in waiting.items():
                    while jobs_left and running[way] < room[way] and sum(running.values()) < concurrency:
                        job = jobs_left[0]
                        if way == THREADS and not _fits(job, load):
                            break  # the endpoint's pace is busy: the next model match waits for room
                        jobs_left.popleft()
                        if may_start is not None and not may_start(job):
                            continue
                        running[way] += 1
                        load.update(job.load())
                        with progress.lock:
                            progress.in_flight[job.name] = {}
                        _start(way, job, pool, recorder_factory, progress, ended)
            if not any(running.values()):
                if stopped is not None or any(waiting.values()):
                    if stopped is not None:
                        break
                    continue
                found = more() if more is not None else None
                if found is None:
                    break
                if found:
                    for job in found:
                        waiting[THREADS if job.calls_a_model or PROCESSES not in waiting else PROCESSES].append(job)
                    continue
                time.sleep(poll_s)
                continue
            if time.monotonic() >= last_tick + tick_s:  # due however often matches end (a long one's claim lapses)
                last_tick = time.monotonic()
                if on_tick is not None:
                    on_tick()
            try:
                way, job, outcome = ended.get(timeout=max(0.0, last_tick + tick_s - time.monotonic()))
            except queue.Empty:
                continue
            running[way] -= 1
            load.subtract(job.load())
            with progress.lock:
                progress.in_flight.pop(job.name, None)
            if isinstance(outcome, BaseException):
                raise outcome
            progress.ended += 1
            if outcome.stopped is not None and stopped is None:
                stopped = outcome.stopped
            on_end(outcome)
    finally:
        if pool:
            pool.shutdown(wait=False, cancel_futures=True)  # on Ctrl-C: the matches not started are dropped
    return stopped


def _fits(job: Job[Name], load: Counter[tuple[str, str]]) -> bool:
    """Whether ``job``'s model sides fit beside those in flight on each endpoint (the first always does)."""
    capacity = job.capacity()
    return all(load[endpoint] == 0 or load[endpoint] + sides <= capacity.get(endpoint, math.inf)
               for endpoint, sides in job.load().items())


def _handed_back(future: Future[Played[Name]], way: str, job: Job[Name], ended: Ended[Name]) -> None:
    try:
        ended.put((way, job, future.result()))
    except CancelledError:  # dropped as the run stopped: nobody waits for it
        pass
    except BaseException as error:  # noqa: BLE001 - handed to the coordinator, which raises it
        ended.put((way, job, error))


def _start(way: str, job: Job[Name], pool: ProcessPoolExecutor | None, recorder_factory: RecorderFactory | None,
           progress: Progress, ended: Ended[Name]) -> None:
    """Start one match in a worker process or a daemon thread; its end is put on ``ended``."""
    if way == PROCESSES and pool is not None:  # a pool is started whenever jobs go to processes
        future = pool.submit(play_job, job, recorder_factory)
        future.add_done_callback(lambda f: _handed_back(f, way, job, ended))
        return

    def seated(agents: Mapping[str, Any]) -> None:
        with progress.lock:
            if job.name in progress.in_flight:
                progress.in_flight[job.name] = dict(agents)

    def play() -> None:
        try:
            outcome: Played[Name] | BaseException = play_job(job, recorder_factory, seated)
        except BaseException as error:  # noqa: BLE001 - handed to the coordinator, which raises it
            outcome = error
        ended.put((way, job, outcome))

    threading.Thread(target=play, name=f"match-{job.seed}", daemon=True).start()

