"""Every path a user names for a command's output (leaderboard --csv, --paired-csv, --matches-csv,
--html; memory export; replay --output) goes through saves.outputs: a new file, a regular file or a
link of theirs to one is written whole with the umask's mode; - and /dev/stdout carry the output and
nothing else; a directory, FIFO, socket, device, a link to one, a dangling link or a missing folder is
refused in one line (exit 2), nothing printed on stdout, the thing named left as it was."""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from labyrinth.saves.results_db import MatchRow, ResultsDB
from labyrinth.tui.cli import main
from tests.saves.test_outputs import AS_ROOT, fingerprint, umask

REPLAY = Path(__file__).parent.parent / "fixtures" / "replay-before-sent.jsonl"
COMMANDS: dict[str, tuple[str, Callable[[str], list[str]]]] = {  # what it is said as, and its command line
    "--csv": ("leaderboard", lambda path: ["leaderboard", "--csv", path]),
    "--paired-csv": ("leaderboard", lambda path: ["leaderboard", "--paired-csv", path]),
    "--matches-csv": ("leaderboard", lambda path: ["leaderboard", "--matches-csv", path]),
    "--html": ("leaderboard", lambda path: ["leaderboard", "--html", path]),
    "memory export": ("memory", lambda path: ["memory", "export", path]),
    "replay --output": ("replay", lambda path: ["replay", str(REPLAY), "--transcript", "--output", path]),
}


