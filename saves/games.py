"""Saved games: what was played, so that a game resumes identically.

A save holds the game's seed, preset and difficulty, which agent played the
Minotaur, every turn's engine inputs and the state hash at the end. Resuming
replays those inputs through a fresh engine (and lets the Minotaur's agent
re-live them), then checks the hash: the game goes on exactly where it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine import DIFFICULTIES, PRESETS, BadInput, MinotaurDecision, UserInput, parse

from .atomic import write_json
from .paths import data_dir

FORMAT = "labyrinth-save"
VERSION = 1


class SaveError(ValueError):
    """A file that is not a readable saved game; ``str()`` is one line for the user."""


def saves_dir() -> Path:
    return data_dir() / "saves"


@dataclass(frozen=True)
class SavedGame:
    path: Path | None
    saved_at: str
    seed: int
    preset: str
    difficulty: str
    minotaur: str  # the name of the agent that played the Minotaur
    turns: list[tuple[UserInput, MinotaurDecision]]
    digest: str  # the state hash after the last turn
    summary: str  # one line for a list of saves: level, stones, time

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "saved_at": self.saved_at, "seed": self.seed,
                "preset": self.preset, "difficulty": self.difficulty, "minotaur": self.minotaur,
                "turns": [[u.model_dump(exclude_none=True), m.model_dump(exclude_none=True)] for u, m in self.turns],
                "hash": self.digest, "summary": self.summary}


def save_game(game: SavedGame, directory: Path | None = None) -> Path:
    """Write ``game`` atomically into a new file named by the time; its path."""
    folder = directory or saves_dir()
    stamp = game.saved_at.replace(":", "").replace("-", "")[:15]
    path = folder / f"{stamp}-{game.preset}-seed{game.seed}.json"
    number = 2
    while path.exists():
        path = folder / f"{stamp}-{game.preset}-seed{game.seed}-{number}.json"
        number += 1
    write_json(path, game.to_dict())
    return path


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def load_game(path: Path) -> SavedGame:
    """Read a saved game; SaveError naming what is wrong otherwise."""
    try:
        data = json.loads(Path(path).read_bytes())
    except OSError as exc:
        raise SaveError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (ValueError, RecursionError):
        raise SaveError(f"{path}: not a saved game (not valid JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{path}: not a saved game")
    if data.get("version") != VERSION:
        raise SaveError(f"{path}: a saved game of version {data.get('version')!r}; this game reads {VERSION}")
    try:
        seed, preset, difficulty = data["seed"], data["preset"], data["difficulty"]
        if not isinstance(seed, int) or preset not in PRESETS or difficulty not in DIFFICULTIES:
            raise SaveError(f"{path}: broken header (seed {seed!r}, preset {preset!r}, difficulty {difficulty!r})")
        turns = [(parse(UserInput, user), parse(MinotaurDecision, minotaur)) for user, minotaur in data["turns"]]
        return SavedGame(Path(path), str(data["saved_at"]), seed, preset, difficulty, str(data["minotaur"]),
                         turns, str(data["hash"]), str(data.get("summary", "")))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SaveError):
            raise
        detail = exc if isinstance(exc, BadInput) else f"missing or wrong field {exc}"
        raise SaveError(f"{path}: broken saved game: {detail}") from None


def list_games(directory: Path | None = None) -> tuple[list[SavedGame], list[str]]:
    """The saved games, newest first, and one line for each file that could not be read."""
    folder = directory or saves_dir()
    games, problems = [], []
    for path in sorted(folder.glob("*.json"), reverse=True) if folder.is_dir() else []:
        try:
            games.append(load_game(path))
        except SaveError as exc:
            problems.append(str(exc))
    return games, problems
