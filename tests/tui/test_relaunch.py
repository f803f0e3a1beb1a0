"""The command the quit and signal lines advise: it starts this very program from where the player is.
Each case builds its folders and PATH in tmp_path, so the machine's own PATH and install do not matter."""

from __future__ import annotations

import io
import os
import shlex
from pathlib import Path

from labyrinth.tui.app import told_where
from labyrinth.tui.relaunch import again_command


def program(path: Path) -> Path:
    """An executable file at ``path`` (what a venv's console script is, as far as the shell can tell)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_after_the_quick_start_the_advice_is_the_venv_s_script_relative_to_the_repository(tmp_path):
    repo = tmp_path / "labyrinth"
    program(repo / ".venv/bin/labyrinth")
    assert again_command(".venv/bin/labyrinth", "/usr/bin:/bin", repo) == ".venv/bin/labyrinth"
    assert again_command(str(repo / ".venv/bin/labyrinth"), "/usr/bin:/bin", repo) == ".venv/bin/labyrinth"


def test_from_another_folder_the_advice_is_the_absolute_path(tmp_path):
    script = program(tmp_path / "labyrinth/.venv/bin/labyrinth")
    (tmp_path / "elsewhere").mkdir()
    assert again_command(str(script), "/usr/bin:/bin", tmp_path / "elsewhere") == str(script)
    assert again_command("../labyrinth/.venv/bin/labyrinth", "", tmp_path / "elsewhere") == str(script)


def test_the_bare_name_only_when_the_path_finds_this_very_program(tmp_path):
    script = program(tmp_path / "labyrinth/.venv/bin/labyrinth")
    other = program(tmp_path / "other/bin/labyrinth")
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked/labyrinth").symlink_to(script)
    cwd = tmp_path / "labyrinth"
    assert again_command(str(script), f"{script.parent}{os.pathsep}/usr/bin", cwd) == "labyrinth"
    assert again_command(str(script), f"{tmp_path / 'linked'}{os.pathsep}/usr/bin", cwd) == "labyrinth"
    assert again_command(str(script), f"{other.parent}{os.pathsep}{script.parent}", cwd) == ".venv/bin/labyrinth"
    assert again_command("labyrinth", f"{script.parent}", tmp_path) == "labyrinth"  # started by its name


def test_python_dash_m_names_the_script_beside_the_interpreter_or_else_the_interpreter(tmp_path):
    python = program(tmp_path / "labyrinth/.venv/bin/python")
    main = str(tmp_path / "build/labyrinth/__main__.py")
    assert again_command(main, "/usr/bin", tmp_path / "labyrinth", str(python)) == ".venv/bin/python -m labyrinth"
    program(python.parent / "labyrinth")
    assert again_command(main, "/usr/bin", tmp_path / "labyrinth", str(python)) == ".venv/bin/labyrinth"


def test_a_program_directly_in_the_folder_or_a_path_with_a_space_still_runs_as_printed(tmp_path):
    program(tmp_path / "labyrinth")
    assert again_command("labyrinth", "", tmp_path) == "./labyrinth"  # not found on an empty PATH
    spaced = program(tmp_path / "my games/.venv/bin/labyrinth")
    assert shlex.split(again_command(str(spaced), "", tmp_path)) == ["my games/.venv/bin/labyrinth"]


def test_the_quit_line_gives_the_command(tmp_path, monkeypatch):
    script = program(tmp_path / ".venv/bin/labyrinth")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", [str(script)])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    out = io.StringIO()
    told_where([tmp_path / "saves/game.json"], out)
    assert "run `.venv/bin/labyrinth` and choose Continue" in out.getvalue()
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}/usr/bin")
    out = io.StringIO()
    told_where([tmp_path / "saves/game.json"], out)
    assert "run `labyrinth` and choose Continue" in out.getvalue()