def plant(kind: str, folder: Path) -> Path:
    """A thing of ``kind`` in ``folder`` where a command is told to write."""
    path, there = folder / "report", folder / "there"
    if kind in ("directory", "link to a directory"):
        there.mkdir()
    if kind in ("fifo", "link to a fifo"):
        os.mkfifo(there)
    if kind == "socket":
        listening = socket.socket(socket.AF_UNIX)
        listening.bind(str(there))  # closed with the test: its file stays, which is what is refused
        listening.close()
    if kind == "device":
        os.mknod(there, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers, harmless here
    if kind.startswith("link") or kind == "dangling link":
        path.symlink_to(there)
        return path
    return folder / "missing" / "report" if kind == "missing folder" else there


KINDS = ["directory", "fifo", "socket", "device", "link to a directory", "link to a fifo", "dangling link",
         "missing folder"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("option", list(COMMANDS))
def test_a_path_that_is_not_a_file_is_refused_in_one_line_and_left_as_it_was(tmp_path, capsys, option, kind):
    if kind == "device" and not AS_ROOT:
        pytest.skip("making a device node needs root")
    folder = tmp_path / "out"
    folder.mkdir()
    path = plant(kind, folder)
    before = {p.name: fingerprint(p) for p in folder.iterdir()}
    reader = os.open(folder / "there", os.O_RDONLY | os.O_NONBLOCK) if "fifo" in kind else None
    command, argv = COMMANDS[option]
    try:
        assert main(argv(str(path))) == 2
        if reader is not None:
            assert os.read(reader, 100) == b""  # never opened to write
    finally:
        if reader is not None:
            os.close(reader)
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"labyrinth {command}: cannot write ")
    assert f"{path}: " in err and "Traceback" not in err
    assert {p.name: fingerprint(p) for p in folder.iterdir()} == before  # nothing new, nothing changed


def keep_matches() -> None:
    with ResultsDB() as db:
        for seed in (1, 2):
            for user in ("builtin", "\x1b[31mred\r\x85name\x00", "\t=HYPERLINK(1)"):
                db.record(MatchRow(user, "wait", seed, "tiny", "normal", 20, "ESCAPED" if seed == 1 else "DEATH",
                                   7, 12.5))


@pytest.mark.parametrize("option", list(COMMANDS))
def test_a_new_file_a_regular_file_and_a_link_to_one_are_written_whole_as_stdout_is(tmp_path, capsys, option):
    keep_matches()
    _, argv = COMMANDS[option]
    assert main(argv("-")) == 0
    shown, err = capsys.readouterr()
    assert shown and "Traceback" not in err
    assert main(argv("/dev/stdout")) == 0
    assert capsys.readouterr().out == shown  # the output alone: no table, no "wrote" line mixed in
    new, kept, link = tmp_path / "new", tmp_path / "kept", tmp_path / "link"
    kept.write_text("old")
    kept.chmod(0o600)
    link.symlink_to("kept")
    for path in (new, kept, link):
        with umask(0o022):
            assert main(argv(str(path))) == 0
        capsys.readouterr()
    for path, mode in ((new, 0o644), (kept, 0o600)):  # a new file as the umask says; one replaced keeps its mode
        assert path.read_bytes().decode() == shown and stat.S_IMODE(path.stat().st_mode) == mode
    assert link.is_symlink() and os.readlink(link) == "kept"
    assert not list(tmp_path.glob(".*"))  # no temporary file left beside them


@pytest.mark.parametrize("option", ["--csv", "--matches-csv"])
def test_the_csv_cells_hold_no_control_characters_and_no_formula(capsys, option):
    keep_matches()
    assert main(COMMANDS[option][1]("-")) == 0
    written = capsys.readouterr().out
    assert "redname" in written and not any(0 <= ord(c) < 32 and c != "\n" or 0x7f <= ord(c) <= 0x9f
                                            for c in written)
    assert "'=HYPERLINK(1)" in written and ",=HYPERLINK" not in written and "\n=HYPERLINK" not in written


def test_the_page_holds_no_control_character_and_escapes_its_names(capsys):
    """A hand-edited name's escape sequence, carriage return, NEL and NUL reach no web page (nor its SVG
    charts): the name shows without them, and markup in a name shows as text."""
    keep_matches()
    with ResultsDB() as db:
        db.record(MatchRow("<b>bold</b>", "wait", 1, "tiny", "normal", 20, "DEATH", 7, 12.5))
    assert main(["leaderboard", "--html", "-"]) == 0
    page = capsys.readouterr().out
    assert "[31mredname" in page and "&lt;b&gt;bold&lt;/b&gt;" in page and "<b>bold" not in page
    assert not any(0 <= ord(c) < 32 and c not in "\t\n" or 0x7f <= ord(c) <= 0x9f for c in page)


@pytest.mark.parametrize("extra", [["--html", "-"], ["--json"]])
def test_two_outputs_on_stdout_are_refused_before_either_is_written(tmp_path, capsys, extra):
    keep_matches()
    assert main(["leaderboard", "--csv", "-", *extra]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "cannot share standard output" in err


def test_one_refused_report_writes_none_of_the_others(tmp_path, capsys):
    keep_matches()
    (tmp_path / "page").mkdir()
    assert main(["leaderboard", "--csv", str(tmp_path / "r.csv"), "--html", str(tmp_path / "page")]) == 2
    assert "the leaderboard page" in capsys.readouterr().err and not (tmp_path / "r.csv").exists()


KEPT_BYTES = b'{"version": 1, "reflections": []}\n'  # an empty experience log, as the game reads it; bytes for the rest
KEPT = ["results.db", "results.db-wal", "experience_log.json", "saves/a-game.jsonl", "replays/a-match.jsonl"]


@pytest.mark.parametrize("kept", KEPT)
@pytest.mark.parametrize("option", list(COMMANDS))
@pytest.mark.parametrize("by_link", [False, True])
def test_what_the_game_keeps_is_never_a_reports_target(tmp_path, capsys, option, kept, by_link):
    """A report named over the results database, the experience log, a save or a replay in the data directory
    (or a link of the user's to one) is refused in one line and the file left as it was: `leaderboard --csv
    .../results.db` once replaced the database with CSV, exit 0."""
    home = tmp_path / "data" / "labyrinth"
    there = home / kept
    there.parent.mkdir(parents=True, exist_ok=True)
    there.write_bytes(KEPT_BYTES)
    named = tmp_path / "link.csv" if by_link else there
    if by_link:
        named.symlink_to(there)
    assert main(COMMANDS[option][1](str(named))) == 2
    said = capsys.readouterr()
    assert "a file the game keeps" in said.err and said.err.count("\n") == 1 and not said.out
    assert there.read_bytes() == KEPT_BYTES


@pytest.mark.parametrize("how", ["--summary", "--verify", "--transcript"])
def test_a_replay_shown_into_its_own_file_is_refused_and_kept(tmp_path, capsys, how):
    """`replay R --output R` would put R's summary in R's place, as `sort f > f` empties f."""
    replay = tmp_path / "mine.jsonl"
    replay.write_bytes(REPLAY.read_bytes())
    assert main(["replay", str(replay), how, "--output", str(replay)]) == 2
    assert "the file this command reads" in capsys.readouterr().err
    assert replay.read_bytes() == REPLAY.read_bytes()
