"""The repository lints clean: ruff with pyproject.toml's [tool.ruff] (its default rules, line length 120
counted by E501), run from the root on every file it finds, as CI runs the suite. ruff is pinned in the
[test] extra, so a new release's rules do not change what passes here."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_repository_has_no_lint_findings():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                         cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
