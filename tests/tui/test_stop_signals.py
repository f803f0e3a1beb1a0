"""A headless command stopped by SIGTERM keeps what Ctrl-C keeps: the arena and the tournament say the
models' health, leave no replay of a match under way, and exit with 143 (130 for Ctrl-C)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from labyrinth.tui.stop_signals import Stopped, cause, exit_status, sigterm_as_ctrl_c
from tests.stubs import Model, Stub

from .test_cli import LABYRINTH

TINY = ["--preset", "tiny", "--max-turns", "12"]


def test_sigterm_is_heard_as_ctrl_c_while_a_command_runs_and_left_as_it_was_after():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Stopped) as stop, sigterm_as_ctrl_c():
        assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, before), "the signal would end the test run"
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # cut short: the handler raises as soon as the signal arrives (the bound fails a broken one)
    assert isinstance(stop.value, KeyboardInterrupt) and signal.getsignal(signal.SIGTERM) == before
    assert (exit_status(stop.value), cause(stop.value)) == (143, "SIGTERM")
    assert (exit_status(KeyboardInterrupt()), cause(KeyboardInterrupt())) == (130, "Ctrl-C")


def _whole(replay: Path) -> bool:
    """Whether a replay holds its match to the end (its last line is the final one)."""
    lines = replay.read_text().splitlines()
    return bool(lines) and json.loads(lines[-1])["type"] == "final"


def _one_ended_one_under_way(replays: Path) -> bool:
    """Whether a match has ended and another has recorded some of its turns, far from its end: then a
    run stopped now has a replay to keep and one to remove. Read while they are written: lines whole."""
    texts = [path.read_text() for path in replays.glob("*.jsonl")]
    return any('{"type":"final"' in text for text in texts) and \
        any('{"type":"final"' not in text and 2 <= text.count("\n") <= 6 for text in texts)


def _stopped_once(command: list[str], ready, timeout_s: float = 60.0) -> tuple[int, str]:
    """``command`` sent SIGTERM once ``ready()`` holds; its status and stderr."""
    run = subprocess.Popen([*LABYRINTH, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout_s  # only a bound, so that a broken run cannot hang the suite
    while not ready() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=timeout_s)
    return run.returncode, err


@pytest.mark.slow
def test_an_arena_stopped_by_sigterm_says_the_health_and_leaves_only_whole_replays(monkeypatch, tmp_path):
    server = Stub(Model("openai", delay_s=0.05))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    replays = tmp_path / "replays"
    try:
        code, err = _stopped_once(["arena", "--user", "openai/a", "--minotaur", "wait", "--games", "50", "--jobs", "2",
                                   "--replays", str(replays), *TINY],
                                  lambda: _one_ended_one_under_way(replays))
    finally:
        server.close()
    assert code == 143 and "stopped: stopped by SIGTERM" in err and "openai/a: " in err and "Traceback" not in err
    kept = list(replays.glob("*.jsonl"))
    assert kept and all(map(_whole, kept))


@pytest.mark.slow
def test_a_tournament_stopped_by_sigterm_says_so_and_the_health(monkeypatch):
    server = Stub(Model("openai", delay_s=0.05))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    replays = Path(os.environ["XDG_DATA_HOME"]) / "labyrinth" / "replays" / "tournament"
    try:
        code, err = _stopped_once(["tournament", "--users", "openai/a", "--minotaurs", "wait", "--games", "50",
                                   "--concurrency", "2", *TINY], lambda: _one_ended_one_under_way(replays))
    finally:
        server.close()
    assert code == 143 and "stopped by SIGTERM after" in err and "openai/a: " in err and "Traceback" not in err
