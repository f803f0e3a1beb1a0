"""Agents by name, as the command line and the TUI offer them: the rule agents,
and an LLM agent on each provider for either role.

Names are written the way LiteLLM users write models: a rule agent's name
(``builtin``, ``random``, ``wait``), a provider's name alone (its configured or
default model), or ``provider/model`` (``gemini/gemini-2.5-flash``,
``ollama/qwen3:8b``). One parser (``parse_contestant``) reads them all, for
every front that picks agents."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import import_module

from labyrinth.saves.experience import Reflection

from .base import Agent
from .behaviour_lessons import Book
from .builtin_minotaur import BuiltinMinotaur
from .builtin_user import BuiltinUser
from .config import KEY_VARIABLES, PROVIDERS, ProviderSettings, provider_settings
from .naive import RandomWalker, Waiter

USER_AGENTS: dict[str, Callable[[int], Agent]] = {"builtin": BuiltinUser, "random": RandomWalker}
MINOTAUR_AGENTS: dict[str, Callable[[int], Agent]] = {"builtin": BuiltinMinotaur, "wait": Waiter}
RULE_AGENTS = {"user": USER_AGENTS, "minotaur": MINOTAUR_AGENTS}
MODEL_NAME_CHARS = 200  # the longest model name accepted after "provider/"
TRANSPORTS = {"gemini": "GeminiTransport", "mistral": "MistralTransport", "ollama": "OllamaTransport",
              "openai": "OpenAITransport"}


class ProviderNotConfigured(ValueError):
    """An LLM agent asked for on a provider without a key; ``str()`` says how to set one."""


class UnknownContestant(ValueError):
    """A name that is no agent of its role; ``str()`` lists the names that are."""


@dataclass(frozen=True)
class Contestant:
    """A player of one role, by name: a rule agent (``provider`` None), or a model on a provider
    (``model`` None: the provider's configured or default one)."""

    role: str
    name: str  # as written
    provider: str | None = None
    model: str | None = None

    def settings(self, providers: Mapping[str, ProviderSettings] | None = None) -> ProviderSettings:
        """The provider's settings (``providers``' when given, else the environment's and config's),
        with this contestant's model; only for a model contestant."""
        settings = (providers or {}).get(self.provider) or provider_settings(self.provider)
        return replace(settings, model=self.model) if self.model else settings

    def resolved(self, providers: Mapping[str, ProviderSettings] | None = None) -> str:
        """The full name: ``provider/model`` with the model the bare provider name stands for, so that
        ``gemini`` and ``gemini/gemini-2.5-flash`` are one contestant in a results table."""
        return self.name if self.provider is None else f"{self.provider}/{self.settings(providers).model}"


def agent_kinds(role: str) -> list[str]:
    """Every agent ``role`` can be played by: its rule agents, then the LLM providers."""
    return [*RULE_AGENTS[role], *PROVIDERS]


def contestant_names(role: str) -> str:
    """The names ``role`` accepts, as a message lists them."""
    return ", ".join([*RULE_AGENTS[role], *(f"{p}, {p}/<model>" for p in PROVIDERS)])


def parse_contestant(role: str, name: str) -> Contestant:
    """``name`` read as a player of ``role``; UnknownContestant, listing the valid names, otherwise."""
    provider, slash, model = name.partition("/")
    if name in RULE_AGENTS[role] or (provider in PROVIDERS and not slash):
        return Contestant(role, name, None if name in RULE_AGENTS[role] else name)
    if provider in PROVIDERS and model and model.isprintable() and not any(c.isspace() for c in model) \
            and len(model) <= MODEL_NAME_CHARS:
        return Contestant(role, name, provider, model)
    raise UnknownContestant(f"no {role} agent called {name!r}: choose one of {contestant_names(role)}")


def provider_of(name: str) -> str | None:
    """The LLM provider a contestant's name calls, or None for a rule agent or an unknown name."""
    provider, _, _ = name.partition("/")
    return provider if provider in PROVIDERS else None


def make_agent(role: str, kind: str, seed: int, providers: Mapping[str, ProviderSettings] | None = None,
               lessons: Sequence[Reflection] = (), preset: str = "", book: Book | None = None) -> Agent:
    """A fresh agent for ``role`` ("user" or "minotaur") named ``kind`` (parse_contestant), seeded from the match seed, given the
    lessons of earlier games (for a game on ``preset``) and, when it learns, the behaviour lessons of
    its role (``book``: None plays as without memory). An LLM agent's settings come from
    ``providers`` when given, else from the environment and config."""
    contestant = parse_contestant(role, kind)
    if contestant.provider is None:
        agent = RULE_AGENTS[role][kind](seed)
    else:
        from .llm_agent import LLMAgent

        agent = LLMAgent(role, make_transport(contestant.settings(providers)), seed)
    if lessons:
        agent.learn(lessons, preset)
    if book is not None:
        agent.follow(book)
    return agent


def check_configured(settings: ProviderSettings) -> None:
    """ProviderNotConfigured, saying what to set, when the provider lacks its key."""
    if not settings.configured:
        from labyrinth.saves.config import config_path

        variables = " or ".join(KEY_VARIABLES[settings.provider])
        raise ProviderNotConfigured(f"{settings.provider} is not configured: set {variables}, or api_key under "
                                    f"[{settings.provider}] in {config_path()}")


def make_transport(settings: ProviderSettings):
    """The provider's transport (its SDK is imported only now); ProviderNotConfigured without a key."""
    check_configured(settings)
    module = import_module(f".providers.{settings.provider}", __package__)
    return getattr(module, TRANSPORTS[settings.provider])(settings)
