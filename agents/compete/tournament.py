"""A tournament: every user contestant against every Minotaur contestant on the
same seeds (paired, so that each pairing meets the same labyrinths), ``repeats``
times each (a model that samples gives another sample each time), each match
played through the arena's match (ArenaSettings.play, the one turn loop) in the
one pool of matches (schedule.play_matches) and kept in the results database as
it ends.

A match is known by its key: both contestants (a model by its name and its setup:
endpoint and sampling settings), seed, repeat, the rules, who learned from the
experience log, the build that plays it and which reproduction of a run it is. What
has a result in the database is not played again (unless ``fresh``): a tournament
that was stopped carries on where it stopped, one with a new contestant plays only
the new pairings, and a run after the code changed plays its matches anew. A void
match (a model that did not play it: results_db) stays void, counted as such, unless
``replay_void`` asks for it again. ``tournament --rerun`` plays a recorded run again
(manifest.py): the same keys with the next ``rerun``.

Several workers may run the same tournament on one database (two terminals, containers
on one host): a match is claimed before it is played, so each plays other matches and
the whole finishes sooner, and nothing is played twice while its worker lives. When a
worker has nothing left to claim it waits for the matches the others are playing
(a dead worker's claims are taken over once their heartbeat has stood still for the
lease, and played here), so every worker ends with the whole standings. Each attempt
at a match writes its own replay file, named with its claim's token (results_db: the
claims): a match this worker stops without finishing leaves no replay (its claim is
abandoned, and the next claimer removes a file created as it stopped); one taken over
while it played keeps nothing, and its file is removed here.

A quota stops the run, never plays a turn by the fallback: a wait longer than the hold
(--hold-limit), or quota answers alone for longer than the hold budget (retry's
HOLD_BUDGET_FACTOR holds: a server answering 429 for ever, each time within the hold,
held the run for ever); the stop names the contestant and its role, and the run says
when to resume. The contestants' SDKs are imported before any match starts
(registry.load_providers), so that matches starting together never import at once.

Only the coordinating thread (the caller's) touches the database: a match is
written whole, in its own transaction, as soon as it ends.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.build import build_id, project_version
from labyrinth.saves.clock import now_iso
from labyrinth.saves.experience import Reflection
from labyrinth.saves.paths import StorageError, remove
from labyrinth.saves.replays import replay_stem
from labyrinth.saves.results_db import (
    HELD,
    KEPT,
    NOBODY,
    MatchKey,
    MatchRow,
    ResultsDB,
    ResultsUnusable,
    new_token,
)
from labyrinth.saves.results_terms import learned_by

from ..llm.config import ProviderSettings
from ..match.match_records import MatchResult
from ..match.schedule import POLL_S, Job, Played, Progress, play_matches
from ..registry import load_providers
from .arena import ArenaSettings
from .health import Health, health

MOST_MATCHES = 100_000  # the most matches one tournament plays: its keys, claims and manifest are held whole


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
        """The settings as a results row keeps them, with the prices when set (JSON; never a key)."""
        return json.dumps({**self.settings.public(), **self.settings.prices()}, sort_keys=True) \
            if self.settings else "{}"


@dataclass(frozen=True)
class Tournament:
    """What a tournament plays: its contestants, the seeds every pairing plays (``repeats`` times
    each), and what every match shares."""

    users: tuple[Entrant, ...]
    minotaurs: tuple[Entrant, ...]
    seeds: Sequence[int]  # a range when they run on (S, S+1, ...): a tuple only of what a manifest lists
    preset: str
    difficulty: str
    max_turns: int
    repeats: int = 1
    memory: bool = False
    lessons: tuple[Reflection, ...] = ()
    learners: tuple[str, ...] = tuple(ROLES)  # with memory, the roles given lessons
    build: str = field(default_factory=build_id)  # the code that plays it (MatchKey.build)
    rerun: int = 0  # which reproduction of a run this is (tournament --rerun): 0 the run itself

    @property
    def learned(self) -> str:
        """Who learns from the experience log, as the results database keeps it (MatchKey.learned)."""
        return learned_by(self.learners) if self.memory else NOBODY

    @property
    def size(self) -> int:
        """How many matches it plays (its keys, without making them): at most MOST_MATCHES is played."""
        return len(self.users) * len(self.minotaurs) * len(self.seeds) * self.repeats

    def keys(self) -> list[MatchKey]:
        """Every match, seed by seed: a tournament cut short has played every pairing about as often."""
        return match_keys({"user": [(e.name, e.setup) for e in self.users],
                           "minotaur": [(e.name, e.setup) for e in self.minotaurs]}, self.seeds, self.repeats,
                          self.preset, self.difficulty, self.max_turns, self.learned, self.build, self.rerun)

    def entrant(self, role: str, key: MatchKey) -> Entrant:
        """The contestant of ``role`` in the match ``key``."""
        name, setup = getattr(key, role), getattr(key, f"{role}_setup")
        return next(e for e in (self.users if role == "user" else self.minotaurs) if (e.name, e.setup) == (name, setup))

    def match(self, key: MatchKey) -> ArenaSettings:
        """The arena's settings for the match ``key``: only the lessons relevant to its seed."""
        models = tuple((e.name, e.settings) for role in ROLES if (e := self.entrant(role, key)).settings)
        return ArenaSettings(key.user, key.minotaur, self.preset, self.difficulty, self.max_turns, models,
                             self.memory, self.lessons, self.learners).for_seed(key.seed)

    def row(self, played: Played[MatchKey], r: MatchResult, run_began: str, run_id: str = "") -> MatchRow:
        """A finished match as the database keeps it, judged valid or void: ``r``, its result
        (``played.result``, found set); ``run_began``: when the tournament run began; ``run_id``: the run."""
        key = played.name
        sides = {role: getattr(r, role).record(self.entrant(role, key).record) for role in ROLES}
        return MatchRow(**asdict(key), outcome=r.outcome, turns=r.turns, game_time=r.game_time,
                        wall_s=round(played.wall_s, 3), replay=played.replay, user_side=sides["user"],
                        minotaur_side=sides["minotaur"], version=project_version(), run_began=run_began,
                        digest=r.digest, run_id=run_id).judged()


