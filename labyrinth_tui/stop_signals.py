"""How a signal stops the `labyrinth` command: as Ctrl-C does, and with the status a shell gives a process
a signal ended, 128 + its number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), so that a script or a
service manager can tell a stopped run from a finished one.

A headless command (arena, tournament, gsm...) hears SIGTERM as Ctrl-C: ``Stopped``, a KeyboardInterrupt,
is raised in the main thread, so every ``except KeyboardInterrupt`` and ``finally`` that keeps a run's work
on Ctrl-C keeps it on SIGTERM too (SIGINT is Python's KeyboardInterrupt already). The game's screen hears
SIGHUP, SIGTERM and SIGINT in its event loop instead, and saves every game before it exits (app.py).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from types import FrameType
from typing import Any

# The signals that end the game's screen, each game saved first: the terminal closed (SIGHUP), another
# process asks it to end (SIGTERM; SIGINT: under the screen's raw terminal, Ctrl-C is a key, not a signal).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGHUP", "SIGTERM", "SIGINT") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """A run stopped by a signal other than Ctrl-C's SIGINT, raised where Ctrl-C's KeyboardInterrupt is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_status(stop: KeyboardInterrupt) -> int:
    """The exit status of a run ``stop`` ended: 128 + the signal's number."""
    return 128 + (stop.signum if isinstance(stop, Stopped) else signal.SIGINT)


def cause(stop: KeyboardInterrupt) -> str:
    """What stopped a run, as a message says it: "Ctrl-C", or the signal's name ("SIGTERM")."""
    return signal.Signals(stop.signum).name if isinstance(stop, Stopped) else "Ctrl-C"


def sigterm_as_ctrl_c() -> AbstractContextManager[None]:
    """While the block runs, SIGTERM raises Stopped in the main thread as Ctrl-C raises KeyboardInterrupt."""
    return on_sigterm(_raise)


@contextmanager
def on_sigterm(handler: Callable[[int, FrameType | None], Any] | int) -> Iterator[None]:
    """While the block runs, SIGTERM goes to ``handler`` (or SIG_DFL), and the handler before is put back
    after. Only the main thread can hear a signal: elsewhere, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if before is None else before)  # None: set outside Python


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)
