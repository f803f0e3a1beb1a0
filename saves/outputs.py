"""Files a user names for the game to write (a leaderboard's CSV or page, the experience log's
export, a replay shown into a file): where writing each one goes, refused in one line before
anything is opened or created when it would harm what is there.

- ``-`` and ``/dev/stdout``, and any path that is this process's own standard output (``/dev/fd/1``,
  the file or terminal it is redirected to), are written through standard output.
- A new file, in a folder that exists, or a regular file the user may write is replaced atomically
  (``atomic.replace_file``: a temporary file beside it, fsync, rename over). A new file has mode 0666
  less the umask (0644 under the usual 022), as other tools' output files have: a report is for others
  to read. A file replaced keeps its permissions, as `sed -i` and rsync keep them: a report its user
  made private stays private. A folder that does not exist is refused, not made: a mistyped path makes no tree.
- A directory, a character or block device, a FIFO or a socket is refused (exit 2 for the command);
  it is never opened, so a FIFO with no reader cannot hang the game, and never replaced, so a device
  node such as /dev/null stays what it is.
- A symbolic link is followed to its target, which is replaced (the link stays a link to it) only if
  the target is a regular file and every link on the way and the target belong to the user running
  the game. The place a report goes is wherever the user points: the user chose it. What a link may
  not do is turn a report into a write the user did not choose: a link someone else planted (in /tmp,
  say) to one of the user's files, or the user's own link to another user's file, or to a device.
  A dangling link is refused too, rather than creating its target: that is the planted-link case.
  Naming the file itself (not the link) is always the user's plain choice.
- What the game keeps is never a report's target, however it is named: the results database (and its
  journal files), the experience log, and a save or replay (a .jsonl file) in the game's data directory;
  nor is a file the command itself reads (``reads``): `replay R.jsonl --output R.jsonl` would put the
  replay's summary in its place, as `sort f > f` empties f.

What is left: a folder another user can write can still be changed between the check and the rename;
the rename never opens what it replaces, so the worst is the file replaced, as that user could anyway.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO

from .atomic import SHARED, replace_file
from .paths import LOG_NAME, RESULTS_FILE, StorageError, data_dir

STDOUT_NAMES = ("-", "/dev/stdout")  # standard output by name, on any platform
LINKS_FOLLOWED = 40  # as the kernel's limit: more is a loop
KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))
NAME_A_FILE = "name a regular file, or - for standard output"


@dataclass(frozen=True)
class Output:
    """Where an output the user named goes: the regular file ``target`` to replace (the name itself, or
    the file its links lead to; it may not exist yet), or standard output when ``target`` is None."""

    named: str
    target: Path | None

    @property
    def to_stdout(self) -> bool:
        return self.target is None


def output_for(named: str | os.PathLike[str], reads: Iterable[Path] = ()) -> Output:
    """Where writing to the path ``named`` goes; StorageError (one line: the path and what it is) when it
    is refused. Nothing is opened or created: a command checks every path it was given before writing.
    ``reads``: the files the command reads, which it may not write over."""
    output = _output_for(os.fspath(named))
    if output.target is not None and output.target.exists():
        _not_kept(output.named, output.target, reads)
    return output


def _not_kept(name: str, target: Path, reads: Iterable[Path]) -> None:
    """StorageError when the existing file ``target`` is one the command reads or one the game keeps."""
    if any(_same(target, path) for path in reads):
        raise StorageError(f"{name}: the file this command reads; name another file for what it writes")
    home = data_dir()
    kept = target.name == LOG_NAME or target.name.startswith(RESULTS_FILE) or target.suffix == ".jsonl"
    if kept and os.path.realpath(target).startswith(os.path.join(os.path.realpath(home), "")):
        raise StorageError(f"{name}: a file the game keeps in {home} (its results, its experience log, a save or a "
                           f"replay); name another file")


def _same(target: Path, path: Path) -> bool:
    try:
        return os.path.samefile(target, path)
    except OSError:  # the file read is not there (any more): nothing to write over
        return False


def _output_for(name: str) -> Output:
    """``output_for`` without the files a command reads or the game keeps."""
    if not name:  # pathlib would take it as the current folder, and only the rename would fail, after other reports
        raise StorageError(f'an empty path ("") names no file; {NAME_A_FILE}')
    if name in STDOUT_NAMES or _is_stdout(name):
        return Output(name, None)
    try:
        found = os.lstat(name)
    except FileNotFoundError:
        return Output(name, _new_file(name))
    except NotADirectoryError:
        raise StorageError(f"{name}: a file stands where a folder should be on its way; {NAME_A_FILE}") from None
    except OSError as exc:
        raise StorageError(f"{name}: cannot be used ({_reason(exc)})") from None
    if stat.S_ISLNK(found.st_mode):
        return Output(name, _followed(name))
    if not stat.S_ISREG(found.st_mode):
        raise StorageError(f"{name}: {_kind(found.st_mode)}, not a file; {NAME_A_FILE}")
    if not _writable(name):
        raise StorageError(f"{name}: read-only for you; make it writable (chmod u+w) or name another file")
    return Output(name, Path(name))


def write_output(named: str | os.PathLike[str], fill: Callable[[BinaryIO], Any],
                 reads: Iterable[Path] = ()) -> Output:
    """Write what ``fill`` writes (bytes) where ``named`` goes (``output_for``, ``reads`` as there): standard
    output, flushed, or the file replaced atomically; where it went. StorageError (one line) when refused or not
    written."""
    output = output_for(named, reads)
    if output.target is None:
        _to_stdout(fill)
    else:
        replace_file(output.target, fill, SHARED, explain=_reason, keep=_permissions(output.target))
    return output


def _permissions(target: Path) -> int | None:
    """The permission bits of the regular file ``target`` replaces (None: a new file): a report the user
    made private stays private when written again."""
    try:
        return stat.S_IMODE(target.stat().st_mode) & 0o777  # never a set-id bit on a report
    except FileNotFoundError:
        return None


def _is_stdout(name: str) -> bool:
    """Whether ``name`` is the very file this process's standard output writes to (stat, never open)."""
    try:
        here, out = os.stat(name), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not there; no descriptor (a test's stream, a closed one)
        return False
    return (here.st_dev, here.st_ino) == (out.st_dev, out.st_ino)


def _new_file(name: str) -> Path:
    """``name``, which does not exist, as a file to create: its folder must exist."""
    folder = os.path.dirname(name) or "."
    if name.endswith(("/", os.sep)):
        raise StorageError(f"{name}: names a folder, which does not exist; {NAME_A_FILE}")
    if not os.path.isdir(folder):
        raise StorageError(f"{name}: the folder {folder} does not exist; make it first, or name another file")
    return Path(name)


def _followed(name: str) -> Path:
    """The regular file the link ``name`` leads to, when every link on the way and the file are the user's."""
    step = name
    for _ in range(LINKS_FOLLOWED):
        try:
            found = os.lstat(step)
        except FileNotFoundError:
            raise StorageError(f"{name}: a link to {step}, which does not exist; name the file itself") from None
        except OSError as exc:
            raise StorageError(f"{name}: a link that cannot be followed ({_reason(exc)})") from None
        if not stat.S_ISLNK(found.st_mode):
            break
        if not _mine(found):
            raise StorageError(f"{name}: a link that belongs to another user ({step}); name the file itself")
        step = os.path.join(os.path.dirname(step), os.readlink(step))
    else:
        raise StorageError(f"{name}: a loop of links; name the file itself")
    target = Path(os.path.realpath(name))
    if not stat.S_ISREG(found.st_mode):
        raise StorageError(f"{name}: a link to {_kind(found.st_mode)} ({target}), not to a file; {NAME_A_FILE}")
    if not _mine(found):
        raise StorageError(f"{name}: a link to {target}, which belongs to another user; name the file itself")
    if not _writable(str(target)):
        raise StorageError(f"{name}: a link to {target}, which is read-only for you; name another file")
    return target


def _mine(found: os.stat_result) -> bool:
    """Whether the user running the game owns it (always, where files have no owner we can compare)."""
    return not hasattr(os, "geteuid") or found.st_uid == os.geteuid()


def _writable(name: str) -> bool:
    """Whether the user may write the file (by its mode): a rename would replace even a read-only one."""
    if os.access in os.supports_effective_ids:
        return os.access(name, os.W_OK, effective_ids=True)
    return os.access(name, os.W_OK)


def _kind(mode: int) -> str:
    return next((kind for test, kind in KINDS if test(mode)), "not a regular file")


def _reason(exc: OSError) -> str:
    """The system's reason for a failed write to a path the user chose (no advice about the data directory)."""
    return exc.strerror or str(exc)


def _to_stdout(fill: Callable[[BinaryIO], Any]) -> None:
    """``fill``'s bytes on standard output, after what was printed before them, flushed."""
    stream = sys.stdout
    stream.flush()
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text stream with no bytes beneath (a caller's StringIO)
        held = BytesIO()
        fill(held)
        stream.write(held.getvalue().decode())
    else:
        fill(binary)
        binary.flush()
    stream.flush()
