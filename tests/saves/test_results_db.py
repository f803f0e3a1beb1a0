"""The results database on its own: validity judged by the one rule, claims that two workers
share, rows kept whole, and a database read where it cannot be written."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from labyrinth.saves.results_db import (
    HELD,
    KEPT,
    LEASE_S,
    TAKEN,
    Claim,
    MatchKey,
    MatchRow,
    ResultsDB,
    ResultsUnusable,
    SideRecord,
    new_token,
)
from labyrinth.saves.results_terms import FALLBACK_SHARE_ALLOWED
from tests.stubs import FakeClock

MODEL = json.dumps({"provider": "openai", "model": "m"})


def row(seed: int = 1, **sides: SideRecord) -> MatchRow:
    return MatchRow("openai/m", "wait", seed, "tiny", "normal", 20, "TIMEOUT", 20, 10.0, user_setup="abc",
                    **sides).judged()


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
        assert db.claim(void.key, new_token()) == Claim(KEPT)  # not played again...
        assert db.played([void.key], replay_void=True) == set()  # ... unless asked (--replay-void)
        assert db.claim(void.key, new_token(), replay_void=True) == Claim(TAKEN)
        good = replace(row(user_side=SideRecord(MODEL, decisions=20)), outcome="DEATH")
        db.record(good)
        assert db.played([good.key]) == {good.key} and [r.outcome for r in db.matches()] == ["DEATH"]
        db.record(replace(good, outcome="ESCAPED"))  # a valid result is kept, unless --fresh
        assert [r.outcome for r in db.matches()] == ["DEATH"]


KEY = MatchKey("openai/m", "wait", 1, "tiny", "normal", 20, user_setup="abc")


def workers(path, *clocks: FakeClock) -> list[ResultsDB]:
    """One ResultsDB per worker on ``path``, each seeing time by its own clock."""
    return [ResultsDB(path, clock=clock.monotonic) for clock in clocks]


def test_a_claim_is_taken_over_only_once_its_heartbeat_was_seen_still_for_the_lease(tmp_path):
    """The observer counts on its own clock from when it first saw the claim's heartbeat: the owner's
    clock (300 s ahead here) is never read, and a renewal starts the count again."""
    mine, theirs = FakeClock(1300.0), FakeClock()
    owner, other = workers(tmp_path / "r.db", mine, theirs)
    first, second = new_token(), new_token()
    assert owner.claim(KEY, first, replay="/replays/first.jsonl") == Claim(TAKEN)
    assert other.claim(KEY, second) == Claim(HELD) and other.held([KEY]) == {KEY}  # first seen now
    theirs.sleep(LEASE_S - 1)
    owner.renew([first])  # a heartbeat: seen next, the count starts again
    assert other.claim(KEY, second) == Claim(HELD)
    theirs.sleep(LEASE_S - 1)
    assert other.claim(KEY, second) == Claim(HELD)
    theirs.sleep(1)
    assert other.held([KEY]) == set()  # seen still for the lease
    assert other.claim(KEY, second) == Claim(TAKEN)  # taken over, and its replay is not given to remove
    assert owner.claim(KEY, first) == Claim(HELD)  # the first worker sees a new claim: it waits in turn


def test_no_claim_is_taken_while_its_heartbeat_moves(tmp_path):
    """However long a match lasts, a worker renewing within the lease keeps it: each observer's sightings
    are at most the lease apart, so none sees the same heartbeat for the lease."""
    theirs = FakeClock()
    owner, other = workers(tmp_path / "r.db", FakeClock(), theirs)
    token = new_token()
    owner.claim(KEY, token)
    for _ in range(50):  # 50 renewals, each just within the lease: 100 minutes of play
        theirs.sleep(LEASE_S - 0.001)
        assert other.claim(KEY, new_token()) == Claim(HELD) and other.held([KEY]) == {KEY}
        owner.renew([token])
    assert owner.record(row(), token=token)


@pytest.mark.parametrize("slow_first", [True, False])
def test_a_slow_owner_finishing_after_a_takeover_keeps_nothing_and_the_holders_result_stands(tmp_path, slow_first):
    """A worker stalled past the lease (suspended, stopped) finishes after its match was taken over: its
    token is no longer the claim's, so it keeps nothing whether it ends before or after the new owner, and
    the row names the new owner's replay."""
    theirs = FakeClock()
    slow, taker = workers(tmp_path / "r.db", FakeClock(), theirs)
    stalled, fresh = new_token(), new_token()
    slow.claim(KEY, stalled, replay=f"/replays/{stalled}.jsonl")
    taker.claim(KEY, fresh)
    theirs.sleep(LEASE_S)
    assert taker.claim(KEY, fresh, replay=f"/replays/{fresh}.jsonl") == Claim(TAKEN)
    late, kept = replace(row(), replay=f"/replays/{stalled}.jsonl"), replace(row(), replay=f"/replays/{fresh}.jsonl")
    finishes = [(slow, late, stalled), (taker, kept, fresh)]
    assert [db.record(r, token=token) for db, r, token in (finishes if slow_first else finishes[::-1])] == \
        ([False, True] if slow_first else [True, False])
    assert [r.replay for r in taker.matches()] == [f"/replays/{fresh}.jsonl"]
    slow.renew([stalled])  # a lost claim's heartbeat moves nothing
    assert slow.claim(KEY, new_token()) == Claim(KEPT)


