"""The `--html` page in a real browser, headless Chromium (Debian's `chromium` package;
`.ci/run` installs it): the DOM the browser built holds each contestant's line with one
point per point of its history, and the screenshot shows the lines drawn inside the
line chart's plot area (found by its own tint). Skipped, saying why, where Chromium is
missing."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from html import unescape
from pathlib import Path

import numpy as np  # the test suite has it (gymnasium's)
import pytest

from labyrinth.agents.compete.ratings import rate
from labyrinth.saves.results_db import MatchRow, ResultsDB
from labyrinth.tui.cli import main
from labyrinth.tui.leaderboard_svg import COLOURS, PLOT_FILL

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH: Debian's package (apt-get install "
                                                          "chromium) runs this test; .ci/run installs it as root")]
QUIET = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars")


def chromium(profile: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([CHROMIUM, *QUIET, f"--user-data-dir={profile}", *args], capture_output=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    return done


def page_of_three_users(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """Three users against two Minotaurs on five seeds, as a page of the user ratings; and how many
    points each user's history has."""
    outcomes = ["ESCAPED", "DEATH", "TIMEOUT", "DEATH", "ESCAPED", "DEATH", "DEATH"]
    with ResultsDB() as db:
        for seed in range(1, 6):
            for u, user in enumerate(("builtin", "random", "<b>llama</b>")):
                for m, minotaur in enumerate(("builtin", "wait")):
                    db.record(MatchRow(user, minotaur, seed, "tiny", "normal", 20,
                                       outcomes[(seed * 3 + u * 2 + m) % len(outcomes)], 7, 12.5))
        standings = rate(db.matches())
    page = tmp_path / "board.html"
    assert main(["leaderboard", "--role", "user", "--html", str(page)]) == 0
    return page, {r.label: len(r.history) for r in standings.ratings["user"]}


