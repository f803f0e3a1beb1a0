"""The TUI tests' Pilot, idle sooner. After each key it presses (twice) and at each ``pause()``, Textual's
Pilot waits until the process looks idle: it sleeps 20 ms at a time until one sleep passes with under
1 ms of CPU used, by any thread of the process. A busy window costs the whole 20 ms before the next
look, and a thread at work (a stub server answering, a worker thinking) keeps every window busy until
the wait gives up after a second. Here the look is made every 4 ms, and the process is idle once a
frame's worth of windows in a row (17 ms: the screen's refresh interval, so a refresh or layout due
meanwhile has run) each used under a quarter of its time: what is waited for is the same, the
sleeps around it shorter. This is the harness's timing, not the app's."""

from __future__ import annotations

from asyncio import sleep
from time import monotonic, process_time

import pytest
import textual.app
import textual.pilot

WINDOW_S = 0.004  # each sleep of the idle test
IDLE_CPU_S = WINDOW_S / 4  # less CPU than this in a window: idle for that window
FRAME_S = 1 / 60  # idle windows in a row to add up to this: idle (Textual refreshes at 60 Hz)


async def wait_for_idle(min_sleep: float = 0.02, max_sleep: float = 1) -> None:
    """textual._wait.wait_for_idle, looked at in shorter windows (see above); the same arguments and limits."""
    start = idle_since = monotonic()
    while True:
        cpu = process_time()
        await sleep(WINDOW_S)
        now = monotonic()
        if process_time() - cpu >= IDLE_CPU_S:
            idle_since = now
        if now - start >= max_sleep or (now - start > min_sleep and now - idle_since >= FRAME_S):
            return


@pytest.fixture(autouse=True)
def _idle_sooner(monkeypatch):
    monkeypatch.setattr(textual.app, "wait_for_idle", wait_for_idle)
    monkeypatch.setattr(textual.pilot, "wait_for_idle", wait_for_idle)
