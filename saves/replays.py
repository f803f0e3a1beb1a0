"""Replays: a match kept as JSON lines, written while it is played, read back
and re-run through a fresh engine to prove the game is the one recorded.

A replay file holds a header line (who played what; a model's system text and its
opening plan's exchange), one line per turn (the engine inputs both sides sent, why
a fallback replaced an answer, the status and the state hash after the turn, and
each model call's exchange: prompt, reply, what the request sent, the model that
answered, tokens, latency, error) and, once the match is over, a final line
(outcome and per-side stats). ``transcript`` reads every prompt and reply back in
order; a replay of an older release, without the plan or what was sent, gives what
it holds. Every line is flushed as it is written, so a
crash loses at most the turn in flight and the file stays readable up to the
last complete turn. A saved game is a replay without its final line (the game
goes on), whose header also says when it was saved (saves/games.py).

``first_mismatch`` is the one check that a recording is the game it says: a
replay verified, a saved game resumed, each turn played again and compared.
Its hashes are of the state version that recorded it (the header says which;
a replay of format 1 did not, and its initial hash tells), so an older recording
is checked on the fields its version held (engine/state_migrations.py).

The writer is the match runner's Recorder by shape only: ``saves`` never
imports ``agents``, it reads the attributes of what it is given.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TextIO

from labyrinth.engine import BadInput, Game, GameState, MinotaurDecision, UserInput, parse
from labyrinth.engine.presets import unknown_setting
from labyrinth.engine.schemas import OUTCOMES, Ending, Outcome, match_outcome
from labyrinth.engine.turn import TurnResult

from .build import build_id
from .clock import iso
from .experience import plain_text
from .outputs import write_output
from .paths import replays_dir
from .reading import read_regular
from .results_terms import ROLES

FORMAT = "labyrinth-replay"
# The format's versions: 1 (5d2acc1 to 05106cc) did not say which state version its hashes are of; 2 says it
# (state_version) and which build wrote the file (build). Both are read.
VERSION = 2
VERSIONS_READ = (1, 2)
FORMAT_1_STATES = (1, 0)  # the state versions a format-1 recording may be of: 1 from 4c09b2b, 0 before it
BUILD_CHARS = 100  # the most of a header's build kept: "0.1.0+g" and a commit with its changes' digest take 36
REPLAY_BYTES = 256 << 20  # the most read of one replay: a long match of a talkative model is a few MB
MAX_GAME_TIME_S = 1e12  # a final line claiming more is edited: no match lasts 30,000 years


class ReplayError(ValueError):
    """A file that is not a readable replay; ``str()`` is one line for the user."""


def _now() -> datetime:
    return datetime.now(UTC)


def _slug(name: str) -> str:
    """An agent's name made safe for a file name ("ollama/qwen3:8b" -> "ollama_qwen3_8b")."""
    return re.sub(r"[^A-Za-z0-9.]+", "_", name).strip("_") or "agent"


def replay_stem(preset: str, seed: int, user: str, minotaur: str, tag: str = "", began: datetime | None = None) -> str:
    """A replay file's name without .jsonl: when it began, the ground, the seed and both agents (and
    ``tag``, which tells apart matches of the same names: a repeat, a setup)."""
    began = began or _now()
    return (f"{began:%Y%m%d-%H%M%S}-{preset}-seed{seed}-{_slug(user)}-vs-{_slug(minotaur)}"
            f"{'-' + _slug(tag) if tag else ''}")


