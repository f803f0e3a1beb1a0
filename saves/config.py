"""The user's config file: TOML in the user config directory
(platformdirs; on Linux $XDG_CONFIG_HOME/labyrinth/config.toml). Read only.

The file is checked in full when it is read: only the [gemini], [mistral],
[ollama] and [openai] tables, only their known keys, each of its kind (a timeout a
finite number of seconds in range), so that a typo or a wrong value is named
at once rather than making every model call fail later."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from platformdirs import user_config_path
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from labyrinth.engine.commands import EXCERPT_CHARS, excerpt

from .paths import APP_NAME, StorageError
from .reading import read_regular

CONFIG_BYTES = 1 << 20  # the most read of the config file
MAX_TIMEOUT_S = 3600.0  # the longest one model call may be given
MAX_RPM = 100_000.0  # the fastest pace of requests a minute that may be set


def timeout_ok(seconds: float) -> bool:
    """Whether ``seconds`` may bound a model call (from the file, a flag or code): above 0, at most
    MAX_TIMEOUT_S, so neither inf nor nan (which fail every comparison)."""
    return 0 < seconds <= MAX_TIMEOUT_S


def rpm_ok(rpm: float) -> bool:
    """Whether ``rpm`` may pace a provider's requests: above 0, at most MAX_RPM (neither inf nor nan)."""
    return 0 < rpm <= MAX_RPM


class ConfigError(ValueError):
    """A config file that cannot be read; ``str()`` is one line for the user."""


class ProviderTable(BaseModel):
    """One provider's table: each key optional, the environment and the defaults fill the rest."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    model: str | None = Field(None, min_length=1, max_length=200, description="the model's name")
    base_url: str | None = Field(None, min_length=1, max_length=2000, description="the endpoint")
    api_key: str | None = Field(None, max_length=1000, description="the key (the environment's wins)")
    timeout_s: float | None = Field(None, gt=0, le=MAX_TIMEOUT_S, allow_inf_nan=False,
                                    description="the longest one model call may take, in seconds")
    rpm: float | None = Field(None, gt=0, le=MAX_RPM, allow_inf_nan=False,
                              description="at most this many requests a minute (--llm-rpm)")


class ConfigFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    gemini: ProviderTable | None = None
    mistral: ProviderTable | None = None
    ollama: ProviderTable | None = None
    openai: ProviderTable | None = None


def config_path() -> Path:
    return user_config_path(APP_NAME, appauthor=False) / "config.toml"


def read_config(path: Path | None = None) -> dict[str, Any]:
    """The config file's tables, each only with the keys it sets ({} when there is no file);
    ConfigError naming the file, the field and the problem otherwise."""
    path = path or config_path()
    try:
        text = read_regular(path, CONFIG_BYTES).decode("utf-8")
    except FileNotFoundError:
        return {}
    except StorageError as exc:  # a directory, a FIFO, too large, unreadable
        raise ConfigError(str(exc)) from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    try:
        tables = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML (nested too deep)") from None
    except ValueError:  # Python reads an integer of at most 4,300 digits
        raise ConfigError(f"{path}: not valid TOML (a number too long)") from None
    return validated(tables, path)


def validated(tables: dict[str, Any], path: Path | None = None) -> dict[str, Any]:
    """``tables`` (a config file's, or the same given directly) checked, as plain tables of the keys set."""
    try:
        config = ConfigFile.model_validate(tables)
    except ValidationError as exc:
        raise ConfigError(f"{path or config_path()}: {_problem(exc.errors(include_url=False)[0])}") from None
    return {name: table.model_dump(exclude_none=True) for name in ConfigFile.model_fields
            if (table := getattr(config, name)) is not None}


def _problem(error: Any) -> str:
    """One validation error as ``[table] key: what is wrong``."""
    table, *key = [_named(str(part)) for part in error["loc"]] or ["?"]
    if error["type"] == "extra_forbidden":
        return (f"[{table}] {key[0]}: unknown key (known: {', '.join(ProviderTable.model_fields)})" if key else
                f"[{table}]: unknown table (known: {', '.join(f'[{n}]' for n in ConfigFile.model_fields)})")
    return f"[{table}]{' ' + '.'.join(key) if key else ''}: {error['msg']}"


def _named(part: str) -> str:
    """A table or key as the file wrote it, or an excerpt of it: a key can be any quoted string."""
    return part if len(part) <= EXCERPT_CHARS else excerpt(part)
