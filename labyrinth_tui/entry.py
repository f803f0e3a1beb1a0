"""The `labyrinth` command as a process starts it (pyproject's script, and `python -m labyrinth`): cli.main,
its modules imported with the garbage collector paused (issue 29: start-up).

Importing the parser's modules makes some 50,000 objects (classes, functions, pydantic's validators),
and CPython starts a collection every 700 allocations: some 70 passes, each walking objects that will
live as long as the process anyway, about a tenth of the pipe's start-up. So the collector is paused
while they load; what is alive then is frozen (no later pass walks it again, as the game screen does
after its first frame: idle_gc.py), and the collector resumes before any command runs. A program that
imports cli itself (the tests) keeps its collector as it was.
"""

from __future__ import annotations

import gc


def main() -> int:
    collecting = gc.isenabled()
    gc.disable()
    try:
        from .cli import main as command
    finally:
        if collecting:
            gc.freeze()
            gc.enable()
    return command()
