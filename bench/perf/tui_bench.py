"""The TUI's speed as a person feels it, on every preset: from typing `labyrinth play`
to the first frame of the game (a real process on a pseudo-terminal), and from a
key press to the updated screen (the app driven headless, the built-in Minotaur
deciding every turn). Prints figures against their targets.

The keys are a player's: arrows that walk an open way, shift+arrows that run
(along the corridor), `f` looks, space waits, PageUp/PageDown take a ramp where
one is in sight (else `[` `]` look at the next level), and `x` examines the map:
a cursor moved a cell, then Esc. Saves, replays and the experience log go to a
fresh folder, never the user's.

A start runs as on a user's install, its modules read from their cached bytecode (figures.installed_env),
which one untimed start writes first.

Each figure is given twice: wall time, what a person waits, judged against the target; and
the CPU time the app spent meanwhile (the process's, or the UI thread's for a key), which a
busy machine hardly changes: compare runs by it when the load average (printed) differs.

The keys are timed in two groups, each with its count: a turn key (a move, a run, a look, a wait, a
ramp) is the costly one a player waits for, the engine's step and the Minotaur's decision before
the redraw, so the target (p95 under 50 ms) is judged on the turn keys alone. The keys that play no
turn (examining, its cursor, Esc, `[` `]`: about a third) only redraw, in about half a turn key's
time; mixed in, they pulled the median down, and the p95 a little. The target was set on keys that
all played a turn (the first bench pressed arrows, `l` and space); redraw-only keys joined its one
judged row later. All keys together are still shown, unjudged, to compare with that row's figures.

Each start is timed beside a start of the floor (tui_floor.py: a Textual app that imports pydantic and
draws one line), interleaved: this machine's speed drifts by a third over a day, the same code starting
in 0.85 to 1.5 s, and the floor moves with it. The floor's row and the start's CPU ratio to it (the
median of the rounds') say how much of a start is the game's own and how much the machine's that hour.

Under each preset's rows, the digest of the games its keys played (the seeds, the keys sent, every
turn's inputs, each game's last state): the same run to run, different if a change plays other
games. The starts play no turn, so they have no games to digest.

    .venv/bin/python bench/perf/tui_bench.py [preset ...] [--difficulty hard] [--keys N] [--starts N]
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import hashlib
import itertools
import json
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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py
from figures import installed_env

from labyrinth.engine.geometry import OPPOSITE
from labyrinth.engine.presets import DEFAULT_DIFFICULTY, DIFFICULTIES, PRESETS

STARTS = 3  # per preset
KEYS = 120  # per preset: a p95 of 40 keys is about the second worst; of 120, six keys lie above it
FIRST_FRAME_MS = 1000
KEY_MS = 50
SIZE = (120, 40)
ARROWS = {"NORTH": "up", "EAST": "right", "SOUTH": "down", "WEST": "left"}
RHYTHM = ("walk", "walk", "run", "look", "walk", "level", "wait", "walk", "run", "level", "examine", "cursor", "leave")
EXAMINING = {"examine": "x", "cursor": "up", "leave": "escape"}  # look mode: the map redrawn, no turn


def first_frame_seconds(preset: str, difficulty: str) -> tuple[float, float]:
    """Seconds from starting `labyrinth play` on a pseudo-terminal to its first game frame, and the
    CPU seconds the process used until then (it is killed at once, so its shutdown is not counted)."""
    labyrinth = shutil.which("labyrinth", path=Path(sys.executable).parent)
    return _first_frame([labyrinth, "play", "--seed", "7", "--preset", preset, "--difficulty", difficulty])


def floor_seconds() -> tuple[float, float]:
    """``first_frame_seconds`` of the floor (tui_floor.py): a Textual app importing pydantic, one line."""
    return _first_frame([sys.executable, str(Path(__file__).with_name("tui_floor.py"))])


def _first_frame(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds from starting ``command`` on a pseudo-terminal to its first "stamina"."""
    master, slave = pty.openpty()
    columns, lines = SIZE
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    env = installed_env(COLUMNS=str(columns), LINES=str(lines), TERM="xterm-256color")
    began = time.perf_counter()
    proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env,
                            close_fds=True)  # Textual draws on stderr
    os.close(slave)
    seen = b""
    try:
        while b"stamina" not in seen:  # the status bar: the game screen is drawn
            ready, _, _ = select.select([master], [], [], 20)
            if not ready:
                raise RuntimeError(f"{command}: no frame within 20 s")
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
            return "f", True  # LOOK (l walks east: vi-keys)
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
        onward = [d for d in open_ways if d != OPPOSITE[self.heading]] or open_ways
        self.heading = self.heading if self.heading in onward else onward[self.count % len(onward)]
        return ("shift+" if kind == "run" else "") + ARROWS[self.heading], True


