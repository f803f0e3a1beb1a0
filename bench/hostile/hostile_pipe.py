"""A million-turn pipe for bench/hostile/hostile.py: `labyrinth gsm` fed a long game line by line (the
seeded random walk of bench/perf/gsm_memory.py, which takes the full 1M-turn figures), each batch's
answers read before the next is written, and its resident memory read at CHECKPOINTS. A pipe
cannot be saved, so it keeps nothing per turn: the figures must be flat within FLAT_MB.

Counted: turns tried; a crash (the process died, or wrote a traceback); a hang (a batch's answers
not all come within BATCH_S); wrong answers (a batch answered with more or fewer lines than it
had; memory not flat)."""

from __future__ import annotations

import contextlib
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "perf"))  # bench/perf/, for gsm_memory's walk
from gsm_memory import rss_mb, walk
from hostile_gsm import limited
from hostile_watch import Tally

CHECKPOINTS = (10_000, 100_000)  # turns; bench/perf/gsm_memory.py goes on to 1M
FLAT_MB = 4.0  # the most the RSS may grow from the first checkpoint to the last
BATCH = 2_000  # lines written before their answers are read: a pipe's buffer holds them
BATCH_S = 60.0  # a batch whose answers have not all come by then is hung (it takes under a second, even loaded)


def way(labyrinth: str, seed: int, turns: int, env: dict[str, str], memory: dict[int, float],
        out_of_time: Callable[[Tally], bool]) -> Callable[[Tally], None]:
    """The pipe's way in: ``turns`` turns of seed ``seed``'s walk, RSS (MB) at each checkpoint up to
    ``turns`` put in ``memory``; it stops where it is once ``out_of_time``."""
    def body(tally: Tally) -> None:
        proc = subprocess.Popen(limited([labyrinth, "gsm", "--seed", str(seed), "--preset", "full",
                                         "--minotaur", "wait"]),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        answers: queue.Queue[int] = queue.Queue()
        threading.Thread(target=_count_lines, args=(proc, answers), daemon=True).start()
        lines, done = walk(seed), 0
        try:
            if not _answered(answers, 1, BATCH_S):  # the initial state
                tally.fail("hangs", "start", f"no initial state within {BATCH_S:g} s")
                return
            for checkpoint in (c for c in (*CHECKPOINTS, turns) if c <= turns):
                while done < checkpoint and not out_of_time(tally):
                    n = min(BATCH, checkpoint - done)
                    tally.tried += n
                    try:
                        proc.stdin.write(b"".join(next(lines) for _ in range(n)))
                        proc.stdin.flush()
                    except (BrokenPipeError, OSError):
                        break
                    if not _answered(answers, n, BATCH_S):
                        what = "crashes" if proc.poll() is not None else "hangs"
                        tally.fail(what, f"turns {done + 1:,} to {done + n:,}",
                                   f"exit status {proc.returncode}" if what == "crashes" else
                                   f"not all {n:,} answered within {BATCH_S:g} s")
                        return
                    done += n
                if done < checkpoint:
                    return
                memory[checkpoint] = rss_mb(proc.pid)
            if len(memory) > 1 and (grown := memory[max(memory)] - memory[min(memory)]) > FLAT_MB:
                tally.fail("wrong", f"{min(memory):,} to {max(memory):,} turns", f"the RSS grew by {grown:.1f} MB")
        finally:
            _close(proc, tally)
    return body


def _count_lines(proc: subprocess.Popen, answers: queue.Queue[int]) -> None:
    """Each answer line as a 1 on ``answers``, the end of output as a 0."""
    for _ in proc.stdout:
        answers.put(1)
    answers.put(0)


def _answered(answers: queue.Queue[int], count: int, wait_s: float) -> bool:
    """Whether ``count`` answers come within ``wait_s``."""
    end = time.monotonic() + wait_s
    for _ in range(count):
        try:
            if not answers.get(timeout=max(0.0, end - time.monotonic())):
                return False
        except queue.Empty:
            return False
    return True


def _close(proc: subprocess.Popen, tally: Tally) -> None:
    """End of input: gsm must exit, without a traceback. (Its stdout is the reader thread's.)"""
    with contextlib.suppress(OSError):
        proc.stdin.close()
    try:
        proc.wait(timeout=BATCH_S)
        err = proc.stderr.read()
    except subprocess.TimeoutExpired:
        tally.fail("hangs", "end of input", "gsm did not exit at EOF")
        proc.kill()
        proc.wait()
        return
    if b"Traceback" in err or proc.returncode:
        tally.fail("crashes", "session", (err.decode(errors="replace").strip().splitlines() or
                                          [f"exit status {proc.returncode}"])[-1])
