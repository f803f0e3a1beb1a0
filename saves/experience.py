"""The experience log: what the agents learned, one reflection per role per game,
in `experience_log.json` of the user data directory.

Writers take a file lock and replace the file atomically, so two arenas writing
at once lose nothing. A file that cannot be read is moved aside under a name
that says so (kept, never deleted), the caller is told once, and a fresh log
starts. The log keeps the newest CAP reflections.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .atomic import write_json
from .paths import data_dir

LOG_NAME = "experience_log.json"
VERSION = 1
CAP = 5000  # reflections kept; the oldest go first


CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # newlines, tabs, terminal escapes: never in a lesson's one line


def plain_text(text: str) -> str:
    """One line of words: control characters (a terminal escape in a model's answer) become spaces."""
    return " ".join(CONTROL.sub(" ", text).split())


class Reflection(BaseModel):
    """One role's lesson from one game."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1)
    game_id: str = Field(min_length=1)
    created_at: str = Field(description="ISO 8601, UTC")
    role: Literal["user", "minotaur"]
    agent: str = Field(description="who played the role: builtin, gemini/..., a person")
    outcome: Literal["ESCAPED", "DEATH", "TIMEOUT"]
    key_reflection: str = Field(min_length=1, description="one or two sentences an agent can act on")
    seed: int
    preset: str
    turns: int = Field(ge=0)
    game_time: float = Field(ge=0)
    evidence: dict[str, Any] = Field(default_factory=dict, description="the numbers behind the lesson")
    source: Literal["events", "model"] = Field("events", description="built from the game's events, or the "
                                                                      "model's own words")

    @field_validator("agent", "key_reflection", mode="before")
    @classmethod
    def _one_line(cls, value: Any) -> Any:
        return plain_text(value) if isinstance(value, str) else value


class ExperienceLog(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: Literal[1]
    reflections: list[Reflection]


def log_path() -> Path:
    return data_dir() / LOG_NAME


class Experience:
    """The log at ``path`` (default: the user data directory's). ``notice`` holds, once,
    what happened to a log that could not be read."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or log_path()
        self.notice: str | None = None

    def read(self) -> list[Reflection]:
        """Every reflection, oldest first; a log that cannot be read is set aside and a fresh one starts."""
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
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:  # not ours to move aside: say so, learn nothing this time
            self.notice = f"The experience log {self.path} cannot be read: {exc.strerror or exc}."
            return []
        try:
            return ExperienceLog.model_validate_json(raw).reflections
        except ValidationError as exc:
            problem = exc.errors(include_url=False)[0]
            where = ".".join(map(str, problem["loc"]))
            self._set_aside(f"{problem['msg']}{f' at {where}' if where else ''}")
            return []

    def _set_aside(self, problem: str) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.stem}.corrupt-{stamp}{self.path.suffix}")
        number = 2
        while aside.exists():
            aside = self.path.with_name(f"{self.path.stem}.corrupt-{stamp}-{number}{self.path.suffix}")
            number += 1
        os.replace(self.path, aside)
        self.notice = (f"The experience log could not be read ({problem}); it was kept as {aside.name} "
                       f"and a fresh log was started.")

    def _write(self, reflections: list[Reflection]) -> None:
        write_json(self.path, document(reflections))

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """An exclusive lock on a file beside the log, held while it is read and replaced."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a+b") as lock:
            _lock(lock.fileno())
            try:
                yield
            finally:
                _unlock(lock.fileno())


try:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
except ImportError:  # Windows
    import msvcrt

    def _lock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # retries for 10 s, then raises OSError

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def document(reflections: list[Reflection]) -> dict[str, Any]:
    """The reflections as the log holds them (and `labyrinth memory export` writes them)."""
    return {"version": VERSION, "reflections": [r.model_dump(mode="json") for r in reflections]}
