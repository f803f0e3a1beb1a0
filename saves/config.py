"""The user's config file: TOML in the user config directory
(platformdirs; on Linux $XDG_CONFIG_HOME/labyrinth/config.toml). Read only."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from platformdirs import user_config_path

from .paths import APP_NAME


class ConfigError(ValueError):
    """A config file that cannot be read; ``str()`` is one line for the user."""


def config_path() -> Path:
    return user_config_path(APP_NAME, appauthor=False) / "config.toml"


def read_config(path: Path | None = None) -> dict[str, Any]:
    """The config file's tables ({} when there is none); ConfigError naming the problem otherwise."""
    path = path or config_path()
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