class ReplayWriter:
    """Records one match into a new file of ``directory`` (default: the user's
    replays directory), named ``stem``.jsonl when the caller chose the name (a tournament,
    whose claim on the match says which file its worker writes), else after the match.
    Give it to the match runner as its recorder; use it in a ``with`` block so the file
    is closed even when the match crashes."""

    def __init__(self, directory: Path | None = None, stem: str | None = None) -> None:
        self.directory = directory if directory is not None else replays_dir()
        self.stem = stem
        self.path: Path | None = None  # known once the match has started
        self._file: TextIO | None = None

    def start(self, match: Any) -> None:
        """Open the file, named by time, preset, seed and agents, and write the header."""
        began = _now()
        user, minotaur = match.user.name, match.minotaur.name
        stem = self.stem or replay_stem(match.preset, match.seed, user, minotaur, began=began)
        self.path, self._file = _create(self.directory, stem)
        state = match.game.state
        self._write(header_line(ReplayHeader(match.seed, match.preset, match.difficulty, user, minotaur,
                                             match.max_turns,
                                             iso(began),
                                             state.digest(), state_version=state.version),
                                **_lessons(match), **_system_prompts(match), **_plan_exchanges(match)))

    def turn(self, record: Any) -> None:
        self._write({"type": "turn", **record.to_dict()})

    def finish(self, result: Any) -> None:
        stats = result.to_dict()
        self._write({"type": "final", "outcome": result.outcome, "turns": result.turns,
                     "game_time": result.game_time, "stats": {"user": stats["user"], "minotaur": stats["minotaur"]}})
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _write(self, line: dict[str, Any]) -> None:
        assert self._file is not None, "the match has not started"
        self._file.write(as_line(line))
        self._file.flush()


def as_line(line: dict[str, Any]) -> str:
    return json.dumps(line, separators=(",", ":")) + "\n"


def header_line(header: ReplayHeader, **more: Any) -> dict[str, Any]:
    """The first line of a replay (or a save: ``more`` says when it was saved), written by this build."""
    assert header.state_version is not None, "a new file says which state version its hashes are of"
    return {"type": "header", "format": FORMAT, "version": VERSION, "created_at": header.created_at,
            "seed": header.seed, "preset": header.preset, "difficulty": header.difficulty,
            "agents": {"user": header.user_agent, "minotaur": header.minotaur_agent},
            "max_turns": header.max_turns, "initial_hash": header.initial_hash,
            "state_version": header.state_version, "build": build_id(), **more}


def turn_line(turn: RecordedTurn) -> dict[str, Any]:
    """A turn's line as a save writes it (the match runner's TurnRecord writes the same keys, and
    what an agent said)."""
    return {"type": "turn", "turn": turn.turn, "user": turn.user.model_dump(exclude_none=True),
            "minotaur": turn.minotaur.model_dump(exclude_none=True),
            "fallback": {"user": turn.user_fallback, "minotaur": turn.minotaur_fallback},
            "status": turn.status, "hash": turn.hash}


def _lessons(match: Any) -> dict[str, Any]:
    """The lessons of earlier games each agent was given: why it played as it did."""
    given = {role: [{"id": r.id, "text": r.key_reflection} for r in found]
             for role, found in getattr(match, "lessons", {}).items() if found}
    return {"lessons": given} if given else {}


def _system_prompts(match: Any) -> dict[str, Any]:
    """An LLM agent's system prompt, recorded once here rather than in every turn's exchange."""
    prompts = {role: getattr(agent, "system", None) for role, agent in (("user", match.user),
                                                                         ("minotaur", match.minotaur))}
    prompts = {role: text for role, text in prompts.items() if text}
    return {"system_prompts": prompts} if prompts else {}


def _plan_exchanges(match: Any) -> dict[str, Any]:
    """Each LLM agent's opening plan as asked and answered (an exchange as a turn's are), by role."""
    found = dict(getattr(match, "plan_exchanges", None) or {})
    return {"plan_exchanges": found} if found else {}


def _create(directory: Path, stem: str) -> tuple[Path, TextIO]:
    """A new file for ``stem``; exclusive creation, so matches started in the same
    second, even by other processes, get "-2", "-3"... instead of overwriting."""
    directory.mkdir(parents=True, exist_ok=True)
    path, n = directory / f"{stem}.jsonl", 1
    while True:
        try:
            return path, path.open("x", encoding="utf-8", newline="\n")
        except FileExistsError:
            n += 1
            path = directory / f"{stem}-{n}.jsonl"


