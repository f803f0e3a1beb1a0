"""The stand-in OpenAI-compatible model the tournament benches play against: tests.stubs' Steady, whose
answer follows from the prompt alone (the same games at any pace and in any order), served by a process
of its own so that its threads take nothing from the tournament's process being timed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])  # for tests.stubs
SERVE = """
import sys
sys.path.insert(0, {root!r})
from tests.stubs import Steady, Stub
server = Stub(Steady("openai", delay_s={delay}))
print(server.url, flush=True)
sys.stdin.read()  # until the benchmark closes the pipe
"""


@contextmanager
def steady_server(delay_s: float) -> Iterator[str]:
    """The server's URL while it runs, each answer taking ``delay_s``; it ends when the block does."""
    stub = subprocess.Popen([sys.executable, "-c", SERVE.format(root=ROOT, delay=delay_s)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert stub.stdout is not None
        yield stub.stdout.readline().strip()
    finally:
        assert stub.stdin is not None
        stub.stdin.close()
        stub.wait(timeout=10)
