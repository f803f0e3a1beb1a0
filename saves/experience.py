"""The experience log: what the agents learned, one reflection per role per game,
in `experience_log.json` of the user data directory.

Writers take a file lock and replace the file atomically, so two arenas writing
at once lose nothing. The log keeps the newest CAP reflections.

Everything read back is checked in full (kinds, lengths, finite numbers in range,
a bounded evidence): an edited or damaged log must not crash the games that learn
from it. What fails is set aside, kept, never deleted, and the caller is told once:
- a file that is not a log at all (bad JSON, another format, a FIFO, too large) is
  moved aside whole under a name that says so, and a fresh log starts;
- a log with some reflections that fail keeps the others: only those are moved, with
  what was wrong with each, into a file beside it, so one bad entry costs nothing else.
A log that cannot be used at all (a read-only or missing directory, a log that leads
outside the data directory) raises ``saves.paths.StorageError``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from labyrinth.engine.constants import WORLD_LEVELS, WORLD_SIZE
from labyrinth.engine.presets import unknown_difficulty, unknown_preset
from labyrinth.engine.rng import SEED_LIMIT  # a seed is in [-SEED_LIMIT, SEED_LIMIT)
from labyrinth.engine.schemas import OUTCOMES, Outcome

from .atomic import write_atomic, write_json
from .locks import lock, unlock
from .paths import LOG_NAME, StorageError, advice, confined, data_dir, usable_dir
from .reading import NotAFile, read_regular
from .results_terms import Role

VERSION = 1
CAP = 5000  # reflections kept; the oldest go first
LOG_BYTES = 64 << 20  # the most read from disk: CAP reflections are a few MB
TEXT_CHARS = 2000  # a lesson, or any text in the evidence, at most
NAME_CHARS = 200  # an id, an agent's name, at most
NUMBER_LIMIT = 1e15  # any number in a reflection, in absolute value, at most
EVIDENCE_DEPTH = 6  # nesting of the evidence, at most
EVIDENCE_ITEMS = 10_000  # items in one list or object of the evidence, at most
POSITION_KEYS = ("position", "from")  # evidence keys that hold a cell: [x, y, z] inside the world


CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # newlines, tabs, terminal escapes: never in a lesson's one line


def outcome_of(word: str) -> Outcome:
    """``word`` as an Outcome; ValueError for a word that is none (a game not over yet)."""
    for outcome in OUTCOMES:
        if outcome == word:
            return outcome
    raise ValueError(f"not how a game ends: {word!r}")


def plain_text(text: str) -> str:
    """One line of words: control characters (a terminal escape in a model's answer) become spaces."""
    return " ".join(CONTROL.sub(" ", text).split())


class Reflection(BaseModel):
    """One role's lesson from one game."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)
    # (its validator built at its first use: a game starting without a log does not build it)
    id: str = Field(min_length=1, max_length=NAME_CHARS)
    game_id: str = Field(min_length=1, max_length=NAME_CHARS)
    created_at: str = Field(max_length=40, pattern=r"^\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?$",
                            description="ISO 8601, UTC")
    role: Role
    agent: str = Field(max_length=NAME_CHARS, description="who played the role: builtin, gemini/..., a person")
    outcome: Outcome
    key_reflection: str = Field(min_length=1, max_length=TEXT_CHARS,
                                description="one or two sentences an agent can act on")
    seed: int = Field(ge=-SEED_LIMIT, lt=SEED_LIMIT)
    preset: str = Field(description="one of the engine's presets")
    difficulty: str = Field("normal", description="one of the engine's difficulties; a log written before "
                                                  "reflections held it was played on normal")
    turns: int = Field(ge=0, le=NUMBER_LIMIT)
    game_time: float = Field(ge=0, le=NUMBER_LIMIT, allow_inf_nan=False)
    evidence: dict[str, Any] = Field(default_factory=dict, description="the numbers behind the lesson")
    source: Literal["events", "model"] = Field("events", description="built from the game's events, or the "
                                                                      "model's own words")

    @field_validator("agent", "key_reflection", mode="before")
    @classmethod
    def _one_line(cls, value: Any) -> Any:
        return plain_text(value) if isinstance(value, str) else value

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, value: str) -> str:
        unknown = unknown_preset(value)
        if unknown:
            raise ValueError(unknown)
        return value

    @field_validator("difficulty")
    @classmethod
    def _known_difficulty(cls, value: str) -> str:
        unknown = unknown_difficulty(value)
        if unknown:
            raise ValueError(unknown)
        return value

    @field_validator("evidence")
    @classmethod
    def _bounded_evidence(cls, value: dict[str, Any]) -> dict[str, Any]:
        check_evidence(value)
        return value


def check_evidence(evidence: Any) -> None:
    """ValueError unless ``evidence`` is evidence a game can use: objects of short keys, lists, short texts,
    booleans, null and finite numbers of bounded size, nested at most EVIDENCE_DEPTH deep, and any cell
    (under a key of POSITION_KEYS) three whole numbers inside the world. A walk without recursion, as
    fast as it can be: the whole log is checked each time it is read."""
    stack = [(evidence, 0, "evidence")]
    while stack:
        value, depth, key = stack.pop()
        kind = type(value)
        if kind is float or kind is int:
            if not -NUMBER_LIMIT <= value <= NUMBER_LIMIT:  # NaN fails the comparison too
                raise ValueError(f"a number out of range at {key}")
        elif kind is str:
            if len(value) > TEXT_CHARS:
                raise ValueError(f"a text longer than {TEXT_CHARS} characters at {key}")
        elif kind is dict or kind is list or kind is tuple:
            if depth >= EVIDENCE_DEPTH or len(value) > EVIDENCE_ITEMS:
                raise ValueError(f"nested deeper than {EVIDENCE_DEPTH} or more than {EVIDENCE_ITEMS} items at {key}")
            if kind is dict:
                for name, item in value.items():
                    if type(name) is not str or len(name) > NAME_CHARS:
                        raise ValueError(f"a key that is not a short text at {key}")
                    if name in POSITION_KEYS and item is not None:
                        _check_cell(item, name)
                    stack.append((item, depth + 1, name))
            else:
                stack.extend((item, depth + 1, key) for item in value)
        elif value is not None and kind is not bool:
            raise ValueError(f"a {kind.__name__}, not evidence, at {key}")


def _check_cell(value: Any, key: str) -> None:
    if not (isinstance(value, list | tuple) and len(value) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) for c in value)
            and 0 <= value[0] < WORLD_SIZE and 0 <= value[1] < WORLD_SIZE and 0 <= value[2] < WORLD_LEVELS):
        raise ValueError(f"not a cell of the world [x, y, z] at {key}")


def log_path() -> Path:
    return data_dir() / LOG_NAME


class Experience:
    """The log at ``path`` (default: the user data directory's). ``notice`` holds, once,
    what happened to a log, or to reflections, that could not be read."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or log_path()
        self.root = self.path.parent if path else data_dir()  # the log changes no file outside it
        self.notice: str | None = None

    def read(self) -> list[Reflection]:
        """Every reflection, oldest first; what cannot be read is set aside (see the module's doc)."""
        with self._locked():
            return self._load()

    def add(self, reflections: list[Reflection]) -> None:
        """Append ``reflections`` (dropping the oldest beyond CAP), atomically and under the lock."""
        if not reflections:
            return
        with self._locked():
            kept = [*self._load(), *reflections][-CAP:]
            self._write(kept)

    def replace(self, reflections: list[Reflection]) -> None:
        """Put ``reflections`` in place of those with the same ids (a model's words arriving late)."""
        by_id = {r.id: r for r in reflections}
        with self._locked():
            kept = [by_id.pop(r.id, r) for r in self._load()]
            self._write([*kept, *by_id.values()][-CAP:])

    def clear(self) -> int:
        """Forget every reflection; how many there were."""
        with self._locked():
            count = len(self._load())
            self._write([])
            return count

    def take_notice(self) -> str | None:
        """The notice about a log set aside, if there is one not yet shown; then it is gone."""
        notice, self.notice = self.notice, None
        return notice

    # --- inside -----------------------------------------------------------------

    def _load(self) -> list[Reflection]:
        try:
            raw = read_regular(self.path, LOG_BYTES)
        except FileNotFoundError:
            return []
        except NotAFile as exc:  # a FIFO, a device, a directory, a giant: not a log
            self._set_aside(str(exc).removeprefix(f"{self.path}: "))
            return []
        try:
            log = json.loads(raw)
        except (ValueError, RecursionError):  # bad JSON or UTF-8, a number of thousands of digits, deep nesting
            self._set_aside("not valid JSON")
            return []
        if not (isinstance(log, dict) and log.keys() == {"version", "reflections"} and log["version"] == VERSION
                and isinstance(log["reflections"], list)):
            self._set_aside(f"not a version {VERSION} experience log")
            return []
        good, bad = [], []
        for number, entry in enumerate(log["reflections"]):
            try:
                good.append(Reflection.model_validate(entry))
            except ValidationError as exc:
                problem = exc.errors(include_url=False)[0]
                where = ".".join(map(str, problem["loc"]))
                bad.append({"problem": f"reflection {number}: {problem['msg']}{f' at {where}' if where else ''}",
                            "reflection": entry})
        if bad:
            self._reject(bad, good)
        return good

    def _aside(self, kind: str) -> Path:
        """A new name beside the log for what is set aside: ``experience_log.<kind>-<time>.json``."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        aside, number = self.path.with_name(f"{self.path.stem}.{kind}-{stamp}{self.path.suffix}"), 2
        while aside.exists() or aside.is_symlink():
            aside = self.path.with_name(f"{self.path.stem}.{kind}-{stamp}-{number}{self.path.suffix}")
            number += 1
        return aside

    def _set_aside(self, problem: str) -> None:
        aside = self._aside("corrupt")
        confined(self.path, self.root)
        try:
            os.replace(self.path, aside)
        except OSError as exc:
            raise StorageError(f"{self.path}: cannot be set aside ({advice(exc)})") from None
        self.notice = (f"The experience log could not be read ({problem}); it was kept as {aside.name} "
                       f"and a fresh log was started.")

    def _reject(self, bad: list[dict[str, Any]], good: list[Reflection]) -> None:
        """Keep the reflections that failed, with why, in a file of their own; then the log without them.
        Killed in between, the next read finds them again: a second copy, nothing lost."""
        aside = self._aside("rejected")
        write_atomic(aside, lambda out: out.write(json.dumps({"rejected": bad}, indent=1).encode()), self.root)
        self._write(good)
        self.notice = (f"{len(bad)} reflection{'s' if len(bad) > 1 else ''} of the experience log could not be "
                       f"used ({bad[0]['problem']}); kept in {aside.name}, the other {len(good)} are in use.")

    def _write(self, reflections: list[Reflection]) -> None:
        write_json(self.path, document(reflections), self.root)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """An exclusive lock on a file beside the log, held while it is read and replaced. A log that
        leads outside its directory (a link elsewhere) is refused here, before anything is read."""
        confined(self.path, self.root)
        folder = usable_dir(self.path.parent)
        lock_path = confined(folder / (self.path.name + ".lock"), self.root)  # a file we create: ours alone
        try:  # and no link followed even if one is planted between the check and the open
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            raise StorageError(f"{folder}: the experience log cannot be used there ({advice(exc)})") from None
        file = os.fdopen(fd, "r+b")
        with file:
            lock(file.fileno())
            try:
                yield
            finally:
                unlock(file.fileno())


def document(reflections: list[Reflection]) -> dict[str, Any]:
    """The reflections as the log holds them (and `labyrinth memory export` writes them)."""
    return {"version": VERSION, "reflections": [r.model_dump(mode="json") for r in reflections]}
