"""A process pool whose workers die with the process that made it.

An idle worker of `concurrent.futures` waits on its call queue, and when its
parent is killed outright (kill -9: no chance to shut the pool down) nothing
ends that wait: the worker would idle forever. So each worker watches its
parent. On Linux the kernel kills it the moment the parent dies
(PR_SET_PDEATHSIG); everywhere, a thread waits on multiprocessing's parent
sentinel and ends the worker when it fires, which also covers a parent that
died before the worker got to ask the kernel.

The workers are spawned, not forked: a forked worker would inherit its
siblings' ends of the parent's pipes, so the sentinel of one would not fire
while another lived; a spawned worker holds only its own, on every platform.
The kernel's signal follows the thread that started a worker (the one that
submits to the pool): submit from the thread that shuts the pool down.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import wait

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
ORPHANED = 1  # a worker's exit status when it ends because its parent is gone


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that end when this process ends, however it ends."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=die_with_parent)


def die_with_parent() -> None:
    """Make the calling worker process end when its parent does (a pool's initializer)."""
    parent = multiprocessing.parent_process()
    if parent is None:  # the main process: nobody to watch
        return
    _ask_the_kernel()
    threading.Thread(target=_exit_when_gone, args=(parent.sentinel,), name="parent-watch", daemon=True).start()


def _ask_the_kernel() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no libc to ask (a static or unusual build): the watching thread acts
        pass


def _exit_when_gone(sentinel: int) -> None:
    wait([sentinel])  # ready once the parent has exited, for whatever reason
    os._exit(ORPHANED)  # no cleanup to run: the parent that wanted the results is gone