# --- reading -------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayHeader:
    seed: int
    preset: str
    difficulty: str
    user_agent: str
    minotaur_agent: str
    max_turns: int | None  # None: a game without a limit (a person's, saved)
    created_at: str
    initial_hash: str | None  # None only for a save of the older format, which kept none
    lessons: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # per role: [{id, text}] given at setup
    system_prompts: dict[str, str] = field(default_factory=dict)  # per role: a model's system text
    plan_exchanges: dict[str, dict[str, Any]] = field(default_factory=dict)  # per role: a model's opening plan's call
    state_version: int | None = None  # the state version of its hashes; None: not said (format 1, hashed_at tells)
    build: str | None = None  # the build that wrote it (saves.build.build_id); None: format 1, which did not say


@dataclass(frozen=True)
class RecordedTurn:
    turn: int
    user: UserInput
    minotaur: MinotaurDecision
    user_fallback: str | None  # why the user's answer was replaced, if it was
    minotaur_fallback: str | None
    status: str | None  # None where not recorded: an older save kept only the hash after its last turn
    hash: str | None  # the state's digest after the turn
    exchanges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # per role: its model's calls, in order


@dataclass(frozen=True)
class ReplayEnd:
    outcome: Outcome
    turns: int
    game_time: float
    stats: dict[str, dict[str, Any]]  # per side, the runner's SideStats as a dict


@dataclass(frozen=True)
class Replay:
    path: Path | None  # None: a saved game not yet written
    header: ReplayHeader
    turns: list[RecordedTurn]
    end: ReplayEnd | None  # None when the match stopped before its end (a crash)
    notes: list[str]  # what the reader left out, and why


def write_story(replay: Path, text: str) -> Path:
    """Write a game's story (a plain-text summary) next to its replay, as ``replay``'s name with .txt,
    atomically, replacing one written before (a file the player may read and share: as the umask
    allows; never a directory, a FIFO or a device that stands there: outputs.write_output); its path.
    StorageError when the disk refuses or refused."""
    path = Path(replay).with_suffix(".txt")
    write_output(path, lambda out: out.write(text.encode()))
    return path


def read_replay(path: Path) -> Replay:
    """The replay in ``path``; ReplayError naming the line for anything else.
    A last line cut off mid-write is left out with a note, not an error."""
    try:
        data = read_regular(Path(path), REPLAY_BYTES)
    except OSError as exc:  # not there, not a regular file (a FIFO, a device), too large, unreadable
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}" if exc.strerror else str(exc)) from None
    return parse_replay(path, data)


def parse_replay(path: Path, data: bytes) -> Replay:
    """The replay that ``data``, read from ``path``, holds (read_replay's rules)."""
    *complete, tail = data.split(b"\n")  # tail: empty unless the last write was cut short
    lines, notes = [], []
    for number, raw in enumerate(complete, 1):
        try:
            lines.append(line_object(raw))
        except ReplayError as exc:
            what = "not a Labyrinth replay: " if number == 1 else ""
            raise ReplayError(f"{path}: {what}line {number}: {exc}") from None
    if tail.strip():
        try:
            lines.append(line_object(tail))
        except ReplayError:
            if not lines:
                raise ReplayError(f"{path}: not a Labyrinth replay (no complete first line)") from None
            notes.append(f"line {len(lines) + 1} was cut off mid-write and is ignored")
    if not lines:
        raise ReplayError(f"{path}: empty file, not a Labyrinth replay")
    try:
        header = parse_header(lines[0], notes)
    except ReplayError as exc:
        raise ReplayError(f"{path}: not a Labyrinth replay: {exc}") from None
    turns: list[RecordedTurn] = []
    end = None
    for number, line in enumerate(lines[1:], 2):
        try:
            if end is not None:
                raise ReplayError("a line after the final line")
            if line.get("type") == "final":
                end = parse_end(line, len(turns))
            else:
                turns.append(_turn(line, len(turns) + 1, notes))
        except ReplayError as exc:
            raise ReplayError(f"{path}: line {number}: {exc}") from None
    if end is not None and (problem := past_limit(header, len(turns))):  # a match ends at its limit; a save
        raise ReplayError(f"{path}: {problem}")  # (an avatar's, woken under a lower one) may have gone past it
    return Replay(Path(path), header, turns, end, notes)


