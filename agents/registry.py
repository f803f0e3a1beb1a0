"""Agents by name, as the command line and the TUI offer them: the rule agents,
and an LLM agent on each provider for either role.

Names are written the way LiteLLM users write models: a rule agent's name
(``builtin``, ``random``, ``wait``), a provider's name alone (its configured or
default model), ``provider/model`` (``gemini/gemini-2.5-flash``,
``ollama/qwen3:8b``), or the name of a contestant of the config file (a
``[contestants.NAME]`` table: a model at an endpoint with its settings). One parser
(``parse_contestant``) reads them all, for every front that picks agents."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import import_module
from typing import TYPE_CHECKING, Any

from labyrinth.engine.commands import excerpt
from labyrinth.saves.config import ConfigError, key_problem, model_problem, read_config
from labyrinth.saves.providers import PROVIDERS
from labyrinth.saves.results_terms import ROLE_WORDS

from .base import ProjectAgent
from .builtin.rule_agents import MINOTAUR_AGENTS, RULE_AGENTS, USER_AGENTS, taught

if TYPE_CHECKING:  # the LLM modules load when a model is asked for (start-up): see make_agent; lessons when learnt
    from labyrinth.saves.experience import Reflection

    from .learning.behaviour_lessons import Book
    from .llm.config import ProviderSettings
    from .llm.providers.base import Transport

class ProviderNotConfigured(ValueError):
    """An LLM agent asked for on a provider without a key; ``str()`` says how to set one."""


class UnknownContestant(ValueError):
    """A name that is no agent of its role; ``str()`` lists the names that are."""


@dataclass(frozen=True)
class Contestant:
    """A player of one role, by name: a rule agent (``provider`` None), a model on a provider
    (``model`` None: the provider's configured or default one), or a contestant of the config
    file (``table``: its settings, which win over the provider's)."""

    role: str
    name: str  # as written
    provider: str | None = None
    model: str | None = None
    table: Mapping[str, Any] | None = None  # a [contestants.NAME] table of the config file

    def settings(self, providers: Mapping[str, ProviderSettings] | None = None) -> ProviderSettings:
        """This model's settings: those ``providers`` holds under its name when the front resolved it
        already, else the provider's (``providers``' when given, else the environment's and config's)
        with this contestant's model, or its table's settings over them. A contestant with an
        endpoint of its own is given only its own key (its table's ``api_key`` or ``api_key_env``):
        the provider's key is never sent to another server; one naming ``api_key_env`` only that
        variable's (unset, it is not configured). ConfigError for a bad setting."""
        providers = providers or {}
        if self.name in providers:  # resolved by the front, under the name it was given
            return providers[self.name]
        if self.provider is None:
            raise ValueError(f"{self.name} is a rule agent: it has no provider settings")
        from .llm.config import provider_settings  # a model's settings: loaded only for one (start-up)

        settings = providers.get(self.provider) or provider_settings(self.provider)
        if self.table is None:
            return replace(settings, model=self.model) if self.model else settings
        return _with_table(settings, self.name, self.table)

    def resolved(self, providers: Mapping[str, ProviderSettings] | None = None) -> str:
        """The full name: ``provider/model`` with the model the bare provider name stands for, so that
        ``gemini`` and ``gemini/gemini-2.5-flash`` are one contestant in a results table; a config
        contestant's own name."""
        if self.provider is None or self.table is not None:
            return self.name
        return self.settings(providers).player

    def setup(self, providers: Mapping[str, ProviderSettings] | None = None) -> str:
        """Who this contestant is beyond its name, in results: its settings' fingerprint ("" for a rule agent)."""
        return "" if self.provider is None else self.settings(providers).setup


def _with_table(settings: ProviderSettings, name: str, table: Mapping[str, Any]) -> ProviderSettings:
    """``settings`` with a config contestant's table over them."""
    from .llm.config import checked_url  # a model's settings: loaded only for one (start-up)

    where = f"[contestants.{name}] in the config file"
    changes = {key: table[key] for key in ("model", "timeout_s", "rpm", "temperature", "max_tokens",
                                           "reasoning_effort", "price_in", "price_out") if key in table}
    if "base_url" in table:
        changes["base_url"] = checked_url(settings.provider, table["base_url"], where)
        changes["api_key"], changes["key_source"] = None, None  # the provider's key stays with the provider
        changes["key_advice"] = _own_key_advice(settings.provider, name, table)
    if "api_key" in table:
        changes["api_key"], changes["key_source"] = table["api_key"], where
    elif env_key := table.get("api_key_env"):
        if not os.environ.get(env_key):  # named and unset: the provider's key is never taken in its place
            changes["api_key"], changes["key_source"] = None, None
            changes["key_advice"] = _own_key_advice(settings.provider, name, table)
            changes["key_missing"] = True
        elif problem := key_problem(os.environ[env_key]):
            raise ConfigError(f"the key in ${env_key} (named by {where}) {problem}")
        else:
            changes["api_key"], changes["key_source"] = os.environ[env_key], env_key
    typed: dict[str, Any] = {key: float(value) if key in ("timeout_s", "rpm", "temperature", "price_in", "price_out")
                             else value
                             for key, value in changes.items()}
    return replace(settings, **typed)


def _own_key_advice(provider: str, name: str, table: Mapping[str, Any]) -> str:
    """What a contestant that brings its own key and has none is told to set: its table's key. One with an
    endpoint of its own, for the provider's key is never sent to another server; one that names a variable
    (``api_key_env``), for a key it did not name is not spent in its place (another account's, perhaps)."""
    from labyrinth.saves.config import config_path

    named = f"${table['api_key_env']} (its api_key_env), or api_key" if table.get("api_key_env") else \
        "api_key or api_key_env"
    if "base_url" not in table:
        return f"{name} ({provider}) has no key: set {named} under [contestants.{name}] in {config_path()}"
    variables = " or ".join(PROVIDERS[provider].key_variables)
    return (f"{name} ({provider} at an endpoint of its own) has no key: set {named} under [contestants.{name}] in "
            f"{config_path()} ({variables} goes only to {provider}'s own endpoint)")


def configured_contestants() -> dict[str, Mapping[str, Any]]:
    """The config file's contestants by name ({} without a file), but those named as a rule agent
    (contestant_problems); ConfigError for a broken file."""
    contestants: dict[str, Mapping[str, Any]] = read_config().get("contestants", {})  # the file's schema checks them
    shadowed = _rule_named(contestants)
    return {name: table for name, table in contestants.items() if name not in shadowed}


def contestant_problems() -> dict[str, str]:
    """The config file's contestants its schema cannot refuse, by name, each with what is wrong: one named as
    a rule agent, which that name plays wherever the agent exists (the table could not be played alike for
    both roles, so it is played for neither); ConfigError for a broken file."""
    return _rule_named(read_config().get("contestants", {}))


def _rule_named(contestants: Mapping[str, Any]) -> dict[str, str]:
    found = {}
    for name in contestants:
        if taken := [f"the {ROLE_WORDS[role]}'s" for role, agents in RULE_AGENTS.items() if name in agents]:
            found[name] = (f"[contestants.{name}]: {name!r} is a rule agent's name ({' and '.join(taken)}), which "
                           f"plays that agent, not this table: name the contestant otherwise")
    return found


def contestant_names(role: str) -> str:
    """The names ``role`` accepts, as a message lists them."""
    return ", ".join([*RULE_AGENTS[role], *(f"{p}, {p}/<model>" for p in PROVIDERS),
                      "or a contestant of the config file ([contestants.NAME])"])


def parse_contestant(role: str, name: str) -> Contestant:
    """``name`` read as a player of ``role``; UnknownContestant, listing the valid names, otherwise
    (ConfigError when the name could only be the config file's and the file is broken)."""
    provider, slash, model = name.partition("/")
    if name in RULE_AGENTS[role] or (provider in PROVIDERS and not slash):
        return Contestant(role, name, None if name in RULE_AGENTS[role] else name)
    if provider in PROVIDERS:  # the model's name by the one rule of every place it is read (model_problem)
        if problem := model_problem(model):
            raise UnknownContestant(f"the {provider} model in {excerpt(name)} {problem}")
        return Contestant(role, name, provider, model)
    if not slash and (table := configured_contestants().get(name)) is not None:
        return Contestant(role, name, table["provider"], table.get("model"), table)
    if not slash and (problem := contestant_problems().get(name)):  # 'wait' as the user: said, not unknown
        from labyrinth.saves.config import config_path

        raise ConfigError(f"{config_path()}: {problem}")
    raise UnknownContestant(f"no {role} agent called {name!r}: choose one of {contestant_names(role)}")


def provider_of(name: str) -> str | None:
    """The LLM provider a contestant's name calls, or None for a rule agent or an unknown name (a
    config contestant's provider is its table's: a broken file names none)."""
    provider, slash, _ = name.partition("/")
    if provider in PROVIDERS:
        return provider
    if slash or name in USER_AGENTS or name in MINOTAUR_AGENTS:
        return None
    try:
        table = configured_contestants().get(name)
    except ConfigError:
        return None
    return table["provider"] if table else None


def make_agent(role: str, kind: str, seed: int, providers: Mapping[str, ProviderSettings] | None = None,
               lessons: Sequence[Reflection] = (), preset: str = "", book: Book | None = None) -> ProjectAgent:
    """A fresh agent for ``role`` ("user" or "minotaur") named ``kind`` (parse_contestant), seeded from the
    match seed, given the lessons of earlier games (for a game on ``preset``) and, when it learns, the
    behaviour lessons of its role (``book``: None plays as without memory). An LLM agent's settings come from
    ``providers`` when given, else from the environment and config."""
    contestant = parse_contestant(role, kind)
    agent: ProjectAgent
    if contestant.provider is None:
        agent = RULE_AGENTS[role][kind](seed)
    else:
        from .llm.llm_agent import LLMAgent  # the games without a model never load it (start-up)

        named = contestant.name if contestant.table is not None else None  # a config contestant's own name
        agent = LLMAgent(role, make_transport(contestant.settings(providers)), seed, name=named)
    return taught(agent, lessons, preset, book)


def check_configured(settings: ProviderSettings) -> None:
    """ProviderNotConfigured, saying what to set, when the provider lacks its key."""
    if not settings.configured:
        from labyrinth.saves.config import config_path

        variables = " or ".join(PROVIDERS[settings.provider].key_variables)
        raise ProviderNotConfigured(settings.key_advice or f"{settings.provider} is not configured: set {variables}, "
                                    f"or api_key under [{settings.provider}] in {config_path()}")


def make_transport(settings: ProviderSettings) -> Transport:
    """The provider's transport (its SDK is imported only now); ProviderNotConfigured without a key."""
    check_configured(settings)
    transport: Transport = transport_class(settings.provider)(settings)
    return transport


def transport_class(provider: str) -> Callable[..., Transport]:
    """The class of ``provider``'s transport, its module (its row names it as ``module:Class``) and its
    SDK loaded now, under the one import lock (llm/providers/sdk_imports.py): the SDK loads when its
    provider is first used, not before, and never in two threads at once."""
    from .llm.providers.sdk_imports import IMPORT_LOCK  # a model's: loaded only for one (start-up)

    module, _, name = PROVIDERS[provider].transport.partition(":")
    with IMPORT_LOCK:
        loaded = import_module(module)
        loaded.load_sdk()
    made: Callable[..., Transport] = getattr(loaded, name)
    return made


def load_providers(providers: Iterable[str]) -> None:
    """The transports and SDKs of ``providers`` loaded now, in this thread: the arena and the
    tournament call it with their contestants' before any match starts, so that the matches' threads
    import nothing (a module one thread has half loaded is another's AttributeError: sdk_imports)."""
    for provider in sorted(set(providers)):
        transport_class(provider)
