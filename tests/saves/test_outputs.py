"""saves.outputs: a path the user names for a report is written only when it is a new file, a regular
file or a link of theirs to one, as a file the umask shapes; standard output by name or by identity;
every other kind of file refused in one line before anything is opened, and left as it was."""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from labyrinth.saves.atomic import write_atomic
from labyrinth.saves.outputs import output_for, write_output
from labyrinth.saves.paths import StorageError

AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
OTHER_USER = 4242  # no one's: a file of "another user" (made by root)


def fill(text: str):
    return lambda out: out.write(text.encode())


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    before = os.umask(mask)
    try:
        yield
    finally:
        os.umask(before)


def fingerprint(path: Path) -> tuple:
    """What a refusal must leave as it was: the thing's inode, kind, mode, and its content if a file."""
    found = os.lstat(path)
    content = path.read_bytes() if stat.S_ISREG(found.st_mode) else None
    link = os.readlink(path) if stat.S_ISLNK(found.st_mode) else None
    return found.st_ino, stat.S_IFMT(found.st_mode), stat.S_IMODE(found.st_mode), content, link


def refused(path: Path | str, *words: str) -> str:
    """The one-line refusal of ``path``, which names it and each of ``words``; nothing left beside it."""
    folder = Path(os.path.realpath(path)).parent
    before = sorted(folder.iterdir()) if folder.is_dir() else None
    with pytest.raises(StorageError) as caught:
        write_output(path, fill("report\n"))
    said = str(caught.value)
    assert "\n" not in said and said.startswith(f"{path}: ") and all(word in said for word in words), said
    assert (sorted(folder.iterdir()) if folder.is_dir() else None) == before  # no temporary file, nothing new
    return said


def test_a_new_file_is_written_whole_with_the_umasks_mode(tmp_path):
    for mask, mode in ((0o022, 0o644), (0o027, 0o640), (0o077, 0o600)):
        path = tmp_path / f"new-{mask:o}.csv"
        with umask(mask):
            assert write_output(path, fill("a,b\n")).target == path
        assert path.read_text() == "a,b\n" and stat.S_IMODE(path.stat().st_mode) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new-22.csv", "new-27.csv", "new-77.csv"]


def test_a_regular_file_is_replaced_by_a_new_one_keeping_its_permissions(tmp_path):
    path = tmp_path / "board.html"
    path.write_text("old page")
    for mode in (0o600, 0o664, 0o4600):  # private, wider than the umask; never a set-id bit
        path.chmod(mode)
        before = path.stat().st_ino
        with umask(0o022):
            write_output(str(path), fill("new page"))
        assert path.read_text() == "new page" and stat.S_IMODE(path.stat().st_mode) == mode & 0o777
        assert path.stat().st_ino != before  # renamed over, never written in place: a reader sees old or new


