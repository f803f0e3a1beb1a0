"""Everything on disk against hostile files: deletes and overwrites stay inside the data
directory, special files and giants are refused without hanging, a data directory that
cannot be used is one line, and stale temporary files of killed writers are swept (saved
games in particular: test_saved_games.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labyrinth.engine import UserInput
from labyrinth.engine.wsap import AvatarSpec
from labyrinth.saves.atomic import STALE_AFTER_S, sweep_data_dir, sweep_stale, write_json
from labyrinth.saves.avatars import load_roster, store_roster
from labyrinth.saves.experience import Experience, log_path
from labyrinth.saves.games import (
    PLAYER,
    list_games,
    saves_dir,
)
from labyrinth.saves.paths import StorageError, confined, data_dir
from labyrinth.saves.reading import NotAFile, read_regular
from tests.command_line import labyrinth

FAR_FUTURE = 4e9  # a clock in 2096: every file written today is old by then


# --- 1. deletes and overwrites stay inside the data directory ------------------


def _aimed_outside(aim: str, precious: Path) -> str:
    if aim == "absolute":
        return str(precious)
    if aim == "dotdot":
        return str(saves_dir() / ".." / ".." / ".." / precious.name)
    link = saves_dir() / "link.jsonl"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(precious)
    return str(link)


@pytest.mark.parametrize("aim", ["absolute", "dotdot", "symlink"])
def test_despawn_never_deletes_a_file_outside_the_saved_games(tmp_path, aim):
    from labyrinth.agents.wsap.avatars import LabyrinthAvatars

    precious = tmp_path / "precious.txt"
    precious.write_text("the user's own file")
    avatars = LabyrinthAvatars(preset="tiny")
    avatar = avatars.create_avatar("probe", AvatarSpec(name="Theseus"))
    assert avatars.jack_in("probe", avatar.avatar_id).success
    records = load_roster("probe")
    records[0].save = _aimed_outside(aim, precious)  # the roster edited while it plays
    store_roster("probe", records)
    result = avatars.jack_out("probe", "despawn")
    assert result.success and "left alone" in result.message and "outside" in result.message
    assert precious.read_text() == "the user's own file" and load_roster("probe") == []


def test_a_sleeping_avatar_whose_save_leads_outside_is_not_read(tmp_path):
    from labyrinth.agents.wsap.avatars import LabyrinthAvatars

    avatars = LabyrinthAvatars(preset="tiny")
    avatar = avatars.create_avatar("probe", AvatarSpec(name="Theseus"))
    avatars.jack_in("probe", avatar.avatar_id)
    avatars.jack_out("probe")
    records = load_roster("probe")
    records[0].save = str(tmp_path / "elsewhere.json")
    store_roster("probe", records)
    refused = avatars.jack_in("probe", avatar.avatar_id)
    assert not refused.success and "outside" in refused.message


def test_despawn_deletes_its_own_save():
    from labyrinth.agents.wsap.avatars import LabyrinthAvatars

    avatars = LabyrinthAvatars(preset="tiny")
    avatar = avatars.create_avatar("probe", AvatarSpec(name="Theseus"))
    avatars.jack_in("probe", avatar.avatar_id)
    avatars.jack_out("probe")
    save = Path(load_roster("probe")[0].save)
    assert save.is_file() and avatars.jack_in("probe", avatar.avatar_id).success
    assert avatars.jack_out("probe", "despawn").message.endswith("is gone.") and not save.exists()


@given(st.lists(st.sampled_from(["..", ".", "a", "b", "saves", "/", "/tmp"]), max_size=8))
def test_confined_accepts_only_what_resolves_inside(parts):
    root = Path("/srv/labyrinth/data")
    path = root.joinpath(*parts) if parts else root
    try:
        confined(path, root)
    except StorageError as exc:
        assert not path.resolve().is_relative_to(root) and str(path) in str(exc)
    else:
        assert path.resolve().is_relative_to(root)


def _log_leading_to(outside: Path, text: str) -> None:
    """The experience log as a link to ``outside``, a file of the user's holding ``text``."""
    outside.write_text(text)
    log_path().parent.mkdir(parents=True)
    log_path().symlink_to(outside)


def test_an_overwrite_through_a_symlink_leading_outside_is_refused(tmp_path):
    outside = tmp_path / "outside.json"
    _log_leading_to(outside, '{"mine": true}')
    with pytest.raises(StorageError, match="outside"):
        Experience().add([_reflection()])
    assert outside.read_text() == '{"mine": true}'


# --- 3. a data directory that cannot be used: one line ---------------------------


