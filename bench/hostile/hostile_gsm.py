"""`labyrinth gsm` as the hostile-input harness meets it: a subprocess under a memory limit,
lines written, answers read by a thread as they come, so a line with no answer is seen as one."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time

from hostile_watch import HANG_S, Tally

ANSWER_S = 4.0  # a `gsm` line with no answer by then got none
MEMORY_LIMIT = 768 << 20  # bytes of address space per subprocess (the CLI needs under 512 MB): /dev/zero must not
# eat the machine, which other work shares


def is_error(answer: bytes) -> bool:
    return b'"status":"ERROR"' in answer[:200]


# Sets the memory limit, then becomes the command: no preexec_fn, which is unsafe beside this harness's threads.
LIMITER = ("import os, resource, sys; resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]),) * 2); "
           "os.execv(sys.argv[2], sys.argv[2:])")


def limited(args: list[str]) -> list[str]:
    """``args`` run with at most MEMORY_LIMIT bytes of address space, where the platform can say so."""
    if os.name != "posix":
        return args
    return [sys.executable, "-c", LIMITER, str(MEMORY_LIMIT), *args]


class GsmSession:
    """`labyrinth gsm` as a client meets it: lines written, answers read by a thread as they come."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(limited(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.answers: queue.Queue[bytes | None] = queue.Queue()
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.take(1, ANSWER_S * 3)  # the initial state

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.answers.put(line)
        self.answers.put(None)

    def _read_stderr(self) -> None:
        self.stderr = self.proc.stderr.read()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def death(self) -> str:
        self.proc.wait(timeout=HANG_S)
        lines = self.stderr.decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit status {self.proc.returncode}"

    def send(self, data: bytes, expect: int, wait_s: float, stop_early: bool = False) -> list[bytes]:
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return []
        return self.take(expect, wait_s, stop_early)

    def take(self, count: int, wait_s: float, stop_early: bool = False) -> list[bytes]:
        """Up to ``count`` answers within ``wait_s``; with ``stop_early``, no more after a first
        answer that is not an ERROR (it answers the valid line after a bad one: the bad one got none)."""
        got: list[bytes] = []
        end = time.monotonic() + wait_s
        while len(got) < count:
            try:
                answer = self.answers.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                break
            if answer is None:
                break
            got.append(answer)
            if stop_early and not is_error(answer):
                break
        return got

    def resync(self, marker: bytes) -> None:
        """After a surprise, drop late answers so the next line's are its own."""
        time.sleep(0)  # let the reader thread run
        while True:
            try:
                if self.answers.get(timeout=0.2) is None:
                    return
            except queue.Empty:
                return

    def play_to_the_end(self, line: bytes, most: int = 200) -> None:
        for _ in range(most):
            got = self.send(line + b"\n", 1, ANSWER_S)
            if not got or b'"status":"DEATH"' in got[0][:200] or b'"status":"ESCAPED"' in got[0][:200]:
                return

    def close(self, tally: Tally) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            tally.fail("hangs", "end of input", "gsm did not exit at EOF")
            self.proc.kill()
            self.proc.wait()
        if "Traceback" in self.stderr.decode(errors="replace"):
            tally.fail("crashes", "session", self.stderr.decode(errors="replace").strip().splitlines()[-1])
