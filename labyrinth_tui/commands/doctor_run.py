"""The work of `labyrinth doctor` (its parser is doctor.py): imported when the command runs, so
that what it needs does not load with every command (start-up)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Iterable
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import TextIO

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.errors import ProviderError
from labyrinth.agents.llm.providers.secrets import redact
from labyrinth.agents.registry import contestant_problems, make_transport
from labyrinth.engine.wsap.actions import GAME_NAME
from labyrinth.saves.avatars import avatars_dir
from labyrinth.saves.config import ConfigError, config_path, read_config
from labyrinth.saves.games import saves_dir
from labyrinth.saves.paths import data_dir, replays_dir
from labyrinth.saves.providers import PROVIDERS, Provider

from ..terminal_text import printable
from .provider_options import provider_settings

CHECK_TIMEOUT_S = 10.0
def packages(rows: Iterable[Provider]) -> tuple[tuple[str, str], ...]:
    """The (module, distribution) pairs doctor finds: ours, each provider's SDK (its row's, once however many
    rows speak through it: an OpenAI-compatible preset shares the openai SDK), then what they stand on."""
    return tuple(dict.fromkeys((
        ("labyrinth.engine", "labyrinth-temporal-hunt"), ("labyrinth.agents", "labyrinth-temporal-hunt"),
        ("labyrinth.saves", "labyrinth-temporal-hunt"), ("labyrinth.tui", "labyrinth-temporal-hunt"),
        *((row.sdk, row.distribution) for row in rows),
        ("httpx2", "httpx2"), ("httpx", "httpx"), ("pydantic", "pydantic"), ("textual", "textual"),
        ("rich", "rich"), ("platformdirs", "platformdirs"))))


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Print the report; 1 when something it checks is broken (a provider's setting it cannot read, an
    endpoint set up with a key or an address that fails its check, a config file the game cannot read or
    whose entries it leaves out, a data path that is not a directory, a package that cannot be imported), so
    that a script or CI can ask it; a provider not set up and an optional extra not installed are choices,
    not problems."""
    check = not args.offline
    problems: list[str] = []
    def write(line: str = "", problem: str = "") -> None:
        print(printable(redact(line)), file=out, flush=True)
        if problem:
            problems.append(problem)

    write(f"{GAME_NAME}, Python {sys.version.split()[0]} ({sys.executable})")
    write()
    config = config_path()
    try:
        state = "present" if read_config() else "absent or empty: defaults apply"
    except ConfigError as exc:
        state = f"BROKEN: {exc}"
    write("LLM providers (keys are never shown):")
    for name in PROVIDERS:
        if state.startswith("BROKEN"):  # one problem, said once under Files
            write(f"  {name:<8} cannot be read: the config file is broken (below)")
            continue
        try:
            lines, failed = _provider(name, provider_settings(args, [name])[name], check)
        except ConfigError as exc:
            lines, failed = [f"{name:<8} cannot be read: {exc}"], True
        for line in lines:
            write(f"  {line}", problem=name if failed else "")
    write()
    write("Files:")
    write(f"  config file     {config} ({state})", problem="the config file" if state.startswith("BROKEN") else "")
    if state == "present":  # its contestants' names, [keys] and [options] as the game reads them, a line a problem
        for problem in (*contestant_problems().values(), *_player_settings_problems()):
            write(f"                  {problem.removeprefix(f'{config}: ')}", problem="the config file")
    for label, path in (("data directory", data_dir()), ("saved games", saves_dir()), ("replays", replays_dir()),
                        ("avatars", avatars_dir())):
        if path.is_dir() or not path.exists():
            write(f"  {label:<15} {path}{'' if path.exists() else ' (not created yet)'}")
        else:
            write(f"  {label:<15} {path} (NOT A DIRECTORY: the game cannot keep its files there)", problem=label)
    write()
    write("Packages:")
    for module, distribution in packages(PROVIDERS.values()):
        where = _where(module, distribution)
        write(f"  {module:<17} {where}", problem=module if where.startswith("NOT IMPORTABLE") else "")
    write()
    write("Optional extras:")
    for extra, (distributions, without) in EXTRAS.items():
        write(f"  {'[' + extra + ']':<8} {_extra(extra, distributions, without)}")
    write()
    named = list(dict.fromkeys(problems))
    write(f"Problems: {len(named)} ({', '.join(named)})" if named else "No problems found.")
    return 1 if named else 0


def _player_settings_problems() -> tuple[str, ...]:
    """What the game says of the config file's [keys] and [options] as it opens (the TUI loaded only here)."""
    from ..app import screen_keys
    from ..player_settings import read_settings

    return read_settings(screen_keys()).problems


# The extras the game's own code can use when they are installed, and what goes without them (the others,
# [train], [ray] and [bench], are the benches' and never imported by the game).
EXTRAS = {
    "rl": (("gymnasium", "pettingzoo"), "the Gymnasium and PettingZoo environments cannot be made"),
    "fast": (("numba",), "the RL kernel (agents/rl/kernel) runs as plain Python: the same answers, far slower"),
}


def _extra(extra: str, distributions: tuple[str, ...], without: str) -> str:
    """The extra's distributions and versions, or which are missing, what goes without them and the install."""
    versions, missing = [], []
    for name in distributions:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            missing.append(name)
    if missing:
        return f"not installed ({', '.join(missing)}): {without}; pip install -e '.[{extra}]'"
    return ", ".join(versions)


def _provider(name: str, s: ProviderSettings, check: bool) -> tuple[list[str], bool]:
    """The provider's lines, and whether its check failed."""
    if not s.configured:
        variables = " or ".join(PROVIDERS[name].key_variables)
        return [f"{name:<8} not configured: set {variables}, or api_key under [{name}] in the config file"], False
    key = f"key from {s.key_source}" if s.api_key else "no key"
    lines = [f"{name:<8} model {s.model}, endpoint {s.endpoint}, {key}, timeout {s.timeout_s:g} s"]
    failed = False
    if check:
        began = time.perf_counter()
        try:
            verdict = "ok: " + make_transport(replace(s, timeout_s=min(s.timeout_s, CHECK_TIMEOUT_S))).check()
        except ProviderError as exc:
            verdict = f"FAILED: {exc}"
        except Exception as exc:  # noqa: BLE001 - a diagnosis reports whatever the SDK raised
            verdict = f"FAILED: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
        # a failure counts where the user set the provider up (a key, an endpoint): Ollama, which needs neither,
        # is checked at its default endpoint on every machine, and a machine without one is not broken
        failed = verdict.startswith("FAILED") and (s.api_key is not None or s.base_url is not None)
        unset = " (its defaults, not set up here: not counted as a problem)" if verdict.startswith("FAILED") \
            and not failed else ""
        lines.append(f"{'':<8} check {verdict} ({(time.perf_counter() - began) * 1000:.0f} ms){unset}")
    return lines, failed


def _where(module: str, distribution: str) -> str:
    try:
        version = metadata.version(distribution)
    except metadata.PackageNotFoundError:
        version = "(no package metadata)"
    try:
        spec = importlib.util.find_spec(module)  # found, not run (its parent package is)
    except (ImportError, ValueError) as exc:
        return f"NOT IMPORTABLE: {exc}"
    if spec is None:
        return f"NOT IMPORTABLE: no module named {module!r}"
    location = spec.origin if spec.has_location else next(iter(spec.submodule_search_locations or []), "?")
    # resolved: a strict editable install imports links to the sources, and the sources are what one edits
    where = Path(location or "?").resolve()
    return f"{version:<8} {where.parent if where.name == '__init__.py' else where}"
