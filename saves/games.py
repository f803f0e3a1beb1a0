"""Saved games: a game stopped part-way, kept so that it resumes identically.

A save is an unfinished replay (saves/replays.py's format): a header line
(seed, preset, difficulty, who played, the initial state's hash and, for a
save, when it was saved, a summary, how many turn lines follow and the hash
after the last), then one line per turn (the inputs, the status and the state
hash after it), and no final line: the game goes on. A list of saves reads
only the headers, a bounded read per file however long the game; a save's
turns are read when it is resumed, and every turn is checked as it is played
again (replays.first_mismatch), so an edited save is refused naming its turn.

The writer plays the inputs again through a fresh engine for each turn's
status and hash (some 40 µs a turn), so a front hands over only what it
played. Older saves ("labyrinth-save" version 1, one object, and version 2,
JSON lines of input pairs) are still read; they kept only the final hash, of
state version 1 (OLD_FORMAT_STATE). A save of the replay format says its state
version as a replay does (replays.hashed_at).

The header's own keys grew as optional ones, each absent from the saves written before it (read as
none): ``status`` and ``replay_file`` (05106cc), then ``history``, the commands the player typed (the
command line's up-arrow history, its newest HISTORY_LINES), so that Continue gives them back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, TypeVar, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from labyrinth.engine import BadInput, Game, MinotaurDecision, UserInput, parse
from labyrinth.engine.presets import unknown_difficulty, unknown_preset
from labyrinth.engine.schemas import ENDINGS

from .atomic import write_atomic
from .experience import NAME_CHARS, SEED_LIMIT
from .paths import StorageError, data_dir, remove
from .reading import read_regular, read_start
from .replays import (
    FORMAT,
    RecordedTurn,
    Replay,
    ReplayError,
    ReplayHeader,
    as_line,
    header_line,
    parse_header,
    parse_replay,
    turn_line,
)

OLD_FORMAT = "labyrinth-save"  # versions 1 and 2, before a save was a replay
OLD_FORMAT_STATE = 1  # the state version of their hashes: their releases (ada196d to 20d0ec0) were all of it
SAVE_BYTES = 64 << 20  # the most read of one save: some 300,000 turns
HEADER_BYTES = 4 << 10  # read of each save to list it: a header is some 300 bytes (a longer one is read in full)
PLAYER = "you"  # the person at the keyboard, as a save, a replay and a reflection name the user played by hand
HISTORY_LINES = 100  # the typed commands a save keeps, the newest: a header stays some 2 KB, read to list it
HISTORY_LINE_CHARS = 200  # the longest typed line kept: a pasted page is no command to recall

Turn = tuple[UserInput, MinotaurDecision]
Model = TypeVar("Model", bound=BaseModel)


class SaveError(ValueError):
    """A file that is not a readable saved game; ``str()`` is one line for the user."""


def saves_dir() -> Path:
    return data_dir() / "saves"


class Saved(BaseModel):
    """What a save's header adds to a replay's: what a list of saves shows, and what its turns
    must replay to."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True, defer_build=True)
    # (its validator built at its first use, a save read: not at the start of a new game)
    saved_at: str = Field(max_length=40)
    seed: int = Field(ge=-SEED_LIMIT, lt=SEED_LIMIT)
    turns: int = Field(ge=0, le=SAVE_BYTES, description="how many turn lines follow (each at least a byte)")
    hash: str = Field(max_length=128, description="the state hash after the last turn")
    summary: str = Field(max_length=500)
    status: str | None = Field(None, max_length=40, description="the last turn's status (none in older saves)")
    replay_file: str | None = Field(None, max_length=255, description="the name of the game's replay, when it has one")
    history: list[str] = Field([], description="the commands typed, oldest first (none in older saves)")

    @field_validator("history")
    @classmethod
    def _recallable(cls, lines: list[str]) -> list[str]:
        """Only the lines a save keeps (kept_history): an edited save's control character never reaches the
        screen, nor its over-long line or its thousand lines the game (the rest of the save stands)."""
        return kept_history(lines)


