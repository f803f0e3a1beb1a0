"""Which model each provider uses, where, and with what key: the command line's
flags first, then the environment, then the config file's [gemini], [mistral]
and [ollama] tables, then the defaults. A key is never shown: settings print
without it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from saves.config import read_config

PROVIDERS = ("gemini", "mistral", "ollama")
DEFAULT_MODELS = {"gemini": "gemini-2.5-flash", "mistral": "mistral-small-latest", "ollama": "qwen3:8b"}
KEY_VARIABLES = {"gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "mistral": ("MISTRAL_API_KEY",), "ollama": ("OLLAMA_API_KEY",)}
URL_VARIABLES = {"gemini": "GOOGLE_GEMINI_BASE_URL", "mistral": "MISTRAL_BASE_URL", "ollama": "OLLAMA_HOST"}
MODEL_VARIABLES = {p: f"LABYRINTH_{p.upper()}_MODEL" for p in PROVIDERS}
DEFAULT_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class ProviderSettings:
    provider: str
    model: str
    base_url: str | None
    api_key: str | None = field(default=None, repr=False)  # never printed
    timeout_s: float = DEFAULT_TIMEOUT_S

    @property
    def configured(self) -> bool:
        """Ready to call: a key where the provider needs one (Ollama runs locally without)."""
        return self.provider == "ollama" or bool(self.api_key)


def provider_settings(provider: str, flags: dict[str, Any] | None = None, environ: dict[str, str] | None = None,
                      config: dict[str, Any] | None = None) -> ProviderSettings:
    """The settings of ``provider`` from flags, environment, config file and defaults, in that order."""
    if provider not in PROVIDERS:
        raise ValueError(f"no provider {provider!r}: choose one of {', '.join(PROVIDERS)}")
    env = os.environ if environ is None else environ
    table = (read_config() if config is None else config).get(provider, {})
    flags = {k: v for k, v in (flags or {}).items() if v is not None}

    def pick(name: str, variables: tuple[str, ...], default: Any = None) -> Any:
        if name in flags:
            return flags[name]
        for variable in variables:
            if env.get(variable):
                return env[variable]
        return table.get(name, default)

    return ProviderSettings(provider, pick("model", (MODEL_VARIABLES[provider],), DEFAULT_MODELS[provider]),
                            pick("base_url", (URL_VARIABLES[provider],)), pick("api_key", KEY_VARIABLES[provider]),
                            float(pick("timeout_s", (), DEFAULT_TIMEOUT_S)))
