"""Files of every released format, used as a user would: each old replay shown and verified by
`labyrinth replay`, each old save continued on the title screen in tmux, played on and saved again.

    .venv/bin/python bench/hostile/hostile_formats.py [--seed N ...]

The files are tests/fixtures' (its README says which release wrote each, by that release's own
code). A replay case runs `replay FILE --verify` and one view drawn from the seed (the text, the story
`--summary`, the `--transcript`): the check must end 0 saying "verified" or 1 saying in one line why the
recording cannot be checked here (a mismatch of an older release's rules, a newer state version), and the
view must end 0 with something shown. A save case puts one old save in a fresh data directory, starts
`labyrinth` in tmux (hostile_signals.Pane), chooses Continue, waits for the game's clock to show the
save's time, plays a few turns drawn from the seed, and stops the game with a signal drawn from the seed
(SIGTERM, SIGINT or SIGHUP): the save must then hold the old turns and the new ones, in this release's
format. Anything else is counted `wrong`; a traceback or a death by a signal not sent is a crash, a step
that never comes a hang. ``section`` counts into a hostile_watch.Tally for bench/hostile/hostile.py; run alone,
this prints each case.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hostile_signals import Pane, game_seconds
from hostile_watch import Tally, command, run_alone

from labyrinth.saves.games import load_game
from labyrinth.saves.replays import FORMAT, VERSION

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures"
VIEWS = ((), ("--summary",), ("--transcript",))
CANNOT = ("mismatch at turn", "cannot be checked")  # what an honest "not verified" says
CLOCK = re.compile(r"time (\d+):(\d\d)")
STOPS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def replay_cases(tally: Tally, seed: int, env: dict[str, str]) -> list[str]:
    """Every old replay verified and shown one way; what each did."""
    draw, said = random.Random(f"hostile-formats:replays:{seed}"), []
    for path in sorted(FIXTURES.glob("replay-*.jsonl")):
        label = f"replay {path.name} --verify"
        done = command(tally, label, [LABYRINTH, "replay", str(path), "--verify"], env)
        if done is not None:
            out = done.stdout.decode(errors="replace").strip()
            honest = (done.returncode == 0 and out.startswith("verified")) or (
                done.returncode == 1 and len(out.splitlines()) == 1 and any(words in out for words in CANNOT))
            if not honest:
                tally.fail("wrong", label, f"exit {done.returncode}: {out or done.stderr.decode(errors='replace')}")
            said.append(f"{label}: exit {done.returncode}: {out}")
        view = draw.choice(VIEWS)
        label = f"replay {path.name} {' '.join(view)}".rstrip()
        done = command(tally, label, [LABYRINTH, "replay", str(path), *view], env)
        if done is not None:
            if done.returncode != 0 or (not done.stdout.strip() and view != ("--transcript",)):
                tally.fail("wrong", label, f"exit {done.returncode}: {done.stderr.decode(errors='replace')}")
            said.append(f"{label}: exit {done.returncode}, {len(done.stdout):,} bytes shown")
    return said


@dataclass(frozen=True)
class SaveCase:
    save: Path
    commands: tuple[str, ...]
    signum: int

    @property
    def label(self) -> str:
        return f"{self.save.name} continued, {' / '.join(self.commands)}, {signal.Signals(self.signum).name}"


def save_cases(seed: int) -> list[SaveCase]:
    draw = random.Random(f"hostile-formats:saves:{seed}")
    return [SaveCase(path, tuple(draw.choice(["look", f"halt {draw.randint(1, 3)}"])
                                 for _ in range(draw.randint(1, 3))), draw.choice(STOPS))
            for path in sorted(FIXTURES.glob("save-*"))]


def clock_shown(pane: Pane) -> int | None:
    """The game's clock in the status bar, in seconds (the last shown)."""
    found = CLOCK.findall(pane.text())
    return int(found[-1][0]) * 60 + int(found[-1][1]) if found else None


def continue_save(case: SaveCase) -> str:
    """One old save continued, played on and stopped; what is wrong with how it went (empty: nothing)."""
    home = Path(tempfile.mkdtemp(prefix="labyrinth-formats-"))
    env = {**os.environ, "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
    try:
        saves = home / "data" / "labyrinth" / "saves"
        saves.mkdir(parents=True)
        shutil.copyfile(case.save, saves / case.save.name)
        before = len(load_game(saves / case.save.name).turns)
        pane = Pane([LABYRINTH], env, home / "status")
        try:
            pane.wait_for(lambda: "Continue" in pane.text(), "the title's Continue")
            pane.press("Enter")
            pane.wait_for(lambda: "type a command" in pane.text() and clock_shown(pane) is not None, "the game")
            pane.settle()
            start = clock_shown(pane)
            assert start is not None
            for line in case.commands:
                pane.type(line)
            pane.wait_for(lambda: clock_shown(pane) == start + game_seconds(case.commands), "every turn played")
            os.kill(pane.command_pid(), case.signum)
            pane.wait_for(lambda: pane.status() is not None, "the process's end")
            status = pane.status()
        finally:
            pane.close()
        wrong = [] if status == 128 + case.signum else [f"status {status}"]
        [kept] = list(saves.iterdir())
        game = load_game(kept)
        if len(game.turns) != before + len(case.commands):
            wrong.append(f"{len(game.turns)} turns saved, not {before} + {len(case.commands)}")
        header = json.loads(kept.read_bytes().split(b"\n", 1)[0])
        if (header.get("format"), header.get("version")) != (FORMAT, VERSION):
            wrong.append(f"saved as {header.get('format')} {header.get('version')}, not {FORMAT} {VERSION}")
        return "; ".join(wrong)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def section(tally: Tally, seed: int) -> list[str]:
    """The cases of ``seed`` counted into ``tally``; what each did."""
    home = Path(tempfile.mkdtemp(prefix="labyrinth-formats-"))
    env = {**os.environ, "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
    try:
        said = replay_cases(tally, seed, env)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if shutil.which("tmux") is None:
        tally.failures.append("saves not continued: tmux is not installed")
        return said
    for case in save_cases(seed):
        tally.count()
        try:
            wrong = continue_save(case)
        except (TimeoutError, subprocess.SubprocessError, OSError, ValueError) as exc:
            wrong = f"{type(exc).__name__}: {exc}"
        if wrong:
            tally.fail("wrong", case.label, wrong)
        said.append(f"{case.label}: {wrong or 'played on and saved in this format'}")
    return said


def main() -> int:
    return run_alone(__doc__, "old formats", section)


if __name__ == "__main__":
    sys.exit(main())