def match_keys(contestants: Mapping[str, Sequence[tuple[str, str]]], seeds: Sequence[int], repeats: int, preset: str,
               difficulty: str, max_turns: int, learned: str, build: str, rerun: int) -> list[MatchKey]:
    """Every match of a tournament of ``contestants`` (each role's names and setups), seed by seed: one
    cut short has played every pairing about as often. Its manifest gives the same keys (manifest.py)."""
    return [MatchKey(user, minotaur, seed, preset, difficulty, max_turns, learned, repeat, user_setup,
                     minotaur_setup, build, rerun)
            for seed in seeds for repeat in range(repeats) for user, user_setup in contestants["user"]
            for minotaur, minotaur_setup in contestants["minotaur"]]


@dataclass
class Run:
    """What a tournament run did: for a live view while it runs, and for the end."""

    progress: Progress = field(default_factory=Progress)
    skipped: int = 0  # had a result already (a void one too, unless replay_void)
    done: list[MatchRow] = field(default_factory=list)  # played here, in finishing order
    elsewhere: int = 0  # played by another worker while this one ran
    stopped: str | None = None  # why the run stopped early (a quota's too long wait)
    stopped_wait_s: float | None = None  # how long that quota asked to wait, when it said

    @property
    def void(self) -> list[MatchRow]:
        return [row for row in self.done if not row.valid]

    def health(self) -> list[Health]:
        """Each model contestant's calls over the matches played here."""
        return health((getattr(row, role), role, row.side(role)) for row in self.done for role in ROLES)

    @property
    def complete(self) -> bool:
        """Every match was played, by the contestants themselves (no void, none left)."""
        return self.stopped is None and not self.void and self.progress.ended + self.skipped + self.elsewhere \
            >= self.progress.total