class OldHeader(Saved):
    """The first line of a save of the older format (version 2; version 1's object, its turns counted)."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["labyrinth-save"]
    version: Literal[2]
    preset: str
    difficulty: str
    minotaur: str = Field(max_length=NAME_CHARS, description="the agent that played the Minotaur")

    @field_validator("preset", "difficulty")
    @classmethod
    def _known(cls, value: str, info: Any) -> str:
        unknown = (unknown_preset if info.field_name == "preset" else unknown_difficulty)(value)
        if unknown:
            raise ValueError(unknown)
        return value


@dataclass(frozen=True)
class SavedGame:
    """A game to save (its inputs, as played) or a save read back (its turns, with what the file
    recorded of each, come from ``replay()``). The turns stay (user input, Minotaur decision)
    pairs because that is what every front plays and hands over; the statuses and hashes are
    the file's business, computed when it is written."""

    path: Path | None
    saved_at: str
    seed: int
    preset: str
    difficulty: str
    minotaur: str  # the name of the agent that played the Minotaur
    turns: Sequence[Turn]  # a listed save's are read from its file when first used
    digest: str  # the state hash after the last turn
    summary: str  # one line for a list of saves: level, stones, time
    user: str = PLAYER  # who played the user: the person, or an avatar's agent
    max_turns: int | None = None  # None: no limit
    finished: bool = False  # its last turn ended the game (DEATH, ESCAPED): a list of saves leaves it out
    replay_file: str | None = None  # the name, in the replays directory, of the replay recording the game so far
    history: Sequence[str] = ()  # the commands the player typed, oldest first: the command line's up-arrow history

    def replay(self) -> Replay:
        """The save as the one hash check (replays.first_mismatch) reads it: each turn with the
        status and hash its file recorded, or only the final hash (an older save, or a game not
        yet written)."""
        if isinstance(self.turns, SavedTurns):
            return self.turns.replay()
        return _unrecorded(self)


class SavedTurns(Sequence[Turn]):
    """A save's turns as its file recorded them. A listed save's file is read in full only when
    they are first used (resuming), and must still hold the game that was listed."""

    def __init__(self, path: Path, count: int, digest: str, replay: Replay | None = None) -> None:
        self.path, self.digest = path, digest
        self._count = count  # not ``count``: Sequence.count(value) counts a turn's occurrences
        self._replay = replay
        self._pairs: list[Turn] | None = None

    def replay(self) -> Replay:
        if self._replay is None:
            game = load_game(self.path)
            if game.digest != self.digest or len(game.turns) != self._count:
                raise SaveError(f"{self.path}: changed since the list of saves was read")
            self._replay = game.replay()
        return self._replay

    def _loaded(self) -> list[Turn]:
        if self._pairs is None:
            self._pairs = [(turn.user, turn.minotaur) for turn in self.replay().turns]
        return self._pairs

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Turn: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Turn]: ...
    def __getitem__(self, index: int | slice) -> Turn | Sequence[Turn]:
        return self._loaded()[index]

    def __iter__(self) -> Iterator[Turn]:
        return iter(self._loaded())


def kept_history(lines: Sequence[str]) -> list[str]:
    """The typed commands a save keeps: the newest HISTORY_LINES of those a command line can hold (printable,
    at most HISTORY_LINE_CHARS)."""
    fit = [line for line in lines if len(line) <= HISTORY_LINE_CHARS and line.isprintable()]
    return fit[-HISTORY_LINES:]


def save_game(game: SavedGame, directory: Path | None = None) -> Path:
    """Write ``game`` atomically; its path. A game saved before (``game.path``, which must be in the
    saves directory) is overwritten, so a game has one save however often it is saved; a game
    without a path gets a new file named by the time. SaveError if its inputs do not play again to
    its state (it could not be resumed)."""
    lines = _lines(game)
    folder = directory or saves_dir()
    path = game.path if game.path is not None else _new_path(game, folder)
    write_atomic(path, lambda out: out.writelines(line.encode() for line in lines), folder)
    return path


def delete_game(path: Path, directory: Path | None = None) -> bool:
    """Remove the save ``path`` (only inside the saves directory); whether it was there."""
    return remove(path, directory or saves_dir())