def past_limit(header: ReplayHeader, turns: int) -> str | None:
    """What is wrong with a finished recording of ``turns`` turns under ``header``'s limit, naming the first
    line past it (counted from 1, the header), or None."""
    if header.max_turns is None or turns <= header.max_turns:
        return None
    return f"line {header.max_turns + 2}: a turn past the header's limit of {header.max_turns} turns"


def line_object(raw: bytes) -> dict[str, Any]:
    """One line of a replay as the JSON object it must be, or a ReplayError saying what it is instead."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, absurd numbers or nesting
        raise ReplayError("not valid JSON") from None
    if not isinstance(value, dict):
        raise ReplayError(f"expected a JSON object, got {type(value).__name__}")
    return value


_KINDS = {int: "an integer", str: "text", dict: "an object", (int, float): "a number"}


def _get(line: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``line[key]`` if it is of ``kind`` (never a boolean), else a ReplayError naming the key."""
    value = line.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ReplayError(f"{key!r} is missing or not {_KINDS[kind]}")
    return value


def parse_header(line: dict[str, Any], notes: list[str]) -> ReplayHeader:
    """A replay's first line (as JSON), or a ReplayError saying what is wrong with it; ``notes``
    gets what was left out."""
    if line.get("type") != "header" or line.get("format") != FORMAT:
        raise ReplayError("line 1 is not a replay header")
    version = line.get("version")
    if version not in VERSIONS_READ or isinstance(version, bool):
        raise ReplayError(f"format version {version!r:.20}; this Labyrinth reads versions "
                          f"{', '.join(map(str, VERSIONS_READ))}")
    state_version, build = ((_get(line, "state_version", int), _get(line, "build", str)) if version >= 2
                            else (None, None))
    if state_version is not None and state_version < 0:
        raise ReplayError(f"'state_version' is {state_version}, not a version")
    preset, difficulty = _get(line, "preset", str), _get(line, "difficulty", str)
    unknown = unknown_setting(preset, difficulty)
    if unknown:
        raise ReplayError(unknown)
    agents = _get(line, "agents", dict)
    max_turns = None if line.get("max_turns", 0) is None else _get(line, "max_turns", int)
    if max_turns is not None and max_turns < 1:
        raise ReplayError(f"'max_turns' is {max_turns}, not a number of turns")
    return ReplayHeader(_get(line, "seed", int), preset, difficulty, _get(agents, "user", str),
                        _get(agents, "minotaur", str), max_turns,
                        _get(line, "created_at", str), _get(line, "initial_hash", str),
                        _header_lessons(line, notes),
                        _by_role(line, "system_prompts", lambda text: isinstance(text, str), "texts", notes),
                        _by_role(line, "plan_exchanges", lambda call: isinstance(call, dict), "objects", notes),
                        state_version, None if build is None else plain_text(build[:BUILD_CHARS]))


def _header_lessons(line: dict[str, Any], notes: list[str]) -> dict[str, list[dict[str, str]]]:
    """The lessons each agent was given, by role (no key when none were). They only tell why the
    agents played as they did, so damaged ones are left out with a note, not refused."""
    given = line.get("lessons", {})
    if not isinstance(given, dict) or not all(
            role in ROLES and isinstance(found, list)
            and all(isinstance(r, dict) and isinstance(r.get("id"), str) and isinstance(r.get("text"), str)
                    for r in found)
            for role, found in given.items()):
        notes.append("the header's lessons are not a list of {id, text} per role and are left out")
        return {}
    return {role: [{"id": plain_text(r["id"]), "text": plain_text(r["text"])} for r in found]
            for role, found in given.items()}


