"""What bench/hostile/hostile_keys.py and bench/hostile/hostile_bounds.py share: the `labyrinth` command run as a user
runs it, in homes of its own (a fresh XDG_DATA_HOME and XDG_CONFIG_HOME, with a config file when one is
given), with an environment free of the harness's own provider settings, and judged as hostile.py
judges a command: a traceback, a MemoryError or a death by a signal is a crash, no end in time a hang.
A command that plays on may be cut short: SIGTERM after a while, which it must obey in time too."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from hostile_gsm import limited
from hostile_watch import Tally

from labyrinth.saves.providers import PROVIDERS

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
END_S = 30.0  # a command that has not ended by then (or that long after SIGTERM) is hung: the model commands
# import the four SDKs, seconds on a loaded machine
OWN_VARIABLES = {variable for row in PROVIDERS.values() for variable in row.variables}  # never passed on


def clean_environment() -> dict[str, str]:
    """This process's environment without any provider setting (keys, endpoints, models, what the SDKs
    read on their own): a case sets the ones it means."""
    return {k: v for k, v in os.environ.items() if k not in OWN_VARIABLES}


@dataclass(frozen=True)
class Home:
    """A user's homes for one case: the data and config directories under ``root``."""

    root: Path

    @property
    def data_home(self) -> Path:
        return self.root / "data"

    @property
    def config(self) -> Path:
        """The config file, where `labyrinth` reads it."""
        return self.root / "config" / "labyrinth" / "config.toml"

    def env(self, settings: dict[str, str]) -> dict[str, str]:
        """The clean environment pointed at these homes, with ``settings`` over it."""
        return {**clean_environment(), "XDG_DATA_HOME": str(self.data_home),
                "XDG_CONFIG_HOME": str(self.root / "config"), **settings}

    def files(self) -> Iterator[Path]:
        """Every regular file the commands left under the data home (replays, results.db, the log...)."""
        return (path for path in sorted(self.data_home.rglob("*")) if path.is_file() and not path.is_symlink())


@contextmanager
def home(config: str | None = None, prefix: str = "labyrinth-hostile-") -> Iterator[Home]:
    """Fresh homes, with ``config`` as the config file's text when given; removed afterwards."""
    made = Home(Path(tempfile.mkdtemp(prefix=prefix)))
    try:
        made.data_home.mkdir()
        if config is not None:
            made.config.parent.mkdir(parents=True)
            made.config.write_text(config, encoding="utf-8")
        yield made
    finally:
        shutil.rmtree(made.root, ignore_errors=True)


@dataclass(frozen=True)
class Ran:
    """How a command ended and what it printed."""

    returncode: int
    stdout: str
    stderr: str
    cut: bool  # it was still running after the time it was given, and was sent SIGTERM

    @property
    def out(self) -> str:
        return self.stdout + self.stderr


def run(tally: Tally, label: str, args: list[str], env: dict[str, str], cut_s: float | None = None,
        end_s: float = END_S) -> Ran | None:
    """``labyrinth *args`` under hostile_gsm's memory limit, stdin empty, counted as one case tried: None
    when it crashed or hung (counted so). With ``cut_s`` it is sent SIGTERM if still running then."""
    tally.count()
    process = subprocess.Popen(limited([LABYRINTH, *args]), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    cut = False
    try:
        try:
            stdout, stderr = process.communicate(timeout=cut_s or end_s)
        except subprocess.TimeoutExpired:
            if cut_s is None:
                raise
            cut = True
            process.send_signal(signal.SIGTERM)
            stdout, stderr = process.communicate(timeout=end_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        tally.fail("hangs", label, f"no end after {end_s:g} s" + (" (nor after SIGTERM)" if cut else ""))
        return None
    err = stderr.decode(errors="replace")
    killed = process.returncode < 0 and not (cut and process.returncode == -signal.SIGTERM)  # ours is no crash
    if killed or "Traceback (most recent call last)" in err or "MemoryError" in err:
        last = err.strip().splitlines()[-1] if err.strip() else f"killed by signal {-process.returncode}"
        tally.fail("crashes", label, last)
        return None
    return Ran(process.returncode, stdout.decode(errors="replace"), err, cut)
