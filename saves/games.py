"""Saved games: what was played, so that a game resumes identically.

A save holds the game's seed, preset and difficulty, which agent played the
Minotaur, every turn's engine inputs and the state hash at the end. Resuming
replays those inputs through a fresh engine (and lets the Minotaur's agent
re-live them), then checks the hash: the game goes on exactly where it was.

A save (version 2) is JSON lines: a header line (everything but the turns,
with their count), then one line per turn. A list of saves reads only the
headers, a bounded read per file however long the game; a save's turns are
read when it is resumed. Version 1 saves (one JSON object) are still read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, Literal, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from labyrinth.engine import DIFFICULTIES, PRESETS, BadInput, MinotaurDecision, UserInput, parse

from .atomic import write_atomic
from .experience import NAME_CHARS, SEED_LIMIT
from .paths import StorageError, data_dir
from .reading import read_regular, read_start

FORMAT = "labyrinth-save"
VERSION = 2
SAVE_BYTES = 64 << 20  # the most read of one save: some 700,000 turns
HEADER_BYTES = 64 << 10  # the most read of a save's first line, to list it

Turn = tuple[UserInput, MinotaurDecision]


class SaveError(ValueError):
    """A file that is not a readable saved game; ``str()`` is one line for the user."""


def saves_dir() -> Path:
    return data_dir() / "saves"


class Header(BaseModel):
    """A save's first line: what a list of saves shows, and what its turns must replay to."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    format: Literal["labyrinth-save"]
    version: Literal[2]
    saved_at: str = Field(max_length=40)
    seed: int = Field(ge=-SEED_LIMIT, lt=SEED_LIMIT)
    preset: str
    difficulty: str
    minotaur: str = Field(max_length=NAME_CHARS, description="the agent that played the Minotaur")
    turns: int = Field(ge=0, le=SAVE_BYTES, description="how many turn lines follow (each at least a byte)")
    hash: str = Field(max_length=128, description="the state hash after the last turn")
    summary: str = Field(max_length=500)

    @field_validator("preset", "difficulty")
    @classmethod
    def _known(cls, value: str, info: Any) -> str:
        known = PRESETS if info.field_name == "preset" else DIFFICULTIES
        if value not in known:
            raise ValueError(f"not one of {', '.join(known)}")
        return value


@dataclass(frozen=True)
class SavedGame:
    path: Path | None
    saved_at: str
    seed: int
    preset: str
    difficulty: str
    minotaur: str  # the name of the agent that played the Minotaur
    turns: Sequence[Turn]  # a listed save's are read from its file when first used
    digest: str  # the state hash after the last turn
    summary: str  # one line for a list of saves: level, stones, time

    def header(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "saved_at": self.saved_at, "seed": self.seed,
                "preset": self.preset, "difficulty": self.difficulty, "minotaur": self.minotaur,
                "turns": len(self.turns), "hash": self.digest, "summary": self.summary}

    def write_to(self, out: BinaryIO) -> None:
        """The save's lines: the header, then one per turn."""
        out.write(json.dumps(self.header(), separators=(",", ":")).encode() + b"\n")
        out.writelines(json.dumps([user.model_dump(exclude_none=True), minotaur.model_dump(exclude_none=True)],
                                 separators=(",", ":")).encode() + b"\n" for user, minotaur in self.turns)


class SavedTurns(Sequence[Turn]):
    """A listed save's turns: its file is read in full only when they are first used (resuming),
    and must still hold the game that was listed."""

    def __init__(self, path: Path, count: int, digest: str) -> None:
        self.path, self.count, self.digest = path, count, digest
        self._turns: list[Turn] | None = None

    def _loaded(self) -> list[Turn]:
        if self._turns is None:
            game = load_game(self.path)
            if game.digest != self.digest or len(game.turns) != self.count:
                raise SaveError(f"{self.path}: changed since the list of saves was read")
            self._turns = list(game.turns)
        return self._turns

    def __len__(self) -> int:
        return self.count

    @overload
    def __getitem__(self, index: int) -> Turn: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Turn]: ...
    def __getitem__(self, index: int | slice) -> Turn | Sequence[Turn]:
        return self._loaded()[index]

    def __iter__(self) -> Iterator[Turn]:
        return iter(self._loaded())