def _by_role(line: dict[str, Any], key: str, fits: Callable[[Any], bool], kind: str, notes: list[str],
             where: str = "the header") -> dict[str, Any]:
    """``line[key]``, a value per role that ``fits`` (none: {}). What a model was told and said only tells
    why it played as it did, so a damaged one is left out with a note, not refused."""
    given = line.get(key, {})
    if isinstance(given, dict) and all(role in ROLES and fits(found) for role, found in given.items()):
        return given
    notes.append(f"{where}'s {key} are not {kind} by role and are left out")
    return {}


def _turn(line: dict[str, Any], expected: int, notes: list[str]) -> RecordedTurn:
    if line.get("type") != "turn":
        raise ReplayError(f"expected turn {expected}, got a line of type {line.get('type')!r}")
    if _get(line, "turn", int) != expected:
        raise ReplayError(f"expected turn {expected}, got turn {line['turn']}")
    try:
        user, minotaur = parse(UserInput, line.get("user")), parse(MinotaurDecision, line.get("minotaur"))
    except BadInput as exc:
        raise ReplayError(f"turn {expected}: {exc}") from None
    fallback = _get(line, "fallback", dict)
    reasons = fallback.get("user"), fallback.get("minotaur")
    if not all(r is None or isinstance(r, str) for r in reasons):
        raise ReplayError(f"turn {expected}: a fallback reason is neither text nor null")
    exchanges = _by_role(line, "exchanges", lambda calls: isinstance(calls, list) and
                         all(isinstance(call, dict) for call in calls), "lists of objects", notes, f"turn {expected}")
    return RecordedTurn(expected, user, minotaur, *reasons, _get(line, "status", str), _get(line, "hash", str),
                        exchanges)


def parse_end(line: dict[str, Any], recorded: int) -> ReplayEnd:
    """A replay's final line (as JSON), after ``recorded`` turns; ReplayError saying what is wrong."""
    turns = _get(line, "turns", int)
    if turns != recorded:
        raise ReplayError(f"the final line says {turns} turns, but {recorded} are recorded")
    stats = _get(line, "stats", dict)
    outcome = _get(line, "outcome", str)
    if outcome not in OUTCOMES:
        raise ReplayError(f"the final line's outcome {outcome[:40]!r} is none of {', '.join(OUTCOMES)}")
    return ReplayEnd(outcome, turns, _game_time(_get(line, "game_time", (int, float))),
                     {side: _get(stats, side, dict) for side in ROLES})


def _game_time(value: float) -> float:
    """A match's length in seconds: finite and not negative (an edited 10**400 has no float)."""
    seconds = float(value) if -MAX_GAME_TIME_S <= value <= MAX_GAME_TIME_S else math.inf
    if not 0 <= seconds <= MAX_GAME_TIME_S:
        raise ReplayError(f"'game_time' is not a time in seconds: {str(value)[:24]}")
    return seconds


# --- the transcript --------------------------------------------------------------

EXCHANGE_KEYS = ("outcome", "tokens_in", "tokens_out", "reasoning_tokens", "latency_s", "error", "finish_reason",
                 "blocked")  # what a transcript's line takes of a recorded exchange, besides its prompt and reply


def transcript(replay: Replay) -> Iterator[dict[str, Any]]:
    """Every prompt and reply ``replay`` holds, in order: each model's system text, its opening plan's
    exchange, then each turn's exchanges (a refused user's re-asks included), each with its role, turn
    (0 before the first), kind (system, plan, decision), prompt, reply, the parameters sent, output mode
    and model version (None where the replay kept none: an older one), tokens, latency and error."""
    header = replay.header
    for role, text in header.system_prompts.items():
        yield _said(role, 0, "system", {"prompt": text})
    for role, exchange in header.plan_exchanges.items():
        yield _said(role, 0, "plan", exchange)
    for turn in replay.turns:
        for role, exchanges in turn.exchanges.items():
            yield from (_said(role, turn.turn, "decision", exchange) for exchange in exchanges)


