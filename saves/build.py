"""Which build of the game played a match: its version and, when it runs from a git checkout, the
commit (and whether the checkout had changes). A tournament's match is known by it (MatchKey.build),
so a run resumed after the rules or the agents changed plays its matches again rather than taking
the old ones for its own, and a published table can say what code made it.

A wheel carries no commit: its build is its version. A checkout's is only trusted when this very
file is one git tracks there (an installed wheel inside some repository's virtual environment is
not that repository's code).
"""

from __future__ import annotations

import hashlib
import subprocess
import threading
from functools import cache
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "labyrinth-temporal-hunt"
COMMIT_CHARS = 12  # as `git log --abbrev=12` shows it: unique in any repository of this size
DIRTY_CHARS = 8  # the digest of a checkout's uncommitted changes in its build
GIT_S = 5.0  # the longest git is given to answer: a build that cannot say in time has no commit
_early: list[threading.Thread] = []  # look_up_early's thread, once started


@cache
def project_version() -> str:
    """This project's version, as installed; read once (reading a distribution's metadata parses its files)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


@cache
def git_commit() -> str | None:
    """The commit this code was checked out at (COMMIT_CHARS of it); when tracked files have changes,
    ".dirty." and a digest of those changes (DIRTY_CHARS), so that two different edits of one commit are
    two builds; None outside a checkout that tracks this file, or without git."""
    return commit_of(Path(__file__).resolve())


def commit_of(here: Path) -> str | None:
    """``git_commit`` for the file ``here``."""
    try:
        if _git(here.parent, "ls-files", "--error-unmatch", here.name) is None:
            return None  # an installed copy (a wheel's, say): the rest would ask git twice more for nothing
        commit = _git(here.parent, "rev-parse", "HEAD")
        changes = _git(here.parent, "diff", "HEAD")
    except (OSError, subprocess.SubprocessError):
        return None
    if not commit:
        return None
    dirty = f".dirty.{hashlib.sha256(changes.encode()).hexdigest()[:DIRTY_CHARS]}" if changes else ""
    return commit[:COMMIT_CHARS] + dirty


def look_up_early() -> None:
    """Start finding this build in a thread. A checkout's commit takes three runs of git (some 20 ms), which
    the game's start would wait for at its first replay's header; started before the game's modules load,
    git works on another core meanwhile. ``build_id`` waits for the thread."""
    if not _early:
        _early.append(threading.Thread(target=build_id, name="build-id", daemon=True))
        _early[0].start()


def build_id() -> str:
    """The version, and the commit when there is one: "0.1.0+g1a2b3c4d5e6f" (PEP 440's local part)."""
    if _early and _early[0] is not threading.current_thread():
        _early[0].join()  # then git_commit's cache holds its answer
    commit = git_commit()
    return project_version() + (f"+g{commit}" if commit else "")


def _git(where: Path, *args: str) -> str | None:
    """What git prints for ``args`` run in ``where``, or None when it fails."""
    done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, timeout=GIT_S,
                          check=False)
    return done.stdout.strip() if done.returncode == 0 else None


# What the results could depend on beyond this code: the game's own libraries and each provider's SDK
# with its HTTP stack (a new SDK may send requests differently).
PACKAGES = ("pydantic", "textual", "rich", "platformdirs", "openai", "google-genai", "mistralai", "ollama", "httpx",
            "httpx2")


def package_versions() -> dict[str, str]:
    """The installed version of each of PACKAGES, and Python's ("not installed" for one that is not)."""
    import platform

    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions
