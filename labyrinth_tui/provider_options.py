"""The command line's LLM options, shared by every subcommand that picks agents:
each provider's model and endpoint, and one timeout. Keys are not options:
a command line shows in `ps` and in shell history; they come from the
environment or the config file."""

from __future__ import annotations

import argparse

from agents.config import (
    DEFAULT_MODELS,
    DEFAULT_TIMEOUT_S,
    PROVIDERS,
    URL_VARIABLES,
    ProviderSettings,
)
from agents.config import provider_settings as resolve


def add_provider_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "LLM providers", "Each also comes from the environment (LABYRINTH_<PROVIDER>_MODEL, the endpoint "
                         "variable) or the config file; keys only from the environment or the config file.")
    for provider in PROVIDERS:
        group.add_argument(f"--{provider}-model", metavar="MODEL",
                           help=f"the {provider} model (default: {DEFAULT_MODELS[provider]})")
        group.add_argument(f"--{provider}-url", metavar="URL",
                           help=f"the {provider} endpoint (default: ${URL_VARIABLES[provider]} or the public one)")
    group.add_argument("--llm-timeout", type=float, metavar="SECONDS",
                       help=f"the longest one model call may take (default: {DEFAULT_TIMEOUT_S:g})")


def provider_settings(args: argparse.Namespace) -> dict[str, ProviderSettings]:
    """Every provider's settings: these options, then the environment, the config file, the defaults.
    Raises ConfigError for a config file that cannot be used."""
    return {p: resolve(p, {"model": getattr(args, f"{p}_model", None), "base_url": getattr(args, f"{p}_url", None),
                           "timeout_s": getattr(args, "llm_timeout", None)})
            for p in PROVIDERS}
