"""The config file's schema (saves/config.py reads the file): a pydantic model per table, checked in
full, and each validation error said as one line naming the table and the key. Its own module, so that
a command that reads no config file (the pipe, a game without a model) never builds these models."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, create_model, field_validator

from labyrinth.engine.commands import EXCERPT_CHARS, excerpt

from .config import (
    CONTESTANT_NAME,
    MAX_KEY_CHARS,
    MAX_URL_CHARS,
    PRICE,
    RPM,
    TEMPERATURE,
    TIMEOUT,
    TOKENS,
    Bound,
    ConfigError,
    Effort,
    config_path,
    key_problem,
    model_problem,
)
from .providers import PROVIDERS

if TYPE_CHECKING:
    ProviderName = str  # a Literal built from data is beyond a static checker: to it, a name is a str
else:
    ProviderName = Literal[tuple(PROVIDERS)]  # one of the rows' names, pydantic's message listing them
NUMBERS: dict[str, Bound] = {"timeout_s": TIMEOUT, "rpm": RPM, "temperature": TEMPERATURE, "max_tokens": TOKENS,
                             "price_in": PRICE, "price_out": PRICE}  # each number a table may hold, and its range


class ProviderTable(BaseModel):
    """One provider's table: each key optional, the environment and the defaults fill the rest."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    model: str | None = Field(None, description="the model's name (saves.config.model_problem)")
    base_url: str | None = Field(None, min_length=1, max_length=MAX_URL_CHARS, description="the endpoint")
    api_key: str | None = Field(None, max_length=MAX_KEY_CHARS, description="the key (the environment's wins)")
    timeout_s: float | None = Field(None, description="the longest one model call may take, in seconds (NUMBERS)")
    rpm: float | None = Field(None, description="at most this many requests a minute (--llm-rpm; NUMBERS)")

    @field_validator("api_key")
    @classmethod
    def _key(cls, key: str | None) -> str | None:
        if key and (problem := key_problem(key)):
            raise ValueError(f"the key {problem}")
        return key

    @field_validator("model")
    @classmethod
    def _model(cls, model: str | None) -> str | None:
        if model is not None and (problem := model_problem(model)):
            raise ValueError(f"the model's name {problem}")
        return model

    @field_validator("*", mode="before")
    @classmethod
    def _in_range(cls, value: Any, field: ValidationInfo) -> Any:
        """A number of NUMBERS in its range, checked before its type: whatever was written (a string, nan,
        a float for a count), the one line says the range."""
        bound = NUMBERS.get(field.field_name or "")
        if bound is not None and value is not None and not bound.holds(value):
            raise ValueError(bound.refusal(value))
        return value


class ContestantTable(ProviderTable):
    """A contestant: a model at an endpoint with its sampling settings, under a name of its own."""

    provider: ProviderName = Field(description="whose API it speaks")
    temperature: float | None = Field(None, description="sampling temperature (NUMBERS)")
    max_tokens: int | None = Field(None, description="the answer's token budget (NUMBERS)")
    reasoning_effort: Effort | None = Field(None, description="a reasoning model's effort")
    api_key_env: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,99}$",
                                    description="the environment variable holding its key")
    price_in: float | None = Field(None, description="US dollars per million input tokens, for the reports' cost")
    price_out: float | None = Field(None, description="US dollars per million output tokens (reasoning included)")


_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)
_TABLES: dict[str, Any] = {name: (ProviderTable | None, None) for name in PROVIDERS}
_ProviderTables: Any = create_model("ProviderTables", __config__=_STRICT, **_TABLES)  # a field per row


class ConfigFile(_ProviderTables):
    """The whole file: a table per provider, in the rows' order (an unknown table's message lists
    them so), then the contestants."""

    model_config = _STRICT
    contestants: dict[str, ContestantTable] | None = None
    keys: dict[str, Any] | None = Field(None, description="the game map's keys, remapped (checked by the game)")
    options: dict[str, Any] | None = Field(None, description="what a player sets: theme, map margin (the game's)")

    @field_validator("contestants")
    @classmethod
    def _names(cls, tables: dict[str, ContestantTable] | None) -> dict[str, ContestantTable] | None:
        for name in tables or {}:
            if not CONTESTANT_NAME.fullmatch(name) or name in PROVIDERS:
                raise ValueError(f"{name!r} cannot name a contestant: use letters, digits, '.', '_' and '-' "
                                 "(at most 64, no '/'), and not a provider's name")
        return tables


def validated(tables: dict[str, Any], path: Path | None = None) -> dict[str, Any]:
    """``tables`` (a config file's, or the same given directly) checked, as plain tables of the keys set."""
    try:
        config = ConfigFile.model_validate(tables)
    except ValidationError as exc:
        raise ConfigError(f"{path or config_path()}: {_problem(exc.errors(include_url=False)[0])}") from None
    tables = {name: table.model_dump(exclude_none=True) for name in PROVIDERS
              if (table := getattr(config, name)) is not None}
    if config.contestants:
        tables["contestants"] = {name: table.model_dump(exclude_none=True)
                                 for name, table in config.contestants.items()}
    tables.update({name: table for name in ("keys", "options") if (table := getattr(config, name)) is not None})
    return tables


def _problem(error: Any) -> str:
    """One validation error as ``[table] key: what is wrong`` (a contestant's table as
    ``[contestants.NAME]``)."""
    parts = [_named(str(part)) for part in error["loc"]] or ["?"]
    known = ProviderTable.model_fields
    if parts[0] == "contestants" and len(parts) > 1:  # a contestant's own (its names' check is the whole table's)
        parts = [f"contestants.{parts[1]}", *parts[2:]]
        known = ContestantTable.model_fields
    table, *key = parts
    if error["type"] == "extra_forbidden":
        return (f"[{table}] {key[0]}: unknown key (known: {', '.join(known)})" if key else
                f"[{table}]: unknown table (known: {', '.join(f'[{n}]' for n in ConfigFile.model_fields)})")
    if error["type"] in ("model_type", "dict_type"):  # pydantic's words name our classes
        return f"[{table}]: should be a table (\"[{table}]\" on a line, its keys below it), not {_kind(error['input'])}"
    message = error["msg"].removeprefix("Value error, ")
    return f"[{table}]{' ' + '.'.join(key) if key else ''}: {message}"


def _kind(value: object) -> str:
    """What TOML value ``value`` is, in a TOML user's words."""
    for kind, word in ((bool, "true or false"), (int, "a number"), (float, "a number"), (str, "a string"),
                       (list, "an array")):
        if isinstance(value, kind):
            return word
    return "a date or time"  # what else TOML reads


def _named(part: str) -> str:
    """A table or key as the file wrote it, or an excerpt of it: a key can be any quoted string."""
    return part if len(part) <= EXCERPT_CHARS else excerpt(part)
