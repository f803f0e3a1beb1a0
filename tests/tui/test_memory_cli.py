"""`labyrinth memory` and the arena's memory, as a user meets them on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from labyrinth.saves.experience import Experience, Reflection, log_path

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LABYRINTH, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                          check=False)


def test_an_arena_run_writes_reflections_that_list_show_export_and_clear(tmp_path):
    assert "No reflections yet" in run("memory", "list").stdout
    arena = run("arena", "--games", "3", "--preset", "small", "--max-turns", "150", "--learn", "both", "--json")
    assert arena.returncode == 0 and json.loads(arena.stdout)["reflections"] == 6
    lines = run("memory", "list").stdout.splitlines()
    assert len(lines) == 6 and all(("-user " in line) or ("-minotaur " in line) for line in lines)
    deaths = run("memory", "list", "--role", "user", "--outcome", "death").stdout.splitlines()
    assert deaths and all(" user " in line and " DEATH " in line for line in deaths)
    first_id = lines[0].split()[0]
    shown = run("memory", "show", first_id)
    assert shown.returncode == 0 and "evidence:" in shown.stdout and "from the game's events" in shown.stdout
    ambiguous = run("memory", "show", first_id.split("-")[0])
    assert ambiguous.returncode == 1 and "2 reflections have the id" in ambiguous.stderr
    exported = run("memory", "export", str(tmp_path / "lessons.json"))
    assert exported.returncode == 0 and len(json.loads((tmp_path / "lessons.json").read_text())["reflections"]) == 6
    assert json.loads(run("memory", "export", "-").stdout)["version"] == 1
    refused = run("memory", "clear")
    assert refused.returncode == 2 and "--yes" in refused.stderr and len(Experience().read()) == 6
    assert "Forgot 6 reflections." in run("memory", "clear", "--yes").stdout and Experience().read() == []


def test_the_arena_learns_from_the_log_only_when_asked():
    run("arena", "--games", "2", "--preset", "small", "--max-turns", "150", "--learn", "both")
    run("arena", "--games", "2", "--preset", "small", "--max-turns", "150")
    assert len(Experience().read()) == 4  # the second run neither read nor wrote
    table = run("arena", "--games", "2", "--preset", "small", "--max-turns", "150", "--learn", "both").stdout
    assert "memory: lessons in the log / reflections added" in table and "4 / 4" in table


def test_a_corrupt_log_is_kept_aside_said_once_and_play_goes_on():
    log_path().parent.mkdir(parents=True)
    log_path().write_text("{half a log")
    arena = run("arena", "--games", "1", "--preset", "small", "--max-turns", "100", "--learn", "both")
    assert arena.returncode == 0 and "could not be read" in arena.stderr and "kept as" in arena.stderr
    assert len(list(log_path().parent.glob("experience_log.corrupt-*.json"))) == 1
    assert len(Experience().read()) == 2
    assert run("memory", "list").stderr == ""  # told once: the fresh log reads fine


# POSIX zone strings (nine hours east, five west): they need no time zone database on the machine.
@pytest.mark.parametrize("zone, shown", [("UTC0", "2026-11-23 17:16"), ("JST-9", "2026-11-24 02:16"),
                                         ("EST5", "2026-11-23 12:16")])
def test_memory_list_says_when_in_the_players_own_time_as_the_memory_screen_does(monkeypatch, zone, shown):
    """The log keeps UTC; `memory list` says local time, to the minute (dates.local_time), as every screen."""
    import time

    from labyrinth.tui.commands.memory_run import list_line

    reflection = Reflection(id="ab12cd34-user", game_id="ab12cd34", created_at="2026-11-23T17:16:40Z", role="user",
                            agent="builtin", outcome="DEATH", key_reflection="Walk.", seed=3, preset="tiny",
                            turns=40, game_time=80.0)
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        assert list_line(reflection).startswith(f"{'ab12cd34-user':<17} {shown}  user ")
    finally:
        monkeypatch.undo()
        time.tzset()
