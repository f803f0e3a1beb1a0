"""The recorded matches as a player chooses among them: for each replay file, when it was played,
on what ground and difficulty, who played each role, how it ended, in how many turns and how much
game time. Only a file's first and last lines are parsed (its turns are checked when it is played
back), so a folder of long matches lists quickly. A file that is no readable replay is listed too,
with why, and never stops the list."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .paths import StorageError, replays_dir
from .reading import read_regular
from .replays import (
    REPLAY_BYTES,
    ReplayEnd,
    ReplayError,
    ReplayHeader,
    line_object,
    parse_end,
    parse_header,
    past_limit,
)


@dataclass(frozen=True)
class ReplaySummary:
    """One replay file as the list shows it; ``problem`` says why it cannot be read (then nothing else is known)."""

    path: Path
    header: ReplayHeader | None = None
    turns: int = 0  # complete turn lines
    end: ReplayEnd | None = None  # None: the match stopped before its end (left, or a crash)
    problem: str | None = None


def list_replays(directory: Path | None = None) -> list[ReplaySummary]:
    """Every replay file of ``directory`` (default: the replays directory), the latest played first;
    the unreadable ones after them, by name."""
    folder = directory or replays_dir()
    found = [summarize(path) for path in folder.glob("*.jsonl")] if folder.is_dir() else []
    dated = [(s.header.created_at, s) for s in found if s.header is not None]
    readable = [s for _, s in sorted(dated, key=lambda d: (d[0], d[1].path.name), reverse=True)]
    return readable + sorted((s for s in found if not s.header), key=lambda s: s.path.name)


def summarize(path: Path) -> ReplaySummary:
    """What ``path``'s header and final line say; a summary with ``problem`` for anything else."""
    try:
        data = read_regular(path, REPLAY_BYTES)
    except OSError as exc:  # gone, not a regular file, too large, unreadable
        said = str(exc) if isinstance(exc, StorageError) else exc.strerror or str(exc)
        return ReplaySummary(path, problem=said.removeprefix(f"{path}: "))
    *complete, _ = data.split(b"\n")  # what follows the last newline was cut off mid-write
    if not complete:
        return ReplaySummary(path, problem="not a Labyrinth replay: empty, or no complete first line")
    number = 1  # the line read, counted from 1 (the header)
    try:
        header = parse_header(line_object(complete[0]), [])
        number = len(complete)
        last = line_object(complete[-1]) if number > 1 else {}
        ended = last.get("type") == "final"
        turns = number - 1 - ended
        end = parse_end(last, turns) if ended else None
        if ended and (problem := past_limit(header, turns)):  # as read_replay refuses it
            return ReplaySummary(path, problem=f"not a Labyrinth replay: {problem}")
        return ReplaySummary(path, header, turns, end)
    except ReplayError as exc:
        return ReplaySummary(path, problem=f"not a Labyrinth replay: line {number}: {exc}")
