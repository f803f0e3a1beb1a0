"""Matches that start together: their first calls never meet an SDK half loaded by another
thread (issue 38: "SDK could not read: AttributeError", blamed on the endpoint). Each test runs
tests/agents/llm/first_calls.py in a fresh interpreter, where nothing is imported yet."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]


def first_calls(mode: str) -> list[str]:
    ran = subprocess.run([sys.executable, "-m", "tests.agents.llm.first_calls", mode], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True)
    found: list[str] = json.loads(ran.stdout)
    return found


def test_sixteen_first_calls_at_once_fail_only_where_refused():
    """Before the SDKs were imported one at a time, 5 runs in 10 failed ("partially initialized module
    'ollama' has no attribute 'Client'")."""
    outcomes = first_calls("together")
    assert outcomes[0].startswith("ProviderError: mistral answered HTTP 400: ")  # the refused one, told as such
    assert outcomes[1:] == ["ok"] * 15, [o for o in outcomes if o != "ok"]


def test_a_run_imports_everything_its_calls_need_before_its_matches_start():
    """Once registry.load_providers has run (the arena's and the tournament's first step), no call of any
    transport, answered or failed, and no transport dropped, imports a module: the matches' threads
    import nothing."""
    assert first_calls("late") == []
