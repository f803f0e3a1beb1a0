"""Report and export paths as root: every command that writes a file the user names, pointed at each
kind of thing a path can be, on a scratch directory of device nodes, FIFOs, sockets and links.

    .venv/bin/python bench/hostile/hostile_paths.py [--seed N ...]

The writers: `leaderboard --csv`, `--html`, `--paired-csv`, `--matches-csv`, `memory export`, and
`replay FILE --output` as text, as the story (`--summary`, the morgue file) and as the transcript, on a
results database made by a small tournament of rule agents and a model's replay kept among the fixtures.
The targets, made fresh for each command in a scratch directory (outside /dev: a device node made by
mknod is the same device): a character device with /dev/full's numbers, a block device, a FIFO nobody
reads, a listening Unix socket, a directory, links to the device, to a file of another user and to
nowhere, a chain of links to a file of our own, a file of our own, a new file (under a umask drawn from
the seed), a new file in a folder that does not exist, and standard output by `-` and by `/dev/stdout`.
The seed draws which writers meet each target, the umask, and the names (spaces, non-ASCII letters, a
leading dot).

A case is counted `replaced` when a target that is not a regular file of the user's (or a link to
one) is not exactly what it was afterwards (its kind, inode, device numbers, link text, or the
contents of the file another user owns); `wrong` when a refused target's command did not exit 2 with
one line naming the path, or a writable target (new, own, own through links, standard output) did
not get the report as a regular file, of mode 0666 less the umask when new and of its old mode when
replaced, with the links still links; a traceback or a death by a signal is
a crash, and no end within hostile_watch.HANG_S a hang (a FIFO opened for writing would block).
``section`` counts into a hostile_watch.Tally for bench/hostile/hostile.py; run alone, this prints each case.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import stat
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hostile_watch import HANG_S, Tally, command, run_alone

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
NOBODY = 65534  # another user's id, for a file that is not ours
FULL = (1, 7)  # /dev/full's device numbers: a write to it fails, as an overwritten report would not
LOOP = (7, 200)  # a loop device's numbers, never attached: a block device nobody uses
TOURNAMENT = ["tournament", "--users", "builtin,random", "--minotaurs", "wait,builtin", "--games", "2", "--preset",
              "tiny", "--max-turns", "30", "--no-memory"]
REPLAY = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "replay-05106cc.jsonl"  # a model's
# match with a lesson, system text, plan and exchanges: every view of it (the transcript too) has something to write
STRANGE_NAMES = ("report", "two words", "rapport-été", ".hidden", "名前", "a'quote")
UMASKS = (0o022, 0o027, 0o077, 0o002)


@dataclass(frozen=True)
class Writer:
    """A command that writes a report or an export to the path it is given (its arguments before and
    after the path; REPLAY stands for the replay shown)."""

    label: str
    before: tuple[str, ...]
    after: tuple[str, ...] = ()

    def args(self, path: str) -> list[str]:
        return [LABYRINTH, *(str(REPLAY) if part == "REPLAY" else part for part in self.before), path, *self.after]


WRITERS = (Writer("leaderboard --csv", ("leaderboard", "--csv")),
           Writer("leaderboard --html", ("leaderboard", "--html")),
           Writer("leaderboard --paired-csv", ("leaderboard", "--paired-csv")),
           Writer("leaderboard --matches-csv", ("leaderboard", "--matches-csv")),
           Writer("memory export", ("memory", "export")),
           Writer("replay --output", ("replay", "REPLAY", "--output")),
           Writer("replay --summary --output", ("replay", "REPLAY", "--summary", "--output")),
           Writer("replay --transcript --output", ("replay", "REPLAY", "--transcript", "--output")))


@dataclass(frozen=True)
class Target:
    """A kind of thing a named path can be: ``make(scratch, name)`` makes it and returns the path to name;
    ``refused``: the command must refuse it; ``stdout``: the report goes to standard output."""

    label: str
    make: Callable[[Path, str], str]
    refused: bool
    stdout: bool = False


def _device(kind: int, numbers: tuple[int, int]) -> Callable[[Path, str], str]:
    def make(scratch: Path, name: str) -> str:
        os.mknod(scratch / name, kind | 0o666, os.makedev(*numbers))
        return str(scratch / name)
    return make


def _fifo(scratch: Path, name: str) -> str:
    os.mkfifo(scratch / name)
    return str(scratch / name)


def _socket(scratch: Path, name: str) -> str:
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(scratch / name))
    listening.listen()
    _sockets.append(listening)
    return str(scratch / name)


_sockets: list[socket.socket] = []  # the listening sockets of the section's cases, closed after each


def _directory(scratch: Path, name: str) -> str:
    (scratch / name).mkdir()
    (scratch / name / "inside").write_text("kept")
    return str(scratch / name)


def _others_file(scratch: Path, name: str) -> Path:
    theirs = scratch / f"{name}.theirs"
    theirs.write_text("another user's file\n")
    os.chown(theirs, NOBODY, NOBODY)
    return theirs


def _link_to(make: Callable[[Path, str], str | Path]) -> Callable[[Path, str], str]:
    def link(scratch: Path, name: str) -> str:
        (scratch / name).symlink_to(make(scratch, name + ".target"))
        return str(scratch / name)
    return link


def _own_file(scratch: Path, name: str) -> str:
    (scratch / name).write_text("an old report\n")
    (scratch / name).chmod(0o600)  # made private: it stays so
    return str(scratch / name)


def _own_through_links(scratch: Path, name: str) -> str:
    _own_file(scratch, name + ".file")
    (scratch / (name + ".near")).symlink_to(name + ".file")  # relative, then absolute
    (scratch / name).symlink_to(scratch / (name + ".near"))
    return str(scratch / name)


TARGETS = (Target("a character device (/dev/full's numbers)", _device(stat.S_IFCHR, FULL), True),
           Target("a block device", _device(stat.S_IFBLK, LOOP), True),
           Target("a FIFO nobody reads", _fifo, True),
           Target("a listening socket", _socket, True),
           Target("a directory", _directory, True),
           Target("a link to a device", _link_to(_device(stat.S_IFCHR, FULL)), True),
           Target("a link to another user's file", _link_to(_others_file), True),
           Target("a dangling link", _link_to(lambda scratch, name: scratch / name), True),
           Target("a new file in a missing folder", lambda scratch, name: str(scratch / "missing" / name), True),
           Target("a file of our own", _own_file, False),
           Target("links to a file of our own", _own_through_links, False),
           Target("a new file", lambda scratch, name: str(scratch / name), False),
           Target("-", lambda scratch, name: "-", False, stdout=True),
           Target("/dev/stdout", lambda scratch, name: "/dev/stdout", False, stdout=True))


def fingerprint(path: Path) -> tuple:
    """What must not change in something the writer must leave alone: for each name on the way (the
    link, then what it points to), its kind, inode, device numbers, owner and link text, and a regular
    file's contents."""
    seen = []
    for _ in range(4):
        try:
            info = path.lstat()
        except FileNotFoundError:
            seen.append(("missing", str(path)))
            break
        text = os.readlink(path) if stat.S_ISLNK(info.st_mode) else None
        contents = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
        seen.append((stat.S_IFMT(info.st_mode), info.st_ino, info.st_rdev, info.st_uid, text, contents))
        if text is None:
            break
        path = path.parent / text
    return tuple(seen)


