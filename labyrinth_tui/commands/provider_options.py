"""The command line's agent and LLM options, shared by every subcommand that picks agents:
the agents' names, each provider's model and endpoint, one timeout and one pace. Keys are not options:
a command line shows in `ps` and in shell history; they come from the
environment or the config file."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from labyrinth.agents.registry import UnknownContestant, parse_contestant, provider_of
from labyrinth.saves.config import DEFAULT_TIMEOUT_S, HOLD, RPM, TIMEOUT, ConfigError
from labyrinth.saves.providers import PROVIDERS
from labyrinth.saves.results_terms import ROLES

from .bounded_option import bounded

if TYPE_CHECKING:  # the LLM settings' module loads when a command reads them (start-up): provider_settings
    from labyrinth.agents.llm.config import ProviderSettings

HOLD_S = 600.0  # how long a tournament or an arena holds a match for a quota by default: ten minutes


def add_provider_options(parser: argparse.ArgumentParser, hold: bool = False) -> None:
    """The LLM options; ``hold``: --hold-limit too (the commands whose results are published)."""
    group = parser.add_argument_group(
        "LLM providers", "A model or an endpoint also comes from the environment (LABYRINTH_<PROVIDER>_MODEL, "
                         "the endpoint variable) or the config file, a timeout or a pace from the config file "
                         "(timeout_s, rpm); keys only from the environment or the config file.")
    for provider, row in PROVIDERS.items():
        group.add_argument(f"--{provider}-model", metavar="MODEL",
                           help=f"the {provider} model (default: {row.model})")
        group.add_argument(f"--{provider}-url", metavar="URL",
                           help=f"the {provider} endpoint (default: ${row.url_variable} or {row.url})")
    group.add_argument("--llm-timeout", type=bounded(TIMEOUT), metavar="SECONDS",
                       help=f"the longest one request to a model may take, as a whole ({TIMEOUT.words}; "
                            f"default: {DEFAULT_TIMEOUT_S:g}); a call tries a 5xx twice more and waits out a quota "
                            "within one deadline")
    group.add_argument("--llm-rpm", type=bounded(RPM), metavar="N",
                       help="at most N requests a minute to each provider, spaced 60/N s apart, so that a "
                            f"per-minute quota is never hit ({RPM.words}; default: as fast as the model answers)")
    if hold:
        group.add_argument("--hold-limit", type=bounded(HOLD), default=HOLD_S, metavar="SECONDS",
                           help=f"the longest a quota's wait may hold a match ({HOLD.words}; default: {HOLD_S:g}); "
                                "a longer one stops the run, saying when to run it again, rather than play turns by "
                                "the fallback, and so do quota answers alone for three times as long")
    # (three times: retry.HOLD_BUDGET_FACTOR)


def contestant(role: str, *also: str):
    """An argparse type: a name of a player of ``role`` (registry.parse_contestant) or one of ``also``."""
    def named(value: str) -> str:
        if value in also:
            return value
        try:
            parse_contestant(role, value)
        except (UnknownContestant, ConfigError) as problem:  # a config contestant's name, and a broken file
            raise argparse.ArgumentTypeError(str(problem)) from None
        return value

    named.__name__ = f"{role} agent"
    return named


def chosen_providers(args: argparse.Namespace) -> list[str]:
    """The providers this command's --user and --minotaur (a tournament's --users and --minotaurs) name."""
    names = [getattr(args, option, None) or "" for option in ROLES]
    names += [name.strip() for option in ("users", "minotaurs")
              for name in (getattr(args, option, None) or "").split(",")]
    named = {provider_of(name) for name in names}
    return [p for p in PROVIDERS if p in named]


def provider_settings(args: argparse.Namespace, providers: list[str] | tuple[str, ...],
                      skip_broken: bool = False) -> dict[str, ProviderSettings]:
    """``providers``' settings: these options, then the environment, the config file, the defaults.
    A config file that cannot be used raises ConfigError, or with ``skip_broken`` leaves the
    provider out (the TUI says what is wrong if it is chosen)."""
    if not providers:  # no model plays: the LLM settings' module is not even loaded (start-up)
        return {}
    from labyrinth.agents.llm.config import provider_settings as resolve

    settings = {}
    for p in providers:
        flags = {"model": getattr(args, f"{p}_model", None), "base_url": getattr(args, f"{p}_url", None),
                 "timeout_s": getattr(args, "llm_timeout", None), "rpm": getattr(args, "llm_rpm", None),
                 "hold_s": getattr(args, "hold_limit", None)}
        try:
            settings[p] = resolve(p, flags)
        except ConfigError:
            if not skip_broken:
                raise
    return settings
