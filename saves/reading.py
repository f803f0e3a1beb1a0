"""Reading a file from outside safely: only a regular file (a FIFO would block
for ever, a link to /dev/zero would fill the memory), and only up to a cap."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .paths import StorageError

KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
         stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a directory"}


class NotAFile(StorageError):
    """Something other than a regular file, or one larger than the game reads, where a file was expected."""


def read_regular(path: Path, cap: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``cap`` of them. FileNotFoundError when there
    is none; NotAFile for a FIFO, a device, a directory or a file over ``cap`` bytes; StorageError
    when it cannot be opened or read. Opened without blocking, so a FIFO is refused, not waited on."""
    data = _read(path, cap + 1)
    if len(data) > cap:
        raise NotAFile(f"{path}: larger than the {cap:,} bytes the game reads")
    return data


def read_start(path: Path, size: int) -> bytes:
    """The first ``size`` bytes (or fewer) of the regular file ``path``; errors as ``read_regular``."""
    return _read(path, size)


def _read(path: Path, size: int) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise NotAFile(f"{path}: a directory, not a file") from None
    except OSError as exc:
        raise StorageError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotAFile(f"{path}: {KINDS.get(stat.S_IFMT(mode), 'not a regular file')}, not a file")
    with os.fdopen(fd, "rb") as file:
        try:
            return file.read(size)
        except OSError as exc:
            raise StorageError(f"{path}: cannot be read ({exc.strerror or exc})") from None