def test_a_data_directory_that_is_a_file_is_one_line_in_memory_list():
    data_dir().parent.mkdir(parents=True)
    data_dir().write_text("not a directory")
    with pytest.raises(StorageError, match="not a directory"):
        Experience().read()
    listed = labyrinth("memory", "list")
    assert listed.returncode == 2 and "Traceback" not in listed.stderr
    assert listed.stderr.strip().count("\n") == 0 and str(data_dir()) in listed.stderr


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into a read-only directory")
def test_a_read_only_data_directory_is_one_line_in_memory_list():
    data_dir().mkdir(parents=True)
    data_dir().chmod(0o500)
    try:
        listed = labyrinth("memory", "list")
    finally:
        data_dir().chmod(0o700)
    assert listed.returncode == 2 and "Traceback" not in listed.stderr and "Permission denied" in listed.stderr


def test_a_directory_that_cannot_be_created_is_one_line(monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", "/proc/self/no-such-place")
    with pytest.raises(StorageError, match="cannot be created"):
        Experience().read()


def test_a_lock_that_cannot_be_taken_is_one_line():
    log = Experience()
    (log.path.parent / (log.path.name + ".lock")).mkdir(parents=True)  # a directory where the lock file goes
    with pytest.raises(StorageError, match="experience log cannot be used there"):
        log.read()


def test_play_without_a_usable_data_directory_plays_without_memory_and_says_so():
    from labyrinth.tui.session import PlaySession

    data_dir().parent.mkdir(parents=True)
    data_dir().write_text("not a directory")
    session = PlaySession(5, "tiny")
    assert session.memory.log is None and "not a directory" in session.memory_notice
    while not session.over:
        session.play(UserInput(command="HALT", steps=40))
    assert session.match.reflections == [] and session.match.memory_error is None


# --- 5. special files are refused, giants are capped -----------------------------


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    """Opened without blocking: a read that waited on the FIFO would never end, so it runs in a
    thread the test stops waiting for (a bound on a hang, not a timing)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused = []

    def read() -> None:
        with pytest.raises(NotAFile, match="a FIFO"):
            read_regular(fifo, 100)
        refused.append(True)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=60)
    assert refused == [True]


def test_a_link_to_dev_zero_is_refused_not_read_into_memory(tmp_path):
    link = tmp_path / "zero"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotAFile, match="character device"):
        read_regular(link, 1 << 30)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(NotAFile, match="larger than the 100 bytes"):
        read_regular(big, 100)


@pytest.mark.parametrize("kind", ["fifo", "zero", "directory"])
def test_special_files_in_every_place_are_refused_without_hanging(kind, tmp_path):
    """The log, a save, a replay, a roster, the config: each a FIFO, a link to /dev/zero, a directory."""
    from labyrinth.saves.config import ConfigError, config_path, read_config
    from labyrinth.saves.replays import ReplayError, read_replay

    def plant(path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        {"fifo": os.mkfifo, "zero": lambda p: p.symlink_to("/dev/zero"), "directory": os.mkdir}[kind](path)
        return path

    if kind != "zero":  # a link leading outside the data directory is never moved: refused instead
        plant(log_path())
        assert Experience().read() == [] and list(log_path().parent.glob("experience_log.corrupt-*"))
    plant(saves_dir() / "20261123T000000-tiny-seed1.jsonl")
    games, problems = list_games()
    assert games == [] and len(problems) == 1
    with pytest.raises(ReplayError):
        read_replay(plant(tmp_path / "replay.jsonl"))
    plant(data_dir() / "avatars" / "probe.json")
    with pytest.raises(ValueError, match="probe.json"):
        load_roster("probe")
    plant(config_path())
    with pytest.raises(ConfigError, match="config.toml"):
        read_config()


# --- 6. stale temporary files of killed writers ----------------------------------


KILLED_WRITER = """
import os, sys
from pathlib import Path
from labyrinth.saves.atomic import write_atomic
target = Path(sys.argv[1])
def hang(out):
    out.write(b"half")
    out.flush()
    print("writing", flush=True)
    sys.stdin.read()  # until the test kills it
write_atomic(target, hang, target.parent)
"""


def test_stale_temporary_files_are_swept_but_a_live_writers_is_not(tmp_path):
    target = data_dir() / "experience_log.json"
    data_dir().mkdir(parents=True)
    killed = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(target)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert killed.stdout.readline() == "writing\n"
    killed.kill()
    killed.wait(timeout=30)
    live = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(target)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert live.stdout.readline() == "writing\n"
        temps = sorted(data_dir().glob(".experience_log.json.*.tmp"), key=lambda p: p.stat().st_mtime)
        assert len(temps) == 2
        newest = max(t.stat().st_mtime for t in temps)
        assert sweep_stale(data_dir(), now=newest) == []  # too young: a writer may be about to lock it
        later = newest + STALE_AFTER_S
        removed = sweep_data_dir(now=later)
        assert len(removed) == 1 and not removed[0].exists()
        assert [t for t in temps if t.exists()] == [t for t in temps if t != removed[0]]  # the live one stays
    finally:
        live.kill()
        live.wait(timeout=30)
    assert sweep_data_dir(now=later) and not list(data_dir().glob(".*.tmp")) and not target.exists()


def test_the_sweep_touches_only_temporary_files_of_ours(tmp_path):
    data_dir().mkdir(parents=True)
    keep = [data_dir() / name for name in (".hidden", "experience_log.json", ".x.tmp", ".a.b.tmp")]
    for path in keep:
        path.write_text("keep")
    (data_dir() / ".link.abcdefgh.tmp").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").write_text("keep")
    assert sweep_data_dir(now=FAR_FUTURE) == []
    assert all(p.read_text() == "keep" for p in keep) and (tmp_path / "elsewhere").exists()


def test_a_start_of_the_command_sweeps_the_data_directory():
    saves_dir().mkdir(parents=True)
    stale = saves_dir() / ".20261123-tiny-seed1.jsonl.abcd1234.tmp"
    stale.write_text("half a save")
    os.utime(stale, (0, 0))  # written in 1970: stale whatever the clock says
    assert labyrinth("memory", "list").returncode == 0 and not stale.exists()


def _reflection():
    from tests.saves.test_experience import reflection

    return reflection(1)


def test_write_json_creates_the_folder_and_replaces_atomically(tmp_path):
    write_json(tmp_path / "a" / "b.json", {"x": 1}, tmp_path)
    write_json(tmp_path / "a" / "b.json", {"x": 2}, tmp_path)
    assert json.loads((tmp_path / "a" / "b.json").read_text()) == {"x": 2}
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["b.json"]


@pytest.mark.slow
async def test_the_tui_plays_without_memory_says_so_once_and_its_memory_screen_opens():
    from labyrinth.tui.app import LabyrinthApp
    from labyrinth.tui.screens.game_over import GameOverScreen
    from labyrinth.tui.screens.memory import MemoryScreen
    from labyrinth.tui.screens.title import NewGame
    from tests.tui.test_tui import halt_until_over

    data_dir().parent.mkdir(parents=True)
    data_dir().write_text("not a directory")
    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "builtin"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        said = [n.message for n in app._notifications if "without memory" in n.message]
        assert len(said) == 1 and "not a directory" in said[0]
        await halt_until_over(pilot, app.screen.session)
        assert isinstance(app.screen, GameOverScreen)
        app.push_screen(MemoryScreen())
        await pilot.pause()
        assert isinstance(app.screen, MemoryScreen) and app.screen.reflections == []


@pytest.mark.parametrize("edit", [{"seed": "five"}, {"preset": "huge"}, {"save": 123}, {"stones_ever": "RED"},
                                  {"avatar": {"death_count": "many"}}, {"avatar": {"state": "god"}},
                                  {"avatar": {"position": "here"}}, {"avatar": None}])
def test_an_edited_roster_is_refused_in_one_line_not_a_crash_later(edit):
    from labyrinth.agents.wsap.avatars import LabyrinthAvatars

    avatars = LabyrinthAvatars(preset="tiny")
    avatars.create_avatar("probe", AvatarSpec(name="Theseus"))
    path = data_dir() / "avatars" / "probe.json"
    roster = json.loads(path.read_text())
    for key, value in edit.items():
        if isinstance(value, dict):
            roster["avatars"][0][key].update(value)
        else:
            roster["avatars"][0][key] = value
    path.write_text(json.dumps(roster))
    with pytest.raises(ValueError, match="probe.json: broken roster") as error:
        avatars.list_avatars("probe")
    assert "\n" not in str(error.value)


def test_a_log_that_leads_outside_is_refused_before_it_is_read(tmp_path):
    _log_leading_to(tmp_path / "elsewhere.json", '{"version": 1, "reflections": []}')
    with pytest.raises(StorageError, match="outside"):
        Experience().read()
    listed = labyrinth("memory", "list")
    assert listed.returncode == 2 and "it leads to" in listed.stderr and "Traceback" not in listed.stderr


def test_a_lock_file_that_leads_outside_creates_nothing_there(tmp_path):
    """The lock beside the log is a file the game creates: a link planted in its place must not make
    the game create (or truncate) a file elsewhere."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    log_path().parent.mkdir(parents=True)
    log_path().with_name(log_path().name + ".lock").symlink_to(elsewhere / "created_outside")
    with pytest.raises(StorageError, match="outside"):
        Experience().read()
    listed = labyrinth("memory", "list")
    assert listed.returncode == 2 and "Traceback" not in listed.stderr
    assert list(elsewhere.iterdir()) == []
