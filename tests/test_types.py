"""The installed packages type-check: mypy with pydantic's plugin, the settings of pyproject.toml's
[tool.mypy] (the engine strict). It reads the installed `labyrinth.*` (the strict editable install
links real files there), so it checks what editors and users resolve."""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# every package, as each reaches zero errors
CHECKED = ("labyrinth.engine", "labyrinth.saves", "labyrinth.agents", "labyrinth.tui")


@pytest.mark.slow
def test_the_packages_type_check():
    args = [arg for package in CHECKED for arg in ("-p", package)]
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", *args], cwd=REPO,
                         capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
