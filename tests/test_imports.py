"""The import direction of docs/architecture.md, proved in fresh interpreters:
engine <- saves <- agents <- labyrinth_tui, and a pure engine."""

import json
import subprocess
import sys

import pytest

from labyrinth.saves.providers import PROVIDERS

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
