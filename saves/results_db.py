"""The tournament's results: one row per match in SQLite (``results.db`` in the
user data directory), for the tournament to skip what it has played and for the
leaderboard to rate.

Several tournaments may write at once (two terminals, two machines' worth of
models): the database runs in WAL mode, so readers never block the writer, and
each write is one short transaction that waits out another's lock (BUSY_S)
instead of failing. A match is committed whole as it ends, so a tournament killed
at any moment leaves every finished match and nothing half-written. A match is
known by its key (both contestants, seed, preset, difficulty, max turns): the
key is unique, so two tournaments that both play a match keep one row. Who learned from
the experience log is part of the key: a match played with lessons depends on the log as it
was, so it is never taken for (or skipped because of) the same match played without.

Matches are returned in play order: tournament runs in the order they began, and within a
run seed by seed (then by key), as the tournament schedules them. That order is the
same however many matches were played at once, so the ratings drawn in it are too.

A file that is not a database, or a database that stays locked, is reported as
ResultsUnusable and left exactly as it was: this module never deletes, moves or
recreates the file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import astuple, dataclass, fields
from dataclasses import replace as replaced
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

from .paths import data_dir

RESULTS_FILE = "results.db"
SCHEMA_VERSION = 2  # 2: who learned (in the key) and when the run began (the play order)
BUSY_S = 30.0  # how long a write waits for another tournament's transaction before giving up
KEY = ("user", "minotaur", "seed", "preset", "difficulty", "max_turns", "learned")
PLAY_ORDER = ("run_began", "seed", *(name for name in KEY if name != "seed"))  # see the module's docstring
NOBODY = "none"  # the learned of a match where neither side learned from the experience log
UNRECORDED = "unrecorded"  # the learned of a match kept before it was recorded (schema 1)
OUTCOMES = ("ESCAPED", "DEATH", "TIMEOUT")


def results_path() -> Path:
    return data_dir() / RESULTS_FILE


@dataclass(frozen=True, order=True)
class MatchKey:
    """What makes two matches the same match: played again without learning, it gives the same
    result; with learning, it also depends on the experience log it learned from."""

    user: str
    minotaur: str
    seed: int
    preset: str
    difficulty: str
    max_turns: int
    learned: str = NOBODY  # who learned from the experience log: none, or the roles joined by "+"


@dataclass(frozen=True)
class MatchRow:
    """One played match as the database keeps it."""

    user: str
    minotaur: str
    seed: int
    preset: str
    difficulty: str
    max_turns: int
    outcome: str  # ESCAPED, DEATH or TIMEOUT
    turns: int
    game_time: float
    user_tokens_in: int
    user_tokens_out: int
    minotaur_tokens_in: int
    minotaur_tokens_out: int
    user_fallbacks: int
    minotaur_fallbacks: int
    user_replaced: bool  # the user's model kept failing and the built-in agent took over
    minotaur_replaced: bool
    wall_s: float
    replay: str | None  # the replay file's path
    played_at: str = ""  # UTC, ISO 8601; set as the row is written
    learned: str = NOBODY  # who learned from the experience log (MatchKey.learned)
    run_began: str = ""  # UTC, ISO 8601 to the microsecond: when the tournament run that played it began

    @property
    def key(self) -> MatchKey:
        return MatchKey(*(getattr(self, name) for name in KEY))

    @property
    def play_order(self) -> tuple:
        """Where the match stands in play order (the module's docstring): rate in this order."""
        return tuple(getattr(self, name) for name in PLAY_ORDER)


COLUMNS = tuple(f.name for f in fields(MatchRow))
_TYPES = {"int": "INTEGER", "float": "REAL", "str": "TEXT", "bool": "INTEGER",
          "str | None": "TEXT"}
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS matches (
    {", ".join(f"{f.name} {_TYPES[f.type]}{'' if f.type == 'str | None' else ' NOT NULL'}" for f in fields(MatchRow))},
    CHECK (outcome IN {OUTCOMES!r}),
    UNIQUE ({", ".join(KEY)})
)"""


class ResultsUnusable(Exception):
    """The results database cannot be read or written; the message says which file, why, and
    that it was kept as it is."""


class ResultsDB:
    """The results database at ``path`` (default: results.db in the data directory), opened and
    checked at once. Use from one thread (the tournament's coordinator); close when done."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else results_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=BUSY_S, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise self._unusable(error) from None
        try:
            with self._guard():
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")  # WAL keeps every commit across a crash of ours
                with self._transaction():
                    version = self._db.execute("PRAGMA user_version").fetchone()[0]
                    if version > SCHEMA_VERSION:
                        raise ResultsUnusable(f"{self.path} was written by a newer labyrinth (schema {version}); "
                                              "it is kept as it is")
                    if version == 1:
                        self._migrate_from_1()
                    self._db.execute(_SCHEMA)
                    self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except ResultsUnusable:
            self._db.close()
            raise

    def _migrate_from_1(self) -> None:
        """Schema 1 kept neither who learned nor when the run began: its matches are kept as
        learned 'unrecorded' (never taken for a match played with or without learning) and as
        begun when each was written. SQLite cannot change a UNIQUE constraint, so the table is
        copied (in the caller's transaction: all or nothing)."""
        old = [name for name in COLUMNS if name not in ("learned", "run_began")]
        self._db.execute("ALTER TABLE matches RENAME TO matches_1")
        self._db.execute(_SCHEMA)
        self._db.execute(f"INSERT INTO matches ({', '.join(old)}, learned, run_began) SELECT {', '.join(old)}, ?, "
                         "replace(played_at, 'Z', '.000000Z') FROM matches_1 ORDER BY rowid", (UNRECORDED,))
        self._db.execute("DROP TABLE matches_1")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record(self, row: MatchRow, replace: bool = False) -> None:
        """Keep one finished match, in a transaction of its own. A match already kept is left as it
        was, unless ``replace`` (a tournament run with --fresh: the new result stands)."""
        row = _stamped(row)
        on_conflict = f"DO UPDATE SET {', '.join(f'{c}=excluded.{c}' for c in COLUMNS if c not in KEY)}" \
            if replace else "DO NOTHING"
        with self._guard(), self._transaction():
            try:
                self._db.execute(f"INSERT INTO matches ({', '.join(COLUMNS)}) "
                                 f"VALUES ({', '.join('?' * len(COLUMNS))}) "
                                 f"ON CONFLICT ({', '.join(KEY)}) {on_conflict}", astuple(row))
            except OverflowError:  # a number beyond SQLite's 64-bit integers (a seed from the API)
                raise ResultsUnusable(f"the results database {self.path} cannot keep the match {row.user} vs "
                                      f"{row.minotaur}, seed {row.seed}: a number in it is beyond the 64-bit "
                                      "integers SQLite keeps; nothing of it was written") from None

    def played(self, keys: Iterable[MatchKey]) -> set[MatchKey]:
        """Those of ``keys`` that have a result already."""
        wanted = set(keys)
        return {row.key for row in self.matches() if row.key in wanted}

    def matches(self, *, preset: str | None = None, difficulty: str | None = None) -> list[MatchRow]:
        """Every kept match (on ``preset``, at ``difficulty``, when given), in play order."""
        where, values = [], []
        for column, value in (("preset", preset), ("difficulty", difficulty)):
            if value is not None:
                where.append(f"{column} = ?")
                values.append(value)
        query = f"SELECT {', '.join(COLUMNS)} FROM matches {'WHERE ' + ' AND '.join(where) if where else ''} " \
                f"ORDER BY {', '.join(PLAY_ORDER)}"
        with self._guard():
            return [_row(values) for values in self._db.execute(query, values).fetchall()]

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        # BEGIN IMMEDIATE takes the write lock at once (waiting up to BUSY_S), so a transaction never
        # fails half-way on another writer's lock.
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise self._unusable(error) from None

    def _unusable(self, error: Exception) -> ResultsUnusable:
        text = " ".join(str(error).split()) or type(error).__name__
        if "locked" in text or "busy" in text:
            why = f"it stayed locked by another program for {BUSY_S:g} s ({text})"
        else:
            why = text
        return ResultsUnusable(f"the results database {self.path} cannot be used: {why}; it is kept as it is "
                               f"(move it away to start a new one)")


def now_iso(timespec: str = "microseconds") -> str:
    """Now in UTC, ISO 8601 with a Z: to the microsecond, so that two runs begun in one second
    are still told apart (and in order)."""
    return datetime.now(UTC).isoformat(timespec=timespec).replace("+00:00", "Z")


def _stamped(row: MatchRow) -> MatchRow:
    return replaced(row, played_at=now_iso("seconds"))


def _row(values: tuple) -> MatchRow:
    row = dict(zip(COLUMNS, values, strict=True))
    return MatchRow(**{**row, "user_replaced": bool(row["user_replaced"]),
                       "minotaur_replaced": bool(row["minotaur_replaced"])})
