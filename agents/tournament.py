"""A tournament: every user contestant against every Minotaur contestant on the
same seeds (paired, so that each pairing meets the same labyrinths), each match
played through the arena's match (ArenaSettings.play, the one turn loop) and
kept in the results database as it ends.

A match is known by its key, who learned from the experience log included: without
learning (the default) a match played again gives the same result; with it, the result
also depends on the log as it was. What is in the database already is not played again
(unless ``fresh``): a
tournament that was stopped carries on where it stopped, and one with a new
contestant plays only the new pairings.

Up to ``concurrency`` matches are played at once. A match with a model in it
spends its time waiting on the network, so it is played in a daemon thread of
this process (many at once, sharing each provider's one Pace: `--llm-rpm` holds
across every match, and a quota answer holds every match's next call); a match of
rule agents only is CPU-bound, so with more than one to play it goes to worker
processes (worker_pool), one per core. Daemon threads, unlike a pool's, do not
hold up the exit of a tournament stopped with Ctrl-C. Only the coordinating
thread (the caller's) touches the database: a match is written whole, in its own
transaction, as soon as it ends.
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.experience import Reflection
from labyrinth.saves.results_db import NOBODY, MatchKey, MatchRow, ResultsDB, now_iso, project_version

from .arena import QUEUED_PER_WORKER, ArenaSettings
from .config import ProviderSettings
from .match_records import MatchResult
from .providers.pacing import Waiting
from .worker_pool import process_pool

THREADS, PROCESSES = "threads", "processes"  # where a match is played: model matches, rule-agent matches


@dataclass(frozen=True)
class Entrant:
    """A contestant as results know it: its full name (Contestant.resolved) and, for a model, its
    settings (endpoint and sampling), which are part of who it is."""

    name: str
    settings: ProviderSettings | None = None  # None: a rule agent

    @property
    def setup(self) -> str:
        return self.settings.setup if self.settings else ""

    @property
    def record(self) -> str:
        """The settings as a results row keeps them (JSON; never a key)."""
        return json.dumps(self.settings.public(), sort_keys=True) if self.settings else "{}"


@dataclass(frozen=True)
class Tournament:
    """What a tournament plays: its contestants, the seeds every pairing plays (``repeats`` times
    each), and what every match shares."""

    users: tuple[Entrant, ...]
    minotaurs: tuple[Entrant, ...]
    seeds: tuple[int, ...]
    preset: str
    difficulty: str
    max_turns: int
    repeats: int = 1
    memory: bool = False
    lessons: tuple[Reflection, ...] = ()
    learners: tuple[str, ...] = ("user", "minotaur")  # with memory, the roles given lessons

    @property
    def learned(self) -> str:
        """Who learns from the experience log, as the results database keeps it (MatchKey.learned)."""
        return "+".join(role for role in ROLES if role in self.learners) if self.memory else NOBODY

    def keys(self) -> list[MatchKey]:
        """Every match, seed by seed: a tournament cut short has played every pairing about as often."""
        return [MatchKey(user.name, minotaur.name, seed, self.preset, self.difficulty, self.max_turns, self.learned,
                         repeat, user.setup, minotaur.setup)
                for seed in self.seeds for repeat in range(self.repeats) for user in self.users
                for minotaur in self.minotaurs]

    def entrant(self, role: str, key: MatchKey) -> Entrant:
        """The contestant of ``role`` in the match ``key``."""
        name, setup = getattr(key, role), getattr(key, f"{role}_setup")
        return next(e for e in (self.users if role == "user" else self.minotaurs) if (e.name, e.setup) == (name, setup))

    def match(self, key: MatchKey) -> ArenaSettings:
        """The arena's settings for the match ``key``: only the lessons relevant to its seed."""
        models = tuple((e.name, e.settings) for role in ROLES if (e := self.entrant(role, key)).settings)
        return ArenaSettings(key.user, key.minotaur, self.preset, self.difficulty, self.max_turns, models,
                             self.memory, self.lessons, self.learners).for_seed(key.seed)


@dataclass(frozen=True)
class Played:
    """A finished match as a worker hands it back."""

    key: MatchKey
    result: MatchResult
    replay: str | None
    wall_s: float

    def row(self, tournament: Tournament, run_began: str) -> MatchRow:
        """The match as the database keeps it, judged valid or void; ``run_began``: when the
        tournament run began."""
        r = self.result
        sides = {role: getattr(r, role).record(tournament.entrant(role, self.key).record) for role in ROLES}
        return MatchRow(**asdict(self.key), outcome=r.outcome, turns=r.turns, game_time=r.game_time,
                        wall_s=round(self.wall_s, 3), replay=self.replay, user_side=sides["user"],
                        minotaur_side=sides["minotaur"], version=project_version(), run_began=run_began).judged()


def play_match(key: MatchKey, settings: ArenaSettings, replays: Path | None,
               seated: Callable[[Mapping[str, Any]], None] | None = None) -> Played:
    """One match, recorded as a replay in ``replays`` (none when None); a module-level function,
    so that a worker process can be sent it."""
    from labyrinth.saves.replays import ReplayWriter

    writer = ReplayWriter(replays) if replays is not None else None
    began = time.perf_counter()
    result = settings.play(key.seed, (lambda seed: writer) if writer else None, seated)
    path = str(writer.path) if writer and writer.path else None
    return Played(key, result, path, time.perf_counter() - began)


