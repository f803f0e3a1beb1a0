"""SIGTERM in tmux: the game's screen stopped by a signal on a real terminal, and what it leaves.

    .venv/bin/python bench/hostile/hostile_signals.py [--seed N ...]

Each case starts `labyrinth play` in a detached tmux session of its own (80x24, a fresh
XDG_DATA_HOME), types a few turns drawn from the seed (`look`, `halt N`: turns the game always
plays), waits until the status bar's clock shows them all played, and sends the process a signal:
SIGTERM, SIGINT and SIGHUP with the built-in Minotaur, and SIGTERM while a model's Minotaur (a
stand-in server whose answer is held) thinks about one more turn. The pane stays once the process
has ended (remain-on-exit), so what the game left on the terminal is read from tmux itself. A case is
wrong unless: the status is 128 + the signal; the terminal is back to normal (not in the alternate
screen, no mouse tracking of any kind, the cursor shown); the save holds exactly the turns played
(the held turn not among them); and the line printed after the screen closed names that save.
``section`` counts the cases into a hostile_watch.Tally, for bench/hostile/hostile.py; run alone, this
prints each case and its figures.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.stubs, the stand-in server

from hostile_watch import Tally, run_alone  # bench/hostile/ is on sys.path, as this file runs as a script

from labyrinth.saves.games import load_game
from tests.stubs import Model, Stub

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
SIZE = ("80", "24")
WAIT_S = 30.0  # the longest any one step may take (the first frame on a loaded machine is the slowest)
POLL_S = 0.1
SETTLE_S = 0.5  # a pane whose text has not changed for this long has shown all it was sent
TERMINAL_FLAGS = ("alternate_on", "mouse_any_flag", "mouse_all_flag", "mouse_button_flag", "mouse_standard_flag",
                  "mouse_sgr_flag", "mouse_utf8_flag", "cursor_flag")
NORMAL = dict.fromkeys(TERMINAL_FLAGS, "0") | {"cursor_flag": "1"}  # the terminal as a shell wants it
THINKING = "The Minotaur is thinking"


@dataclass(frozen=True)
class Case:
    signum: int
    commands: tuple[str, ...]  # each plays one turn
    thinking: bool = False  # the signal comes while a model's Minotaur thinks about one more turn

    @property
    def label(self) -> str:
        return (f"{signal.Signals(self.signum).name}{' while the Minotaur thinks' if self.thinking else ''} "
                f"after {len(self.commands)} turns")


@dataclass(frozen=True)
class Outcome:
    case: Case
    status: int | None
    terminal: dict[str, str]  # the flags of TERMINAL_FLAGS once the process ended
    saved_turns: int | None  # None: no save, or not one
    told: bool  # the line printed after the screen closed names the save
    seconds: float  # from the signal to the end of the process

    def problems(self) -> list[str]:
        """What is wrong with how the case ended; none when the game was stopped as it should be."""
        wrong = []
        if self.status != 128 + self.case.signum:
            wrong.append(f"status {self.status}, not {128 + self.case.signum}")
        if self.terminal != NORMAL:
            wrong.append("terminal left as "
                         + ", ".join(f"{k}={v}" for k, v in self.terminal.items() if NORMAL[k] != v))
        if self.saved_turns != len(self.case.commands):
            wrong.append(f"save holds {self.saved_turns} turns, not {len(self.case.commands)}")
        if not self.told:
            wrong.append("no line naming the save")
        return wrong


def cases(seed: int) -> list[Case]:
    """The cases of one seed: each stop signal with the built-in Minotaur, and SIGTERM mid-turn."""
    draw = random.Random(f"hostile-signals:{seed}")

    def commands() -> tuple[str, ...]:
        return tuple(draw.choice(["look", f"halt {draw.randint(1, 3)}"]) for _ in range(draw.randint(1, 4)))

    return [*(Case(signum, commands()) for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)),
            Case(signal.SIGTERM, commands(), thinking=True)]


def game_seconds(commands: tuple[str, ...]) -> int:
    """The game's clock after ``commands``: a look takes a second, a halt its seconds."""
    return sum(1 if command == "look" else int(command.split()[1]) for command in commands)


class Held:
    """A stand-in model's answers, held while ``hold`` is set: the Minotaur thinks until it is cleared."""

    def __init__(self, respond: Callable) -> None:
        self.respond, self.hold, self.free = respond, False, threading.Event()

    def __call__(self, request: dict):
        if self.hold:
            self.free.wait(timeout=WAIT_S)
        return self.respond(request)