@dataclass
class KeyTime:
    """One key: seconds to its frame (wall, and the UI thread's CPU), and whether it played a turn."""

    wall: float
    cpu: float
    turn: bool


@dataclass
class GamePlayed:
    """A game the keys played, as much of it as a digest needs: its seed, the keys sent (with whether
    each was a turn), the engine inputs of its turns (the user's and the Minotaur's), its last state's
    digest. The same code and seeds give the same games, so the digest is the same run to run."""

    seed: int
    keys: list[tuple[str, bool]]
    played: list
    last: str


class Frames:
    """Tells when the frame a key waits for is drawn: the screen's next refresh after the key, and for
    a turn key the first refresh once the game screen has taken the played turn (one drawn before it,
    the key's echo say, would time the turn too short). Spies on Textual's refresh and the game
    screen's turn handler while the keys are pressed."""

    def __init__(self) -> None:
        self.drawn = asyncio.Event()
        self.played = 0
        self.awaited: int | None = None  # the turns played count the next frame must show, if a turn

    def expect(self, turn: bool) -> None:
        """Before a key: wait for the next frame, or for a turn key the next one after its turn."""
        self.drawn.clear()
        self.awaited = self.played + 1 if turn else None

    @contextmanager
    def spying(self) -> Iterator[Frames]:
        """The spies in place while the block runs, the real methods back after it, even if a key
        times out: the class attributes are Textual's and the game screen's for every app."""
        from textual.screen import Screen

        from labyrinth.tui.screens.game import GameScreen

        refresh, taken = Screen._compositor_refresh, GameScreen.on_turn_played

        def spy_refresh(screen: Screen) -> None:
            refresh(screen)
            if self.awaited is None or self.played >= self.awaited:
                self.drawn.set()

        def spy_turn(screen: GameScreen, message) -> None:
            taken(screen, message)
            self.played += 1

        Screen._compositor_refresh, GameScreen.on_turn_played = spy_refresh, spy_turn
        try:
            yield self
        finally:
            Screen._compositor_refresh, GameScreen.on_turn_played = refresh, taken


async def play_game(seed: int, preset: str, difficulty: str, frames: Frames, keys: int) -> tuple[list[KeyTime],
                                                                                                 GamePlayed]:
    """Up to ``keys`` keys on a new game of ``seed`` (fewer if it ends), each timed from its press to
    the frame it waits for; and the game they played."""
    from textual import events

    from labyrinth.saves.games import PLAYER
    from labyrinth.tui.app import LabyrinthApp
    from labyrinth.tui.screens.game import GameScreen
    from labyrinth.tui.screens.title import NewGame

    app = LabyrinthApp(NewGame(seed, preset, difficulty, PLAYER, "builtin"))
    player, times, sent = Player(), [], []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")  # the map takes the keys
        await pilot.pause()
        session = app.screen.session
        while len(times) < keys and isinstance(app.screen, GameScreen) and not session.over:
            key, turn = player.key(session.response.environment.visible_paths)
            frames.expect(turn)
            began, cpu = time.perf_counter(), time.thread_time()
            app.post_message(events.Key(key, None))
            await asyncio.wait_for(frames.drawn.wait(), 30)
            times.append(KeyTime(time.perf_counter() - began, time.thread_time() - cpu, turn))
            sent.append((key, turn))
            await pilot.pause()
        game = GamePlayed(seed, sent, list(session.match.played), session.game.state.digest())
    if len(game.played) != sum(turn for _, turn in sent):  # else a row would not be what its label says
        raise RuntimeError(f"{preset} seed {seed}: {len(game.played)} turns played by "
                           f"{sum(turn for _, turn in sent)} keys taken for turn keys")
    return times, game


