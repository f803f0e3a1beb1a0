"""The import direction of docs/architecture.md, proved in fresh interpreters:
engine <- saves <- agents <- labyrinth_tui, and a pure engine."""

import json
import subprocess
import sys

import pytest

from labyrinth.saves.providers import PROVIDERS
from labyrinth.tui.commands import SUBCOMMANDS

pytestmark = pytest.mark.slow

SDKS = {*(row.sdk for row in PROVIDERS.values()), "httpx2"}  # each row's, and the HTTP library they load
FORBIDDEN = {
    "labyrinth.engine": {"labyrinth.agents", "labyrinth.saves", "labyrinth.tui", "textual", "rich", "platformdirs",
                         "google", "httpx", *SDKS},
    "labyrinth.saves": {"labyrinth.agents", "labyrinth.tui", "textual"},
    "labyrinth.agents": {"labyrinth.tui", "textual", *SDKS},
    "labyrinth.tui": SDKS,  # each SDK loads only when its provider is used (0.3 to 0.55 s apiece)
}


def _modules_after_import(package: str, then: str = "pass", walk: bool = True) -> set[str]:
    """Every module loaded by importing ``package`` (and, with ``walk``, all its
    submodules) in a fresh interpreter."""
    submodules = (f"[importlib.import_module(m.name) for m in pkgutil.walk_packages({package}.__path__, "
                  f"'{package}.')]" if walk else "pass")
    code = (f"import sys, json, importlib, pkgutil; import {package}; {submodules}; {then}; "
            f"print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_alone_and_points_one_way(package):
    loaded = _modules_after_import(package)
    assert package in loaded
    assert not loaded & FORBIDDEN[package], f"{package} pulled in {sorted(loaded & FORBIDDEN[package])}"


def test_engine_is_pure_no_clock_files_or_network():
    """Beyond what pydantic itself loads, the engine brings in no I/O, clock or network module."""
    pydantic_alone = _modules_after_import("pydantic", "exec('class M(pydantic.BaseModel):\\n x: int')", walk=False)
    added = _modules_after_import("labyrinth.engine") - pydantic_alone
    impure = {"socket", "ssl", "http", "urllib", "sqlite3", "asyncio", "time", "datetime", "threading", "subprocess"}
    assert not {m.split(".")[0] for m in added} & impure


# What the pipe and the game screen never use unless a model plays or a results command runs: the arena,
# the tournament, ratings, the results database (SQLite), replay files, the leaderboard's renderers, the LLM
# agent and its providers' modules, the subcommands' work modules, the config file's reader and schema (no
# config file is read), the futures of agents asked in threads, WSAP's avatars and extensions, the experience
# log and the memory (nothing learns), Rich and Textual (issue 29: start-up).
HEAVY = {"textual", "rich", "sqlite3", "multiprocessing", "labyrinth.saves.results_db", "labyrinth.saves.replays",
         "labyrinth.saves.config_schema", "tomllib", "concurrent.futures", "labyrinth.engine.wsap.extensions",
         "labyrinth.saves.experience", "labyrinth.agents.learning.memory_manager", "labyrinth.tui.commands.memory_run",
         "labyrinth.agents.compete.arena", "labyrinth.agents.compete.tournament", "labyrinth.agents.compete.ratings",
         "labyrinth.agents.match.schedule", "labyrinth.agents.llm.llm_agent", "labyrinth.agents.llm.config",
         "labyrinth.agents.llm.providers.base", "labyrinth.tui.leaderboard_tables", "labyrinth.tui.leaderboard_report",
         "labyrinth.tui.leaderboard_rows", "labyrinth.tui.commands.arena_run", "labyrinth.tui.commands.tournament_run",
         "labyrinth.tui.commands.leaderboard_run", "labyrinth.tui.commands.doctor_run", *SDKS}


@pytest.mark.parametrize("command", ["gsm", "play"])
def test_the_command_line_imports_only_what_the_command_uses(command):
    """Building the parser and parsing loads no subcommand's heavy modules, nor another subcommand's parser;
    for gsm, neither do reading the providers' settings (none is used) and making the pipe's match with the
    built-in Minotaur, whose user (the pipe) is no built-in one."""
    then = (f"from labyrinth.tui import cli; argv = [{command!r}, '--seed', '1']; "
            "args = cli.parser_for(argv).parse_args(argv); "
            + ("from labyrinth.tui.commands.options import providers; from labyrinth.tui.jsonlines import gsm_match; "
               "gsm_match(1, 'tiny', providers=providers(args))" if command == "gsm" else "pass"))
    loaded = _modules_after_import("labyrinth.tui.cli", then, walk=False)
    unused = HEAVY | {f"labyrinth.tui.commands.{name}" for name in SUBCOMMANDS if name != command}
    if command == "gsm":
        unused |= {"labyrinth.agents.builtin.builtin_user", "labyrinth.agents.compete.health"}
    assert not {m for m in loaded if m in unused or m.split(".")[0] in unused}, sorted(
        m for m in loaded if m in unused or m.split(".")[0] in unused)


def test_an_llm_agent_loads_its_modules_when_asked_for():
    """The registry imports the LLM agent when a model is named (here one without its key, refused as
    its transport is made, after the import), not for a rule agent."""
    rule = "from labyrinth.agents import registry; registry.make_agent('minotaur', 'builtin', 1)"
    model = (f"{rule}; from labyrinth.agents.llm.config import ProviderSettings; gemini = ProviderSettings('gemini', "
             "'m', None); exec('try:\\n registry.make_agent(\"minotaur\", \"gemini\", 1, {\"gemini\": gemini})\\n'"
             "'except registry.ProviderNotConfigured:\\n pass')")
    llm_agent = "labyrinth.agents.llm.llm_agent"
    assert llm_agent not in _modules_after_import("labyrinth.agents.registry", rule, walk=False)
    assert llm_agent in _modules_after_import("labyrinth.agents.registry", model, walk=False)


def test_the_game_screens_start_without_the_providers_machinery():
    """The app of the title screen and `play` resolves providers' settings (llm/config.py) but loads none of
    the machinery of a model's calls until a model plays: the calls, their retries and pacing, the agent, an
    SDK (issue 41: the first frame, some 35 ms of it)."""
    loaded = _modules_after_import("labyrinth.tui.app", walk=False)
    machinery = {f"labyrinth.agents.llm.{name}" for name in ("providers.base", "providers.retry", "providers.pacing",
                                                            "llm_agent")} | SDKS
    assert not {m for m in loaded if m in machinery or m.split(".")[0] in machinery}