class Pane:
    """A detached tmux session of its own (its own server) running one command under a shell, which
    writes the command's status into ``status_file`` when it ends and then keeps the terminal as the
    command left it (tmux's own remain-on-exit would not: a dead pane hides the cursor)."""

    def __init__(self, command: list[str], env: dict[str, str], status_file: Path) -> None:
        self.socket, self.status_file = f"labyrinth-signals-{os.getpid()}-{time.monotonic_ns()}", status_file
        shell = '"$@"; echo $? > "$0"; exec sleep 600'
        self._tmux("-f", "/dev/null", "new-session", "-d", "-x", SIZE[0], "-y", SIZE[1], "sh", "-c", shell,
                   str(status_file), *command, env=env)

    def command_pid(self) -> int:
        """The command's process: the shell's one child."""
        shell = self.shown("pane_pid")
        return int(Path(f"/proc/{shell}/task/{shell}/children").read_text().split()[0])

    def status(self) -> int | None:
        """The command's status once it has ended (the shell's 128 + n for a signal that ended it)."""
        text = self.status_file.read_text() if self.status_file.exists() else ""
        return int(text) if text.endswith("\n") else None

    def _tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True,
                              env=env, timeout=WAIT_S).stdout

    def shown(self, key: str) -> str:
        return self._tmux("display-message", "-p", f"#{{{key}}}").strip()

    def text(self) -> str:
        """What the pane shows, and what scrolled off it, wrapped lines joined."""
        return self._tmux("capture-pane", "-p", "-J", "-S", "-")

    def type(self, line: str) -> None:
        self._tmux("send-keys", "-l", line)
        self.press("Enter")

    def press(self, key: str) -> None:
        """One key, by tmux's name for it."""
        self._tmux("send-keys", key)

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"never came: {what}")
            time.sleep(POLL_S)

    def settle(self) -> None:
        """Until the pane's text has stayed the same for SETTLE_S."""
        text, since = self.text(), time.monotonic()
        while time.monotonic() - since < SETTLE_S:
            time.sleep(POLL_S)
            if (now := self.text()) != text:
                text, since = now, time.monotonic()

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=WAIT_S, check=False)


@contextmanager
def model_minotaur() -> Iterator[tuple[list[str], dict[str, str], Held | None]]:
    """A stand-in OpenAI-compatible server for the Minotaur: the options and environment that use it, and
    the holder of its answers."""
    server = Stub(Model("openai", minotaur_action="WAIT"))
    held = Held(server.respond)
    server.respond = held
    try:
        yield (["--minotaur", "openai/bench"],
               {"OPENAI_BASE_URL": server.url + "/v1", "OPENAI_API_KEY": "sk-bench-signals"}, held)
    finally:
        held.free.set()
        server.close()


def run_case(case: Case) -> Outcome:
    home = Path(tempfile.mkdtemp(prefix="labyrinth-signals-"))
    env = {**os.environ, "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
    with model_minotaur() if case.thinking else nullcontext(([], {}, None)) as (options, more, held):
        pane = Pane([LABYRINTH, "play", "--seed", "7", "--preset", "small", "--no-memory", *options], env | more,
                    home / "status")
        try:
            pane.wait_for(lambda: "type a command" in pane.text(), "the game's first frame")
            for command in case.commands:
                pane.type(command)
            clock = game_seconds(case.commands)
            pane.wait_for(lambda: f"time {clock // 60}:{clock % 60:02d}" in pane.text(), "every turn played")
            if held is not None:
                held.hold = True
                pane.type("look")
                pane.wait_for(lambda: THINKING in pane.text(), "the Minotaur thinking")
            began = time.monotonic()
            os.kill(pane.command_pid(), case.signum)
            pane.wait_for(lambda: pane.status() is not None, "the process's end")
            seconds = time.monotonic() - began
            pane.settle()  # tmux reads the terminal's output on its own time
            status = pane.status()
            terminal = {flag: pane.shown(flag) for flag in TERMINAL_FLAGS}
            saves = list((home / "data" / "labyrinth" / "saves").glob("*.jsonl"))
            saved = len(load_game(saves[0]).turns) if len(saves) == 1 else None
            told = len(saves) == 1 and f"your game is saved in {saves[0]}" in pane.text()
            return Outcome(case, status, terminal, saved, told, seconds)
        finally:
            pane.close()
            shutil.rmtree(home, ignore_errors=True)


def section(tally: Tally, seed: int) -> list[Outcome]:
    """The cases of ``seed`` counted into ``tally`` (one tried each; a wrong ending, or a step that never
    came, counted wrong); their outcomes."""
    outcomes = []
    for case in cases(seed):
        tally.count()
        try:
            outcome = run_case(case)
        except (TimeoutError, subprocess.SubprocessError, OSError) as exc:
            tally.fail("wrong", case.label, str(exc))
            continue
        outcomes.append(outcome)
        if problems := outcome.problems():
            tally.fail("wrong", case.label, "; ".join(problems))
    return outcomes


def main() -> int:
    if shutil.which("tmux") is None:
        print("tmux is not installed: nothing to run")
        return 2
    return run_alone(__doc__, "SIGTERM in tmux", lambda tally, seed: (
        f"{o.case.label} ({' '.join(o.case.commands)}): status {o.status}, "
        f"{' '.join(f'{k}={v}' for k, v in o.terminal.items())}, save holds {o.saved_turns} turns, told: {o.told}, "
        f"ended {o.seconds:.2f} s after the signal" for o in section(tally, seed)))


if __name__ == "__main__":
    sys.exit(main())