def file_kinds(scratch: Path) -> dict[str, int]:
    """Every name in the scratch directory with its kind: the links and files a writable case must keep."""
    return {p.name: stat.S_IFMT(p.lstat().st_mode) for p in scratch.iterdir()}


@dataclass(frozen=True)
class Case:
    writer: Writer
    target: Target
    name: str
    umask: int

    @property
    def label(self) -> str:
        return f"{self.writer.label} to {self.target.label} ({self.name!r}, umask {self.umask:03o})"


def cases(seed: int) -> list[Case]:
    """Each target met by two writers drawn from the seed (every writer meets the targets in turn)."""
    draw = random.Random(f"hostile-paths:{seed}")
    writers = [*WRITERS]
    draw.shuffle(writers)
    return [Case(writers[(2 * number + k) % len(writers)], target, draw.choice(STRANGE_NAMES), draw.choice(UMASKS))
            for number, target in enumerate(TARGETS) for k in range(2)]


def judge(tally: Tally, case: Case, home: dict[str, str], scratch: Path) -> str:
    """Run one case in a fresh ``scratch``; what it did, in a few words (its failures counted)."""
    named = case.target.make(scratch, case.name)
    before, kinds = fingerprint(Path(named)), file_kinds(scratch)
    old_mode = stat.S_IMODE(os.stat(named).st_mode) if os.path.isfile(named) else None
    done = command(tally, case.label, ["sh", "-c", f'umask {case.umask:03o}; exec "$@"', "sh",
                                       *case.writer.args(named)], home, hang_s=HANG_S * 2)
    if done is None:
        return "crashed or hung"
    err = done.stderr.decode(errors="replace").strip()
    if case.target.refused:
        if (after := fingerprint(Path(named))) != before and before[0][0] == "missing":
            tally.fail("wrong", case.label, f"exit {done.returncode}; made {after}")
            return "MADE"
        if after != before:
            tally.fail("replaced", case.label, f"exit {done.returncode}; was {before}, now {after}")
            return "REPLACED"
        if done.returncode != 2 or len(err.splitlines()) != 1 or named not in err:
            tally.fail("wrong", case.label, f"exit {done.returncode}, said {err!r}")
            return f"kept, but exit {done.returncode}: {err[:80]}"
        return f"refused: {err}"
    if done.returncode != 0:
        tally.fail("wrong", case.label, f"exit {done.returncode}, said {err!r}")
        return f"exit {done.returncode}: {err[:80]}"
    if case.target.stdout:
        if not done.stdout.strip():
            tally.fail("wrong", case.label, "nothing on standard output")
        return f"{len(done.stdout):,} bytes on standard output"
    written = Path(named).resolve()
    mode = stat.S_IMODE(written.stat().st_mode)
    want = 0o666 & ~case.umask if old_mode is None else old_mode
    links_kept = all(file_kinds(scratch).get(name) == kind for name, kind in kinds.items()
                     if kind == stat.S_IFLNK)
    if not written.is_file() or written.read_bytes() in (b"", b"an old report\n") or mode != want or not links_kept:
        tally.fail("wrong", case.label, f"mode {mode:03o} (want {want:03o}), links kept: {links_kept}, "
                                        f"{written.stat().st_size} bytes")
    return f"written: {written.name}, mode {mode:03o}, {written.stat().st_size:,} bytes"


