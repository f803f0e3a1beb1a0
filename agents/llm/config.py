"""Which model each provider uses, where, with what key and what sampling settings: the
command line's flags first, then the environment, then the config file's table of the
provider, then the defaults. The variables, the defaults and whether a key is needed are
the provider's row (saves/providers.py). A key is never shown: it is a Secret.

Settings are checked where they are read, from any of those places: a key is printable
ASCII, a base URL an http(s) URL with a host the HTTP clients take and a valid port, each
(and a model's name) of a bounded length, and
OLLAMA_HOST one of the forms the ollama client takes (``host``, ``host:port``, ``:port``,
a URL). A bad one is a ConfigError of one line naming the setting and what is wrong,
before any call is made.

A model's settings also say who it is in published results (``setup``): the provider, the
model, the endpoint (without its user-info or query, which may hold a password) and the
sampling settings. The same model id behind another server, or asked with another
temperature, is another contestant."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from labyrinth.engine.commands import excerpt
from labyrinth.saves.config import (
    DEFAULT_TIMEOUT_S,
    HOLD,
    RPM,
    TIMEOUT,
    ConfigError,
    key_problem,
    model_problem,
    read_config,
    url_problem,
    validated,
)
from labyrinth.saves.providers import PROVIDERS
from labyrinth.saves.results_terms import fingerprint

from .providers.limits import QUOTA_WAIT_S, REPLY_TOKENS
from .providers.secrets import public_url, redact, remember, remember_url

DEFAULT_TEMPERATURE = 0.7  # what a model is asked with unless its contestant says otherwise
URL_SHOWN_CHARS = 120  # the most of a bad URL a message quotes


class Secret:
    """A key that does not show: not in repr, str, f-strings, dataclasses.asdict copies or
    logs, and json.dumps refuses it. Only the transport asks for it, with reveal()."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value
        remember(value)  # and never shown in text that leaves the provider layer (providers/secrets.py)

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret(<hidden>)"

    __str__ = __repr__

    def __bool__(self) -> bool:
        return bool(self._value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class ProviderSettings:
    provider: str
    model: str
    base_url: str | None
    api_key: Secret | None = None  # a plain str is wrapped
    timeout_s: float = DEFAULT_TIMEOUT_S
    key_source: str | None = None  # where the key came from (a variable's name, "config file"), for doctor
    rpm: float | None = None  # at most this many requests start in any minute (None: as fast as answered)
    temperature: float = DEFAULT_TEMPERATURE  # left out for a model that refuses one (a reasoning model)
    max_tokens: int = REPLY_TOKENS  # the answer's budget; a reasoning model is given its reasoning's on top
    reasoning_effort: str | None = None  # a reasoning model's effort (None: the least that plays well)
    hold_s: float = QUOTA_WAIT_S  # the longest a quota's wait may hold a call (--hold-limit); not who the model is
    price_in: float | None = None  # US dollars per million tokens in, for the reports' cost; not who the model is
    price_out: float | None = None  # ... and out (reasoning included)
    # What to set when it has no key, if not the provider's variables: a contestant with an endpoint of its
    # own is given only its table's key (registry._with_table). Not who the model is.
    key_advice: str | None = field(default=None, compare=False)
    # A key was named for it (a contestant's api_key_env) and is not there: not ready, even where the provider
    # needs none (an Ollama or a server of one's own that was meant to be sent that key).
    key_missing: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.api_key, str):
            object.__setattr__(self, "api_key", Secret(self.api_key) if self.api_key else None)
        remember_url(self.base_url)

    @property
    def endpoint(self) -> str:
        return self.base_url or PROVIDERS[self.provider].url

    @property
    def player(self) -> str:
        """The model as a player is named, ``provider/model`` by its row's name (whichever SDK speaks to it)."""
        return f"{self.provider}/{self.model}"

    @property
    def public_endpoint(self) -> str:
        """The endpoint as results may show it: without user-info, query or fragment (a password or
        a key can hide in each)."""
        return public_url(self.endpoint)

    def public(self) -> dict[str, Any]:
        """What makes this model the contestant it is, as a results row keeps it: never a key."""
        return {"provider": self.provider, "model": self.model, "endpoint": self.public_endpoint,
                "temperature": self.temperature, "max_tokens": self.max_tokens,
                "reasoning_effort": self.reasoning_effort}

    def prices(self) -> dict[str, float]:
        """Its prices as a results row keeps them beside its settings ({} when none is set)."""
        return {name: price for name in ("price_in", "price_out") if (price := getattr(self, name)) is not None}

    @cached_property
    def setup(self) -> str:
        """A short fingerprint of ``public()``: two contestants with the same one play alike."""
        return fingerprint(self.public())

    @property
    def configured(self) -> bool:
        """Ready to call: a key where the provider needs one (its row's ``keyless``), and the key named for it."""
        return bool(self.api_key) or (not self.key_missing and PROVIDERS[self.provider].keyless(self.endpoint))


