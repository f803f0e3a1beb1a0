"""A tournament run a reviewer can check and play again: its manifest says what it was (and never
a key), a void contestant is in every report with why, a run is chosen by its id, `--rerun`
plays the same games again under a new run, and each match can be exported whole. The models
are the real OpenAI SDK against local stub servers."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.saves.results_db import COLUMNS, ResultsDB
from labyrinth.tui.cli import main
from tests.stubs import Steady, Stub, openai_error

pytestmark = pytest.mark.slow

TINY = ["--preset", "tiny", "--max-turns", "12", "--concurrency", "1"]
KEY = "sk-never-shown-1234567890"


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write_config(text: str) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "labyrinth" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def servers(monkeypatch):
    """A steady model (its moves a function of the prompt alone: the same game every time) and a dead
    one (503 to everything), each a config contestant with its key and prices."""
    steady = Stub(Steady("openai"))
    dead = Stub().reply(503, openai_error(503, "The server is overloaded or not ready yet."), {"Retry-After": "0"})
    monkeypatch.setenv("STEADY_KEY", KEY)
    write_config(f"""
[contestants.steady]
provider = "openai"
model = "steady-1"
base_url = "{steady.url}/v1"
api_key_env = "STEADY_KEY"
temperature = 0.2
price_in = 2.0
price_out = 8.0