def test_the_data_directorys_own_files_stay_private(tmp_path):
    with umask(0o022):
        write_atomic(tmp_path / "log.json", fill("{}"), tmp_path)
    assert stat.S_IMODE((tmp_path / "log.json").stat().st_mode) == 0o600


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_standard_output_by_name_gets_the_bytes_and_no_file_is_made(name, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    print("before", end="")
    assert write_output(name, fill("report\n")).to_stdout
    assert capsys.readouterr().out == "beforereport\n" and list(tmp_path.iterdir()) == []


WRITE_TO = ("import sys; from labyrinth.saves.outputs import write_output; "
            "write_output(sys.argv[1], lambda out: out.write(b'x'))")


def test_a_path_that_is_the_commands_own_standard_output_is_written_through_it(tmp_path):
    piped = subprocess.run([sys.executable, "-c", WRITE_TO, "/dev/fd/1"], capture_output=True, check=True)
    assert piped.stdout == b"x" and piped.stderr == b""  # the pipe itself, by identity
    redirected = tmp_path / "out.txt"
    with redirected.open("wb") as out:
        subprocess.run([sys.executable, "-c", WRITE_TO, str(redirected)], stdout=out, check=True)
    assert redirected.read_bytes() == b"x" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_a_directory_is_refused(tmp_path):
    folder = tmp_path / "reports"
    folder.mkdir()
    before = fingerprint(folder)
    refused(folder, "a directory, not a file")
    assert fingerprint(folder) == before and list(folder.iterdir()) == []


def test_a_fifo_is_refused_before_it_is_opened(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    before = fingerprint(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # so that a wrong open would not hang the test
    try:
        refused(fifo, "a FIFO")
        assert os.read(reader, 100) == b""  # nothing was written into it
    finally:
        os.close(reader)
    assert fingerprint(fifo) == before


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(path))
        before = fingerprint(path)
        refused(path, "a socket")
        assert fingerprint(path) == before


def test_dev_null_is_refused_and_stays_a_device():
    before = os.stat("/dev/null")
    with pytest.raises(StorageError, match="^/dev/null: a character device"):
        output_for("/dev/null")  # the check alone: a device is never handed to a writer here, even when broken
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


@pytest.mark.skipif(not AS_ROOT, reason="making a device node needs root")
def test_a_device_node_is_refused_and_left_a_device(tmp_path):
    node = tmp_path / "null"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers, in the test's own folder
    before = fingerprint(node)
    refused(node, "a character device")
    assert fingerprint(node) == before


def test_a_link_to_a_regular_file_replaces_the_file_and_stays_a_link(tmp_path):
    target, link = tmp_path / "real.csv", tmp_path / "link.csv"
    target.write_text("old")
    link.symlink_to("real.csv")
    with umask(0o022):
        assert write_output(link, fill("new")).target == target
    assert link.is_symlink() and os.readlink(link) == "real.csv" and target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_a_chain_of_links_in_other_folders_leads_to_the_file(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "real.csv").write_text("old")
    (tmp_path / "b" / "hop").symlink_to("real.csv")
    (tmp_path / "a" / "link").symlink_to("../b/hop")
    write_output(tmp_path / "a" / "link", fill("new"))
    assert (tmp_path / "b" / "real.csv").read_text() == "new" and (tmp_path / "a" / "link").is_symlink()
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["hop", "real.csv"]


@pytest.mark.parametrize("kind", ["directory", "fifo", "dangling", "loop"])
def test_a_link_to_anything_but_a_regular_file_is_refused(tmp_path, kind):
    link = tmp_path / "link"
    there = tmp_path / "there"
    if kind == "directory":
        there.mkdir()
    elif kind == "fifo":
        os.mkfifo(there)
    link.symlink_to(link if kind == "loop" else there)
    before = fingerprint(link), (fingerprint(there) if there.exists() else None)
    said = refused(link, {"directory": "a link to a directory", "fifo": "a link to a FIFO",
                          "dangling": "which does not exist", "loop": "loop"}[kind])
    assert (fingerprint(link), fingerprint(there) if there.exists() else None) == before
    assert kind != "dangling" or not os.path.lexists(there), said  # its target not created


@pytest.mark.skipif(not AS_ROOT, reason="giving a file to another user needs root")
@pytest.mark.parametrize("whose", ["target", "link", "hop"])
def test_a_link_is_not_followed_to_or_through_another_users(tmp_path, whose):
    target, hop, link = tmp_path / "theirs.txt", tmp_path / "hop", tmp_path / "report.csv"
    target.write_text("keep")
    hop.symlink_to(target)
    link.symlink_to(hop)
    os.lchown({"target": target, "link": link, "hop": hop}[whose], OTHER_USER, OTHER_USER)
    before = fingerprint(target), fingerprint(hop), fingerprint(link)
    refused(link, "another user")
    assert (fingerprint(target), fingerprint(hop), fingerprint(link)) == before


def test_a_folder_that_does_not_exist_is_not_made(tmp_path):
    refused(tmp_path / "no" / "such" / "board.html", "does not exist")
    refused(f"{tmp_path}/new-folder/", "names a folder")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    refused(blocker / "board.html", "a file stands where a folder should be")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"] and blocker.read_text() == ""


AS_ANOTHER_USER = f"""
import os, sys
from labyrinth.saves.outputs import write_output
from labyrinth.saves.paths import StorageError
os.chdir(sys.argv[1])  # before giving up root: the test's folders above this one are root's alone
if os.geteuid() == 0:
    os.setgid({OTHER_USER})
    os.setuid({OTHER_USER})
for name in sys.argv[2:]:
    try:
        write_output(name, lambda out: out.write(b"report"))
        print("written")
    except StorageError as said:
        print(said)
"""


def test_what_the_user_may_not_write_is_refused_with_the_reason(tmp_path):
    kept, locked = tmp_path / "kept.csv", tmp_path / "locked"
    kept.write_text("keep")
    locked.mkdir()
    for path, mode in ((kept, 0o444), (locked, 0o500), (tmp_path, 0o777)):
        if AS_ROOT:
            os.chown(path, OTHER_USER, OTHER_USER)  # root may write anything: the check runs as their owner
        path.chmod(mode)
    before = fingerprint(kept)
    said = subprocess.run([sys.executable, "-c", AS_ANOTHER_USER, str(tmp_path), "kept.csv", "locked/board.html"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    assert said == ["kept.csv: read-only for you; make it writable (chmod u+w) or name another file",
                    "locked: cannot write there (Permission denied)"]
    assert fingerprint(kept) == before and list(locked.iterdir()) == []


def test_an_empty_path_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    """An empty path names no file: it was taken as the current folder, passed every check, and failed only as
    the rename went over the folder (after the reports before it were written)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StorageError, match=r'^an empty path \(""\) names no file; name a regular file, or - for '):
        output_for("")
    with pytest.raises(StorageError, match="names no file"):
        write_output("", fill("report\n"))
    assert list(tmp_path.iterdir()) == []