def section(tally: Tally, seed: int) -> list[tuple[Case, str]]:
    """The cases of ``seed`` counted into ``tally``, each with what it did. Needs root (mknod, chown):
    without it, says so and counts nothing."""
    if os.geteuid() != 0:
        tally.failures.append("not run: device nodes and another user's file need root")
        return []
    root = Path(tempfile.mkdtemp(prefix="labyrinth-paths-"))
    home = {**os.environ, "XDG_DATA_HOME": str(root / "data"), "XDG_CONFIG_HOME": str(root / "config")}
    said = []
    try:
        made = command(Tally("setup"), "setup", [LABYRINTH, *TOURNAMENT], home, hang_s=120)
        if made is None or made.returncode != 0:
            tally.fail("wrong", "setup", "the tournament that makes the reports' database failed")
            return said
        for number, case in enumerate(cases(seed)):
            scratch = root / f"scratch-{number}"
            scratch.mkdir()
            try:
                said.append((case, judge(tally, case, home, scratch)))
            finally:
                while _sockets:
                    _sockets.pop().close()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return said


def main() -> int:
    return run_alone(__doc__, "report paths", lambda tally, seed: (f"{case.label}: {what}"
                                                                  for case, what in section(tally, seed)))


if __name__ == "__main__":
    sys.exit(main())
