"""The `labyrinth` command line run in the test's own process, through its main: for the tests of what a
command prints and the status it ends with. What needs a process of its own (a fresh interpreter, a signal,
the installed script) runs the command as one."""

from __future__ import annotations

import contextlib
import io
import subprocess

from labyrinth.tui.cli import main


def labyrinth(*args: object) -> subprocess.CompletedProcess[str]:
    """`labyrinth ARGS` run here: its exit status (a parser's refusal's too) and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(arg) for arg in args])
        except SystemExit as stopped:
            status = stopped.code if isinstance(stopped.code, int) else 1
    return subprocess.CompletedProcess([str(arg) for arg in args], status, out.getvalue(), err.getvalue())
