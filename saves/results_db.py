"""The tournament's results: one row per match in SQLite (``results.db`` in the
user data directory), for the tournament to skip what it has played and for the
leaderboard to rate.

A row is the match's full record: the key, the outcome, each side's counts (its model's
calls by outcome: answered, invalid, provider errors, timeouts; the plans and lessons
among them; the answered calls' time, late turns, refused actions, quota waits, tokens
with the reasoning ones), each model contestant's endpoint and settings as asked and
what its model was sent (the requests' parameters and output mode, the settings left
out and why, the models that answered, the prompt's version), the project's version,
and whether the match is a *valid* result.

A match is valid only if every model in it decided it itself: a model replaced by
the built-in agent, or one whose turns were played by the fallback more than
FALLBACK_SHARE_ALLOWED of the time, did not play the match, so the match is *void*.
A void match is kept with its reason, left out of every rating, counted as void for
its contestants in every report, and played again only when the user asks
(``tournament --replay-void``: its new result then replaces it). Played again by
default, a model that samples would get another try at exactly the seeds it failed.

Each tournament run keeps its *manifest* in the ``runs`` table as it begins (its
command, contestants with the settings asked, seeds, rules, build, package versions:
agents/compete/manifest.py), and each row the run that played it, so a published
table says what made it and ``tournament --rerun`` can play the same run again.

Several tournaments may write at once (two terminals, several containers on one
host): the database runs in WAL mode, so readers never block the writer, and
each write is one short transaction that waits out another's lock (BUSY_S)
instead of failing. A match is committed whole as it ends, so a tournament killed
at any moment leaves every finished match and nothing half-written. A match is
known by its key: both contestants (each by its name and its setup, the
fingerprint of its endpoint and sampling settings), seed, repeat, preset,
difficulty, max turns, who learned from the experience log, the build that plays
it (saves/build.py: a run resumed after the code changed plays its matches again)
and which reproduction of a run it is (``rerun``). The key is unique,
so two tournaments that both play a match keep one row.

Before a match is played it is *claimed*, so that a second worker plays other
matches. The claims trust nothing but the database: no process is probed, no
host named, no time written.

- A claim (a row of ``claims``) is one attempt at a match: a random ``token``
  (new_token: nothing of a host or a process), a heartbeat ``beat`` that its owner
  raises at every renewal (a tournament renews its claims every 20 s while it
  plays them), and the ``replay`` file of this attempt, named with its token, so two
  attempts never share a file.
- Another worker takes a claim over only once it has itself seen the claim's token
  and heartbeat unchanged for LEASE_S (120 s), measured on its own monotonic clock
  (``clock``): each worker remembers, per claim it waits on, what it saw and when it
  first saw it. Only the rate of one clock matters, never what two clocks read: a
  host whose clock is 300 s ahead (or a container under faketime) neither takes a
  live worker's match nor has its own taken. SQLite's time functions would not
  help: they read the clock of the host that writes, so a heartbeat kept as a time
  would compare two hosts' clocks again. A worker that died leaves its heartbeat
  still, and its matches are played by the next worker after the lease.
- A result is kept only by the attempt whose claim it is, and the claim goes in
  the same transaction (``record``): a worker whose claim was taken over (it was
  merely slow: stopped, suspended) finds as it finishes that its token is no
  longer the claim's, keeps nothing and removes its own file. So a row names the
  replay of the attempt that kept it, whichever attempt ends first.
- A takeover never removes or overwrites another attempt's file: a dead worker's
  partial replay is left where it is (named by its token, no row points to it).
  A worker that stops without finishing a match (Ctrl-C, a quota) *abandons* its
  claim (``release``): the match is free at once, and its next claimer removes the
  file the abandoned attempt named, which its owner will never keep (a match's
  thread may have created it as the worker stopped).

Workers share the database through SQLite's file locks: processes and containers
on one host sharing the file, not a network file system (NFS, SMB), whose locking
SQLite cannot rely on.

Matches are returned in play order: tournament runs in the order they began, and within a
run seed by seed (then by key), as the tournament schedules them.

A file that is not a database, or a database that stays locked, is reported as
ResultsUnusable and left exactly as it was: this module never deletes, moves or
recreates the file. A row whose values are not of their kind (a seed of text) is
reported in one line naming the row and skipped. A database on a read-only mount is
read in place, or from a copy in memory when it must first be brought to this schema.
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import MISSING, asdict, dataclass, field, fields
from dataclasses import replace as replaced
from functools import cached_property
from pathlib import Path
from typing import Any, Self

from labyrinth.engine.schemas import OUTCOMES, Outcome

from .clock import now_iso
from .paths import RESULTS_FILE, StorageError, advice, confined, data_dir
from .results_terms import NOBODY, ROLES, SideRecord, json_object, void_of

SCHEMA_VERSION = 4  # 2: who learned (in the key) and when the run began; 3: setups, repeats, the full record;
# 4: the game's digest, the build and rerun in the key, the run that played it, the runs' manifests
BUSY_S = 30.0  # how long a write waits for another tournament's transaction before giving up
WAL_RETRY_S = 0.05  # between two tries to turn a new database to WAL while another program holds it (_to_wal)
KEY = ("user", "user_setup", "minotaur", "minotaur_setup", "seed", "repeat", "preset", "difficulty", "max_turns",
       "learned", "build", "rerun")
PLAY_ORDER = ("run_began", "seed", "repeat", *(name for name in KEY if name not in ("seed", "repeat")))
UNRECORDED = "unrecorded"  # the learned (or a model's setup) of a match kept before it was recorded
LEASE_S = 120.0  # how long a claim's heartbeat must be seen still before another worker takes it over


def results_path() -> Path:
    return data_dir() / RESULTS_FILE


@dataclass(frozen=True, order=True)
class MatchKey:
    """What makes two matches the same match: played again without learning, it gives the same
    result (a model that samples gives another sample: ``repeat`` tells the samples apart); with
    learning, it also depends on the experience log it learned from."""

    user: str
    minotaur: str
    seed: int
    preset: str
    difficulty: str
    max_turns: int
    learned: str = NOBODY  # who learned from the experience log: none, or the roles joined by "+"
    repeat: int = 0  # which of a pairing's plays on this seed (--repeats)
    user_setup: str = ""  # the user contestant's setup (its endpoint and settings' fingerprint; "" a rule agent)
    minotaur_setup: str = ""
    build: str = ""  # the code that plays it (saves.build.build_id): another build's result is another match
    rerun: int = 0  # which reproduction of a run it belongs to (tournament --rerun): 0 the run itself

    @cached_property
    def id(self) -> str:
        """The key as one string (a claim's)."""
        return json.dumps([getattr(self, name) for name in KEY], separators=(",", ":"))


SIDE = tuple(f.name for f in fields(SideRecord))


@dataclass(frozen=True)
class MatchRow:
    """One played match as the database keeps it."""

    user: str
    minotaur: str
    seed: int
    preset: str
    difficulty: str
    max_turns: int
    outcome: Outcome
    turns: int
    game_time: float
    wall_s: float = 0.0
    replay: str | None = None  # the replay file's path
    user_side: SideRecord = field(default_factory=SideRecord)
    minotaur_side: SideRecord = field(default_factory=SideRecord)
    learned: str = NOBODY  # who learned from the experience log (MatchKey.learned)
    repeat: int = 0
    user_setup: str = ""
    minotaur_setup: str = ""
    void: str | None = None  # why the match is no valid result ("void: ..."); None for a valid one
    version: str = ""  # the project's version that played it
    played_at: str = ""  # UTC, ISO 8601; set as the row is written
    run_began: str = ""  # UTC, ISO 8601 to the microsecond: when the tournament run that played it began
    digest: str = ""  # the game as played (match_records.game_digest; "" unknown): one digest, one game
    build: str = ""  # MatchKey.build
    rerun: int = 0  # MatchKey.rerun
    run_id: str = ""  # the tournament run that played it (its manifest is in the runs table)

    @property
    def key(self) -> MatchKey:
        return MatchKey(**{name: getattr(self, name) for name in KEY})

    @property
    def valid(self) -> bool:
        return self.void is None

    @property
    def play_order(self) -> tuple[Any, ...]:
        """Where the match stands in play order (the module's docstring): rate in this order."""
        return tuple(getattr(self, name) for name in PLAY_ORDER)

    def side(self, role: str) -> SideRecord:
        return self.user_side if role == "user" else self.minotaur_side

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON takes it: each side's record an object, its settings parsed."""
        row = asdict(self)
        for role in ROLES:
            for name in ("settings", "sent"):
                row[f"{role}_side"][name] = json_object(row[f"{role}_side"][name])  # {} for a damaged one
        return row

    def judged(self) -> MatchRow:
        """This row with its validity decided from its sides (the first reason found, if any)."""
        return replaced(self, void=void_of({role: self.side(role) for role in ROLES}))


_TOP = tuple(f.name for f in fields(MatchRow) if f.name not in ("user_side", "minotaur_side"))
COLUMNS = (*_TOP, *(f"{role}_{name}" for role in ROLES for name in SIDE))
_SQL_TYPES = {int: "INTEGER", float: "REAL", str: "TEXT", bool: "INTEGER"}
_KINDS: dict[str, tuple[type, bool]] = {}  # each column's Python kind and whether it may be NULL
for _f in (*fields(MatchRow), *fields(SideRecord)):
    _text = str(_f.type)
    _KINDS[_f.name] = ({"int": int, "float": float, "bool": bool}.get(_text.split(" ")[0], str), "None" in _text)
_COLUMN_KINDS = {**{name: _KINDS[name] for name in _TOP},
                 **{f"{role}_{name}": _KINDS[name] for role in ROLES for name in SIDE}}
_DEFAULTS: dict[str, Any] = {  # what a column added since schema 3 holds in a row kept before it
    **{f.name: f.default for f in fields(MatchRow) if f.name in _TOP and not isinstance(f.default, type(MISSING))},
    **{f"{role}_{f.name}": f.default for role in ROLES for f in fields(SideRecord)}, "build": UNRECORDED}
# A side's column renamed since, and the name it had: a table without the new one kept its values under the old (a
# side's turns that missed the deadline were its "timeouts", a name now of the calls that took too long).
_RENAMED = {f"{role}_{new}": f"{role}_{old}" for role in ROLES for new, old in (("late_turns", "timeouts"),)}
_REUSED = {old: new for new, old in _RENAMED.items()}  # an old name that a new column took
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS matches (
    {", ".join(f"{c} {_SQL_TYPES[kind]}{'' if null else ' NOT NULL'}" for c, (kind, null) in _COLUMN_KINDS.items())},
    UNIQUE ({", ".join(KEY)})
)"""
_RUNS = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    began TEXT NOT NULL,  -- UTC, ISO 8601
    manifest TEXT NOT NULL  -- JSON: what the run was (agents/compete/manifest.py); never a key
)"""
_CLAIMS = """
CREATE TABLE IF NOT EXISTS claims (
    match TEXT PRIMARY KEY,  -- MatchKey.id
    token TEXT NOT NULL,  -- the attempt's random token (new_token)
    beat INTEGER NOT NULL,  -- its heartbeat: raised by its owner at every renewal
    replay TEXT,  -- this attempt's replay file (named with its token)
    abandoned INTEGER NOT NULL  -- 1: its owner stopped without a result; the next claimer removes its replay
)"""
CLAIM_COLUMNS = {"match", "token", "beat", "replay", "abandoned"}


class ResultsUnusable(Exception):
    """The results database cannot be read or written; the message says which file, why, and
    that it was kept as it is."""


def new_token() -> str:
    """A new attempt's token for its claim (and its replay file's name): random, and nothing else."""
    return uuid.uuid4().hex[:16]


TAKEN, HELD, KEPT = "taken", "held", "kept"  # what a claim found: the match is ours, another's, or has its result


@dataclass(frozen=True)
class Claim:
    """What claiming a match found (TAKEN, HELD or KEPT), and, when taken from an abandoned
    attempt, the replay that attempt named (``left``: the new owner removes it)."""

    found: str
    left: str | None = None


class ResultsDB:
    """The results database at ``path`` (default: results.db in the data directory), opened and
    checked at once. ``read_only``: for reading (the leaderboard): nothing is written, and a
    database on a read-only mount can be read. Use from one thread; close when done.
    ``clock``: this worker's monotonic seconds, for how long it has seen another's claim stand still
    (time.monotonic); ``lease_s``: how long that must be before it takes the claim over (LEASE_S)."""

    def __init__(self, path: Path | None = None, *, read_only: bool = False,
                 clock: Callable[[], float] = time.monotonic, lease_s: float | None = None) -> None:
        self.path = path if path is not None else results_path()
        self.read_only, self.clock = read_only, clock
        self.lease_s = LEASE_S if lease_s is None else lease_s
        self.damaged: list[str] = []  # the last read's damaged rows, one line each
        self._seen: dict[str, tuple[str, int, float]] = {}  # per claimed match: the token and beat seen, since when
        if not read_only and path is None:
            try:
                confined(self.path, data_dir())  # a link leading elsewhere is not ours to write through
            except StorageError as error:
                raise ResultsUnusable(f"the results database {error}; it is kept as it is") from None
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            if self.read_only:
                db = self._open_to_read()
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=BUSY_S, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise self._unusable(error) from None
        try:
            with self._guard():
                if not self.read_only:
                    _to_wal(db)
                    db.execute("PRAGMA synchronous=NORMAL")  # WAL keeps every commit across a crash of ours
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise ResultsUnusable(f"{self.path} was written by a newer labyrinth (schema {version}); "
                                          "it is kept as it is")
                behind = version < SCHEMA_VERSION or _columns(db) not in (None, set(COLUMNS))
                if self.read_only and behind:
                    db = _in_memory(db)  # brought to this schema in a copy: the file is not written
                if behind or not self.read_only:
                    with _transaction(db):
                        _migrate(db, version)
        except ResultsUnusable:
            db.close()
            raise
        return db

    def _open_to_read(self) -> sqlite3.Connection:
        """A read-only connection; on a read-only mount a WAL database cannot make its shared-memory
        file, so it is read as immutable (nobody can be writing it there)."""
        if not self.path.is_file():
            raise sqlite3.OperationalError("unable to open database file")
        uri = self.path.resolve().as_uri()
        db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_S, isolation_level=None)
        try:
            db.execute("PRAGMA user_version").fetchone()
            return db
        except sqlite3.OperationalError:
            db.close()
            return sqlite3.connect(f"{uri}?immutable=1", uri=True, timeout=BUSY_S, isolation_level=None)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ---------------------------------------------------------------------

    def record(self, row: MatchRow, replace: bool = False, token: str | None = None) -> bool:
        """Keep one finished match, in a transaction of its own, and let go of the claim ``token`` on it;
        whether it was kept: not when ``token`` is no longer the match's claim (another worker took it
        over, whose result stands: nothing is written). A valid match already kept is left as it was,
        unless ``replace`` (a tournament run with --fresh: the new result stands); a void one is
        replaced by the new result."""
        row = replaced(row, played_at=now_iso())
        update = ", ".join(f"{c}=excluded.{c}" for c in COLUMNS if c not in KEY)
        unless = "" if replace else " WHERE matches.void IS NOT NULL"
        with self._guard(), _transaction(self._db):
            held = "SELECT 1 FROM claims WHERE match = ? AND token = ? AND NOT abandoned"
            if token is not None and not self._db.execute(held, (row.key.id, token)).fetchone():
                return False
            try:
                self._db.execute(f"INSERT INTO matches ({', '.join(COLUMNS)}) "
                                 f"VALUES ({', '.join('?' * len(COLUMNS))}) "
                                 f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET {update}{unless}", row_values(row))
            except OverflowError:  # a number beyond SQLite's 64-bit integers (a seed from the API)
                raise ResultsUnusable(f"the results database {self.path} cannot keep the match {row.user} vs "
                                      f"{row.minotaur}, seed {row.seed}: a number in it is beyond the 64-bit "
                                      "integers SQLite keeps; nothing of it was written") from None
            if token is not None:
                self._db.execute("DELETE FROM claims WHERE match = ? AND token = ?", (row.key.id, token))
        return True

    def claim(self, key: MatchKey, token: str, replay: str | None = None, fresh: bool = False,
              replay_void: bool = False) -> Claim:
        """Claim ``key`` for the attempt ``token`` (new_token), which writes its replay to ``replay``: KEPT
        when it has a result already (a valid one, or a void one unless ``replay_void``; never when
        ``fresh``), HELD while another attempt's claim is live (its heartbeat not yet seen still for the
        lease), else TAKEN, with the replay an abandoned attempt left (``left``: the caller removes it)."""
        kept = "" if not replay_void else " AND void IS NULL"
        with self._guard(), _transaction(self._db):
            if not fresh and self._db.execute(f"SELECT 1 FROM matches WHERE {' AND '.join(f'{c} = ?' for c in KEY)}"
                                              f"{kept}", _key_values(key)).fetchone():
                return Claim(KEPT)
            held = self._db.execute("SELECT token, beat, replay, abandoned FROM claims WHERE match = ?",
                                    (key.id,)).fetchone()
            if held and not held[3] and held[0] != token and not self._overdue(key.id, held[0], held[1]):
                return Claim(HELD)
            self._db.execute("INSERT INTO claims (match, token, beat, replay, abandoned) VALUES (?, ?, 0, ?, 0) "
                             "ON CONFLICT (match) DO UPDATE SET token=excluded.token, beat=0, replay=excluded.replay, "
                             "abandoned=0", (key.id, token, replay))
        self._seen.pop(key.id, None)
        return Claim(TAKEN, held[2] if held and held[3] and held[0] != token else None)

    def renew(self, tokens: Iterable[str]) -> None:
        """Raise the heartbeat of each claim of ``tokens`` still theirs: their owner is playing them."""
        beats = [(token,) for token in tokens]
        if beats:
            with self._guard(), _transaction(self._db):
                self._db.executemany("UPDATE claims SET beat = beat + 1 WHERE token = ? AND NOT abandoned", beats)

    def release(self, tokens: Iterable[str]) -> None:
        """Abandon the claims of ``tokens`` without a result (matches stopped): free for the next claimer at
        once, who removes the replay each named."""
        abandoned = [(token,) for token in tokens]
        if abandoned:
            with self._guard(), _transaction(self._db):
                self._db.executemany("UPDATE claims SET abandoned = 1 WHERE token = ?", abandoned)

    def held(self, keys: Iterable[MatchKey]) -> set[MatchKey]:
        """Those of ``keys`` another attempt holds: claimed, not abandoned, and its heartbeat not seen
        still here for the lease."""
        wanted = {key.id: key for key in keys}
        with self._guard():
            found = self._db.execute("SELECT match, token, beat FROM claims WHERE NOT abandoned").fetchall()
        return {wanted[match] for match, token, beat in found if match in wanted
                and not self._overdue(match, token, beat)}

    def _overdue(self, match: str, token: str, beat: int) -> bool:
        """Whether this worker has seen ``match``'s claim at ``token`` and ``beat`` for the lease, by its own
        clock (the first sighting of a token and beat starts the count)."""
        now = self.clock()
        seen = self._seen.get(match)
        if seen is None or seen[:2] != (token, beat):
            self._seen[match] = (token, beat, now)
            return False
        return now - seen[2] >= self.lease_s

    # --- reading ---------------------------------------------------------------------

    def played(self, keys: Iterable[MatchKey], replay_void: bool = False) -> set[MatchKey]:
        """Those of ``keys`` that have a result already: a valid one, or a void one unless
        ``replay_void`` (a void match stays void, and is counted so, until the user asks for it again:
        played again by default, a model that samples would get another try at the seeds it failed)."""
        wanted = set(keys)
        return {row.key for row in self.matches(void=False if replay_void else None) if row.key in wanted}

    def begin_run(self, run_id: str, began: str, manifest: dict[str, Any]) -> None:
        """Keep a run's manifest (what it plays, with what, by which build) as it begins."""
        with self._guard(), _transaction(self._db):
            self._db.execute("INSERT INTO runs (run_id, began, manifest) VALUES (?, ?, ?)",
                             (run_id, began, json.dumps(manifest, sort_keys=True)))

    def runs(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every run's id, start and manifest, oldest first; a manifest that is not readable JSON is
        added to ``damaged`` (after the last read's rows) and given as its id alone (whose matches it
        cannot give). A manifest is known by its row's id, whatever it says."""
        with self._guard():
            found = self._db.execute("SELECT run_id, began, manifest FROM runs ORDER BY began, run_id").fetchall()
        runs = []
        for run_id, began, text in found:
            try:
                manifest = json.loads(text)
                if not isinstance(manifest, dict):
                    raise TypeError("not an object")
            except (TypeError, ValueError):
                self.damaged.append(f"the manifest of run {_shown(run_id)} in {self.path.name} is damaged: it is "
                                    "not a JSON object")
                manifest = {}
            runs.append((str(run_id), str(began), {**manifest, "run_id": str(run_id)}))  # known by its row
        return runs

    def marks(self, keys: Iterable[MatchKey]) -> dict[MatchKey, tuple[Any, ...]]:
        """Each of ``keys`` that has a row: the row as stored, which any new result written to it changes
        (its replay file is the attempt's own; when it was written): a match kept since a mark was taken
        is one whose mark differs, told without comparing any clock."""
        query = f"SELECT {', '.join(COLUMNS)} FROM matches WHERE {' AND '.join(f'{c} = ?' for c in KEY)}"
        with self._guard():
            found = {key: self._db.execute(query, _key_values(key)).fetchone() for key in set(keys)}
        return {key: tuple(values) for key, values in found.items() if values is not None}

    def matches(self, *, preset: str | None = None, difficulty: str | None = None, max_turns: int | None = None,
                learned: str | None = None, void: bool | None = None) -> list[MatchRow]:
        """Every kept match (on ``preset``, at ``difficulty``, with ``max_turns``, learned by
        ``learned``, void or valid as ``void`` says, when given), in play order. A damaged row is
        skipped and said in ``damaged``."""
        where, values = [], []
        for column, value in (("preset", preset), ("difficulty", difficulty), ("max_turns", max_turns),
                              ("learned", learned)):
            if value is not None:
                where.append(f"{column} = ?")
                values.append(value)
        if void is not None:
            where.append(f"void IS {'NOT ' if void else ''}NULL")
        query = f"SELECT rowid, {', '.join(COLUMNS)} FROM matches {'WHERE ' + ' AND '.join(where) if where else ''}"
        with self._guard():
            found = self._db.execute(query, values).fetchall()
        rows, self.damaged = [], []
        for rowid, *cells in found:
            try:
                rows.append(_row(cells))
            except _Damaged as damage:
                self.damaged.append(f"row {rowid} of {self.path.name} is damaged: {damage}; it is left out")
        return sorted(rows, key=lambda row: row.play_order)

    # --- inside ----------------------------------------------------------------------

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise self._unusable(error) from None

    def _unusable(self, error: Exception) -> ResultsUnusable:
        text = " ".join(str(error).split()) or type(error).__name__
        if "locked" in text or "busy" in text:
            why = (f"it stayed locked by another program for {BUSY_S:g} s ({text}); let that program finish, "
                   "then try again")
        elif "full" in text:
            why = f"{text}: free some space on that disk, then try again"
        elif isinstance(error, OSError):
            why = advice(error)
        else:
            why = f"{text}; to start a new one, rename this file (e.g. to {self.path.name}.old) and try again"
        return ResultsUnusable(f"the results database {self.path} cannot be used: {why}. It is kept as it is")


def _to_wal(db: sqlite3.Connection) -> None:
    """The database in WAL mode, which lets tournaments read while another writes. Turning a new file to WAL needs
    it to itself, and SQLite does not wait for that as it waits for a lock (the connection's timeout is not used):
    two tournaments opening a new database at once failed now and then with "database is locked" (seen once in the
    suite; 6 of 240 opens when six processes opened one new file at once, forty times over). WAL stays with the
    file, so the mode is read first and most opens take no lock here; a new file is tried again every WAL_RETRY_S
    for up to BUSY_S. A file system without WAL keeps the mode it had, as before."""
    if db.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    for _ in range(int(BUSY_S / WAL_RETRY_S)):
        try:
            db.execute("PRAGMA journal_mode=WAL").fetchone()
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
        time.sleep(WAL_RETRY_S)
    raise sqlite3.OperationalError("database is locked")


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    # BEGIN IMMEDIATE takes the write lock at once (waiting up to BUSY_S), so a transaction never
    # fails half-way on another writer's lock.
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _columns(db: sqlite3.Connection) -> set[str] | None:
    """The columns of the matches table, or None when there is none."""
    found = {column for (column,) in db.execute("SELECT name FROM pragma_table_info('matches')")}
    return found or None


def _in_memory(db: sqlite3.Connection) -> sqlite3.Connection:
    copy = sqlite3.connect(":memory:", isolation_level=None)
    db.backup(copy)
    db.close()
    return copy


def _migrate(db: sqlite3.Connection, version: int) -> None:
    """Bring the database from schema ``version`` to this one, in the caller's transaction (all or
    nothing). SQLite cannot change a UNIQUE constraint, so an old table is copied. Schema 1 kept
    neither who learned nor when the run began: its matches are kept as learned 'unrecorded' and
    as begun when each was written. Schemas 1 and 2 kept no setups (a model's is 'unrecorded', so
    no new match is taken for one of them), no repeats, and of the record only the tokens,
    fallbacks and replacements: a match is judged valid or void from those, by today's rule. From schema 3
    on, every column it kept is carried over as it was (a renamed one under its new name: _RENAMED), and a
    column added since holds its default (a game's digest, what a model was sent: unknown)."""
    _claims(db)
    have = _columns(db)
    if have is None or (version >= SCHEMA_VERSION and have == set(COLUMNS)):
        db.execute(_SCHEMA)
        db.execute(_RUNS)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return
    db.execute("ALTER TABLE matches RENAME TO matches_old")
    db.execute(_SCHEMA)
    db.execute(_RUNS)
    old = [column for (column,) in db.execute("SELECT name FROM pragma_table_info('matches_old')")]
    for cells in db.execute(f"SELECT {', '.join(old)} FROM matches_old ORDER BY rowid").fetchall():
        was = dict(zip(old, cells, strict=True))
        try:
            values = row_values(_old_row(was)) if version < 3 else tuple(_carried(was, c) for c in COLUMNS)
        except (TypeError, ValueError):  # a damaged row is carried over as it is, and reported when read
            values = tuple(was.get(column) for column in COLUMNS)
        db.execute(f"INSERT OR IGNORE INTO matches ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                   values)
    db.execute("DROP TABLE matches_old")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _claims(db: sqlite3.Connection) -> None:
    """The claims table of this shape: one of an older shape (an owner's host and process, a time it
    lapses) is made anew, as claims only hold matches being played (a worker of an older build plays
    other keys, the build being part of them)."""
    found = {column for (column,) in db.execute("SELECT name FROM pragma_table_info('claims')")}
    if found and found != CLAIM_COLUMNS:
        db.execute("DROP TABLE claims")
    db.execute(_CLAIMS)


def _carried(was: dict[str, Any], column: str) -> Any:
    """``column``'s value in a row of schema 3 or later (``was``: its columns): as kept, under its old name
    when it was renamed since, else its default."""
    if column in _RENAMED and column not in was:  # kept under its old name
        return was.get(_RENAMED[column], _DEFAULTS.get(column))
    if column in _REUSED and _REUSED[column] not in was:  # its values are the new name's: this one is a new column
        return _DEFAULTS.get(column)
    return was.get(column, _DEFAULTS.get(column))


def _old_row(was: dict[str, Any]) -> MatchRow:
    """A row of schema 1 or 2 (``was``: its columns) as this schema keeps it, judged by today's rule."""
    sides = {role: SideRecord(settings=json.dumps({"recorded": False}) if "/" in str(was[role]) else "{}",
                              decisions=int(was["turns"]), fallbacks=int(was[f"{role}_fallbacks"]),
                              tokens_in=int(was[f"{role}_tokens_in"]), tokens_out=int(was[f"{role}_tokens_out"]),
                              replaced=bool(was[f"{role}_replaced"])) for role in ROLES}
    return MatchRow(was["user"], was["minotaur"], was["seed"], was["preset"], was["difficulty"], was["max_turns"],
                    was["outcome"], was["turns"], was["game_time"], was["wall_s"], was["replay"],
                    sides["user"], sides["minotaur"], was.get("learned", UNRECORDED),
                    user_setup=UNRECORDED if sides["user"].model else "",
                    minotaur_setup=UNRECORDED if sides["minotaur"].model else "",
                    version="before schema 3", played_at=was["played_at"], build=UNRECORDED,
                    run_began=was.get("run_began") or str(was["played_at"]).replace("Z", ".000000Z")).judged()


def row_values(row: MatchRow) -> tuple[Any, ...]:
    """``row``'s values in the order of COLUMNS (as a table keeps them)."""
    return (*(getattr(row, name) for name in _TOP),
            *(getattr(row.side(role), name) for role in ROLES for name in SIDE))


def _key_values(key: MatchKey) -> tuple[Any, ...]:
    return tuple(getattr(key, name) for name in KEY)


class _Damaged(ValueError):
    """A row whose value is not of its column's kind."""


def _row(cells: list[Any]) -> MatchRow:
    values = dict(zip(COLUMNS, cells, strict=True))
    for column, value in values.items():
        values[column] = _checked(column, value)
    if values["outcome"] not in OUTCOMES:
        raise _Damaged(f"outcome is {_shown(values['outcome'])}")
    sides = {role: SideRecord(**{name: values.pop(f"{role}_{name}") for name in SIDE}) for role in ROLES}
    return MatchRow(**values, user_side=sides["user"], minotaur_side=sides["minotaur"])


def _checked(column: str, value: Any) -> Any:
    kind, nullable = _COLUMN_KINDS[column]
    if value is None:
        if nullable:
            return None
        raise _Damaged(f"{column} is empty")
    if kind is bool and isinstance(value, int) and value in (0, 1):
        return bool(value)
    if kind is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return value
    raise _Damaged(f"{column} is {_shown(value)}")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."