async def key_latencies(preset: str, difficulty: str, keys: int) -> tuple[list[KeyTime], list[GamePlayed]]:
    """Each key's time from its press to the first frame drawn once the key is handled (for a turn: once
    the screen has taken the played turn), and the UI thread's CPU seconds meanwhile. The driver is
    headless, so the time is the app's own: the key's handler, the Minotaur's decision, the engine's
    step, layout, render. A game that ends is followed by another (the next seed) until ``keys`` keys
    are pressed; the games are returned too, for their digest."""
    times: list[KeyTime] = []
    games: list[GamePlayed] = []
    with Frames().spying() as frames:
        for seed in itertools.count(7):
            if len(times) >= keys:
                break
            timed, game = await play_game(seed, preset, difficulty, frames, keys - len(times))
            times += timed
            games.append(game)
    return times, games


def games_digest(games: list[GamePlayed]) -> str:
    """The games a preset's keys played, as one short hash: what a speed-up must leave as it was. It
    covers the keys sent, every turn's inputs and each game's last state, so it changes if the games
    change (a key that plays a turn no longer, a Minotaur that decides otherwise)."""
    digest = hashlib.sha256()
    for game in games:
        digest.update(json.dumps([game.seed, game.keys, [[u.model_dump(exclude_none=True),
                                                          m.model_dump(exclude_none=True)] for u, m in game.played],
                                  game.last]).encode())
    return digest.hexdigest()[:16]


def p95(values: list[float]) -> float:
    """The 95th percentile; of fewer than two values (a small run's), the highest."""
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else max(values)


def row(preset: str, name: str, pairs: list[tuple[float, float]], high, target: int | None, judged: int) -> str:
    """One printed row: wall and CPU median and high (p95, or the worst), in ms, and the verdict on the
    ``judged`` figure (0 the median, 1 the high) against ``target`` ms, if the row has one."""
    head = f"{preset:<9} {name:<22} {len(pairs):>4}"
    if not pairs:
        return head + "  (no such keys)"
    wall, cpu = [w for w, _ in pairs], [c for _, c in pairs]
    figures = [statistics.median(wall), high(wall), statistics.median(cpu), high(cpu)]
    cells = head + " " + " ".join(f"{f * 1e3:>6.1f} ms" for f in figures)
    if target is None:
        return cells + f" {'none':>9}"
    verdict = "PASS" if figures[judged] * 1e3 < target else "MISS"
    return cells + f" {'< ' + str(target) + ' ms':>9} {verdict} ({'p95' if judged else 'median'})"


def above_floor(preset: str, starts: list[tuple[float, float]], floors: list[tuple[float, float]]) -> str:
    """The game's start against the floor started beside it: the medians of the rounds' CPU ratios and
    of their differences (what the game itself adds, which the machine's drift moves least)."""
    ratios = [start[1] / floor[1] for start, floor in zip(starts, floors, strict=True)]
    above = [(start[1] - floor[1]) * 1e3 for start, floor in zip(starts, floors, strict=True)]
    return (f"{preset:<9} {'  start / floor, CPU':<22} {len(ratios):>4} {statistics.median(ratios):>7.2f} x "
            f"(the game adds {statistics.median(above):,.0f} ms; floor: tui_floor.py, Textual and pydantic)")


