"""bench/hostile.py (hostile_watch.py) judges what it throws: its inputs repeat by seed, its watchdog ends a
call that would hang, and its decoy sees a file outside the data directory touched."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import hostile_inputs
import hostile_watch


def test_inputs_repeat_by_seed_and_change_with_it():
    one = list(hostile_inputs.typed_commands(7, 200))
    assert one == list(hostile_inputs.typed_commands(7, 200))
    assert one != list(hostile_inputs.typed_commands(8, 200))
    assert list(hostile_inputs.gsm_lines(7, 40, "external", 100)) == list(hostile_inputs.gsm_lines(7, 40, "external", 100))
    assert all(c.isdigit() and not c.isascii() for c in hostile_inputs.UNICODE_DIGITS)


def test_the_decoy_sees_a_deletion_a_change_a_new_file_and_a_new_mtime(tmp_path):
    decoy = hostile_watch.Decoy(tmp_path / "decoy")
    before = decoy.snapshot()
    assert decoy.changes(before) == []
    (decoy.root / "victim.txt").unlink()
    (decoy.root / "victim.json").write_text("{}")
    (decoy.root / "new").write_text("")
    os.utime(decoy.root / "inner" / "notes.md", ns=(0, 0))  # the same words, only the time changed
    assert decoy.changes(before) == ["inner/notes.md", "new", "victim.json", "victim.txt"]
    decoy.reset()
    assert (decoy.root / "victim.txt").read_text() == "keep me\n" and not (decoy.root / "new").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO is POSIX's")
def test_the_watchdog_ends_a_read_of_a_fifo_nobody_writes(tmp_path, monkeypatch):
    fifo = tmp_path / "log"
    os.mkfifo(fifo)
    tally = hostile_watch.Tally("fifo")
    monkeypatch.setattr(hostile_watch, "HANG_S", 0.3)
    hostile_watch.call(tally, "FIFO", fifo.read_bytes, (OSError,))
    assert (tally.tried, tally.hangs, tally.crashes) == (1, 1, 0)


def test_an_escaping_exception_is_a_crash_and_a_refusal_is_not():
    tally = hostile_watch.Tally("parse")
    hostile_watch.call(tally, "bad", lambda: int("²"), (KeyError,))
    hostile_watch.call(tally, "refused", lambda: {}["x"], (KeyError,))
    assert (tally.tried, tally.crashes) == (2, 1) and tally.failures[0].startswith("crash: bad: ValueError")
