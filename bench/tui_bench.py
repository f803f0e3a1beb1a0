"""The TUI's speed as a person feels it, on every preset: from typing `labyrinth play`
to the first frame of the game (a real process on a pseudo-terminal), and from a
key press to the updated screen (the app driven headless, the built-in Minotaur
deciding every turn). Prints figures against their targets.

The keys are a player's: arrows that walk an open way, shift+arrows that run
(along the corridor), `l` looks, space waits, PageUp/PageDown take a ramp where
one is in sight (else `[` `]` look at the next level), and `x` examines the map:
a cursor moved a cell, then Esc. Saves, replays and the experience log go to a
fresh folder, never the user's.

Each figure is given twice: wall time, what a person waits, judged against the target; and
the CPU time the app spent meanwhile (the process's, or the UI thread's for a key), which a
busy machine hardly changes: compare runs by it when the load average (printed) differs.

    .venv/bin/python bench/tui_bench.py [preset ...] [--difficulty hard]
"""

from __future__ import annotations

import argparse
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
import tempfile
import termios
import time
from pathlib import Path

from labyrinth.engine.presets import DIFFICULTIES, PRESETS

STARTS = 3  # per preset
KEYS = 120  # per preset: a p95 of 40 keys is about the second worst; of 120, six keys lie above it
FIRST_FRAME_MS = 1000
KEY_MS = 50
SIZE = (120, 40)
ARROWS = {"NORTH": "up", "EAST": "right", "SOUTH": "down", "WEST": "left"}
BACK = {"NORTH": "SOUTH", "SOUTH": "NORTH", "EAST": "WEST", "WEST": "EAST"}
RHYTHM = ("walk", "walk", "run", "look", "walk", "level", "wait", "walk", "run", "level", "examine", "cursor", "leave")
EXAMINING = {"examine": "x", "cursor": "up", "leave": "escape"}  # look mode: the map redrawn, no turn


def first_frame_seconds(preset: str, difficulty: str) -> tuple[float, float]:
    """Seconds from starting `labyrinth play` on a pseudo-terminal to its first game frame, and the
    CPU seconds the process used until then (it is killed at once, so its shutdown is not counted)."""
    labyrinth = shutil.which("labyrinth", path=Path(sys.executable).parent)
    master, slave = pty.openpty()
    columns, lines = SIZE
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    env = {**os.environ, "COLUMNS": str(columns), "LINES": str(lines), "TERM": "xterm-256color"}
    began = time.perf_counter()
    proc = subprocess.Popen([labyrinth, "play", "--seed", "7", "--preset", preset, "--difficulty", difficulty],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)  # Textual draws on stderr
    os.close(slave)
    seen = b""
    try:
        while b"stamina" not in seen:  # the status bar: the game screen is drawn
            ready, _, _ = select.select([master], [], [], 20)
            if not ready:
                raise RuntimeError(f"{preset}: no frame within 20 s")
            seen += os.read(master, 65536)
        wall = time.perf_counter() - began
        proc.kill()
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = -9
        return wall, usage.ru_utime + usage.ru_stime
    finally:
        if proc.returncode is None:
            proc.kill()
            proc.wait(5)
        os.close(master)


class Player:
    """Chooses the next key from what the screen's last response shows, in a fixed rhythm: walking on
    (not back, where another way is open), running, looking, waiting, changing level, and examining the
    map (look mode's cursor)."""

    def __init__(self) -> None:
        self.count = 0
        self.heading = "NORTH"
        self.peeked = False  # looking at another level with [ ]: the next look comes back

    def key(self, ways: list[str]) -> tuple[str, bool]:
        """The key, and whether it plays a turn (else it only redraws)."""
        kind = RHYTHM[self.count % len(RHYTHM)]
        self.count += 1
        if kind in EXAMINING:
            return EXAMINING[kind], False
        if kind == "look":
            return "l", True
        if kind == "wait":
            return "space", True
        if kind == "level":
            if self.peeked:
                self.peeked = False
                return "right_square_bracket", False
            for ramp, key in (("DOWN RAMP", "pagedown"), ("UP RAMP", "pageup")):
                if ramp in ways:
                    return key, True
            self.peeked = True
            return "left_square_bracket", False
        open_ways = [d for d in ARROWS if d in ways]
        if not open_ways:
            return "space", True
        onward = [d for d in open_ways if d != BACK[self.heading]] or open_ways
        self.heading = self.heading if self.heading in onward else onward[self.count % len(onward)]
        return ("shift+" if kind == "run" else "") + ARROWS[self.heading], True