def _new_path(game: SavedGame, folder: Path) -> Path:
    stamp = game.saved_at.replace(":", "").replace("-", "")[:15]
    path = folder / f"{stamp}-{game.preset}-seed{game.seed}.jsonl"
    number = 2
    while path.exists() or path.is_symlink():
        path = folder / f"{stamp}-{game.preset}-seed{game.seed}-{number}.jsonl"
        number += 1
    return path


def load_game(path: Path) -> SavedGame:
    """Read a saved game in full (at most SAVE_BYTES); SaveError naming what is wrong otherwise."""
    data = _read(path, read_regular, SAVE_BYTES)
    first, _, rest = data.partition(b"\n")
    head = _head(path, first)
    if head["format"] == FORMAT:
        saved, replay = _replay(path, data)
        return _game(path, saved, replay.header, SavedTurns(path, saved.turns, saved.hash, replay))
    if head["version"] == 1:  # one object, on one line
        if rest.strip() or not isinstance(head.get("turns"), list):
            raise SaveError(f"{path}: broken saved game (version 1, but not one object with its turns)")
        header = _validated(path, OldHeader, {**head, "version": 2, "turns": len(head["turns"]),
                                              "summary": head.get("summary", "")})
        turns = [_pair(path, number, pair) for number, pair in enumerate(head["turns"], 1)]
    else:
        header, lines = _validated(path, OldHeader, head), rest.split(b"\n")
        if lines[-1].strip():
            raise SaveError(f"{path}: broken saved game: its last line was cut off")
        turns = [_pair(path, number - 1, _json(path, line, f"line {number}"))
                 for number, line in enumerate(lines[:-1], 2)]
    _count(path, len(turns), header.turns)
    game = _old_game(path, header, turns)
    return replace(game, turns=SavedTurns(Path(path), header.turns, header.hash, _unrecorded(game, OLD_FORMAT_STATE)))


def list_games(directory: Path | None = None) -> tuple[list[SavedGame], list[str]]:
    """The saved games that can go on, the latest saved first, from their headers only (their turns are
    read when used), and one line for each file that could not be read. A finished game's save
    is left out: there is nothing to resume."""
    folder = directory or saves_dir()
    games, problems = [], []
    paths = [*folder.glob("*.json"), *folder.glob("*.jsonl")] if folder.is_dir() else []
    for path in sorted(paths, key=lambda p: p.name, reverse=True):
        try:
            game = _listed(path)
        except SaveError as exc:
            problems.append(str(exc))
        else:
            games += [] if game.finished else [game]
    games.sort(key=lambda game: game.saved_at, reverse=True)  # a game saved again keeps its file's name
    return games, problems


# --- inside ---------------------------------------------------------------------


def _lines(game: SavedGame) -> list[str]:
    """The save's lines: its inputs played again through a fresh engine give each turn's status
    and hash, and must end in the state the game was saved in."""
    engine = Game.new(game.seed, game.preset, game.difficulty)
    header = ReplayHeader(game.seed, game.preset, game.difficulty, game.user, game.minotaur, game.max_turns,
                          game.saved_at, engine.state.digest(), state_version=engine.state.version)
    turns, status = [], None
    for number, (user, minotaur) in enumerate(game.turns, 1):
        result = engine.step(user, minotaur)
        status = result.response.status
        turns.append(as_line(turn_line(RecordedTurn(number, user, minotaur, None, None, result.response.status,
                                                    result.state.digest()))))
    if engine.state.digest() != game.digest:
        raise SaveError(f"the game does not play again to its state ({game.digest}), so it was not saved")
    recorded: dict[str, Any] = {"replay_file": game.replay_file} if game.replay_file else {}
    history = kept_history(game.history)
    if history:
        recorded["history"] = history
    return [as_line(header_line(header, saved_at=game.saved_at, summary=game.summary, turns=len(turns),
                                hash=game.digest, status=status, **recorded)), *turns]


def _read(path: Path, read: Callable[[Path, int], bytes], size: int) -> bytes:
    try:
        return read(path, size)
    except OSError as exc:  # not there, not a file, too large, unreadable
        raise SaveError(str(exc) if isinstance(exc, StorageError) else
                        f"{path}: cannot read it ({exc.strerror or exc})") from None


