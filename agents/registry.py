"""Agents by name, as the command line and the TUI offer them: the rule agents,
and an LLM agent on each provider for either role."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import import_module

from labyrinth.saves.experience import Reflection

from .base import Agent
from .builtin_minotaur import BuiltinMinotaur
from .builtin_user import BuiltinUser
from .config import KEY_VARIABLES, PROVIDERS, ProviderSettings, provider_settings
from .naive import RandomWalker, Waiter

USER_AGENTS: dict[str, Callable[[int], Agent]] = {"builtin": BuiltinUser, "random": RandomWalker}
MINOTAUR_AGENTS: dict[str, Callable[[int], Agent]] = {"builtin": BuiltinMinotaur, "wait": Waiter}
TRANSPORTS = {"gemini": "GeminiTransport", "mistral": "MistralTransport", "ollama": "OllamaTransport",
              "openai": "OpenAITransport"}


class ProviderNotConfigured(ValueError):
    """An LLM agent asked for on a provider without a key; ``str()`` says how to set one."""


def agent_kinds(role: str) -> list[str]:
    """Every agent ``role`` can be played by: its rule agents, then the LLM providers."""
    return [*(USER_AGENTS if role == "user" else MINOTAUR_AGENTS), *PROVIDERS]


def make_agent(role: str, kind: str, seed: int, providers: Mapping[str, ProviderSettings] | None = None,
               lessons: Sequence[Reflection] = (), preset: str = "") -> Agent:
    """A fresh agent for ``role`` ("user" or "minotaur"), seeded from the match seed, given the
    lessons of earlier games (for a game on ``preset``). An LLM agent's settings come from
    ``providers`` when given, else from the environment and config."""
    table = USER_AGENTS if role == "user" else MINOTAUR_AGENTS
    if kind in table:
        agent = table[kind](seed)
    elif kind in PROVIDERS:
        from .llm_agent import LLMAgent

        agent = LLMAgent(role, make_transport((providers or {}).get(kind) or provider_settings(kind)), seed)
    else:
        raise ValueError(f"no {role} agent called {kind!r}: choose one of {', '.join(agent_kinds(role))}")
    if lessons:
        agent.learn(lessons, preset)
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
