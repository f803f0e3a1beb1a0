"""The command that starts this program again from where the player is, for the lines printed on leaving:
``labyrinth`` when that name on the PATH is this very program, else the path it was started by (relative
when it lies under the current folder, as ``.venv/bin/labyrinth`` after the Quick start, else absolute)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

NAME = "labyrinth"


def again_command(argv0: str | None = None, search_path: str | None = None, cwd: Path | None = None,
                  python: str | None = None) -> str:
    """The shell command that runs this program again; by default from this process's argv[0], PATH, folder
    and interpreter (each may be given, as the tests give them)."""
    cwd = cwd or Path.cwd()
    started = Path(argv0 if argv0 is not None else sys.argv[0])
    interpreter = Path(python or sys.executable)
    if started.name == "__main__.py":  # python -m labyrinth: the script beside the interpreter, when it has one
        script = interpreter.parent / NAME
        if not script.is_file():
            return f"{_where(interpreter, cwd)} -m {NAME}"
        started = script
    search_path = search_path if search_path is not None else os.environ.get("PATH", "")
    if os.sep not in str(started):  # started by its bare name: the shell found it on the PATH
        found = shutil.which(str(started), path=search_path)
        started = Path(found) if found is not None else started
    on_path = shutil.which(NAME, path=search_path)
    if on_path is not None and _same(Path(on_path), cwd / started):
        return NAME
    return _where(started, cwd)


def _same(found: Path, started: Path) -> bool:
    try:
        return found.resolve(strict=True) == started.resolve(strict=True)
    except OSError:  # the program's file is gone or unreadable: the name cannot be shown to be it
        return False


def _where(program: Path, cwd: Path) -> str:
    """``program`` as the shell will find it from ``cwd``: relative (with a slash) beneath it, else absolute."""
    absolute = Path(os.path.abspath(cwd / program))
    try:
        shown = f"{os.curdir}{os.sep}{absolute.relative_to(Path(os.path.abspath(cwd)))}"
    except ValueError:
        shown = str(absolute)
    if shown.startswith(f"{os.curdir}{os.sep}") and os.sep in shown[2:]:
        shown = shown[2:]  # .venv/bin/labyrinth already holds a slash: the shell will not search PATH for it
    return shlex.quote(shown)
