"""`labyrinth leaderboard --csv / --paired-csv / --html`: the figures the tables show, as
files written whole; hostile names escaped in the page and kept from running as
spreadsheet formulas; the page free of anything that would reach the network; a path
that cannot be written said in one line (exit 2)."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser

import pytest

from labyrinth.agents.compete.ratings import rate
from labyrinth.saves.results_db import MatchRow, ResultsDB
from labyrinth.tui.cli import main

HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
FORMULA = "=HYPERLINK(\"http://evil\",\"x\")"


class Tags(HTMLParser):
    """The elements of a page, and any attribute of theirs that would fetch something."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()
        self.reaching: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.add(tag)
        self.reaching += [(tag, name) for name, _ in attrs if name in ("src", "href", "xlink:href", "action")]


def keep_tournament() -> list[MatchRow]:
    """Two users (one named to attack a page, one a spreadsheet) against two Minotaurs on three seeds."""
    outcomes = iter(["ESCAPED", "DEATH", "TIMEOUT", "DEATH", "ESCAPED", "ESCAPED"] * 2)
    with ResultsDB() as db:
        for seed in (1, 2, 3):
            for user in (HOSTILE, FORMULA):
                for minotaur in ("builtin", "wait"):
                    outcome = "DEATH" if minotaur == "builtin" and user == FORMULA else next(outcomes)
                    db.record(MatchRow(user, minotaur, seed, "tiny", "normal", 20, outcome, 7, 12.5))
        return db.matches()


def test_the_csv_files_hold_the_tables_figures(tmp_path, capsys):
    rows = keep_tournament()
    ratings, paired = tmp_path / "ratings.csv", tmp_path / "paired.csv"
    assert main(["leaderboard", "--csv", str(ratings), "--paired-csv", str(paired), "--json"]) == 0
    capsys.readouterr()
    standings = rate(rows)
    found = list(csv.DictReader(io.StringIO(ratings.read_text())))
    assert [(r["role"], r["label"]) for r in found] == \
        [(role, ("'" + r.label) if r.label == FORMULA else r.label) for role in ("user", "minotaur")
         for r in standings.ratings[role]]  # best first; the formula kept as text
    for line, rating in zip(found, (*standings.ratings["user"], *standings.ratings["minotaur"]), strict=True):
        assert float(line["rating"]) == pytest.approx(rating.rating, abs=1e-6)
        assert (float(line["low"]), float(line["high"])) == pytest.approx((rating.low, rating.high), abs=1e-6)
        assert (int(line["wins"]), int(line["draws"]), int(line["losses"]), int(line["matches"])) == \
            (rating.wins, rating.draws, rating.losses, rating.matches)
        assert float(line["win_low"]) == pytest.approx(rating.win_interval[0], abs=1e-6)
    found = list(csv.DictReader(io.StringIO(paired.read_text())))
    for difference, wanted in zip(found, (*standings.paired["user"], *standings.paired["minotaur"]), strict=True):
        assert (difference["role"], difference["pairs"], difference["seeds"]) == (wanted.role, "6", "3")
        assert float(difference["mean"]) == pytest.approx(wanted.mean, abs=1e-6)
        assert (float(difference["low"]), float(difference["high"])) == \
            pytest.approx((wanted.low, wanted.high), abs=1e-6)
    assert [d["role"] for d in found] == ["user", "minotaur"]


def test_the_page_escapes_every_name_and_reaches_for_nothing(tmp_path, capsys):
    keep_tournament()
    page = tmp_path / "board.html"
    assert main(["leaderboard", "--html", str(page)]) == 0
    out, err = capsys.readouterr()
    html = page.read_text()
    assert "<script" not in html and "<img" not in html and "onerror=alert(2)>" not in html  # no tag of theirs
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in html
    tags = Tags()
    tags.feed(html)
    assert tags.seen >= {"html", "svg", "polyline", "table"} and not tags.seen & {"script", "img", "link", "iframe"}
    assert not tags.reaching and "url(" not in html and "@import" not in html  # nothing the page would fetch
    assert "default-src 'none'" in html
    for section in ("ratings-user", "history-user", "paired-user", "ratings-minotaur", "history-minotaur",
                    "head-to-head"):
        assert f'id="{section}"' in html
    assert html.count('<polyline class="history"') == 4  # a line for each contestant of each role
    assert html.count('<circle class="estimate"') == 6  # a dot for each rating and each paired difference
    assert "Leaderboard" in out and err == ""  # the tables printed as well


def test_a_report_that_cannot_be_written_is_said_in_one_line(tmp_path, capsys):
    keep_tournament()
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for option, path, why in (("--html", blocker / "board.html", "a file stands where a folder should be"),
                              ("--csv", tmp_path, "a directory, not a file")):
        assert main(["leaderboard", option, str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and err.startswith("labyrinth leaderboard: cannot write ")
        assert why in err and "Traceback" not in err
    assert not list(tmp_path.glob(".*.tmp")) and blocker.read_text() == ""


def test_a_report_without_results_says_so(tmp_path, capsys):
    page = tmp_path / "board.html"
    assert main(["leaderboard", "--html", str(page), "--csv", str(tmp_path / "r.csv")]) == 0
    assert "no results yet" in capsys.readouterr().out
    assert "0 matches in" in page.read_text() and "Rated together: nothing yet." in page.read_text()
    assert (tmp_path / "r.csv").read_text().startswith("role,name,setup,label,rank_best,rank_worst,anchor,rating,")
