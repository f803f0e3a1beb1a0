"""Where the Labyrinth keeps its files: the user's data directory, as the
platform expects it (platformdirs; on Linux $XDG_DATA_HOME/labyrinth, by
default ~/.local/share/labyrinth); and the one check every delete and
overwrite goes through, so that an edited file naming another path never
makes the game touch a file outside the directory it was given."""

from __future__ import annotations

import errno
from pathlib import Path

from platformdirs import user_data_path

APP_NAME = "labyrinth"


class StorageError(OSError):
    """A file or directory the game cannot use (read-only, a file where a directory should be,
    outside the data directory, not a regular file, too large); ``str()`` is one line for the
    user: the path, then what is wrong."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "storage error"


ADVICE = {  # what a player can do about a failed write, by its cause
    errno.ENOSPC: "the disk is full: free some space on it, then try again",
    errno.EDQUOT: "your disk quota is used up: free some space, then try again",
    errno.EROFS: "that file system is read-only: point XDG_DATA_HOME at a folder you can write, or remount it",
    errno.EACCES: "you may not write there: check who owns it (ls -l), or point XDG_DATA_HOME elsewhere",
    errno.EPERM: "you may not write there: check who owns it (ls -l), or point XDG_DATA_HOME elsewhere",
    errno.ENOTDIR: "a file stands where a folder should be: move that file away (rename it), then try again",
    errno.EEXIST: "a file stands where a folder should be: move that file away (rename it), then try again",
}


def advice(exc: OSError) -> str:
    """The operating system's reason for ``exc`` and, when there is one, what to do about it (a
    StorageError says both already)."""
    if isinstance(exc, StorageError) or not exc.strerror:
        return str(exc)
    reason = exc.strerror
    todo = ADVICE.get(exc.errno or 0)
    return f"{reason}; {todo}" if todo else reason


LOG_NAME = "experience_log.json"  # the experience log, in the data directory (experience.py)
RESULTS_FILE = "results.db"  # the results database, in the data directory (results_db.py)


def data_dir() -> Path:
    """The user's data directory for the game; not created here, writers create what they need."""
    # appauthor=False: on Windows the author would otherwise add a second "labyrinth" level.
    return user_data_path(APP_NAME, appauthor=False)


def replays_dir() -> Path:
    """Where recorded matches go unless the caller names another directory."""
    return data_dir() / "replays"


def confined(path: Path, root: Path) -> Path:
    """``path`` if it resolves (symlinks followed, ``..`` removed) inside ``root``, which is the data
    directory or the directory the caller chose for that kind of file; StorageError otherwise.
    Every file the game deletes, renames or replaces is checked here first."""
    resolved, home = Path(path).resolve(), Path(root).resolve()
    if not resolved.is_relative_to(home):
        where = f" (it leads to {resolved})" if resolved != Path(path).absolute() else ""
        raise StorageError(f"{path}: outside {root}{where}; the game only changes files there")
    return Path(path)


def remove(path: Path, root: Path) -> bool:
    """Delete the file ``path`` if it is inside ``root`` (see ``confined``); whether it was there.
    A directory is never removed."""
    confined(path, root)
    try:
        Path(path).unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise StorageError(f"{path}: cannot be removed ({advice(exc)})") from None
    return True


def usable_dir(directory: Path) -> Path:
    """``directory``, created if needed; StorageError saying why when it cannot be (a file is in
    the way, no permission, a read-only file system)."""
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StorageError(
            f"{directory}: not a directory (a file is in the way: move it away, then try again)") from None
    except OSError as exc:
        raise StorageError(f"{directory}: cannot be created ({advice(exc)})") from None
    if not Path(directory).is_dir():
        raise StorageError(f"{directory}: not a directory (a file is in the way: move it away, then try again)")
    return Path(directory)