def test_an_abandoned_claim_is_free_at_once_and_its_replay_is_the_next_claimers_to_remove(tmp_path):
    stopped, other = workers(tmp_path / "r.db", FakeClock(), FakeClock())
    token = new_token()
    stopped.claim(KEY, token, replay="/replays/partial.jsonl")
    stopped.release([token])  # Ctrl-C: a match's thread may yet create the file it named
    assert other.held([KEY]) == set()
    assert other.claim(KEY, new_token()) == Claim(TAKEN, "/replays/partial.jsonl")
    assert not stopped.record(row(), token=token)  # the abandoned attempt keeps nothing
    assert other.claim(KEY, new_token()) == Claim(HELD)


def test_a_result_ends_the_claim_and_fresh_plays_it_again(tmp_path):
    with ResultsDB(tmp_path / "r.db") as db:
        token = new_token()
        assert db.claim(KEY, token) == Claim(TAKEN)
        assert db.record(row(), token=token)
        assert db._db.execute("SELECT count(*) FROM claims").fetchone() == (0,)
        assert db.claim(KEY, new_token()) == Claim(KEPT)  # it has a valid result now
        assert db.claim(KEY, new_token(), fresh=True) == Claim(TAKEN)  # unless played afresh


def test_a_rows_mark_changes_with_every_result_written_to_it(tmp_path):
    with ResultsDB(tmp_path / "r.db") as db:
        assert db.marks([KEY]) == {}
        db.record(replace(row(), replay="/replays/a.jsonl"))
        before = db.marks([KEY])
        db.record(replace(row(), replay="/replays/b.jsonl"))  # a valid result stays...
        assert db.marks([KEY]) == before
        db.record(replace(row(), replay="/replays/b.jsonl"), replace=True)  # ... unless replaced (--fresh)
        assert db.marks([KEY]) != before


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


FIXTURES = __import__("pathlib").Path(__file__).parent.parent / "fixtures"


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


OLD_CLAIMS = "CREATE TABLE claims (match TEXT PRIMARY KEY, owner TEXT NOT NULL, until REAL NOT NULL, replay TEXT)"


@pytest.mark.parametrize("schema", [3, 4])
def test_a_claims_table_of_the_older_shape_is_made_anew_and_the_matches_kept(tmp_path, schema):
    """Claims were an owner's host and process and a time they lapsed: such a table (the schema-3 fixture's,
    or one of this schema written before the change) is made anew on opening; claims only hold matches
    being played, and a worker of the older build plays other keys (the build is part of them)."""
    import sqlite3

    path = tmp_path / "results.db"
    if schema == 3:
        shutil.copyfile(FIXTURES / "results-schema3.db", path)
    else:
        with ResultsDB(path) as db:
            db.record(row())
            db._db.execute("DROP TABLE claims")
            db._db.execute(OLD_CLAIMS)
    with sqlite3.connect(path) as old:
        old.execute("INSERT INTO claims VALUES (?, 'host:7:abcd', 1e12, '/replays/x.jsonl')", (KEY.id,))
    old.close()
    with ResultsDB(path) as db:
        columns = {c for (c,) in db._db.execute("SELECT name FROM pragma_table_info('claims')")}
        assert columns == {"match", "token", "beat", "replay", "abandoned"}
        assert len(db.matches()) == {3: 3, 4: 1}[schema]
        assert db.claim(replace(KEY, seed=9), new_token()) == Claim(TAKEN)


def _open_at(path: str, start: Any, failures: Any) -> None:
    """A tournament's opening of the results database, in a process of its own, at ``start``'s signal."""
    start.wait()
    try:
        ResultsDB(Path(path)).close()
    except ResultsUnusable as error:
        failures.put(str(error))


def test_tournaments_opening_a_new_results_database_at_once_all_open_it(tmp_path):
    """Turning a new file to WAL needs it to itself and SQLite does not wait for that as for a lock: six processes
    opening one new database at once failed with "database is locked" in about one try in seven, before the opening
    tried again (results_db._to_wal). Thirty tries, each a new file."""
    context = multiprocessing.get_context("fork")
    failures = context.Queue()
    for attempt in range(30):
        path, start = tmp_path / f"results-{attempt}.db", context.Event()
        openers = [context.Process(target=_open_at, args=(str(path), start, failures)) for _ in range(6)]
        for opener in openers:
            opener.start()
        start.set()
        for opener in openers:
            opener.join(timeout=60)
        assert all(opener.exitcode == 0 for opener in openers)
    assert failures.empty(), failures.get()
