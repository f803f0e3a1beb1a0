"""`labyrinth tournament`: rule agents and two models served by a local stub (the real
OpenAI SDK), results kept in SQLite as matches end, nothing played twice, a killed
tournament resumed, two at once on one database, and every refusal made before the
first match."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from dataclasses import replace
from pathlib import Path

import pytest

from labyrinth.agents.builtin.naive import Waiter
from labyrinth.agents.compete.ratings import rate
from labyrinth.agents.compete.tournament import Entrant, Progress, Tournament, run_tournament
from labyrinth.agents.llm.providers.pacing import Waiting
from labyrinth.agents.registry import UnknownContestant, make_agent, parse_contestant
from labyrinth.saves import results_db
from labyrinth.saves.experience import log_path
from labyrinth.saves.results_db import HELD, LEASE_S, TAKEN, MatchKey, ResultsDB, ResultsUnusable, results_path
from labyrinth.tui.cli import main
from labyrinth.tui.leaderboard_rows import rating_rows
from tests.stubs import FakeClock, Model, ModelStandIn, Stub

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
GROUND = ["--preset", "tiny", "--max-turns", "20"]
TINY = [*GROUND, "--no-memory"]


def tournament(capsys, *args: str, ground: list[str] = TINY) -> tuple[int, str, str]:
    code = main(["tournament", *args, *ground])
    out, err = capsys.readouterr()
    return code, out, err


class SteadyModel(Model):
    """The stub model, choosing its way from the prompt alone rather than from how many requests
    came before (the Stub's lock keeps calls one at a time): the same match gets the same answers
    however many matches are played at once."""

    def _action(self, system: str, prompt: str) -> str:
        counted, self.chats = self.chats, zlib.crc32(prompt.encode())
        try:
            return super()._action(system, prompt)
        finally:
            self.chats = counted


@pytest.fixture
def openai(monkeypatch):
    server = Stub(SteadyModel("openai"))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")  # a server of one's own: no key needed
    yield server
    server.close()


def test_names_are_read_the_litellm_way():
    assert parse_contestant("user", "ollama/qwen3:8b").model == "qwen3:8b"
    assert parse_contestant("minotaur", "gemini").model is None  # its configured or default model
    assert parse_contestant("minotaur", "wait").provider is None
    for bad in ("wait", "nobody/model"):
        with pytest.raises(UnknownContestant, match="choose one of builtin, random, gemini, gemini/<model>"):
            parse_contestant("user", bad)
    for bad, problem in (("openai/", "is empty"), ("gemini/two words", "holds a space")):
        with pytest.raises(UnknownContestant, match=f"the {bad.split('/')[0]} model in .*{problem}"):
            parse_contestant("user", bad)


def test_a_model_named_after_its_provider_is_the_one_asked(openai):
    agent = make_agent("user", "openai/alpha", 1)
    assert agent.name == "openai/alpha"
    assert parse_contestant("user", "openai").resolved() == "openai/gpt-4o-mini"


def test_rule_agents_and_two_models_play_every_pairing_once(capsys, openai):
    users, minotaurs = "builtin,random,openai/alpha", "builtin,wait,openai/beta"
    code, out, err = tournament(capsys, "--users", users, "--minotaurs", minotaurs, "--games", "2",
                                "--concurrency", "6", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["played"] == 18 and data["skipped"] == 0 and len(data["matches"]) == 18
    rows = ResultsDB().matches()
    assert len(rows) == 18 and {r.seed for r in rows} == {1, 2}
    assert {(r.user, r.minotaur) for r in rows} == {(u, m) for u in users.split(",") for m in minotaurs.split(",")}
    for row in rows:
        assert Path(row.replay).is_file()
        assert (row.user_side.tokens_in > 0) == row.user.startswith("openai/")
        assert (row.minotaur_side.tokens_in > 0) == row.minotaur.startswith("openai/")
    assert {r["body"]["model"] for r in openai.requests if r["body"]} == {"alpha", "beta"}
    names = {role: [r["name"] for r in ratings] for role, ratings in data["standings"]["ratings"].items()}
    assert sorted(names["user"]) == sorted(users.split(","))
    assert sorted(names["minotaur"]) == sorted(minotaurs.split(","))
    assert len(data["standings"]["head_to_head"]) == 9
    asked = len(openai.requests)
    code, out, err = tournament(capsys, "--users", users, "--minotaurs", minotaurs, "--games", "2", "--json")
    assert code == 0 and json.loads(out)["played"] == 0 and len(openai.requests) == asked  # nothing played twice
    code, out, err = tournament(capsys, "--users", users, "--minotaurs", minotaurs, "--games", "2", "--concurrency",
                                "1", "--fresh", "--json")
    again = ResultsDB().matches()
    assert json.loads(out)["played"] == 18 and len(again) == 18
    same = [(r.key, r.outcome, r.turns) for r in again]
    assert same == [(r.key, r.outcome, r.turns) for r in rows]  # concurrency changes the wall time, not the results
    assert json.loads(out)["standings"] == data["standings"]  # nor the ratings: they follow the schedule


def test_nobody_learns_unless_asked_and_learning_matches_are_kept_apart(capsys):
    pairing = ("--users", "builtin", "--minotaurs", "builtin", "--games", "2", "--concurrency", "1", "--json")
    code, out, err = tournament(capsys, *pairing, ground=GROUND)
    data = json.loads(out)
    assert code == 0 and data["learned"] == "none" and data["played"] == 2 and "learning" not in err
    assert not log_path().exists()  # nothing learned, nothing added to the log
    code, out, err = tournament(capsys, *pairing, "--learn", "both", ground=GROUND)
    learning = json.loads(out)
    assert code == 0 and learning["learned"] == "user+minotaur" and learning["played"] == 2  # none reused
    assert "the results depend on the log as it was" in err and log_path().exists()
    assert {m["learned"] for m in learning["matches"]} == {"user+minotaur"}
    assert sum(r.matches for r in rate(ResultsDB().matches()).ratings["user"]) == 4
    assert learning["standings"]["ratings"]["user"][0]["matches"] == 2  # only this run's kind of match rated
    code, out, err = tournament(capsys, *pairing, "--no-memory", ground=GROUND)
    assert json.loads(out)["played"] == 0 and json.loads(out)["skipped"] == 2  # --no-memory: --learn none


def test_the_standings_are_the_leaderboards_rows(capsys):
    code, out, _ = tournament(capsys, "--users", "builtin,random", "--minotaurs", "wait", "--games", "2",
                              "--concurrency", "1")
    assert code == 0 and "win rate (95%)" in out and ".." not in out
    ratings = rate(ResultsDB().matches()).ratings["user"]
    for row in rating_rows(ratings):
        assert " ".join(row) in " ".join(out.split())  # each cell as `labyrinth leaderboard` writes it


def test_ratings_and_their_history_follow_play_order(capsys):
    one = ("--users", "random", "--minotaurs", "builtin", "--concurrency", "1")
    tournament(capsys, *one, "--seed", "3", "--games", "1")
    tournament(capsys, *one, "--seed", "1", "--games", "3")  # seed 3 is in the database already
    rows = ResultsDB().matches()
    assert [r.seed for r in rows] == [3, 1, 2]  # the order they were played in, not key order
    (rating,) = rate(reversed(rows)).ratings["minotaur"]
    assert len(rating.history) == 3 and rating.history[-1] == rating.rating


def test_a_database_of_schema_1_is_kept_and_its_matches_are_not_taken_for_new_ones(capsys):
    path = results_path()
    path.parent.mkdir(parents=True)
    old = sqlite3.connect(path, isolation_level=None)
    old.executescript("""
        CREATE TABLE matches (user TEXT NOT NULL, minotaur TEXT NOT NULL, seed INTEGER NOT NULL,
            preset TEXT NOT NULL, difficulty TEXT NOT NULL, max_turns INTEGER NOT NULL, outcome TEXT NOT NULL,
            turns INTEGER NOT NULL, game_time REAL NOT NULL, user_tokens_in INTEGER NOT NULL,
            user_tokens_out INTEGER NOT NULL, minotaur_tokens_in INTEGER NOT NULL,
            minotaur_tokens_out INTEGER NOT NULL, user_fallbacks INTEGER NOT NULL,
            minotaur_fallbacks INTEGER NOT NULL, user_replaced INTEGER NOT NULL, minotaur_replaced INTEGER NOT NULL,
            wall_s REAL NOT NULL, replay TEXT, played_at TEXT NOT NULL,
            CHECK (outcome IN ('ESCAPED', 'DEATH', 'TIMEOUT')),
            UNIQUE (user, minotaur, seed, preset, difficulty, max_turns));
        INSERT INTO matches VALUES ('builtin', 'wait', 1, 'tiny', 'normal', 20, 'ESCAPED', 9, 18.0,
            0, 0, 0, 0, 0, 0, 0, 0, 0.1, NULL, '2026-01-02T03:04:05Z');
        PRAGMA user_version = 1;""")
    old.close()
    (kept,) = ResultsDB().matches()
    assert (kept.learned, kept.run_began, kept.turns) == (results_db.UNRECORDED, "2026-01-02T03:04:05.000000Z", 9)
    code, out, _ = tournament(capsys, "--users", "builtin", "--minotaurs", "wait", "--games", "1", "--json")
    assert code == 0 and json.loads(out)["played"] == 1  # who learned in the old one is not known
    assert [r.learned for r in ResultsDB().matches()] == [results_db.UNRECORDED, "none"]


def test_a_new_contestant_plays_only_its_pairings(capsys):
    one_at_a_time = ("--games", "3", "--concurrency", "1")
    assert tournament(capsys, "--users", "builtin", "--minotaurs", "wait", *one_at_a_time)[0] == 0
    code, out, _ = tournament(capsys, "--users", "builtin,random", "--minotaurs", "wait", *one_at_a_time, "--json")
    data = json.loads(out)
    assert code == 0 and data["played"] == 3 and data["skipped"] == 3
    assert [m["user"] for m in data["matches"]].count("random") == 3
    assert "user ratings" in tournament(capsys, "--users", "builtin", "--minotaurs", "wait", *one_at_a_time)[1]


def test_ratings_do_not_depend_on_the_order_matches_were_played(capsys):
    tournament(capsys, "--users", "builtin,random", "--minotaurs", "builtin,wait", "--games", "3", "--concurrency", "1")
    rows = ResultsDB().matches()
    assert rate(reversed(rows)) == rate(rows)
    ratings = rate(rows).ratings
    assert ratings["minotaur"][0].name == "builtin" and ratings["minotaur"][0].wins > 0  # random walks into it
    anchors = [r for role in ratings.values() for r in role if r.anchor]
    assert [(r.name, r.rating) for r in anchors] == [("builtin", 1500), ("builtin", 1500)]  # each role on its own


def test_refusals_come_before_any_match(capsys, openai):
    code, _, err = tournament(capsys, "--users", "builtin,bogus", "--minotaurs", "wait")
    assert code == 2 and "no user agent called 'bogus': choose one of builtin, random, gemini" in err
    code, _, err = tournament(capsys, "--users", "builtin,openai/alpha", "--minotaurs", "wait,gemini/gemini-2.5-pro")
    assert code == 2 and "gemini is not configured: set GEMINI_API_KEY" in err
    assert not openai.requests and not results_path().exists()  # nothing played, no database made


def test_a_corrupt_database_is_reported_and_kept(capsys):
    path = results_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database " * 300)
    code, _, err = tournament(capsys, "--users", "builtin", "--minotaurs", "wait")
    assert code == 2 and f"the results database {path} cannot be used: file is not a database" in err
    assert "kept as it is" in err and path.read_bytes() == b"not a database " * 300


def test_a_locked_database_is_reported(monkeypatch, tmp_path):
    monkeypatch.setattr(results_db, "BUSY_S", 0.05)
    path = tmp_path / "results.db"
    ResultsDB(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ResultsUnusable, match="stayed locked by another program"):
            ResultsDB(path)
    finally:
        holder.execute("ROLLBACK")
    ResultsDB(path).close()  # the lock gone, the same file opens


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([LABYRINTH, "tournament", *args, *TINY, "--concurrency", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy())


def test_a_killed_tournament_resumes_without_losing_or_repeating_a_match(capsys, monkeypatch):
    """Killed as it plays, the worker leaves its claim and its partial replay: the next run plays the rest,
    takes the claim over once it has seen its heartbeat still for the lease (made short here) and plays
    that match too, leaving the dead attempt's file as it is (no run deletes another attempt's file)."""
    args = ["--users", "builtin,random", "--minotaurs", "builtin,wait", "--games", "6"]
    run = _start(*args)
    assert run.stderr.readline().startswith("labyrinth tournament: run ")  # its id and design, first
    for _ in range(3):  # three matches ended (and were written), the fourth is being played
        assert " vs " in run.stderr.readline()
    while not _claimed():  # the next match claimed: killed as it plays
        time.sleep(0.001)
    run.send_signal(signal.SIGKILL)
    run.wait()
    kept = ResultsDB().matches()
    assert 3 <= len(kept) < 24
    left = {Path(replay) for replay in _claimed() if replay and Path(replay).is_file()}
    monkeypatch.setattr(results_db, "LEASE_S", 0.5)
    code, out, _ = tournament(capsys, *args, "--json")
    data = json.loads(out)
    assert code == 0 and data["skipped"] == len(kept) and data["played"] == 24 - len(kept)
    rows = ResultsDB().matches()
    assert len(rows) == len({r.key for r in rows}) == 24
    assert [r for r in rows if r.key in {k.key for k in kept}] == kept  # what was kept stays as it was
    replays = {Path(r.replay) for r in rows if r.replay}
    assert set((results_path().parent / "replays" / "tournament").glob("*.jsonl")) == replays | left


def _claimed() -> list[str | None]:
    """The replay files named by the claims in the results database (none before it is made)."""
    if not results_path().exists():
        return []
    with sqlite3.connect(results_path()) as db:
        return [replay for (replay,) in db.execute("SELECT replay FROM claims")]


def test_a_match_taken_over_while_it_played_keeps_the_new_owners_result_and_removes_only_its_own_replay(tmp_path,
                                                                                                        monkeypatch):
    """This worker stalled past the lease: another took its match over and finished first. Its own result
    is not kept and its own replay goes; the other's row and file stay, and the match counts as played
    elsewhere."""
    match = Tournament((Entrant("builtin"),), (Entrant("wait"),), (1,), "tiny", "normal", 5, build="b")
    db, clock = ResultsDB(tmp_path / "results.db"), FakeClock()
    theirs = tmp_path / "replays" / "theirs.jsonl"

    def taken_over_first(row, **given):
        with ResultsDB(db.path, clock=clock.monotonic) as taker:
            assert taker.claim(row.key, "taker", str(theirs)).found == HELD  # seen now...
            clock.sleep(LEASE_S)
            assert taker.claim(row.key, "taker", str(theirs)).found == TAKEN  # ... and still, for the lease
            theirs.write_text("their replay")
            assert taker.record(replace(row, replay=str(theirs)), token="taker")
        return ResultsDB.record(db, row, **given)

    monkeypatch.setattr(db, "record", taken_over_first)
    run = run_tournament(match, db, replays=tmp_path / "replays")
    assert (run.done, run.progress.ended, run.elsewhere, run.complete) == ([], 0, 1, True)  # counted once, there
    assert [r.replay for r in db.matches()] == [str(theirs)] and list(theirs.parent.iterdir()) == [theirs]


def test_two_tournaments_at_once_lose_nothing(capsys):
    first = _start("--users", "builtin,random", "--minotaurs", "wait", "--games", "8")
    second = _start("--users", "random", "--minotaurs", "wait,builtin", "--games", "8")
    for run in (first, second):
        assert run.wait(timeout=120) == 0, run.stderr.read()
    rows = ResultsDB().matches()
    expected = {("builtin", "wait"), ("random", "wait"), ("random", "builtin")}
    assert {(r.user, r.minotaur) for r in rows} == expected
    assert len(rows) == len({r.key for r in rows}) == 24  # random vs wait, played by both, kept once


def test_the_live_view_sums_up_the_providers_waits():
    class Still:
        def monotonic(self) -> float:
            return 100.0

    def waiting(cause: str, until: float) -> ModelStandIn:
        return ModelStandIn(waiting=Waiting(cause, until, Still()))

    progress = Progress()
    key = MatchKey("openai/a", "wait", 1, "tiny", "normal", 20)
    progress.in_flight = {key: {"user": waiting("openai is rate-limited", 130.0), "minotaur": Waiter(1)},
                          replace(key, seed=2): {"user": waiting("openai is rate-limited", 112.0)},
                          replace(key, seed=3): {"user": waiting("gemini is kept to 10 requests a minute", 103.0)}}
    assert progress.waits() == ["gemini is kept to 10 requests a minute: waiting 3 s (1 waiting)",
                                "openai is rate-limited: waiting 30 s (2 waiting)"]