def provider_settings(provider: str, flags: dict[str, Any] | None = None, environ: dict[str, str] | None = None,
                      config: dict[str, Any] | None = None) -> ProviderSettings:
    """The settings of ``provider`` from flags, environment, config file and defaults, in that order."""
    if provider not in PROVIDERS:
        raise ValueError(f"no provider {provider!r}: choose one of {', '.join(PROVIDERS)}")
    row = PROVIDERS[provider]
    env = os.environ if environ is None else environ
    table = (read_config() if config is None else validated(config)).get(provider, {})
    flags = {k: v for k, v in (flags or {}).items() if v is not None}

    def pick(name: str, variables: tuple[str, ...], default: Any = None) -> tuple[Any, str | None]:
        if name in flags:
            return flags[name], "command line"
        for variable in variables:
            if env.get(variable):
                return env[variable], variable
        return (table[name], "config file") if name in table else (default, None)

    key, key_source = pick("api_key", row.key_variables)
    if key and (problem := key_problem(str(key))):
        raise ConfigError(f"the {provider} key from {_where(key_source)} {problem}")
    base_url, url_source = pick("base_url", (row.url_variable,))
    if base_url:
        base_url = checked_url(provider, str(base_url), _where(url_source))
    timeout_s, source = pick("timeout_s", (), DEFAULT_TIMEOUT_S)
    if source == "command line" and not TIMEOUT.holds(timeout_s):  # the file's is checked as it is read
        raise ConfigError(f"--llm-timeout {TIMEOUT.refusal(timeout_s)}")
    rpm, source = pick("rpm", ())
    if source == "command line" and not RPM.holds(rpm):
        raise ConfigError(f"--llm-rpm {RPM.refusal(rpm)}")
    hold_s = flags.get("hold_s", QUOTA_WAIT_S)
    if not HOLD.holds(hold_s):
        raise ConfigError(f"--hold-limit {HOLD.refusal(hold_s)}")
    model, source = pick("model", (row.model_variable,), row.model)
    if problem := model_problem(str(model)):
        raise ConfigError(f"the {provider} model from {_where(source)} {problem}")
    return ProviderSettings(provider, str(model), base_url, key, float(timeout_s), key_source,
                            None if rpm is None else float(rpm), hold_s=float(hold_s))


def remember_keys(environ: dict[str, str] | None = None, config: dict[str, Any] | None = None) -> None:
    """Every key and endpoint password the environment and the config file hold (each provider's, each
    contestant's), redacted from now on in this process: the last guard of text shown by a command that
    makes no model (a replay's transcript). A config file that cannot be read holds none."""
    env = os.environ if environ is None else environ
    try:
        tables = read_config() if config is None else validated(config)
    except ConfigError:
        tables = {}
    for name, row in PROVIDERS.items():
        table = tables.get(name, {})
        remember(*(env.get(variable) for variable in row.key_variables), table.get("api_key"))
        for url in (env.get(row.url_variable), table.get("base_url")):
            remember_url(url)
    for table in tables.get("contestants", {}).values():
        remember(table.get("api_key"), env.get(table.get("api_key_env") or ""))
        remember_url(table.get("base_url"))


def checked_url(provider: str, url: str, where: str) -> str:
    """``url`` as the endpoint of ``provider`` (the short forms of a provider that takes them, as
    OLLAMA_HOST does, made whole: ``host:port``, ``:port``), or ConfigError naming ``where`` it came
    from and what is wrong with it."""
    whole = url
    if PROVIDERS[provider].host_forms and "://" not in url:
        whole = "http://" + ("127.0.0.1" + url if url.startswith(":") else url)
    problem = url_problem(whole)
    if problem:
        remember_url(url)  # its password and its query's values, as settings made of it would
        shown = excerpt(redact(url[:URL_SHOWN_CHARS]))  # what was given, recognisable, never a password
        raise ConfigError(f"the {provider} endpoint from {where} ({shown}) {problem}")
    return whole


def _where(source: str | None) -> str:
    """Where a setting came from, as a message names it: a variable, the command line, the config file."""
    return {"command line": "the command line", "config file": "the config file", None: "the defaults"}.get(
        source, f"${source}" if source else "the defaults")
