"""Results you can publish: a match a model did not play is void, never its result; a quota
holds a match or stops the run, never plays it by the fallback; a contestant is a model at
an endpoint with its settings; two workers share one tournament. Every model here is the
real OpenAI SDK against local stub servers that answer as the public API does."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from labyrinth.agents.compete import arena as arenas
from labyrinth.agents.compete import tournament as tournaments
from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.agents.compete.tournament import Entrant, Tournament, run_tournament
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.pacing import Pace, SystemClock
from labyrinth.agents.match import schedule
from labyrinth.saves.results_db import ResultsDB, results_path
from labyrinth.tui.cli import main
from tests.stubs import WIRE, FakeClock, Model, Stub, openai_answer, openai_error, stub_url

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
TINY = ["--preset", "tiny", "--max-turns", "12"]
HANG_S = 60  # a run that has not ended by then would never have: each below ends in about a second


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def chats(stub: Stub) -> list[dict]:
    return [r for r in stub.requests if r["path"].endswith("/chat/completions")]


def write_config(text: str) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "labyrinth" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def fake_time(monkeypatch) -> FakeClock:
    """The providers' clock (pacing.SYSTEM_CLOCK, which the registry's transports wait on) made a FakeClock:
    their quota waits pass at once. The turn loop keeps real time, and waits as long as a call was held."""
    clock = FakeClock()
    monkeypatch.setattr(SystemClock, "monotonic", staticmethod(clock.monotonic))
    monkeypatch.setattr(SystemClock, "sleep", staticmethod(clock.sleep))
    return clock


def ended(run, *args) -> list:
    """What ``run(*args)`` returned, run in a thread that is given HANG_S to end (the hang detector)."""
    returned: list = []
    worker = threading.Thread(target=lambda: returned.append(run(*args)), daemon=True)
    worker.start()
    worker.join(HANG_S)
    assert not worker.is_alive(), f"still running after {HANG_S} s: a hang"
    return returned


def recorded(monkeypatch, *functions: tuple[object, str]) -> list[str]:
    """The names of ``functions`` (a module, a name in it) in the order they are called, as they go on."""
    events: list[str] = []
    for module, name in functions:
        done = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, done=done, name=name, **k: (events.append(name), done(*a, **k))[1])
    return events


@pytest.fixture
def dead(monkeypatch):
    """A provider that answers 503 to every request (asking for no wait: the retries are quick)."""
    server = Stub().reply(503, openai_error(503, "The server is overloaded or not ready yet."), {"Retry-After": "0"})
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    yield server
    server.close()


def test_a_model_whose_provider_never_answers_is_void_not_ranked(capsys, dead):
    code, out, err = cli(capsys, "tournament", "--users", "openai/dead,builtin", "--minotaurs", "wait", "--games", "2",
                         "--concurrency", "1", "--json", *TINY)
    data = json.loads(out)
    assert code == EXIT_INCOMPLETE and not data["complete"]
    assert [(v["user"], v["seed"]) for v in data["void"]] == [("openai/dead", 1), ("openai/dead", 2)]
    assert all("replaced by the built-in agent" in v["reason"] for v in data["void"])
    assert [r["name"] for r in data["standings"]["ratings"]["user"]] == ["builtin"]  # the dead model is not ranked
    assert "openai/dead NEVER ANSWERED (openai answered HTTP 503: The server is overloaded" in err
    assert "incomplete: 2 void and 0 unplayed matches of this tournament" in err and "--replay-void" in err
    (health,) = data["health"]
    assert health["void"] == 2 and health["answered"] == 0 and health["replaced"] == 2
    kept = ResultsDB().matches()
    assert len(kept) == 4 and sum(not r.valid for r in kept) == 2  # kept, with the reason, out of every table
    assert all(r.void.startswith("void: ") for r in kept if r.user == "openai/dead")
    asked = len(chats(dead))
    code, out, err = cli(capsys, "tournament", "--users", "openai/dead,builtin", "--minotaurs", "wait", "--games",
                         "2", "--concurrency", "1", "--json", *TINY)
    again = json.loads(out)  # the same command again: the void matches stay void, counted so, not re-rolled
    assert code == EXIT_INCOMPLETE and not again["complete"]
    assert again["played"] == 0 and again["skipped"] == 4 and len(chats(dead)) == asked
    assert "incomplete: 2 void and 0 unplayed matches of this tournament" in err
    code, out, _ = cli(capsys, "tournament", "--users", "openai/dead,builtin", "--minotaurs", "wait", "--games", "2",
                       "--concurrency", "1", "--json", "--replay-void", *TINY)
    again = json.loads(out)
    assert again["played"] == 2 and again["skipped"] == 2 and len(chats(dead)) > asked  # asked for: played again
    assert len(ResultsDB().matches()) == 4  # each void row replaced by its new (void) result, not added


def test_the_arena_leaves_void_matches_out_of_its_figures(capsys, dead):
    code, out, err = cli(capsys, "arena", "--user", "openai/dead", "--games", "2", "--json", *TINY)
    data = json.loads(out)
    assert code == EXIT_INCOMPLETE and data["games"] == 0 and data["played"] == 2 and len(data["void"]) == 2
    assert data["escaped"] + data["death"] + data["timeout"] == 0  # nothing counted for a model that never played
    assert "openai/dead NEVER ANSWERED" in err


def test_a_quota_longer_than_the_hold_stops_the_run_and_plays_nothing_by_fallback(capsys, monkeypatch):
    server = Stub().reply(429, openai_error(429, "Rate limit reached for requests"), {"Retry-After": "120"})
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    try:
        code, out, err = cli(capsys, "tournament", "--users", "openai/slow", "--minotaurs", "wait,builtin", "--games",
                             "5", "--concurrency", "4", "--hold-limit", "5", "--llm-timeout", "5", "--json", *TINY)
        data = json.loads(out)
        assert code == EXIT_INCOMPLETE and data["played"] == 0 and data["matches"] == []
        assert "stopped: openai/slow (user): openai is rate-limited: a wait of 120 s is too long" in err
        assert "run the same command again after" in err and "UTC (in 120 s)" in err
        assert len(chats(server)) <= 4  # one answer per match in flight: the others knew better than to ask
        assert not ResultsDB().matches()  # no match stored as played by fallback moves
        assert not list((results_path().parent / "replays" / "tournament").glob("*.jsonl"))  # no partial replay
    finally:
        server.close()


@pytest.mark.parametrize("provider", ["openai", "gemini"])
def test_a_server_answering_only_429_within_the_hold_stops_the_tournament_instead_of_holding_it(
        provider, fake_time, monkeypatch):
    """Retry-After: 5 for ever, under a hold of 5 s (a gateway's spent daily quota): every call waited for
    ever, and so did the tournament. Its calls are held 15 s (the hold budget) by quota answers alone, and the
    run stops as for a quota too long, saying whose and when to resume. The providers are loaded before any
    match starts (their SDKs are never imported by two matches' threads at once)."""
    server = Stub().reply(429, WIRE[provider][1](429, "Rate limit reached for requests"), {"Retry-After": "5"})
    settings = ProviderSettings(provider, "limited", stub_url(server, provider),
                                api_key="k", timeout_s=5, hold_s=5)
    tournament = Tournament((Entrant(f"{provider}/limited", settings),), (Entrant("wait"),), (1, 2), "tiny", "normal",
                            12)
    events = recorded(monkeypatch, (tournaments, "load_providers"), (tournaments, "play_matches"))

    def stopped_run():
        with ResultsDB() as db:
            return run_tournament(tournament, db, concurrency=1)

    try:
        (run,) = ended(stopped_run)
        assert run.stopped == (f"{provider}/limited (user): {provider} has answered nothing but quota answers for 15 s "
                               "(calls are held so at most 15 s); it last asked for a wait of 5 s")
        assert run.stopped_wait_s == pytest.approx(5.0) and run.done == [] and not run.complete
        assert events == ["load_providers", "play_matches"]
        assert len(server.requests) == 4  # at 0, 5, 10 and 15 s of the fake clock; then none
    finally:
        server.close()


def test_a_tournament_held_by_quota_answers_says_each_long_wait_and_stops_naming_the_contestant(
        capsys, monkeypatch, fake_time):
    """On a non-terminal (no live view), each wait over 10 s is a line on stderr as it starts, and the stop
    line names the contestant, its role, and when to run again."""
    server = Stub().reply(429, openai_error(429, "Rate limit reached for requests"), {"Retry-After": "30"})
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    try:
        (code,) = ended(main, ["tournament", "--users", "openai/limited", "--minotaurs", "wait", "--games", "2",
                               "--concurrency", "2", "--hold-limit", "30", "--llm-timeout", "5", "--json", *TINY])
        out, err = capsys.readouterr()
        assert code == EXIT_INCOMPLETE and json.loads(out)["played"] == 0
        assert "labyrinth tournament: openai/limited (user): openai is rate-limited: waiting 30 s\n" in err
        assert re.search(r"labyrinth tournament: stopped: openai/limited \(user\): openai has answered nothing but "
                         r"quota answers for \d+ s \(calls are held so at most 90 s\); it last asked for a wait of "
                         r"30 s; run the same command again after \d\d:\d\d:\d\d UTC \(in \d+ s\)", err), err
    finally:
        server.close()


def test_a_quota_within_the_hold_holds_the_match_instead_of_playing_fallbacks(capsys, monkeypatch):
    model = Model("openai", {2: "429", 5: "429"})  # the answer says: wait a second
    server = Stub(model)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    try:
        code, out, err = cli(capsys, "arena", "--user", "openai/held", "--games", "1", "--json", *TINY)
        data = json.loads(out)
        assert code == 0 and data["complete"] and data["fallbacks"]["user"] == 0, err
        (health,) = data["health"]
        assert health["quota_waits"] == 2  # one for each 429
        assert health["quota_wait_s"] >= 1.5 and health["provider_errors"] == 0
    finally:
        server.close()


def test_the_arena_says_a_long_wait_as_it_starts_and_counts_one_quota_wait_for_one_429(capsys, monkeypatch,
                                                                                         fake_time):
    """And it loads its models' providers before any match starts (their SDKs are never imported by two
    matches' threads at once)."""
    server = Stub(Model("openai")).reply(429, openai_error(429, "Rate limit reached"), {"Retry-After": "30"})
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    events = recorded(monkeypatch, (arenas, "load_providers"), (schedule, "play_matches"))
    try:
        (code,) = ended(main, ["arena", "--user", "openai/held", "--games", "1", "--json", *TINY])
        out, err = capsys.readouterr()
        assert events == ["load_providers", "play_matches"]
        assert code == 0 and json.loads(out)["quota_waits"] == {"user": 1, "minotaur": 0}, err
        assert err.count("labyrinth arena: openai/held (user): openai is rate-limited: waiting 30 s\n") == 1
        assert ", 1 quota waits (30 s), 0 paced starts (0 s)" in err  # the health line: the 429's wait, once
    finally:
        server.close()


def test_two_servers_of_one_model_with_their_own_settings_are_two_contestants(capsys, monkeypatch):
    first, second = Stub(Model("openai")), Stub(Model("openai"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-openai-key-never-sent-elsewhere")
    try:
        config = (f'[contestants.llama-a]\nprovider = "openai"\nmodel = "llama-3.1-8b-instruct"\n'
                  f'base_url = "{first.url}/v1"\ntemperature = 0.2\nmax_tokens = 200\n'
                  f'[contestants.llama-b]\nprovider = "openai"\nmodel = "llama-3.1-8b-instruct"\n'
                  f'base_url = "{second.url}/v1"\ntemperature = 0.9\n')
        write_config(config)
        code, out, err = cli(capsys, "tournament", "--users", "llama-a,llama-b", "--minotaurs", "wait", "--games", "2",
                             "--concurrency", "4", "--json", *TINY)
        data = json.loads(out)
        assert code == 0, err
        assert sorted(r["name"] for r in data["standings"]["ratings"]["user"]) == ["llama-a", "llama-b"]
        for server, temperature in ((first, 0.2), (second, 0.9)):
            bodies = [r["body"] for r in chats(server)]
            assert bodies and {b["model"] for b in bodies} == {"llama-3.1-8b-instruct"}
            assert {b.get("temperature") for b in bodies} == {temperature}
            assert all("sk-the-openai-key" not in json.dumps(r["headers"]) for r in chats(server))
        rows = {r.user: r for r in ResultsDB().matches()}
        assert rows["llama-a"].user_setup != rows["llama-b"].user_setup
        settings = json.loads(rows["llama-a"].user_side.settings)
        assert settings == {"provider": "openai", "model": "llama-3.1-8b-instruct", "endpoint": first.url + "/v1",
                            "temperature": 0.2, "max_tokens": 200, "reasoning_effort": None}
        assert rows["llama-a"].version and rows["llama-a"].user_side.calls > 0
        write_config(config.replace("temperature = 0.2", "temperature = 0.3"))
        code, out, _ = cli(capsys, "tournament", "--users", "llama-a,llama-b", "--minotaurs", "wait", "--games", "2",
                           "--json", *TINY)
        again = json.loads(out)
        assert (again["played"], again["skipped"]) == (2, 2)  # llama-a's new temperature makes it a new contestant
    finally:
        first.close()
        second.close()


def test_repeats_play_each_pairing_again_on_each_seed(capsys):
    code, out, _ = cli(capsys, "tournament", "--users", "random", "--minotaurs", "builtin", "--games", "2",
                       "--repeats", "3", "--concurrency", "1", "--json", *TINY)
    data = json.loads(out)
    assert code == 0 and data["played"] == 6
    assert sorted((m["seed"], m["repeat"]) for m in data["matches"]) == [(s, r) for s in (1, 2) for r in range(3)]
    # rule agents play each seed's game again move for move (one digest): the copies count once
    assert data["standings"]["ratings"]["minotaur"][0]["matches"] == 2 and data["standings"]["copies"] == 4


def _worker(*args: str) -> subprocess.Popen:
    """A tournament run as a person starts one from a shell: Ctrl-C (SIGINT) at its default. A test run may
    hold SIGINT ignored (seen in a full suite's xdist workers), and an ignored signal stays ignored in a child."""
    held = signal.signal(signal.SIGINT, signal.default_int_handler)  # caught here: at its default in the child
    try:
        return subprocess.Popen([LABYRINTH, "tournament", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=os.environ.copy())
    finally:
        signal.signal(signal.SIGINT, held)


def test_two_workers_on_one_tournament_share_the_matches(monkeypatch):
    server = Stub(Model("openai", delay_s=0.05))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    try:
        args = ("--users", "openai/a,builtin", "--minotaurs", "wait,openai/b", "--games", "4", "--concurrency", "2",
                "--json", *TINY)
        first = _worker(*args)
        deadline = time.monotonic() + 60  # only a bound, so that a broken run cannot hang the suite
        while not ResultsDB().runs() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # until the first has begun its run (its claims follow), as the database says
        second = _worker(*args)
        outs = [json.loads(run.communicate(timeout=180)[0]) for run in (first, second)]
        assert [run.returncode for run in (first, second)] == [0, 0]
        played = [out["played"] for out in outs]
        assert sum(played) == 16 and min(played) > 0  # each played some, together every match once
        rows = ResultsDB().matches()
        assert len(rows) == len({r.key for r in rows}) == 16
        assert outs[0]["standings"] == outs[1]["standings"]  # each ends with the whole standings
    finally:
        server.close()


def test_llm_rpm_holds_across_the_matches_of_several_jobs(capsys, monkeypatch):
    """Every request of every match, both jobs' threads alike, took its start from one pace, 0.1 s apart
    at 600 a minute. The starts are read where the pace gives them, not as the server saw them arrive:
    on a loaded machine arrivals bunch up, and the pace is what --llm-rpm promises."""
    server = Stub(Model("openai"))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    given: list[tuple[Pace, float]] = []
    slot = Pace.slot

    def recorded(pace: Pace, latest: float):
        taken = slot(pace, latest)
        if taken[1]:
            given.append((pace, taken[0].start))
        return taken

    monkeypatch.setattr(Pace, "slot", recorded)
    try:
        code, _, err = cli(capsys, "arena", "--user", "openai/paced", "--games", "4", "--jobs", "2", "--llm-rpm",
                           "600", *TINY, "--max-turns", "5", "--json")
        assert code == 0, err
        assert len(chats(server)) == len(given) >= 4 * 3  # a plan and some turns a match, four matches
        assert len({id(pace) for pace, _ in given}) == 1  # one pace for the endpoint, whichever match asked
        starts = sorted(start for _, start in given)
        assert min(b - a for a, b in pairwise(starts)) >= 0.1 - 1e-9
    finally:
        server.close()


def test_a_damaged_row_is_named_and_skipped(capsys):
    assert cli(capsys, "tournament", "--users", "random", "--minotaurs", "wait", "--games", "2", *TINY)[0] == 0
    with ResultsDB() as db:
        db._db.execute("UPDATE matches SET seed = 'abc' WHERE seed = 1")
    code, out, err = cli(capsys, "tournament", "--users", "random", "--minotaurs", "wait", "--games", "2", *TINY)
    assert code == 0 and re.search(r"row \d of results.db is damaged: seed is 'abc'; it is left out", err)
    assert "Traceback" not in err and "random" in out


def test_a_results_database_linked_outside_the_data_directory_is_refused(capsys, tmp_path):
    elsewhere = tmp_path / "elsewhere.db"
    ResultsDB(elsewhere).close()
    results_path().parent.mkdir(parents=True)
    results_path().symlink_to(elsewhere)
    code, _, err = cli(capsys, "tournament", "--users", "random", "--minotaurs", "wait", "--games", "1", *TINY)
    assert code == 2 and "outside" in err and "kept as it is" in err
    assert ResultsDB(elsewhere).matches() == []  # nothing written through the link


@pytest.mark.parametrize(("setting", "value", "said"), [
    ("OPENAI_BASE_URL", "ftp://example.com/v1", "is not an http(s) URL"),
    ("OPENAI_BASE_URL", "http://example.com:99999/v1", "cannot be read as a URL (Port out of range"),
    ("OPENAI_BASE_URL", "http://example.com/v1\nX-Evil: 1", "holds a space, a line break"),
    ("OPENAI_BASE_URL", "http://example.com/" + "a" * 120_000, "is 120,019 characters long"),
    ("OPENAI_API_KEY", "sk-ключ", "is not printable ASCII"),
])
def test_a_bad_setting_is_refused_before_the_first_match(capsys, monkeypatch, setting, value, said):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv(setting, value)
    code, _, err = cli(capsys, "tournament", "--users", "openai/m", "--minotaurs", "wait", "--games", "1", *TINY)
    assert code == 2 and said in err and f"${setting}" in err and err.count("\n") == 1
    assert "ключ" not in err and not results_path().exists()


def test_a_refused_answer_and_the_fallback_for_it_are_told_as_they_happened_and_kept_whole(capsys, monkeypatch,
                                                                                              tmp_path):
    def grabbing(request: dict):
        if not request["path"].endswith("/chat/completions"):
            return 404, {}, None
        text = json.dumps({"action": "grab", "params": {"target": "RED STONE"}, "reasoning": "mine"})
        return 200, openai_answer(text, 50, 20), None

    server = Stub(grabbing)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    try:
        cli(capsys, "arena", "--user", "openai/grabby", "--minotaur", "wait", "--games", "1",
            "--replays", str(tmp_path), "--preset", "tiny", "--max-turns", "2", "--json")
        prompts = [r["body"]["messages"][-1]["content"] for r in chats(server)]
    finally:
        server.close()
    # the plan, then three answers the game refuses (asked again each time), then LOOK in their place
    assert ("last_result: ERROR: refused, nothing happened (GRAB failed: the RED STONE is not within reach)"
            in prompts[2])
    assert "ERROR (SUCCESS)" not in "".join(prompts)
    assert "was played in its place (the result below is that one's)" in prompts[4]
    (replay,) = tmp_path.glob("*.jsonl")
    first = next(line for line in map(json.loads, replay.read_text().splitlines()) if line["type"] == "turn")
    assert len(first["exchanges"]["user"]) == 3 and len(first["refused"]) == 3  # every exchange, re-asks included
    assert first["fallback"]["user"] == "3 ERRORs in a row"


def test_ctrl_c_says_each_models_health_and_leaves_no_partial_replay(monkeypatch):
    server = Stub(Model("openai", delay_s=0.05))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")  # the same endpoint for both runs: the same contestant
    try:
        run = _worker("--users", "openai/a", "--minotaurs", "wait", "--games", "50", "--concurrency", "2", *TINY)
        assert run.stderr.readline().startswith("labyrinth tournament: run ")  # its id and design, first
        assert " vs wait seed " in run.stderr.readline()  # a match has ended; others are under way
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=60)
        assert run.returncode == 130
        assert "stopped by Ctrl-C after" in err and "openai/a: " in err and " requests (" in err
        with ResultsDB() as db:
            claimed = db._db.execute("SELECT match, replay FROM claims").fetchall()
        left = set((results_path().parent / "replays" / "tournament").glob("*.jsonl")) - \
            {Path(r.replay) for r in ResultsDB().matches()}
        assert left <= {Path(replay) for _, replay in claimed}  # a replay without its row is named by a claim...
        last = max(json.loads(match)[4] for match, _ in claimed)  # ... which the next run, coming to it, removes
        assert main(["tournament", "--users", "openai/a", "--minotaurs", "wait", "--games", str(last), *TINY]) == 0
    finally:
        server.close()
    kept = {Path(r.replay) for r in ResultsDB().matches()}
    assert set((results_path().parent / "replays" / "tournament").glob("*.jsonl")) == kept


@pytest.mark.parametrize("step", ["claim", "record", "release"])
def test_a_ctrl_c_as_the_database_settles_a_match_leaves_no_claim_held_and_loses_no_kept_replay(monkeypatch, step):
    """Ctrl-C lands as the claim is made (just after it is written), as the result is kept, as a stopped
    match's claim is abandoned: each claim ends kept or abandoned, never held (held, the next run would
    wait out its lease, 120 s), and a kept row's replay is there."""
    settle = getattr(ResultsDB, step)

    def then_ctrl_c(self, *args, **kwargs):
        settle(self, *args, **kwargs)
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:  # undone before the database is read (the data folder's patch stays)
        patch.setattr(ResultsDB, step, then_ctrl_c)
        if step == "release":  # a match stopped unfinished, as a quota's too long wait stops one
            patch.setattr(tournaments.Tournament, "row", lambda *args: pytest.fail("a stopped match has no row"))
            played = schedule.play_job
            patch.setattr(schedule, "play_job", lambda *args: replace(played(*args), result=None))
        assert main(["tournament", "--users", "builtin", "--minotaurs", "wait", "--games", "1", *TINY]) == 130
    with ResultsDB() as db:
        claims = db._db.execute("SELECT abandoned FROM claims").fetchall()
        kept = db.matches()
    assert claims == ([] if step == "record" else [(1,)])
    assert [Path(row.replay).is_file() for row in kept] == ([True] if step == "record" else [])


def test_the_same_arena_arguments_print_the_same_results_and_leave_the_memory_alone(capsys):
    from labyrinth.saves.experience import log_path

    runs = [json.loads(cli(capsys, "arena", "--games", "4", "--preset", "small", "--max-turns", "150", "--json")[1])
            for _ in range(2)]
    assert runs[0]["results"] == runs[1]["results"] and runs[0]["escape_rate"] == runs[1]["escape_rate"]
    assert runs[0]["reflections"] == 0 and not log_path().exists()  # nothing read, nothing written