def run_tournament(tournament: Tournament, db: ResultsDB, *, concurrency: int = 1, fresh: bool = False,
                   replay_void: bool = False, replays: Path | None = None, run: Run | None = None,
                   on_result: Callable[[MatchRow, MatchResult], None] | None = None,
                   poll_s: float = POLL_S, run_id: str = "", run_began: str | None = None) -> Run:
    """Play every match of ``tournament`` without a result in ``db`` (a void one only with
    ``replay_void``; all of them when ``fresh``), up to ``concurrency`` at once, sharing the work
    with other workers on ``db``, and write each to ``db`` as it ends, as played by the run
    ``run_id`` (its manifest: ResultsDB.begin_run); ``on_result`` hears of each too (in finishing order).
    Every match is kept as begun at ``run_began`` (default: now; the play order: the results
    database's docstring). On the way out (Ctrl-C included), the partial replays of matches it did
    not finish are removed and their claims abandoned. The models' SDKs are imported here, before any match starts
    (registry.load_providers)."""
    load_providers(e.settings.provider for e in (*tournament.users, *tournament.minotaurs) if e.settings)
    run_began = run_began or now_iso("microseconds")  # two runs begun in one second still told apart
    run = run or Run()
    keys = tournament.keys()
    already = set() if fresh else db.played(keys, replay_void)
    todo = [key for key in keys if key not in already]
    before = db.marks(todo)  # each match's row as the run began: one that changes was kept by another worker
    run.progress.total, run.skipped = len(keys), len(keys) - len(todo)
    waiting_on: set[MatchKey] = set()  # held by another worker's claim when this one came to them
    tokens: dict[MatchKey, str] = {}  # each match's attempt here: its claim's token, in its replay file's name
    mine: dict[MatchKey, tuple[str, Path | None]] = {}  # claimed here and not ended: the token and replay file

    def job(key: MatchKey) -> Job[MatchKey]:
        token = tokens[key] = new_token()
        stem = replay_stem(key.preset, key.seed, key.user, key.minotaur, _tag(key, token))
        return Job(key, tournament.match(key), key.seed, replays, stem if replays else None)

    def may_start(job: Job[MatchKey]) -> bool:
        token = tokens[job.name]
        path = job.replays / f"{job.stem}.jsonl" if job.replays else None  # the token's own: no other has it
        # Counted as ours before the claim is made: a Ctrl-C while it is made, or just after, still abandons it
        # (below), where one counted after would leave it held, and the next run waiting out its lease.
        mine[job.name] = (token, path)
        claim = db.claim(job.name, token, str(path) if path else None, fresh=fresh, replay_void=replay_void)
        if claim.found in (KEPT, HELD):
            del mine[job.name]
            if claim.found == KEPT:  # played by another worker since this run began
                run.elsewhere += 1
            else:
                waiting_on.add(job.name)
            return False
        if claim.left and replays is not None:
            _remove(Path(claim.left), replays)  # an abandoned attempt's replay, which its owner will never keep
        return True

    def ended(played: Played[MatchKey]) -> None:
        key = played.name
        token, _ = mine[key]  # ours until its claim is settled in the database, as may_start's
        result = played.result
        if result is None:  # stopped unfinished: played again by the next run
            db.release([token])
            del mine[key]
            if run.stopped is None:
                run.stopped, run.stopped_wait_s = played.stopped, played.wait_s
            return
        row = tournament.row(played, result, run_began, run_id)
        mine[key] = (token, None)  # its replay is kept with its row now, or left for the next claimer to remove
        recorded = db.record(row, replace=fresh, token=token)
        del mine[key]
        if not recorded:  # taken over while it played: the other attempt's stands
            if played.replay and replays is not None:
                _remove(Path(played.replay), replays)
            run.progress.ended -= 1  # it ends where it is held now, and is counted then
            waiting_on.add(key)
            return
        run.done.append(row)
        if on_result:
            on_result(row, result)

    def more() -> list[Job[MatchKey]] | None:
        """The matches others were playing: ended (counted), still theirs (wait), or theirs no more."""
        finished = {key for key, mark in db.marks(waiting_on).items() if mark != before.get(key)}
        run.elsewhere += len(finished)
        waiting_on.difference_update(finished)
        held = db.held(waiting_on)
        free = sorted(waiting_on - held)
        waiting_on.difference_update(free)
        if free:
            return [job(key) for key in free]
        return [] if held else None

    try:
        run.stopped = play_matches((job(key) for key in todo), ended, concurrency=concurrency,
                                   progress=run.progress, may_start=may_start, more=more,
                                   on_tick=lambda: db.renew(token for token, _ in mine.values()),
                                   poll_s=poll_s) or run.stopped
    finally:
        # Matches not ended (Ctrl-C, an error): their partial replays go, and their claims are abandoned: free
        # for the next claimer at once, which removes the file a match's thread may yet create as this one ends.
        for _, path in mine.values():
            if path is not None and replays is not None:
                _remove(path, replays)
        try:
            db.release(token for token, _ in mine.values())
        except ResultsUnusable:
            pass  # the database is what failed: the claims are taken over after the lease
    return run


def _tag(key: MatchKey, token: str) -> str:
    """What tells a match's replay file from another of the same names and seed: its repeat, the
    contestants' setups (a short mark), and the attempt's claim token (each attempt its own file)."""
    setups = "".join(s[:4] for s in (key.user_setup, key.minotaur_setup) if s)
    return "-".join(part for part in (f"r{key.repeat}" if key.repeat else "", setups, token) if part)


def _remove(path: Path, replays: Path) -> None:
    """Remove a partial replay of ``replays`` (a file elsewhere is never touched)."""
    try:
        remove(path, replays)
    except StorageError:
        pass  # outside the replays directory, or not removable: left as it is