def _listed(path: Path) -> SavedGame:
    first, newline, _ = _read(path, read_start, HEADER_BYTES).partition(b"\n")
    head = _head(path, first) if newline else None
    if head is not None and head["format"] == FORMAT:
        saved = _validated(path, Saved, head)
        return _game(path, saved, _replay_header(path, head), SavedTurns(path, saved.turns, saved.hash))
    if head is None or head["version"] == 1:
        return load_game(path)  # version 1: one object, read in full but bounded by SAVE_BYTES
    header = _validated(path, OldHeader, head)
    return _old_game(path, header, SavedTurns(path, header.turns, header.hash))


def _json(path: Path, raw: bytes, what: str) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # bad JSON or UTF-8, absurd numbers or nesting
        raise SaveError(f"{path}: not a saved game ({what} is not valid JSON)") from None


def _head(path: Path, raw: bytes) -> dict[str, Any]:
    """The first line's object, if it is a saved game of a format and version this game reads."""
    data = _json(path, raw, "its first line")
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, OLD_FORMAT):
        raise SaveError(f"{path}: not a saved game")
    if data["format"] == OLD_FORMAT and (data.get("version") not in (1, 2) or isinstance(data.get("version"), bool)):
        raise SaveError(f"{path}: a saved game of version {str(data.get('version'))[:20]!r}; "
                        f"this game reads 1 and 2")
    return data


def _replay_header(path: Path, head: dict[str, Any]) -> ReplayHeader:
    try:
        return parse_header(head, [])
    except ReplayError as exc:
        raise SaveError(f"{path}: broken header ({exc})") from None


def _replay(path: Path, data: bytes) -> tuple[Saved, Replay]:
    """A save of the replay format read in full: no final line, as many turns as its header
    says, the last one ending in its hash."""
    try:
        replay = parse_replay(path, data)
    except ReplayError as exc:
        raise SaveError(f"broken saved game: {exc}") from None
    saved = _validated(path, Saved, _json(path, data.partition(b"\n")[0], "its first line"))
    if replay.end is not None:
        raise SaveError(f"{path}: a finished match, not a saved game")
    _count(path, len(replay.turns), saved.turns)
    last = replay.turns[-1].hash if replay.turns else replay.header.initial_hash
    if last != saved.hash:
        raise SaveError(f"{path}: broken saved game: the header's hash {saved.hash[:20]!r} is not the last turn's")
    return saved, replay


def _count(path: Path, found: int, said: int) -> None:
    if found != said:
        raise SaveError(f"{path}: broken saved game: {found} turns where the header says {said}")


def _validated(path: Path, model: type[Model], data: dict[str, Any]) -> Model:
    try:
        return model.model_validate(data)
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


def _unrecorded(game: SavedGame, state_version: int | None = None) -> Replay:
    """A game whose file kept no hash but the last (an older save, of ``state_version``, or one not yet
    written, of this engine's) as a replay: the final hash goes with the last turn, or is the initial
    state's when none was played."""
    turns = list(game.turns)
    header = ReplayHeader(game.seed, game.preset, game.difficulty, game.user, game.minotaur, game.max_turns,
                          game.saved_at, None if turns else game.digest, state_version=state_version)
    recorded = [RecordedTurn(number, user, minotaur, None, None, None, game.digest if number == len(turns) else None)
                for number, (user, minotaur) in enumerate(turns, 1)]
    return Replay(game.path, header, recorded, None, [])


def _game(path: Path, saved: Saved, header: ReplayHeader, turns: SavedTurns) -> SavedGame:
    return SavedGame(Path(path), saved.saved_at, header.seed, header.preset, header.difficulty, header.minotaur_agent,
                     turns, saved.hash, saved.summary, header.user_agent, header.max_turns, saved.status in ENDINGS,
                     saved.replay_file, saved.history)


def _old_game(path: Path, header: OldHeader, turns: Sequence[Turn]) -> SavedGame:
    return SavedGame(Path(path), header.saved_at, header.seed, header.preset, header.difficulty, header.minotaur,
                     turns, header.hash, header.summary)
