"""Every name the README and docs/ give as public is importable where they say: code may move
between sub-packages (agents/ is grouped by concern), but ``labyrinth.agents.gym_env``,
``from labyrinth.agents.adapters import make_adapter`` and the rest stay. The names are read from
the documents themselves, so that a name documented later is checked too."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
PACKAGES = ("agents", "engine", "saves", "tui")
DOTTED = re.compile(rf"\blabyrinth\.(?:{'|'.join(PACKAGES)})(?:\.[A-Za-z_]\w*)*")
FROM_IMPORT = re.compile(r"\bfrom (labyrinth(?:\.\w+)+) import ([\w, ]+)")


def documented() -> list[str]:
    """``labyrinth.x.y`` names and ``from labyrinth.x import a, b`` imports, as dotted names."""
    names: set[str] = set()
    for doc in DOCUMENTS:
        text = doc.read_text(encoding="utf-8")
        names |= set(DOTTED.findall(text))
        for module, imported in FROM_IMPORT.findall(text):
            names |= {f"{module}.{name.strip()}" for name in imported.split(",") if name.strip()}
    return sorted(names)


def resolve(dotted: str) -> object:
    """The module ``dotted`` names, or the attribute of the longest module prefix that imports."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError as exc:
            if exc.name is not None and not ".".join(parts[:cut]).startswith(exc.name):
                raise  # a module that exists failed to import something else: not a missing name
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(dotted)


def test_the_documents_name_the_public_api():
    names = documented()
    assert "labyrinth.agents.adapters.make_adapter" in names and "labyrinth.agents.gym_env" in names


@pytest.mark.parametrize("dotted", documented())
def test_a_documented_name_imports_where_the_documents_say(dotted):
    if dotted.startswith(("labyrinth.agents.gym_env", "labyrinth.agents.pettingzoo_env")):
        pytest.importorskip("gymnasium", reason="the RL environments need the [rl] extra")
    assert resolve(dotted) is not None