def test_the_page_draws_each_contestants_line(tmp_path, capsys):
    page, points = page_of_three_users(tmp_path)
    capsys.readouterr()
    dom = chromium(tmp_path / "profile", "--dump-dom", page.as_uri()).stdout.decode()
    lines = re.findall(r'<polyline class="history" data-points="(\d+)" points="([^"]*)"[^>]*><title>([^<]*)</title>',
                       dom)
    assert {unescape(name): len(drawn.split()) for _, drawn, name in lines} == points == \
        {unescape(name): int(count) for count, _, name in lines}
    assert all(n == 10 for n in points.values())  # every match a point: no more than the history's limit

    shot = tmp_path / "board.png"
    chromium(tmp_path / "profile", f"--screenshot={shot}", "--window-size=1000,1100", page.as_uri())
    pixels = png_pixels(shot.read_bytes()).astype(int)
    rows, columns = np.nonzero((pixels == rgb(PLOT_FILL)).all(axis=2))
    assert rows.size > 100_000, "the line chart's plot area is not on the page"
    plot = pixels[rows.min():rows.max() + 1, columns.min():columns.max() + 1]
    for colour in map(rgb, COLOURS[:3]):  # each user's line, in its colour, inside the plot
        drawn = int((abs(plot - colour).sum(axis=2) < 40).sum())
        assert drawn > 200, f"no line of colour {colour} in the plot ({drawn} pixels)"


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def png_pixels(data: bytes) -> np.ndarray:
    """The RGB pixels (rows, columns, 3) of an 8-bit RGB or RGBA PNG, as Chromium writes its
    screenshots: the format's five row filters undone, with no imaging package."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour_type in (2, 6)
        elif kind == b"IDAT":
            chunks.append(body)
        at += 12 + length
    size = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks)), width * size
    image = np.zeros((height, stride), np.uint8)
    above = image[0] * 0
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1)
        if kind == 1:  # each byte adds the one a pixel before: a running sum per channel
            line = np.cumsum(line.reshape(width, size), axis=0, dtype=np.uint8).reshape(stride)
        elif kind == 2:
            line = line + above
        elif kind in (3, 4):  # each byte depends on the one just undone: byte by byte
            line, up = line.tolist(), above.tolist()
            for i in range(stride):
                left, corner = (line[i - size], up[i - size]) if i >= size else (0, 0)
                if kind == 3:
                    guess = (left + up[i]) // 2
                else:
                    p = left + up[i] - corner
                    guess = min((abs(p - left), 0, left), (abs(p - up[i]), 1, up[i]), (abs(p - corner), 2, corner))[2]
                line[i] = (line[i] + guess) & 255
            line = np.array(line, np.uint8)
        image[y] = above = line
    return image.reshape(height, width, size)[:, :, :3]


def test_the_page_shows_who_played_and_how_the_figures_are_made(tmp_path, capsys):
    """A model contestant (what it was asked and sent, the model that answered) beside rule agents: the
    browser's DOM holds the 'who played' table, the entries with a void one, and the method section."""
    import json

    from labyrinth.saves.results_terms import SideRecord

    asked = json.dumps({"provider": "openai", "model": "o4-mini", "endpoint": "http://127.0.0.1:8000/v1",
                        "temperature": 0.0, "max_tokens": 300, "reasoning_effort": None, "price_in": 1.1,
                        "price_out": 4.4})
    sent = json.dumps({"prompt_version": "1", "model_versions": ["o4-mini-2025-04-16"],
                       "dropped": {"temperature": "not sent: a reasoning model takes none"},
                       "requests": [{"parameters": {"model": "o4-mini", "max_completion_tokens": 4396,
                                                    "reasoning_effort": "low"}, "output": "json_schema (strict)",
                                     "calls": 21}]})
    model = SideRecord(asked, decisions=20, calls=21, answered=21, tokens_in=40_000, tokens_out=9_000, sent=sent)
    with ResultsDB() as db:
        for seed in range(1, 4):
            for minotaur in ("builtin", "wait"):
                db.record(MatchRow("o4", minotaur, seed, "tiny", "normal", 20, "TIMEOUT", 20, 40.0, user_side=model,
                                   digest=f"{seed}{minotaur}").judged())
                db.record(MatchRow("builtin", minotaur, seed, "tiny", "normal", 20,
                                   "ESCAPED" if seed == 1 else "DEATH", 9, 12.5, digest=f"b{seed}{minotaur}"))
        db.record(MatchRow("o4", "wait", 4, "tiny", "normal", 20, "TIMEOUT", 20, 40.0,
                           user_side=SideRecord(asked, decisions=20, fallbacks=20, calls=5, provider_errors=5,
                                                replaced=True)).judged())
    page = tmp_path / "board.html"
    assert main(["leaderboard", "--html", str(page)]) == 0
    capsys.readouterr()
    dom = unescape(re.sub(r"<[^>]+>", "|", chromium(tmp_path / "profile", "--dump-dom", page.as_uri()).stdout.decode()))
    cells = [cell for cell in dom.split("|") if cell.strip()]
    who = cells[cells.index("Who played"):]
    assert who[who.index("o4") + 1:who.index("o4") + 7] == [
        "openai/o4-mini", "127.0.0.1:8000", "temperature 0.0, max_tokens 300",
        "max_completion_tokens 4396, reasoning_effort low; temperature dropped: not sent: a reasoning model takes none",
        "json_schema (strict)", "o4-mini-2025-04-16"]
    entries = cells[cells.index("User contestants entered: void matches, failures, cost"):]
    assert entries[entries.index("o4") + 1:entries.index("o4") + 3] == ["7", "1"]  # 7 played, 1 void
    method = " ".join(cells[cells.index("Method"):])
    assert "Only valid matches are rated" in method and "user ratings on builtin = 1500" in method
    assert "Holm" in method and "bootstrap over the 3 seeds" in method
    assert "/tmp" not in " ".join(cells) and str(tmp_path) not in " ".join(cells)  # no local path, wherever tmp is
    shot = tmp_path / "board.png"
    chromium(tmp_path / "profile", f"--screenshot={shot}", "--window-size=1200,900", page.as_uri())
    assert png_pixels(shot.read_bytes()).shape[:2] == (900, 1200)
