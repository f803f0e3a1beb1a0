"""Writing a file so that a crash or a power cut leaves either the old file or
the new one, never half of either: write a temporary file beside it, fsync,
rename over. The writer holds a lock on its temporary file while it lives, so
``sweep_stale`` (run at start-up) removes only what a killed writer left behind."""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from .locks import lock
from .paths import StorageError, advice, confined, data_dir, remove, usable_dir

STALE_AFTER_S = 60.0  # a temporary file this old and unlocked is a killed writer's: removed
TEMP_NAME = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")  # ".<name>.<8 random characters>.tmp"
TEMP_ATTEMPTS = 100  # names drawn before giving up (each is 32 random bits: a clash is another writer's)
PRIVATE = 0o600  # the data directory's files: the player's alone
SHARED = 0o666  # an output the user names: readable by others as the umask allows, as other tools' files


def write_json(path: Path, data: Any, root: Path) -> None:
    """Replace ``path`` (inside ``root``: see ``saves.paths.confined``) with ``data`` as compact JSON."""
    write_atomic(path, lambda out: out.write(json.dumps(data, separators=(",", ":")).encode()), root)


def write_atomic(path: Path, fill: Callable[[BinaryIO], Any], root: Path) -> None:
    """Replace ``path`` with what ``fill`` writes into the open file, atomically; the folder is created
    if needed. StorageError (path and reason) when the disk refuses or ``path`` leads outside ``root``."""
    confined(path, root)
    usable_dir(path.parent)
    replace_file(path, fill)


def replace_file(path: Path, fill: Callable[[BinaryIO], Any], mode: int = PRIVATE,
                 explain: Callable[[OSError], str] = advice, keep: int | None = None) -> None:
    """Replace ``path`` (in a folder that exists) with what ``fill`` writes, atomically, as a new file of
    ``mode`` less the umask, or of exactly ``keep`` (the permissions of the file it replaces, given back as
    `sed -i` and rsync do); StorageError (path and reason, ``explain`` saying what to do) when the disk
    refuses. The kernel applies the umask (and a folder's default ACL) as it creates the file, as it does
    for any tool's output file: nothing reads the umask, which cannot be read and put back without a race
    with another thread creating a file."""
    try:
        fd, tmp = _temporary(path, mode)
    except OSError as exc:
        raise StorageError(f"{path.parent}: cannot write there ({explain(exc)})") from None
    try:
        with os.fdopen(fd, "wb") as out:
            lock(out.fileno())  # released when the file closes or the process dies: then it is stale
            if keep is not None:
                os.fchmod(out.fileno(), keep)
            fill(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, StorageError):
            raise StorageError(f"{path}: cannot be written ({explain(exc)})") from None
        raise


def _temporary(path: Path, mode: int) -> tuple[int, str]:
    """A new file beside ``path``, named as ``sweep_stale`` knows them, created with ``mode`` (less the
    umask), never through a link; its descriptor and name."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(TEMP_ATTEMPTS):
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, flags | getattr(os, "O_BINARY", 0), mode), tmp
        except FileExistsError:
            continue  # another writer's name: draw again
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(path.parent))


def sweep_stale(directory: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files killed writers left in ``directory``: those named as ``write_atomic``
    names them, not locked by a live writer and unchanged for STALE_AFTER_S before ``now`` (a Unix
    time; the clock's by default). The age covers the instant between a writer creating its file and
    locking it. What was removed; a directory that cannot be read removes nothing."""
    now = time.time() if now is None else now
    try:
        names = [entry.name for entry in os.scandir(directory) if TEMP_NAME.match(entry.name)]
    except OSError:
        return []
    removed = []
    for name in names:
        path = Path(directory) / name
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue  # gone already (its writer finished), or not ours to open
        try:
            info = os.fstat(fd)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime >= STALE_AFTER_S and lock(fd, wait=False):
                removed += [path] if remove(path, directory) else []
        except OSError:
            continue  # on Windows an open file cannot be removed: its writer is alive
        finally:
            os.close(fd)
    return removed


def sweep_data_dir(now: float | None = None) -> list[Path]:
    """``sweep_stale`` over the data directory and its folders (saves, avatars...): run at start-up."""
    home = data_dir()
    try:
        folders = [home, *(Path(entry.path) for entry in os.scandir(home) if entry.is_dir(follow_symlinks=False))]
    except OSError:
        return []
    return [path for folder in folders for path in sweep_stale(folder, now)]