def key_rows(preset: str, keys: list[KeyTime]) -> list[str]:
    """The keys' rows: turn keys judged against the target (the costly key a player waits for), the
    keys that only redraw apart, and all keys together, unjudged, as the one row was before."""
    turns = [(k.wall, k.cpu) for k in keys if k.turn]
    others = [(k.wall, k.cpu) for k in keys if not k.turn]
    return [row(preset, "turn key to screen", turns, p95, KEY_MS, 1),
            row(preset, "redraw key to screen", others, p95, None, 1),
            row(preset, "any key to screen", [(k.wall, k.cpu) for k in keys], p95, None, 1)]


def games_line(preset: str, games: list[GamePlayed]) -> str:
    """What the preset's keys played: the games (seeds), their turns, and the digest of them all."""
    seeds = f"seed {games[0].seed}" + (f"-{games[-1].seed}" if len(games) > 1 else "")
    turns = sum(len(g.played) for g in games)
    return f"{preset:<9} games played: {len(games)} ({seeds}), {turns} turns, digest {games_digest(games)}"


def arguments() -> argparse.Namespace:
    """The presets, difficulty, and the run's size: ``--keys`` and ``--starts`` below the defaults make a
    quick check that the bench works (and that its digest holds run to run), not a figure to publish."""
    parser = argparse.ArgumentParser(description="The TUI's first frame and key to frame times, per preset.")
    parser.add_argument("presets", nargs="*", metavar="preset", help=f"any of {', '.join(PRESETS)} (default: all)")
    parser.add_argument("--difficulty", choices=DIFFICULTIES, default=DEFAULT_DIFFICULTY)
    parser.add_argument("--keys", type=int, default=KEYS, help=f"keys per preset (default {KEYS})")
    parser.add_argument("--starts", type=int, default=STARTS, help=f"starts per preset (default {STARTS})")
    args = parser.parse_args()
    unknown = [p for p in args.presets if p not in PRESETS]
    if unknown:
        parser.error(f"unknown preset(s) {', '.join(unknown)}; choose from {', '.join(PRESETS)}")
    if args.keys < 1 or args.starts < 1:
        parser.error("--keys and --starts take 1 or more")
    args.presets = args.presets or list(PRESETS)
    return args


def main() -> None:
    args = arguments()
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="labyrinth-bench-")  # the child processes' too
    print(f"{args.starts} starts of `labyrinth play --seed 7` per preset on a {SIZE[0]}x{SIZE[1]} pseudo-terminal; "
          f"{args.keys} keys per preset, headless, the built-in Minotaur ({args.difficulty}) deciding each turn; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'preset':<9} {'measure':<22} {'n':>4} {'median':>9} {'p95':>9} {'cpu med':>9} {'cpu p95':>9} "
          f"{'target':>9}")
    first_frame_seconds(args.presets[0], args.difficulty)  # untimed: writes the bytecode a user's install has
    for preset in args.presets:
        starts, floors = [], []
        for _ in range(args.starts):  # interleaved: each start beside the floor's, under the same load
            starts.append(first_frame_seconds(preset, args.difficulty))
            floors.append(floor_seconds())
        # the first frame is judged by its median (a few starts give no p95: the worst is shown)
        print(row(preset, "start to first frame", starts, max, FIRST_FRAME_MS, 0), flush=True)
        print(row(preset, "  the floor beside it", floors, max, None, 0), flush=True)
        print(above_floor(preset, starts, floors), flush=True)
        keys, games = asyncio.run(key_latencies(preset, args.difficulty, args.keys))
        print("\n".join(key_rows(preset, keys)), flush=True)
        print(games_line(preset, games), flush=True)
    print(f"(n: starts or keys timed; for the starts, the p95 columns show the worst of {args.starts}; "
          "target none: shown, not judged)")


if __name__ == "__main__":
    main()