def save_game(game: SavedGame, directory: Path | None = None) -> Path:
    """Write ``game`` atomically into a new file named by the time; its path."""
    folder = directory or saves_dir()
    stamp = game.saved_at.replace(":", "").replace("-", "")[:15]
    path = folder / f"{stamp}-{game.preset}-seed{game.seed}.jsonl"
    number = 2
    while path.exists() or path.is_symlink():
        path = folder / f"{stamp}-{game.preset}-seed{game.seed}-{number}.jsonl"
        number += 1
    write_atomic(path, game.write_to, folder)
    return path


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def load_game(path: Path) -> SavedGame:
    """Read a saved game in full (at most SAVE_BYTES); SaveError naming what is wrong otherwise."""
    first, _, rest = _read(path, read_regular, SAVE_BYTES).partition(b"\n")
    head = _head(path, first)
    if head["version"] == 1:  # one object, on one line
        if rest.strip() or not isinstance(head.get("turns"), list):
            raise SaveError(f"{path}: broken saved game (version 1, but not one object with its turns)")
        header = _validated(path, {**head, "version": VERSION, "turns": len(head["turns"]),
                                   "summary": head.get("summary", "")})
        turns = [_pair(path, number, pair) for number, pair in enumerate(head["turns"], 1)]
    else:
        header, lines = _validated(path, head), rest.split(b"\n")
        if lines[-1].strip():
            raise SaveError(f"{path}: broken saved game: its last line was cut off")
        turns = [_pair(path, number - 1, _json(path, line, f"line {number}")) for number, line in enumerate(lines[:-1], 2)]
    if len(turns) != header.turns:
        raise SaveError(f"{path}: broken saved game: {len(turns)} turns where the header says {header.turns}")
    return _game(path, header, turns)


def list_games(directory: Path | None = None) -> tuple[list[SavedGame], list[str]]:
    """The saved games, newest first, from their headers only (their turns are read when used),
    and one line for each file that could not be read."""
    folder = directory or saves_dir()
    games, problems = [], []
    paths = [*folder.glob("*.json"), *folder.glob("*.jsonl")] if folder.is_dir() else []
    for path in sorted(paths, key=lambda p: p.name, reverse=True):
        try:
            games.append(_listed(path))
        except SaveError as exc:
            problems.append(str(exc))
    return games, problems


# --- inside ---------------------------------------------------------------------


def _read(path: Path, read: Any, size: int) -> bytes:
    try:
        return read(path, size)
    except OSError as exc:  # not there, not a file, too large, unreadable
        raise SaveError(str(exc) if isinstance(exc, StorageError) else
                        f"{path}: cannot read it ({exc.strerror or exc})") from None


def _listed(path: Path) -> SavedGame:
    first, newline, _ = _read(path, read_start, HEADER_BYTES).partition(b"\n")
    head = _head(path, first) if newline else None
    if head is None or head["version"] == 1:
        return load_game(path)  # version 1: one object, read in full but bounded by SAVE_BYTES
    header = _validated(path, head)
    return _game(path, header, SavedTurns(path, header.turns, header.hash))


def _json(path: Path, raw: bytes, what: str) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # bad JSON or UTF-8, absurd numbers or nesting
        raise SaveError(f"{path}: not a saved game ({what} is not valid JSON)") from None


def _head(path: Path, raw: bytes) -> dict[str, Any]:
    """The first line's object, if it is a saved game of a version this game reads."""
    data = _json(path, raw, "its first line")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{path}: not a saved game")
    if data.get("version") not in (1, VERSION) or isinstance(data.get("version"), bool):
        raise SaveError(f"{path}: a saved game of version {str(data.get('version'))[:20]!r}; "
                        f"this game reads 1 and {VERSION}")
    return data


def _validated(path: Path, data: dict[str, Any]) -> Header:
    try:
        return Header.model_validate(data)
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        raise SaveError(f"{path}: broken header ({'.'.join(map(str, problem['loc']))}: {problem['msg']})") from None


def _pair(path: Path, turn: int, pair: Any) -> Turn:
    try:
        user, minotaur = pair
        return parse(UserInput, user), parse(MinotaurDecision, minotaur)
    except (BadInput, TypeError, ValueError) as exc:
        detail = exc if isinstance(exc, BadInput) else "not a pair [user input, Minotaur decision]"
        raise SaveError(f"{path}: broken saved game: turn {turn}: {detail}") from None


def _game(path: Path, header: Header, turns: Sequence[Turn]) -> SavedGame:
    return SavedGame(Path(path), header.saved_at, header.seed, header.preset, header.difficulty, header.minotaur,
                     turns, header.hash, header.summary)