def _said(role: str, turn: int, kind: str, exchange: dict[str, Any]) -> dict[str, Any]:
    """One exchange as a transcript's line."""
    found = exchange.get("sent")
    sent: dict[str, Any] = found if isinstance(found, dict) else {}
    return {"role": role, "turn": turn, "kind": kind, "prompt": exchange.get("prompt"), "reply": exchange.get("reply"),
            "parameters": sent.get("parameters"), "output": sent.get("output"),
            **{key: sent[key] for key in ("system", "dropped") if key in sent},
            "model_version": exchange.get("model_version"), **{key: exchange.get(key) for key in EXCHANGE_KEYS}}


# --- verifying -----------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    turn: int  # 0 for the initial state
    detail: str
    cannot_check: bool = False  # this engine cannot check the recording at all (``detail`` says why)
    ending: bool = False  # every turn played back as recorded, and only the ending differs


Step = Callable[[UserInput, MinotaurDecision], TurnResult]


def first_mismatch(replay: Replay, step: Step | None = None, start: GameState | None = None) -> Mismatch | None:
    """Play the recorded inputs again; the first turn whose state hash or status differs from
    the recording (where it recorded them), or None if all agree. ``step`` plays one turn on a
    game whose state is ``start``: by default a fresh engine's ``Game.step`` (verifying a
    replay); a Match's ``replay_turn`` when a saved game is resumed into it. The hashes are
    compared as the recording's state version computed them (hashed_at): an older recording is
    checked on the fields its version held; one of a newer version cannot be checked here."""
    header = replay.header
    if step is None or start is None:
        game = Game.new(header.seed, header.preset, header.difficulty)
        step, start = game.step, game.state
    version = hashed_at(header, start)
    if version > start.version:
        return Mismatch(0, f"its hashes are of state version {version}, newer than this Labyrinth's "
                           f"{start.version}: only a release that knows that version can check them", True)
    if header.initial_hash is not None and start.digest(version) != header.initial_hash:
        return Mismatch(0, f"the initial state hashes to {start.digest(version)}, "
                           f"recorded {header.initial_hash} (another world or engine)")
    ending: Ending | None = None
    for recorded in replay.turns:
        result = step(recorded.user, recorded.minotaur)
        found = result.state.digest(version)
        if recorded.hash is not None and found != recorded.hash:
            return Mismatch(recorded.turn, f"state hash {found}, recorded {recorded.hash}{_written_by(header)}")
        if recorded.status is not None and result.response.status != recorded.status:
            return Mismatch(recorded.turn, f"status {result.response.status}, recorded {recorded.status}"
                                           f"{_written_by(header)}")
        ending = result.state.outcome
    outcome = match_outcome(ending, len(replay.turns), header.max_turns)  # as the match that recorded it ended
    if replay.end is not None and outcome != replay.end.outcome:
        played = f"outcome {outcome}" if outcome else \
            f"no outcome (the game goes on after turn {len(replay.turns)}, {_limit_words(header.max_turns)})"
        return Mismatch(len(replay.turns), f"{played}, recorded {replay.end.outcome}{_written_by(header)}",
                        ending=True)
    return None


def _limit_words(max_turns: int | None) -> str:
    return "with no turn limit" if max_turns is None else f"of at most {max_turns}"


def hashed_at(header: ReplayHeader, start: GameState) -> int:
    """The state version whose hashes a recording holds: its header's; for one of format 1, which did not
    say, the version whose hash of ``start`` (the initial state) it recorded, this engine's when it recorded
    none (a game not yet written) or when none matches (its turn 0 then differs)."""
    if header.state_version is not None:
        return header.state_version
    tried = [version for version in FORMAT_1_STATES if version < start.version]
    return next((version for version in tried if start.digest(version) == header.initial_hash), start.version)


def _written_by(header: ReplayHeader) -> str:
    """Which build wrote a recording, when it is not this one: a difference may be of the rules, not an edit."""
    if header.build is None:
        return (" (recorded by a release that did not name its build: if its rules differ from this one's, "
                "the same inputs play another game)")
    if header.build != build_id():
        return f" (recorded by build {header.build}, this is {build_id()}: if their rules differ, the same inputs " \
               "play another game)"
    return ""
