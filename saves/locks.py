"""Advisory file locks, the same call on every platform: the experience log's
writers take one in turn, and an atomic writer holds one on its temporary file
so that a sweep of stale temporary files can tell a live writer from a dead one."""

from __future__ import annotations

import os
import sys

if sys.platform != "win32":  # a platform test, which type checkers follow (a failed import they cannot)
    import fcntl

    def lock(fd: int, wait: bool = True) -> bool:
        """Take the exclusive lock on ``fd``; without ``wait``, False at once when another holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
else:  # Windows
    import msvcrt

    def lock(fd: int, wait: bool = True) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK, 1)  # LK_LOCK retries for 10 s
        except OSError:
            if wait:
                raise
            return False
        return True

    def unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
