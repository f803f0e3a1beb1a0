"""`labyrinth leaderboard` and the TUI's Leaderboard screen: the standings of the
results database as a table that fits 80 columns or as one JSON object, a clear
word (and exit 0) when there is nothing yet, a database that cannot be read
reported and kept, damaged rows said and left out, matches of different rules
pooled only with a warning, and a terminal that is not UTF-8 served in ASCII; the
screen opened from the title, its role switch, its paired and head-to-head tables,
the highlighted contestant's rating chart, and a match's replay opened from it, or
a clear word when the replay is gone."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from labyrinth.agents.compete.ratings import rate
from labyrinth.saves import results_db
from labyrinth.saves.results_db import MatchRow, ResultsDB, results_path
from labyrinth.tui import leaderboard_rows
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.cli import main
from labyrinth.tui.leaderboard_rows import BLOCKS, head_to_head_rows, paired_rows, rating_rows, sparkline
from labyrinth.tui.screens.leaderboard import DAMAGED_SHOWN, LeaderboardScreen
from labyrinth.tui.screens.replay_player import ReplayPlayerScreen
from labyrinth.tui.screens.title import TitleScreen
from labyrinth.tui.widgets.rating_chart import RatingChart, braille

from .test_tui import choose, wait_for

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))


def kept(user: str, minotaur: str, seed: int, outcome: str, replay: str | None = None, preset: str = "tiny",
         **more) -> MatchRow:
    return MatchRow(user, minotaur, seed, preset, "normal", 20, outcome, 7, 12.5, 0.01, replay, **more)


def keep(*rows: MatchRow) -> list[MatchRow]:
    with ResultsDB() as db:
        for row in rows:
            db.record(row)
        return db.matches()


def some_results() -> list[MatchRow]:
    """builtin escapes wait twice and draws once; random is caught by builtin once (on another ground)."""
    return keep(kept("builtin", "wait", 1, "ESCAPED"), kept("builtin", "wait", 2, "ESCAPED"),
                kept("builtin", "wait", 3, "TIMEOUT"), kept("random", "builtin", 1, "DEATH", preset="small"))


def leaderboard(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("COLUMNS", "80")
    code = main(["leaderboard", *args])
    out, err = capsys.readouterr()
    return code, out, err


def real_tournament(capsys) -> None:
    """Rule agents on the tiny ground, 20 turns at most: each match recorded as a replay."""
    assert main(["tournament", "--users", "builtin,random", "--minotaurs", "builtin,wait", "--games", "2", "--preset",
                 "tiny", "--max-turns", "20", "--concurrency", "1", "--no-memory", "--json"]) == 0
    capsys.readouterr()


# --- the command ---------------------------------------------------------------------


def test_the_table_shows_each_role_and_the_head_to_head_in_80_columns(capsys, monkeypatch):
    rows = some_results()
    code, out, err = leaderboard(capsys, monkeypatch)
    assert code == 0 and err == ""
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "Leaderboard: 4 matches in" in out and "small, normal, ≤20 turns (1); tiny, normal, ≤20 turns (3)" in out
    standings = rate(rows)
    lines = [tuple(re.split(r"\s{2,}", line.strip())) for line in out.splitlines()]
    for role in ("user", "minotaur"):
        for row in rating_rows(standings.ratings[role]):
            assert row in lines
    best = standings.ratings["user"][0]
    assert ("1", "builtin", "1500", "anchor", "3", "2/1/0",
            "67% (21%–94%)") in lines  # the users' anchor, its record, its win rate in Wilson's interval
    builtin = next(line for line in out.splitlines() if line.startswith("builtin ") and BLOCKS[-1] in line)
    assert builtin.endswith(f"{best.rating:.0f}")  # its rating over its three matches
    for row in head_to_head_rows(standings):
        assert row in lines


def test_the_rating_over_matches_is_in_play_order_and_learning_is_said(capsys, monkeypatch):
    """random is rated against the built-in user (the user ratings' anchor, a draw in each run)."""
    later = replace(kept("random", "wait", 1, "TIMEOUT"), run_began="2026-02-01T00:00:00.000000Z")
    earlier = replace(kept("random", "wait", 2, "ESCAPED"), run_began="2026-01-01T00:00:00.000000Z")
    learning = replace(kept("random", "wait", 1, "ESCAPED"), learned="user+minotaur")
    anchor = [replace(kept("builtin", "wait", seed, "TIMEOUT"), run_began=began)
              for seed, began in ((2, earlier.run_began), (1, later.run_began))]
    keep(later, earlier, learning, *anchor)
    code, out, _ = leaderboard(capsys, monkeypatch, "--json", "--role", "user")
    random_user = next(r for r in json.loads(out)["ratings"]["user"] if r["name"] == "random")
    assert code == 0
    assert random_user["history"][-1] == random_user["rating"]
    assert random_user["history"][1] > random_user["history"][2]  # the escape (seed 2) was before the draw (seed 1)
    code, out, _ = leaderboard(capsys, monkeypatch)
    said = " ".join(out.split())
    assert code == 0 and "tiny, normal, ≤20 turns (4); tiny, normal, ≤20 turns, learning: user+minotaur (1)" in said
    assert "rating over matches, in play order" in out


def test_one_role_and_one_preset(capsys, monkeypatch):
    some_results()
    code, out, _ = leaderboard(capsys, monkeypatch, "--role", "minotaur", "--preset", "small")
    assert code == 0 and "Leaderboard: 1 match in" in out and "Minotaur ratings" in out and "user ratings" not in out
    assert "wait" not in out  # wait played on tiny only


def test_json_is_one_object_with_the_documented_keys(capsys, monkeypatch):
    some_results()
    code, out, _ = leaderboard(capsys, monkeypatch, "--json", "--role", "user")
    data = json.loads(out)
    assert code == 0 and list(data) == ["database", "preset", "difficulty", "max_turns", "learned", "build", "run",
                                        "role", "matches", "void", "grounds", "warning", "copies", "damaged",
                                        "anchors", "offset", "ratings", "entries", "runs", "head_to_head", "paired"]
    assert data["database"] == str(results_path()) and data["matches"] == 4 and data["role"] == "user"
    assert data["warning"].startswith("warning: these ratings pool matches played under different rules (presets "
                                      "small, tiny)") and data["damaged"] == []
    assert data["grounds"] == [{"preset": "small", "difficulty": "normal", "max_turns": 20, "learned": "none",
                                "build": "", "matches": 1},
                               {"preset": "tiny", "difficulty": "normal", "max_turns": 20, "learned": "none",
                                "build": "", "matches": 3}]
    assert list(data["ratings"]) == ["user"]
    builtin = data["ratings"]["user"][0]
    assert (builtin["name"], builtin["wins"], builtin["draws"], builtin["losses"]) == ("builtin", 2, 1, 0)
    assert len(builtin["history"]) == 3 and builtin["history"][-1] == builtin["rating"]
    assert builtin["low"] == builtin["rating"] == builtin["high"] == 1500 and builtin["anchor"]  # the user anchor
    assert builtin["history_at"] == [1, 2, 3]
    assert {"user": "builtin", "minotaur": "wait", "matches": 3, "escaped": 2, "caught": 0,
            "timeouts": 1} in data["head_to_head"]
    assert list(data["paired"]) == ["user"] and data["paired"]["user"] == []  # no seed met by two users


def test_rules_are_chosen_and_pooling_them_is_warned_of(capsys, monkeypatch):
    keep(kept("builtin", "wait", 1, "ESCAPED"), replace(kept("builtin", "wait", 1, "DEATH"), max_turns=60),
         kept("random", "wait", 1, "TIMEOUT", learned="user"))
    code, out, _ = leaderboard(capsys, monkeypatch)
    said = " ".join(out.split())
    assert code == 0 and ("warning: these ratings pool matches played under different rules (turn limits 20, 60; "
                          "learning none, user); rate one kind at a time with `labyrinth leaderboard --max-turns, "
                          "--learned`") in said
    code, out, _ = leaderboard(capsys, monkeypatch, "--max-turns", "20", "--learned", "none", "--json")
    data = json.loads(out)
    assert (data["matches"], data["max_turns"], data["learned"], data["warning"]) == (1, 20, "none", None)
    code, out, _ = leaderboard(capsys, monkeypatch, "--max-turns", "60")
    assert code == 0 and "Leaderboard: 1 match in" in out and "warning" not in out
    code, out, _ = leaderboard(capsys, monkeypatch, "--max-turns", "99", "--learned", "minotaur")
    assert out == f"no matches in {results_path()} with turn limit 99 and learning minotaur yet.\n"


def damage_first_row() -> None:
    with sqlite3.connect(results_path()) as db:
        db.execute("UPDATE matches SET seed = 'abc' WHERE rowid = 1")
    db.close()


def test_damaged_rows_are_said_on_stderr_and_left_out(capsys, monkeypatch):
    some_results()
    damage_first_row()
    code, out, err = leaderboard(capsys, monkeypatch)
    assert code == 0 and "Leaderboard: 3 matches" in out
    assert err == "labyrinth leaderboard: row 1 of results.db is damaged: seed is 'abc'; it is left out\n"
    code, out, err = leaderboard(capsys, monkeypatch, "--json")
    assert json.loads(out)["damaged"] == ["row 1 of results.db is damaged: seed is 'abc'; it is left out"]


def test_a_terminal_that_is_not_utf8_gets_ascii():
    """The real command in a C locale with ASCII output: the tables, the ≤ and the sparkline in
    ASCII, a name that is not ASCII as an escape, and no UnicodeEncodeError."""
    keep(kept("built\u00efn", "wait", 1, "ESCAPED"), kept("built\u00efn", "wait", 2, "DEATH"),
         kept("random", "wait", 1, "TIMEOUT", preset="small"))
    env = {**os.environ, "LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii", "COLUMNS": "80"}
    done = subprocess.run([LABYRINTH, "leaderboard"], env=env, capture_output=True, timeout=60, check=False)
    out = done.stdout.decode("ascii")
    assert done.returncode == 0 and done.stderr == b""
    assert "tiny, normal, <=20 turns (2)" in out and "built\\xefn" in out and "1500" in out
    assert re.search(r"^user rating over matches, in play order \(_ \d+ \.\.\. # \d+\)$", out, re.MULTILINE)
    assert re.search(r"^built\\xefn +[_.:=+*#-]{2} +\d+$", out, re.MULTILINE)  # its sparkline in the ASCII ramp


def test_no_database_is_said_and_not_made(capsys, monkeypatch):
    code, out, err = leaderboard(capsys, monkeypatch)
    assert code == 0 and f"no results yet: {results_path()} does not exist" in out and "labyrinth tournament" in out
    code, out, err = leaderboard(capsys, monkeypatch, "--json")
    assert code == 0 and json.loads(out)["matches"] == 0 and json.loads(out)["ratings"] == {"user": [], "minotaur": []}
    assert json.loads(out)["warning"] is None
    assert "no results yet" in err and not results_path().exists()


def test_an_empty_database_and_an_empty_choice_are_said(capsys, monkeypatch):
    keep()
    code, out, _ = leaderboard(capsys, monkeypatch)
    assert code == 0 and out == f"no matches in {results_path()} yet.\n"
    some_results()
    code, out, _ = leaderboard(capsys, monkeypatch, "--preset", "large", "--difficulty", "hard")
    assert code == 0 and out == f"no matches in {results_path()} with preset large and difficulty hard yet.\n"


def test_a_corrupt_database_is_reported_and_kept(capsys, monkeypatch):
    path = results_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database " * 300)
    for json_too in ((), ("--json",)):
        code, out, err = leaderboard(capsys, monkeypatch, *json_too)
        assert code == 2 and out == "" and f"the results database {path} cannot be used: file is not a database" in err
    assert path.read_bytes() == b"not a database " * 300


def test_a_database_another_program_is_writing_is_read(capsys, monkeypatch):
    """The leaderboard only reads: a tournament writing at the same moment does not stop it."""
    monkeypatch.setattr(results_db, "BUSY_S", 0.05)
    some_results()
    holder = sqlite3.connect(results_path(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("DELETE FROM matches")  # not committed: not seen
    try:
        code, out, err = leaderboard(capsys, monkeypatch)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 0 and err == "" and "Leaderboard: 4 matches in" in out
    assert len(ResultsDB().matches()) == 4  # kept whole


def test_the_database_is_opened_only_to_read(capsys, monkeypatch):
    some_results()
    opened = []

    def spy(path, **options):
        opened.append(options)
        return ResultsDB(path, **options)

    monkeypatch.setattr(leaderboard_rows, "ResultsDB", spy)
    assert leaderboard(capsys, monkeypatch)[0] == 0 and opened == [{"read_only": True}]


def test_the_chart_draws_the_line_and_the_interval_in_braille():
    """From (1, 0) to (2, 1) over four dot rows, the line ends two columns before the bar (0 to 1)."""
    line, bar = braille([0.0, 1.0], [1, 2], (0.0, 1.0), width=4, height=1, low=0.0, high=1.0)
    assert line == [[0x40 | 0x20, 0x04 | 0x10, 0x01, 0]] and bar == [[0, 0, 0, 0xFF]]
    line, bar = braille([5.0], [3], None, width=2, height=1, low=0.0, high=10.0)
    assert line == [[0, 0x04 << 3]] and bar == [[0, 0]]  # one point, at the right, halfway up: no bar


def test_a_sparkline_keeps_the_latest_value_and_one_scale():
    assert sparkline([0, 1, 2, 3, 4, 5, 6, 7], 8) == BLOCKS
    assert sparkline(list(range(100)), 10)[-1] == BLOCKS[-1] and len(sparkline(list(range(100)), 10)) == 10
    assert sparkline([5, 5], 10, low=0, high=10) == BLOCKS[4] * 2  # halfway up a shared scale
    assert sparkline([3, 3], 10) == BLOCKS[4] * 2 and sparkline([], 10) == ""


# --- the screen ------------------------------------------------------------------------


def cells(screen: LeaderboardScreen, table: str) -> list[list[str]]:
    found = screen.query_one(table, DataTable)
    return [[str(cell) for cell in found.get_row_at(i)] for i in range(found.row_count)]


def text(screen: LeaderboardScreen, line: str) -> str:
    return str(screen.query_one(line, Static).content)


async def open_board(pilot, app) -> LeaderboardScreen:
    await choose(pilot, app, "leaderboard")
    screen = app.screen
    assert isinstance(screen, LeaderboardScreen)
    await wait_for(pilot, lambda: text(screen, "#board-title") != "Reading the results…")
    return screen


async def test_the_screen_opens_from_the_title_and_switches_role(capsys):
    real_tournament(capsys)
    standings = rate(ResultsDB().matches())
    app = LabyrinthApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_board(pilot, app)
        shown = cells(screen, "#board-standings")
        assert [row[:-1] for row in shown] == [list(row) for row in rating_rows(standings.ratings["user"])]
        assert all(len(row[-1]) == 4 and set(row[-1]) <= set(BLOCKS) for row in shown)  # the rating after each match
        assert len(cells(screen, "#board-matches")) == 8
        await pilot.press("r")
        shown = cells(screen, "#board-standings")
        assert [row[:-1] for row in shown] == [list(row) for row in rating_rows(standings.ratings["minotaur"])]
        await pilot.press("h")
        assert cells(screen, "#board-standings") == [list(row) for row in head_to_head_rows(standings)]
        await pilot.press("r")
        assert [row[1] for row in cells(screen, "#board-standings")] == [r.name for r in standings.ratings["user"]]
        await pilot.press("escape")
        assert isinstance(app.screen, TitleScreen)


async def test_the_chart_follows_the_highlighted_contestant_and_p_shows_the_paired_table(capsys):
    real_tournament(capsys)
    standings = rate(ResultsDB().matches())
    app = LabyrinthApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_board(pilot, app)
        chart = screen.query_one("#board-chart", RatingChart)
        first, second = standings.ratings["user"]
        assert chart.rating == first and chart.display
        await pilot.press("down")
        assert chart.rating == second
        assert chart.border_title == f"{second.label}: {second.rating:.0f} over its 4 matches"
        drawn = [chart.render_line(y).text for y in range(chart.size.height)]
        assert drawn[0].lstrip().startswith(f"{max(*second.history, second.high):.0f} ")
        assert drawn[-1].lstrip().startswith(f"{min(*second.history, second.low):.0f} ")  # right-justified
        assert "⣿" in "".join(line[-1] for line in drawn)  # the interval's bar, at the right edge
        assert sum(chr(0x2800) < c <= chr(0x28FF) for line in drawn for c in line[5:-2]) >= 8  # the line
        await pilot.press("p")
        assert cells(screen, "#board-standings") == [list(row) for row in paired_rows(standings.paired["user"])]
        assert not chart.display
        await pilot.press("p")
        assert chart.display and [row[1] for row in cells(screen, "#board-standings")] == ["builtin", "random"]


async def test_e_shows_every_contestant_entered_a_void_one_too():
    """A model whose every match is void has no rating, and is still on the screen, with its void matches."""
    import json as _json

    from labyrinth.saves.results_db import SideRecord

    model = SideRecord(_json.dumps({"provider": "openai", "model": "m"}), decisions=20, calls=20, provider_errors=20,
                       fallbacks=20, replaced=True)
    keep(kept("builtin", "wait", 1, "ESCAPED"), kept("openai/m", "wait", 1, "TIMEOUT", user_side=model).judged(),
         kept("openai/m", "wait", 2, "TIMEOUT", user_side=model).judged())
    app = LabyrinthApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_board(pilot, app)
        said = text(screen, "#board-title")
        assert "Leaderboard: 1 match (and 2 void ones, not rated: e lists them by contestant) in" in said
        assert [row[1] for row in cells(screen, "#board-standings")] == ["builtin"]
        await pilot.press("e")
        shown = cells(screen, "#board-standings")
        assert [row[:3] for row in shown] == [["builtin", "1", "0"], ["openai/m", "2", "2"]]
        assert shown[1][3:6] == ["100%", "0%", "100%"]  # its fallbacks, invalid answers, provider errors
        await pilot.press("e")
        assert [row[1] for row in cells(screen, "#board-standings")] == ["builtin"]


async def test_damaged_rows_are_said_on_the_screen():
    some_results()
    damage_first_row()
    app = LabyrinthApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_board(pilot, app)
        said = text(screen, "#board-title")
        assert "Leaderboard: 3 matches" in said and "row 1 of results.db is damaged: seed is 'abc'" in said
        assert "warning: these ratings pool matches played under different rules" in said
        await pilot.press("escape")
        with sqlite3.connect(results_path()) as db:
            db.execute("UPDATE matches SET outcome = 'WON'")
        db.close()
        screen = await open_board(pilot, app)
        said = text(screen, "#board-title").splitlines()
        assert said[0] == f"No matches in {results_path()} yet." and len(said) == 1 + DAMAGED_SHOWN + 1
        assert said[1] == "row 1 of results.db is damaged: seed is 'abc'; it is left out"
        assert said[-1] == "and 1 more damaged rows left out (`labyrinth leaderboard` lists them)"


async def test_a_match_opens_in_the_replay_player_and_back(capsys):
    real_tournament(capsys)
    app = LabyrinthApp(autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_board(pilot, app)
        await pilot.press("tab", "down", "enter")  # the matches, the second one
        await pilot.pause()
        player = app.screen
        assert isinstance(player, ReplayPlayerScreen)
        wanted = screen.board.matches[1]
        header = player.session.header
        assert (header.user_agent, header.minotaur_agent, header.seed) == (wanted.user, wanted.minotaur, wanted.seed)
        assert player.session.length == wanted.turns
        await pilot.press("q")
        assert app.screen is screen


@pytest.mark.parametrize("replay, said", [
    (None, "This match was kept without a replay: nothing to watch."),
    ("gone.jsonl", "This match's replay cannot be read: cannot read"),
    ("broken.jsonl", "not a Labyrinth replay"),
])
async def test_a_missing_or_broken_replay_is_said(tmp_path, replay, said):
    (tmp_path / "broken.jsonl").write_text("{not json\n")
    keep(kept("builtin", "wait", 1, "ESCAPED", None if replay is None else str(tmp_path / replay)))
    app = LabyrinthApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_board(pilot, app)
        screen.query_one("#board-matches", DataTable).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and said in text(screen, "#board-problem")


async def test_the_screen_says_when_there_is_nothing_or_the_database_is_broken():
    app = LabyrinthApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_board(pilot, app)
        assert "No results yet" in text(screen, "#board-title")
        await pilot.press("r", "h", "escape")
        path = results_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"not a database " * 300)
        screen = await open_board(pilot, app)
        assert "file is not a database" in text(screen, "#board-title")
        assert path.read_bytes() == b"not a database " * 300


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")  # a failed answer: a failure
async def test_a_screen_closed_while_the_database_is_read_is_left_alone(monkeypatch):
    from labyrinth.tui.screens import leaderboard

    release = threading.Event()
    read = threading.Event()

    def slow_read():
        release.wait(10)
        read.set()

    monkeypatch.setattr(leaderboard, "read_board", slow_read)
    app = LabyrinthApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await choose(pilot, app, "leaderboard")
        await pilot.press("escape")
        release.set()
        await wait_for(pilot, read.is_set)
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