@dataclass
class Progress:
    """What a live view shows: the matches in flight (with their agents once seated), those done."""

    total: int = 0
    skipped: int = 0  # already in the database
    done: list[MatchRow] = field(default_factory=list)
    in_flight: dict[MatchKey, Mapping[str, Any]] = field(default_factory=dict)  # agents once seated (threads)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def waits(self) -> list[str]:
        """Each model's wait (a quota, the pace) in the matches in flight, as "why: waiting N s"."""
        with self.lock:
            agents = [agent for seated in self.in_flight.values() for agent in seated.values()]
        longest: dict[str, tuple[Waiting, float, int]] = {}  # by cause: a wait, the longest left, how many
        for agent in agents:
            if (wait := getattr(agent, "waiting", None)) is not None:
                _, left, count = longest.get(wait.cause, (wait, 0.0, 0))
                longest[wait.cause] = (wait, max(left, wait.left_s()), count + 1)
        return [f"{wait.saying(left)} ({count} waiting)" for wait, left, count in
                (longest[cause] for cause in sorted(longest))]


def run_tournament(tournament: Tournament, db: ResultsDB, *, concurrency: int = 1, fresh: bool = False,
                   replays: Path | None = None, progress: Progress | None = None,
                   on_result: Callable[[MatchRow, MatchResult], None] | None = None) -> Progress:
    """Play every match of ``tournament`` not yet in ``db`` (all of them when ``fresh``), up to
    ``concurrency`` at once, writing each to ``db`` as it ends; ``on_result`` hears of each too (in
    finishing order). Returns the progress: what was played and what was skipped. Every match is
    kept as begun now (the play order: the results database's docstring)."""
    run_began = now_iso()
    progress = progress or Progress()
    keys = tournament.keys()
    already = set() if fresh else db.played(keys)
    todo = [key for key in keys if key not in already]
    progress.total, progress.skipped = len(keys), len(keys) - len(todo)
    waiting = {THREADS: deque(k for k in todo if _calls_a_model(k)),
               PROCESSES: deque(k for k in todo if not _calls_a_model(k))}
    workers = min(concurrency, os.cpu_count() or 1, len(waiting[PROCESSES]))
    if workers < 2:  # one core, one at a time or one match: not worth starting a worker process
        waiting[THREADS].extend(waiting.pop(PROCESSES))
    room = {THREADS: concurrency, PROCESSES: workers * QUEUED_PER_WORKER}
    running = dict.fromkeys(waiting, 0)
    ended: queue.Queue[tuple[str, MatchKey, Played | BaseException]] = queue.Queue()
    pool = process_pool(workers) if PROCESSES in waiting else None
    try:
        while any(waiting.values()) or any(running.values()):
            for way, keys_left in waiting.items():  # start while there is room: concurrency in all, a few per worker
                while keys_left and running[way] < room[way] and sum(running.values()) < concurrency:
                    key = keys_left.popleft()
                    running[way] += 1
                    with progress.lock:
                        progress.in_flight[key] = {}
                    _start(way, key, tournament.match(key), replays, pool, progress, ended)
            way, key, outcome = ended.get()
            running[way] -= 1
            with progress.lock:
                progress.in_flight.pop(key, None)
            if isinstance(outcome, BaseException):
                raise outcome
            row = outcome.row(tournament, run_began)
            db.record(row, replace=fresh)
            progress.done.append(row)
            if on_result:
                on_result(row, outcome.result)
    finally:
        if pool:
            pool.shutdown(wait=False, cancel_futures=True)  # on Ctrl-C: the matches not started are dropped
    return progress


def _calls_a_model(key: MatchKey) -> bool:
    return bool(key.user_setup or key.minotaur_setup)


def _handed_back(future: Future, way: str, key: MatchKey, ended: queue.Queue) -> None:
    try:
        ended.put((way, key, future.result()))
    except CancelledError:  # dropped as the tournament stopped: nobody waits for it
        pass
    except BaseException as error:  # noqa: BLE001 - handed to the coordinator, which raises it
        ended.put((way, key, error))


def _start(way: str, key: MatchKey, settings: ArenaSettings, replays: Path | None, pool: ProcessPoolExecutor | None,
           progress: Progress, ended: queue.Queue) -> None:
    """Start one match in a worker process or a daemon thread; its end is put on ``ended``."""
    if way == PROCESSES:
        future = pool.submit(play_match, key, settings, replays)
        future.add_done_callback(lambda f: _handed_back(f, way, key, ended))
        return

    def seated(agents: Mapping[str, Any]) -> None:
        with progress.lock:
            if key in progress.in_flight:
                progress.in_flight[key] = dict(agents)

    def play() -> None:
        try:
            outcome: Played | BaseException = play_match(key, settings, replays, seated)
        except BaseException as error:  # noqa: BLE001 - handed to the coordinator, which raises it
            outcome = error
        ended.put((way, key, outcome))

    threading.Thread(target=play, name=f"match-{key.seed}", daemon=True).start()
