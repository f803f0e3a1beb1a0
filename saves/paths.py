"""Where the Labyrinth keeps its files: the user's data directory, as the
platform expects it (platformdirs; on Linux $XDG_DATA_HOME/labyrinth, by
default ~/.local/share/labyrinth)."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_path

APP_NAME = "labyrinth"


def data_dir() -> Path:
    """The user's data directory for the game; not created here, writers create what they need."""
    # appauthor=False: on Windows the author would otherwise add a second "labyrinth" level.
    return user_data_path(APP_NAME, appauthor=False)


def replays_dir() -> Path:
    """Where recorded matches go unless the caller names another directory."""
    return data_dir() / "replays"