[contestants.dead]
provider = "openai"
model = "dead-1"
base_url = "{dead.url}/v1"
""")
    yield steady, dead
    steady.close()
    dead.close()


def test_a_void_contestant_is_in_every_report_with_why(capsys, servers, tmp_path):
    code, out, _ = cli(capsys, "tournament", "--users", "steady,dead,builtin", "--minotaurs", "wait", "--games", "2",
                       "--json", *TINY)
    data = json.loads(out)
    assert code == EXIT_INCOMPLETE and len(data["void"]) == 2
    assert {r["name"] for r in data["standings"]["ratings"]["user"]} == {"builtin", "steady"}  # dead is not rated
    reports = {name: tmp_path / name for name in ("ratings.csv", "board.html", "matches.csv")}
    code, out, _ = cli(capsys, "leaderboard", "--csv", str(reports["ratings.csv"]), "--html",
                       str(reports["board.html"]), "--matches-csv", str(reports["matches.csv"]))
    assert code == 0
    said = " ".join(out.split())
    assert "dead 2 2 " in said  # its 2 games, both void
    rows = {(r["role"], r["name"]): r for r in csv.DictReader(io.StringIO(reports["ratings.csv"].read_text()))}
    dead = rows[("user", "dead")]
    assert (dead["rating"], dead["entered"], dead["void"], dead["invalid_rate"]) == ("", "2", "2", "0.0")
    assert float(dead["error_rate"]) > 0.5 and dead["cost"] == ""  # no prices given: no cost
    steady = rows[("user", "steady")]
    tokens_in, tokens_out = int(steady["tokens_in"]), int(steady["tokens_out"])
    assert tokens_in > 0 and float(steady["cost"]) == pytest.approx((tokens_in * 2.0 + tokens_out * 8.0) / 1e6)
    page = reports["board.html"].read_text()
    assert "<td>dead</td><td class=number>2</td><td class=number>2</td>" in page
    assert 'id="contestants"' in page and "steady-1" in page and 'id="method"' in page
    assert str(reports["board.html"].parent) not in page and os.environ["XDG_DATA_HOME"] not in page  # no local path
    matches = list(csv.DictReader(io.StringIO(reports["matches.csv"].read_text())))
    assert len(matches) == 6 and list(matches[0]) == list(COLUMNS)
    assert sum(1 for m in matches if m["void"]) == 2 and all("/" not in (m["replay"] or "") for m in matches)
    for report in reports.values():
        assert KEY not in report.read_text()


def test_a_run_keeps_its_manifest_and_is_chosen_by_its_id(capsys, servers):
    code, out, err = cli(capsys, "tournament", "--users", "steady,builtin", "--minotaurs", "wait", "--games", "2",
                         "--json", f"--openai-url=http://user:{KEY}@127.0.0.1:9/v1?key={KEY}", *TINY)
    run_id = json.loads(out)["run_id"]
    assert code == 0 and f"run {run_id}: 2 users x 1 Minotaur, seeds 1-2, tiny normal, at most 12 turns" in err
    with ResultsDB() as db:
        ((found, _, recorded),) = db.runs()
        rows = db.matches()
    assert found == run_id and {row.run_id for row in rows} == {run_id}
    assert KEY not in json.dumps(recorded)
    assert "--openai-url=http://127.0.0.1:9/v1" in recorded["command"]  # the user-info and the query hidden
    steady = next(c for c in recorded["contestants"]["user"] if c["name"] == "steady")
    assert steady["settings"]["temperature"] == 0.2 and (steady["price_in"], steady["price_out"]) == (2.0, 8.0)
    assert recorded["seeds"] == [1, 2] and recorded["build"] == rows[0].build and recorded["packages"]["openai"]
    code, out, _ = cli(capsys, "tournament", "--users", "builtin", "--minotaurs", "wait", "--games", "1", *TINY)
    code, out, _ = cli(capsys, "leaderboard", "--run", run_id, "--json")
    data = json.loads(out)
    assert code == 0 and data["matches"] == 4 and [r["run_id"] for r in data["runs"]] == [run_id]
    code, out, _ = cli(capsys, "leaderboard", "--runs")
    assert code == 0 and out.count("\n") == 2 and run_id in out.splitlines()[0]
    code, _, err = cli(capsys, "leaderboard", "--run", "no-such-run")
    assert code == 2 and "holds no run no-such-run" in err


def test_a_rerun_plays_the_same_games_under_a_new_run(capsys, servers):
    code, out, _ = cli(capsys, "tournament", "--users", "steady,builtin,random", "--minotaurs", "wait,builtin",
                       "--games", "2", "--json", *TINY)
    first = json.loads(out)
    code, out, err = cli(capsys, "tournament", "--rerun", first["run_id"], "--json", "--concurrency", "2")
    again = json.loads(out)
    assert code == 0 and again["run_id"] != first["run_id"] and again["played"] == 12
    assert f"rerun 1 of {first['run_id']}" in err
    assert [(m["user"], m["minotaur"], m["seed"], m["digest"]) for m in again["matches"]] == \
        [(m["user"], m["minotaur"], m["seed"], m["digest"]) for m in first["matches"]]  # the very same games
    assert {m["rerun"] for m in again["matches"]} == {1}
    boards = [json.loads(cli(capsys, "leaderboard", "--run", run["run_id"], "--json")[1]) for run in (first, again)]
    assert boards[0]["ratings"] == boards[1]["ratings"] and boards[0]["paired"] == boards[1]["paired"]
    code, _, err = cli(capsys, "tournament", "--rerun", first["run_id"], "--games", "3")
    assert code == 2 and "leave out --games" in err
    write_config((Path(os.environ["XDG_CONFIG_HOME"]) / "labyrinth" / "config.toml").read_text()
                 .replace("temperature = 0.2", "temperature = 0.9"))
    code, _, err = cli(capsys, "tournament", "--rerun", first["run_id"])
    assert code == 2 and "steady: temperature 0.2 then, 0.9 now" in err


def test_a_contestant_asked_otherwise_but_sent_the_same_bytes_is_rated_as_one(capsys, monkeypatch):
    """o4-mini takes no temperature: asked at 0.0, then (the config edited) at 0.7, it was sent the very
    same requests, so the leaderboard rates one contestant, not two."""
    from tests.stubs import ReasoningModel

    server = Stub(ReasoningModel(Steady("openai")))
    try:
        for temperature in (0.0, 0.7):
            write_config(f'[contestants.o4]\nprovider = "openai"\nmodel = "o4-mini"\nbase_url = "{server.url}/v1"\n'
                         f"temperature = {temperature}\n")
            assert cli(capsys, "tournament", "--users", "o4", "--minotaurs", "wait", "--games", "2", *TINY)[0] == 0
    finally:
        server.close()
    rows = ResultsDB().matches()
    assert len(rows) == 4 and len({r.user_setup for r in rows}) == 2  # asked two ways: four matches kept
    data = json.loads(cli(capsys, "leaderboard", "--json")[1])
    (rated,) = data["ratings"]["user"]  # one contestant, whose second run played the first's games again
    assert (rated["label"], rated["matches"], data["copies"]) == ("o4", 2, 2)
    (entry,) = data["entries"]["user"]
    assert entry["dropped"] == {"temperature": "not sent: a reasoning model takes none"}
