"""The leaderboard as files to publish: `labyrinth leaderboard --csv`, `--paired-csv` and
`--html`. The same figures as the tables (leaderboard_rows), for a spreadsheet or a web page.

CSV: the ratings, one row per contestant and role; the paired differences in a file of
their own (another shape of row). Figures to six decimals, an unknown one empty; a
name that a spreadsheet would run as a formula (starting with = + - @ or a tab) is
written with a ' before it, as OWASP advises.

HTML: one page that needs nothing else: its styles inline, its charts inline SVG
(leaderboard_svg), no script, and a Content-Security-Policy that lets it load nothing,
so a name written to look like markup can neither run nor fetch anything; and every
name is escaped besides.

Files are written atomically (saves.atomic): a reader sees the old file or the new one.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from html import escape
from pathlib import Path

from labyrinth.saves.atomic import write_atomic

from .leaderboard_rows import (
    HEAD_TO_HEAD_COLUMNS,
    PAIRED_COLUMNS,
    RATING_COLUMNS,
    TITLES,
    Board,
    Column,
    head_to_head_rows,
    paired_rows,
    rating_rows,
)
from .leaderboard_svg import interval_chart, line_chart
from .leaderboard_tables import PAIRED_TITLE, RATINGS_TITLE

RATING_FIELDS = ("role", "name", "setup", "label", "rating", "low", "high", "matches", "wins", "draws", "losses",
                 "win_rate", "win_low", "win_high")
PAIRED_FIELDS = ("role", "first", "second", "pairs", "seeds", "mean", "low", "high")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 800px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; text-align: left; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
.warning { background: #fff3cd; border-left: 4px solid #e0a800; padding: 0.5em 0.8em; }
.damaged { color: #a00; }
.method { color: #555; font-size: 0.92em; }
svg.chart { max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
"""
CSP = "default-src 'none'; style-src 'unsafe-inline'"
METHOD = ("How the figures are made: one Bradley-Terry fit to every match (a draw is half a win to each side), "
          "users and Minotaurs on one scale whose mean is 1500; a user rated R against a Minotaur rated M is "
          "expected to score 1 / (1 + 10^((M - R) / 400)). The 95% interval of a rating is a bootstrap over "
          "the matches (fixed seed). The paired difference compares two contestants where they met the same "
          "opponent on the same seed: the mean over seeds of first's score minus second's (1 a win, 0.5 a "
          "draw), with a 95% interval over the seeds (Bonett and Price's, adjusted for few seeds). The rating "
          "over matches is the fit to the matches played so far, in play order.")


def write_report(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8), atomically; StorageError (one line) when it cannot be."""
    write_atomic(path, lambda out: out.write(text.encode()), Path(path).absolute().parent)


def ratings_csv(board: Board, roles: Sequence[str]) -> str:
    """One row per contestant and role: its rating with its interval, its record and win rate."""
    rows = []
    for role in roles:
        for r in board.standings.ratings[role]:
            win_low, win_high = r.win_interval
            rows.append((role, _cell(r.name), _cell(r.setup), _cell(r.label), r.rating, r.low, r.high, r.matches,
                         r.wins, r.draws, r.losses, r.win_rate, win_low, win_high))
    return _csv(RATING_FIELDS, rows)


def paired_csv(board: Board, roles: Sequence[str]) -> str:
    """One row per two contestants of a role with paired matches."""
    return _csv(PAIRED_FIELDS, [(role, _cell(p.first), _cell(p.second), p.pairs, p.seeds, p.mean, p.low, p.high)
                                for role in roles for p in board.standings.paired[role]])


def html_page(board: Board, roles: Sequence[str]) -> str:
    """The whole page: what was rated, each role's ratings (chart and table), its rating over matches,
    its paired differences, and the head-to-head table."""
    rated = escape(board.pooled()) or "nothing yet"
    body = ["<h1>Labyrinth: The Temporal Hunt &mdash; leaderboard</h1>",
            f"<p>{len(board.matches)} matches in <code>{escape(str(board.path))}</code>. Rated together: {rated}.</p>"]
    if warning := board.warning():
        body.append(f'<p class="warning">{escape(warning)}</p>')
    body += [f'<p class="damaged">{escape(line)}</p>' for line in board.damaged]
    for role in roles:
        body += [_ratings(board, role), _history(board, role), _paired(board, role)]
    body += [_section("head-to-head", "Head to head (user vs Minotaur)",
                      _table(HEAD_TO_HEAD_COLUMNS, head_to_head_rows(board.standings))),
             f'<p class="method">{escape(METHOD)}</p>']
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Labyrinth leaderboard</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _ratings(board: Board, role: str) -> str:
    ratings = board.standings.ratings[role]
    title = RATINGS_TITLE.format(TITLES[role])
    return _section(f"ratings-{role}", title,
                    interval_chart([(r.label, r.rating, r.low, r.high) for r in ratings], title=title),
                    _table(RATING_COLUMNS, rating_rows(ratings)))


def _history(board: Board, role: str) -> str:
    title = f"{TITLES[role]} rating over matches"
    return _section(f"history-{role}", title,
                    line_chart([(r.label, r.history_at, r.history) for r in board.standings.ratings[role]],
                               title=title, x_label="its matches played", y_label="rating"))


def _paired(board: Board, role: str) -> str:
    paired = board.standings.paired[role]
    title = PAIRED_TITLE.format(TITLES[role], next(t for other, t in TITLES.items() if other != role))
    if not paired:
        return _section(f"paired-{role}", title, "<p>No two contestants met the same opponent on the same seed.</p>")
    return _section(f"paired-{role}", title,
                    interval_chart([(f"{p.first} - {p.second}", p.mean, p.low, p.high) for p in paired],
                                   title=title, zero=0.0, form="{:+.2f}"),
                    _table(PAIRED_COLUMNS, paired_rows(paired)))


def _section(name: str, title: str, *parts: str) -> str:
    """A section of the page, its heading the title with a capital."""
    return (f'<section id="{name}"><h2>{escape(title[0].upper() + title[1:])}</h2>'
            + "".join(parts) + "</section>")


def _table(columns: Sequence[Column], rows: list[tuple[str, ...]]) -> str:
    def cell(tag: str, column: Column, text: str) -> str:
        return f'<{tag}{" class=number" if column.right else ""}>{escape(text)}</{tag}>'

    head = "".join(cell("th", c, c.header) for c in columns)
    body = "".join("<tr>" + "".join(cell("td", c, text) for c, text in zip(columns, row, strict=True)) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(text: str) -> str:
    """A name as a CSV cell: one a spreadsheet would run as a formula is kept as text."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _figure(value: object) -> object:
    """A cell as written: nothing for a figure not known, a float to six decimals (no more is
    known; no 2.7e-17 for a zero)."""
    if value is None:
        return ""
    return round(value, 6) if isinstance(value, float) else value


def _csv(fields: Sequence[str], rows: list[tuple]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(fields)
    writer.writerows([_figure(value) for value in row] for row in rows)
    return out.getvalue()
