"""Which build played: a file git tracks gives its commit, with a digest of the checkout's changes;
a file no checkout tracks (an installed wheel's) gives none, after one question to git."""

from __future__ import annotations

import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from labyrinth.saves import build
from labyrinth.saves.build import COMMIT_CHARS, DIRTY_CHARS, commit_of

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git on PATH")


def _git(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, check=True).stdout.strip()


def test_a_tracked_file_gives_its_commit_and_a_digest_of_each_edit(tmp_path):
    _git(tmp_path, "init", "-q")
    here = tmp_path / "build.py"
    here.write_text("one\n")
    _git(tmp_path, "add", "build.py")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    head = _git(tmp_path, "rev-parse", "HEAD")
    assert commit_of(here) == head[:COMMIT_CHARS]
    here.write_text("two\n")
    first = commit_of(here)
    here.write_text("three\n")
    second = commit_of(here)
    assert first.startswith(f"{head[:COMMIT_CHARS]}.dirty.") and len(first.rsplit(".", 1)[1]) == DIRTY_CHARS
    assert second != first  # two edits of one commit are two builds


def test_a_file_no_checkout_tracks_has_no_commit_and_asks_git_once(tmp_path, monkeypatch):
    _git(tmp_path, "init", "-q")  # a repository that does not track it (a venv inside a checkout, say)
    here = tmp_path / "build.py"
    here.write_text("untracked\n")
    asked = []
    real = build._git
    monkeypatch.setattr(build, "_git", lambda where, *args: asked.append(args) or real(where, *args))
    assert commit_of(here) is None
    outside = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    outside.mkdir()
    (outside / "build.py").write_text("installed\n")
    assert commit_of(outside / "build.py") is None
    assert [args[0] for args in asked] == ["ls-files", "ls-files"]


def test_a_build_looked_up_early_is_the_one_found_on_demand_and_git_is_asked_as_often(monkeypatch):
    """look_up_early (the game's start: git answers while the app loads) gives build_id's own answer; build_id
    called while the thread is still asking waits for it rather than asking git again."""
    asked = []
    real = build._git

    def slow_git(where, *args):
        asked.append(args)
        threading.Event().wait(0.05)  # still asking when build_id is called: it must wait, not ask again
        return real(where, *args)

    monkeypatch.setattr(build, "_git", slow_git)
    monkeypatch.setattr(build, "_early", [])
    build.git_commit.cache_clear()
    on_demand = build.build_id()
    asked_on_demand = len(asked)
    build.git_commit.cache_clear()
    build.look_up_early()
    build.look_up_early()  # started once
    assert build.build_id() == on_demand
    assert len(asked) == 2 * asked_on_demand and not build._early[0].is_alive()
    build.git_commit.cache_clear()
