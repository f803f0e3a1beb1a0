"""Every name the code, the tests and the bench scripts import from the game's packages is there. An import inside
a function (a bench's or a command's lazy import, a test's) runs only when that code does, so a name moved or
renamed would wait there, unnoticed, for whoever next runs it: a bench once did, after a constant moved."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# Each folder of the repository as the installed package names it (pyproject.toml's package-dir).
PACKAGES = {"engine": "labyrinth.engine", "saves": "labyrinth.saves", "agents": "labyrinth.agents",
            "labyrinth_tui": "labyrinth.tui"}
FOLDERS = (*PACKAGES, "bench", "tests")


def module_of(path: Path) -> str | None:
    """The module a file of a package is, as imported ("labyrinth.tui.commands.play"); None outside them."""
    parts = path.relative_to(REPO).with_suffix("").parts
    if parts[0] not in PACKAGES:
        return None
    names = [PACKAGES[parts[0]], *parts[1:]]
    return ".".join(names[:-1] if names[-1] == "__init__" else names)


def imported_names(path: Path) -> list[tuple[int, str, str]]:
    """(line, module, name) of each `from M import name` of the file that names one of the game's modules,
    a relative import resolved against the file's own package."""
    found = []
    module = module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0] if module else None
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            if package is None:
                continue  # a test's own helpers (from .scenes import ...): not the game's
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            target = f"{base}.{node.module}" if node.module else base
        elif (node.module or "").split(".")[0] == "labyrinth":
            target = node.module or ""
        else:
            continue
        found += [(node.lineno, target, alias.name) for alias in node.names if alias.name != "*"]
    return found


def sources() -> list[Path]:
    return sorted(path for folder in FOLDERS for path in (REPO / folder).rglob("*.py")
                  if "__pycache__" not in path.parts)


def test_every_name_imported_from_the_game_exists():
    missing = []
    for path in sources():
        for line, target, name in imported_names(path):
            try:
                module = importlib.import_module(target)
            except ModuleNotFoundError as exc:
                if (exc.name or "").split(".")[0] == "labyrinth":
                    missing.append(f"{path.relative_to(REPO)}:{line}: no module {target}")
                continue  # an optional library (stable-baselines3, torch, ray) the bench needs and CI does not
            if hasattr(module, name):
                continue
            try:
                importlib.import_module(f"{target}.{name}")  # a submodule, not loaded by its package
            except ModuleNotFoundError:
                missing.append(f"{path.relative_to(REPO)}:{line}: {target} has no {name}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("source, expected", [
    ("from labyrinth.saves.games import PLAYER\n", [(1, "labyrinth.saves.games", "PLAYER")]),
    ("def f():\n    from ..screens.title import HUMAN\n", [(2, "labyrinth.tui.screens.title", "HUMAN")]),
    ("from . import app\nfrom .game_words import ended\n", [(1, "labyrinth.tui.commands", "app"),
                                                             (2, "labyrinth.tui.commands.game_words", "ended")]),
    ("import json\nfrom pathlib import Path\n", []),
])
def test_imports_are_read_wherever_they_are_and_relative_ones_resolved(tmp_path, monkeypatch, source, expected):
    """What the test above reads: a lazy import inside a function, a relative one from a module of
    labyrinth_tui/commands (which installs as labyrinth.tui.commands), and nothing of other libraries."""
    folder = tmp_path / "labyrinth_tui" / "commands"
    folder.mkdir(parents=True)
    (folder / "play.py").write_text(source)
    monkeypatch.setitem(globals(), "REPO", tmp_path)
    assert imported_names(folder / "play.py") == expected


def test_a_missing_name_is_found(tmp_path, monkeypatch):
    """The check fails on the mistake it is for: a bench importing a name its module no longer has."""
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "old.py").write_text("def run():\n    from labyrinth.tui.screens.title import HUMAN\n")
    monkeypatch.setitem(globals(), "REPO", tmp_path)
    with pytest.raises(AssertionError, match=r"bench/old.py:2: labyrinth.tui.screens.title has no HUMAN"):
        test_every_name_imported_from_the_game_exists()
