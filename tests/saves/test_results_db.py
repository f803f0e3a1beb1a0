"""The results database on its own: validity judged by the one rule, claims that two workers
share, rows kept whole, and a database read where it cannot be written."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

from labyrinth.saves.results_db import (
    MatchKey,
    MatchRow,
    ResultsDB,
    ResultsUnusable,
    SideRecord,
    new_owner,
)
from labyrinth.saves.results_terms import FALLBACK_SHARE_ALLOWED

MODEL = json.dumps({"provider": "openai", "model": "m"})


def row(seed: int = 1, **sides: SideRecord) -> MatchRow:
    return MatchRow("openai/m", "wait", seed, "tiny", "normal", 20, "TIMEOUT", 20, 10.0, user_setup="abc",
                    **sides).judged()


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(("fallbacks", "valid"), [(0, True), (2, True), (3, False), (20, False)])
def test_a_model_that_did_not_play_its_turns_leaves_the_match_void(fallbacks, valid):
    judged = row(user_side=SideRecord(MODEL, decisions=20, fallbacks=fallbacks))
    assert judged.valid == valid == (fallbacks <= FALLBACK_SHARE_ALLOWED * 20)
    if not valid:
        assert judged.void == f"void: {fallbacks} of the user's 20 turns were played by the fallback (more than 10%)"
    replaced = row(user_side=SideRecord(MODEL, decisions=20, provider_errors=5, replaced=True))
    assert replaced.void == ("void: the user's model was replaced by the built-in agent after failing in a row "
                             "(5 provider errors, 0 timeouts, 0 answers without an action)")
    assert row(user_side=SideRecord("{}", decisions=20, fallbacks=20)).valid  # a rule agent's fallbacks are its play
    crashed = row(user_side=SideRecord("{}", decisions=20, fallbacks=20, exceptions=1))  # ... but not its crashes
    assert crashed.void == "void: the user's agent failed on 1 of its 20 turns, which the fallback played"


def test_a_void_match_stays_void_until_asked_for_and_a_valid_one_stays(tmp_path):
    with ResultsDB(tmp_path / "r.db") as db:
        void = row(user_side=SideRecord(MODEL, decisions=20, replaced=True))
        db.record(void)
        assert db.played([void.key]) == {void.key} and db.matches(void=True)[0].void == void.void
        assert db.claim(void.key, "me") == (False, None)  # not played again...
        assert db.played([void.key], replay_void=True) == set()  # ... unless asked (--replay-void)
        assert db.claim(void.key, "me", replay_void=True) == (True, None)
        good = replace(row(user_side=SideRecord(MODEL, decisions=20)), outcome="DEATH")
        db.record(good)
        assert db.played([good.key]) == {good.key} and [r.outcome for r in db.matches()] == ["DEATH"]
        db.record(replace(good, outcome="ESCAPED"))  # a valid result is kept, unless --fresh
        assert [r.outcome for r in db.matches()] == ["DEATH"]


def test_a_claim_keeps_a_match_for_one_worker_until_it_ends_lapses_or_its_worker_dies(tmp_path):
    clock = Clock()
    key = MatchKey("openai/m", "wait", 1, "tiny", "normal", 20, user_setup="abc")
    first, second = new_owner(), "elsewhere-host:1:abcd"  # a worker on another machine: taken at its lease
    with ResultsDB(tmp_path / "r.db", clock=clock) as one, ResultsDB(tmp_path / "r.db", clock=clock) as two:
        assert one.claim(key, second, replay="/replays/partial.jsonl") == (True, None)
        assert two.claim(key, first) == (False, None) and two.claimed_elsewhere([key], first) == {key}
        clock.now += 100
        one.renew([key], second)
        clock.now += 100  # renewed: still held
        assert two.claim(key, first) == (False, None)
        clock.now += 200  # the lease lapsed: the next claimer takes it, and is told of the partial replay
        assert two.claim(key, first) == (True, "/replays/partial.jsonl")
        two.record(replace(row(), user_setup="abc"), owner=first)
        assert two.claimed_elsewhere([key], second) == set()
        assert one.claim(key, second) == (False, None)  # it has a valid result now
        assert one.claim(key, second, fresh=True)[0]  # unless played afresh


def test_a_dead_worker_of_this_machine_holds_nothing(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "from labyrinth.saves.results_db import new_owner; print(new_owner())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    key = MatchKey("random", "wait", 1, "tiny", "normal", 20)
    with ResultsDB(tmp_path / "r.db") as db:
        assert db.claim(key, gone)[0]
        assert db.claim(key, new_owner())[0]  # its process is gone: no need to wait out the lease


def test_a_database_on_a_read_only_mount_can_still_be_read(tmp_path):
    unshared = shutil.which("unshare") and not subprocess.run(["unshare", "-m", "true"], capture_output=True,
                                                              check=False).returncode
    if not unshared:
        pytest.skip("needs `unshare -m` (util-linux, as root) to mount a read-only file system")
    folder = tmp_path / "mounted"
    folder.mkdir()
    with ResultsDB(folder / "results.db") as db:
        db.record(row())
    read = (f"from pathlib import Path; from labyrinth.saves.results_db import ResultsDB; "
            f"db = ResultsDB(Path({str(folder / 'results.db')!r}), read_only=True); print(len(db.matches()))")
    script = (f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} && "
              f"touch {folder}/x 2>/dev/null && echo writable; {sys.executable} -c \"{read}\"")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.split() == ["1"], done.stderr  # not writable, and read


def test_a_newer_schema_and_a_file_that_is_no_database_are_refused_and_kept(tmp_path):
    path = tmp_path / "r.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"garbage" * 100)
    before = path.read_bytes()
    with pytest.raises(ResultsUnusable, match="kept as it is"):
        ResultsDB(path)
    with pytest.raises(ResultsUnusable, match="kept as it is"):
        ResultsDB(path, read_only=True)
    assert path.read_bytes() == before


FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("read_only", [False, True])
def test_a_database_of_schema_3_loads_whole_and_its_judgements_stand(tmp_path, read_only):
    """results-schema3.db was written by the release before the game's digest was kept (three matches:
    rule agents, a model's valid match and a void one): every row comes back as it was, its digest
    unknown, and read only, the file is not touched."""
    path = tmp_path / "results.db"
    shutil.copyfile(FIXTURES / "results-schema3.db", path)
    before = path.read_bytes()
    with ResultsDB(path, read_only=read_only) as db:
        rows = db.matches()
    assert [(r.user, r.seed, r.outcome, r.digest, r.valid) for r in rows] == [
        ("builtin", 1, "ESCAPED", "", True), ("openai/gpt-4o-mini", 1, "DEATH", "", True),
        ("openai/gpt-4o-mini", 2, "TIMEOUT", "", False)]
    assert rows[1].user_side.tokens_in == 81000 and rows[1].user_setup == "3f2a9c0d1e2b"
    assert rows[2].void == "void: 100 of the user's 400 turns were played by the fallback (more than 10%)"
    if read_only:
        assert path.read_bytes() == before


def test_a_sides_late_turns_kept_as_its_timeouts_before_the_rename_are_carried_over_as_late_turns(tmp_path):
    """Before the counts of a model's calls were kept, a side's "timeouts" were its turns that missed the
    deadline: a table without late_turns has them under that name, and its calls' timeouts are unknown (0)."""
    import sqlite3

    path = tmp_path / "results.db"
    shutil.copyfile(FIXTURES / "results-schema3.db", path)
    with sqlite3.connect(path) as old:
        old.execute("UPDATE matches SET user_timeouts = 7 WHERE seed = 2")
    old.close()
    with ResultsDB(path) as db:
        rows = db.matches()
        side = rows[2].user_side
        assert (side.late_turns, side.timeouts, side.sent, side.sent_setup) == (7, 0, "{}", "")
        db.record(replace(rows[2], user_side=replace(side, timeouts=2, late_turns=3)), replace=True)
    with ResultsDB(path) as db:  # once at this schema, each is kept under its own name
        side = db.matches()[2].user_side
        assert (side.late_turns, side.timeouts) == (3, 2)
