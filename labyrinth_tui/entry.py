"""The `labyrinth` command as a process starts it (pyproject's script, and `python -m labyrinth`): cli.main,
its modules imported with the garbage collector paused (issue 29: start-up), and so the modules its command
goes on to import (the game's app for `play` and the title screen: cli.main's ``loading``).

Importing the parser's modules makes some 50,000 objects (classes, functions, pydantic's validators),
the app's as many again, and CPython starts a collection every 700 allocations: some 140 passes, each
walking objects that will live as long as the process anyway; with them, importing the app took a fifth
longer. So the collector is paused while they load; what is alive then is frozen (no later pass walks it
again, as the game screen does after its first frame: idle_gc.py), and the collector resumes before any
command runs. A program that imports cli itself (the tests) keeps its collector as it was.

Pydantic's plugins are off unless the user says otherwise (``PYDANTIC_DISABLE_PLUGINS``, set to anything,
even empty, is left as it is). At its first model pydantic looks for plugins among the entry points of
every installed distribution, reading each one's metadata: about 50 ms of the game's start (issue 41),
for observability plugins that a terminal game never loads.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection while the block runs (the modules it imports live as long as the process); then what
    is alive frozen and the collector back as it was."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.freeze()
            gc.enable()


def main() -> int:
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    with collector_paused():
        from .cli import main as command
    return command(loading=collector_paused)
