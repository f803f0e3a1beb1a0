"""Agents' avatars in the Labyrinth: one roster file per agent in the user data
directory, written atomically. An avatar's game, when it sleeps, is an ordinary
saved game (saves/games.py), so the TUI's saved games list it too."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from labyrinth.engine.presets import unknown_setting
from labyrinth.engine.wsap import Avatar

from .atomic import write_json
from .paths import data_dir
from .reading import read_regular

VERSION = 1
ROSTER_BYTES = 1 << 20  # the most read of one roster: a few avatars are a few kB


class AvatarStoreError(ValueError):
    """A roster file that cannot be read; ``str()`` is one line for the user."""


@dataclass
class AvatarRecord:
    """An avatar and what the Labyrinth keeps about it beyond the protocol's fields."""

    avatar: Avatar
    seed: int
    preset: str
    difficulty: str
    opponent: str  # the agent that plays the Minotaur against it
    save: str | None = None  # the saved game it sleeps in, when dormant or suspended
    stones_ever: list[str] = field(default_factory=list)  # every stone it has ever held, across lives

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["avatar"]["state"] = self.avatar.state.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AvatarRecord:
        """A record read back, every field checked and of its kind; a ValueError (ValidationError) otherwise."""
        record = _RECORD.validate_python(data)
        unknown = unknown_setting(record.preset, record.difficulty)
        if unknown:
            raise ValueError(unknown)
        return record


_RECORD = TypeAdapter(AvatarRecord)


def avatars_dir() -> Path:
    return data_dir() / "avatars"


def _roster_path(agent_id: str, directory: Path | None) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", agent_id).strip("_") or "agent"
    return (directory or avatars_dir()) / f"{safe}.json"


def load_roster(agent_id: str, directory: Path | None = None) -> list[AvatarRecord]:
    """The agent's avatars (none yet: an empty list); AvatarStoreError for a broken file."""
    path = _roster_path(agent_id, directory)
    try:
        data = json.loads(read_regular(path, ROSTER_BYTES))
    except FileNotFoundError:
        return []
    except OSError as exc:  # not a file, too large, unreadable
        raise AvatarStoreError(str(exc)) from None
    except (ValueError, RecursionError):
        raise AvatarStoreError(f"{path}: broken roster (not valid JSON)") from None
    try:
        if not isinstance(data, dict) or data.get("version") != VERSION or data.get("agent_id") != agent_id:
            raise AvatarStoreError(f"{path}: not a version {VERSION} roster of {agent_id!r}")
        return [AvatarRecord.from_dict(item) for item in data["avatars"]]
    except AvatarStoreError:
        raise
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        raise AvatarStoreError(f"{path}: broken roster ({'.'.join(map(str, problem['loc']))}: {problem['msg']})"
                               ) from None
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise AvatarStoreError(f"{path}: broken roster ({type(exc).__name__}: {str(exc)[:200]})") from None


def store_roster(agent_id: str, records: list[AvatarRecord], directory: Path | None = None) -> None:
    write_json(_roster_path(agent_id, directory),
               {"version": VERSION, "agent_id": agent_id, "avatars": [r.to_dict() for r in records]},
               directory or avatars_dir())
