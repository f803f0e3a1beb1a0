"""The TUI's speed as a person feels it: from typing `labyrinth play` to the
first frame of the game (a real process on a pseudo-terminal), and from a key
press to the updated screen (the app driven headless, the built-in Minotaur
deciding every turn). Prints figures against their targets.

    .venv/bin/python bench/tui_bench.py
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import select
import shutil
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

STARTS = 5
KEYS = 60


def first_frame_seconds() -> float:
    """Seconds from starting `labyrinth play` on a pseudo-terminal to its first game frame."""
    labyrinth = shutil.which("labyrinth", path=Path(sys.executable).parent)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "COLUMNS": "120", "LINES": "40", "TERM": "xterm-256color"}
    began = time.perf_counter()
    proc = subprocess.Popen([labyrinth, "play", "--seed", "7", "--preset", "small"], stdin=slave, stdout=slave,
                            stderr=slave, env=env, close_fds=True)  # Textual draws on stderr
    os.close(slave)
    seen = b""
    try:
        while b"stamina" not in seen:  # the status bar: the game screen is drawn
            ready, _, _ = select.select([master], [], [], 10)
            if not ready:
                raise RuntimeError("no frame within 10 s")
            seen += os.read(master, 65536)
        return time.perf_counter() - began
    finally:
        proc.terminate()
        proc.wait(5)
        os.close(master)


async def key_latencies() -> list[float]:
    """Seconds from each key press to the next frame drawn after it (the screen's
    compositor refresh), walking and looking about. The driver is headless, so the
    time is the app's own: the key's handler, the Minotaur's decision, layout, render."""
    from textual import events
    from textual.screen import Screen

    from labyrinth.tui.app import LabyrinthApp
    from labyrinth.tui.screens.title import HUMAN, NewGame

    drawn = asyncio.Event()
    refresh = Screen._compositor_refresh

    def spy(screen: Screen) -> None:
        refresh(screen)
        drawn.set()

    Screen._compositor_refresh = spy
    app = LabyrinthApp(NewGame(7, "standard", "normal", HUMAN, "builtin"))
    times = []
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            keys = ["up", "right", "down", "left", "l", "space"]
            for i in range(KEYS):
                if app.screen.session.over:
                    break
                drawn.clear()
                began = time.perf_counter()
                app.post_message(events.Key(keys[i % len(keys)], None))
                await asyncio.wait_for(drawn.wait(), 5)
                times.append(time.perf_counter() - began)
                await pilot.pause()
    finally:
        Screen._compositor_refresh = refresh
    return times


def main() -> None:
    starts = [first_frame_seconds() for _ in range(STARTS)]
    keys = asyncio.run(key_latencies())
    rows = [("start to first frame, median", statistics.median(starts) * 1e3, 1000,
             f"{STARTS} starts of `labyrinth play`, 120x40 pseudo-terminal"),
            ("key press to updated screen, median", statistics.median(keys) * 1e3, 50,
             f"{len(keys)} keys on standard, the built-in Minotaur deciding, headless"),
            ("key press to updated screen, p95", statistics.quantiles(keys, n=20)[-1] * 1e3, 50, "")]
    print(f"{'measure':<40} {'figure':>12} {'target':>12}")
    for name, ms, target, note in rows:
        print(f"{name:<40} {ms:>9.1f} ms {'< ' + str(target) + ' ms':>12} {'PASS' if ms < target else 'MISS'}  {note}")


if __name__ == "__main__":
    main()