async def key_latencies(preset: str, difficulty: str) -> list[tuple[float, float]]:
    """Seconds from each key press to the first frame drawn once the key is handled (for a turn: once
    the screen has taken the played turn), and the UI thread's CPU seconds meanwhile. The driver is headless, so the time is the app's own: the
    key's handler, the Minotaur's decision, the engine's step, layout, render. A game that ends is
    followed by another (the next seed) until enough keys are pressed."""
    from textual import events
    from textual.screen import Screen

    from labyrinth.tui.app import LabyrinthApp
    from labyrinth.tui.screens.game import GameScreen
    from labyrinth.tui.screens.title import HUMAN, NewGame

    drawn = asyncio.Event()
    played = [0]
    awaited: list[int | None] = [None]  # the turns played count the next frame must show, if a turn
    refresh, taken = Screen._compositor_refresh, GameScreen.on_turn_played

    def spy_refresh(screen: Screen) -> None:
        refresh(screen)
        if awaited[0] is None or played[0] >= awaited[0]:
            drawn.set()

    def spy_turn(screen: GameScreen, message) -> None:
        taken(screen, message)
        played[0] += 1

    Screen._compositor_refresh, GameScreen.on_turn_played = spy_refresh, spy_turn
    times: list[tuple[float, float]] = []
    seed = 7
    try:
        while len(times) < KEYS:
            app = LabyrinthApp(NewGame(seed, preset, difficulty, HUMAN, "builtin"))
            player = Player()
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await pilot.press("escape")  # the map takes the keys
                await pilot.pause()
                while len(times) < KEYS and isinstance(app.screen, GameScreen) and not app.screen.session.over:
                    key, turn = player.key(app.screen.session.response.environment.visible_paths)
                    drawn.clear()
                    awaited[0] = played[0] + 1 if turn else None
                    began, cpu = time.perf_counter(), time.thread_time()
                    app.post_message(events.Key(key, None))
                    await asyncio.wait_for(drawn.wait(), 30)
                    times.append((time.perf_counter() - began, time.thread_time() - cpu))
                    await pilot.pause()
            seed += 1
    finally:
        Screen._compositor_refresh, GameScreen.on_turn_played = refresh, taken
    return times


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description="The TUI's first frame and key to frame times, per preset.")
    parser.add_argument("presets", nargs="*", metavar="preset", help=f"any of {', '.join(PRESETS)} (default: all)")
    parser.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
    args = parser.parse_args()
    presets, difficulty = args.presets or list(PRESETS), args.difficulty
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        parser.error(f"unknown preset(s) {', '.join(unknown)}; choose from {', '.join(PRESETS)}")
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="labyrinth-bench-")  # the child processes' too
    print(f"{STARTS} starts of `labyrinth play --seed 7` per preset on a {SIZE[0]}x{SIZE[1]} pseudo-terminal; "
          f"{KEYS} keys per preset, headless, the built-in Minotaur ({difficulty}) deciding each turn; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'preset':<9} {'measure':<21} {'median':>9} {'p95':>9} {'cpu med':>9} {'cpu p95':>9} {'target':>9}")
    for preset in presets:
        starts = [first_frame_seconds(preset, difficulty) for _ in range(STARTS)]
        keys = asyncio.run(key_latencies(preset, difficulty))
        # the first frame is judged by its median (STARTS starts give no p95: the worst is shown)
        rows = [("start to first frame", starts, max, FIRST_FRAME_MS, 0),
                ("key press to screen", keys, p95, KEY_MS, 1)]
        for name, pairs, high, target, judged in rows:
            wall, cpu = [w for w, _ in pairs], [c for _, c in pairs]
            figures = [statistics.median(wall), high(wall), statistics.median(cpu), high(cpu)]
            verdict = "PASS" if figures[judged] * 1e3 < target else "MISS"
            print(f"{preset:<9} {name:<21} " + " ".join(f"{f * 1e3:>6.1f} ms" for f in figures)
                  + f" {'< ' + str(target) + ' ms':>9} {verdict} ({'p95' if judged else 'median'})", flush=True)
    print(f"(for the starts, the p95 columns show the worst of {STARTS})")


if __name__ == "__main__":
    main()
