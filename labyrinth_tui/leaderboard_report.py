"""The leaderboard as files to publish: `labyrinth leaderboard --csv`, `--paired-csv` and
`--html`. The same figures as the tables (leaderboard_rows), for a spreadsheet or a web page.

CSV: the ratings, one row per contestant and role; the paired differences in a file of
their own (another shape of row). Figures to six decimals, an unknown one empty; every
text without its control characters (C0, DEL, C1: a hand-edited database's escapes), and one
that a spreadsheet would run as a formula (starting with = + - @ once they are gone, so a tab
before one as well) written with a ' before it, as OWASP advises.

HTML: one page that needs nothing else: its styles inline, its charts inline SVG
(leaderboard_svg), no script, and a Content-Security-Policy that lets it load nothing,
so a name written to look like markup can neither run nor fetch anything; and every
name is escaped besides.

Each goes where the user names (saves.outputs): a file written atomically (a reader sees the old
file or the new one), or standard output (-); a directory, device, FIFO or socket is refused.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from pathlib import Path

from labyrinth.agents.compete.manifest import design
from labyrinth.agents.compete.ratings import method_text
from labyrinth.engine.wsap.actions import GAME_NAME
from labyrinth.saves.outputs import write_output
from labyrinth.saves.results_db import COLUMNS, row_values
from labyrinth.saves.results_terms import FALLBACK_SHARE_ALLOWED

from .leaderboard_rows import (
    CONTESTANT_COLUMNS,
    ENTRY_COLUMNS,
    HEAD_TO_HEAD_COLUMNS,
    PAIRED_COLUMNS,
    RATING_COLUMNS,
    ROLE_WORDS,
    TOKEN_COLUMNS,
    Board,
    Column,
    contestant_rows,
    entry_rows,
    head_to_head_rows,
    paired_rows,
    rating_rows,
)
from .leaderboard_svg import interval_chart, line_chart
from .leaderboard_tables import ENTRIES_TITLE, HEAD_TO_HEAD_TITLE, RATINGS_TITLE, paired_title
from .report_text import html, plain

RATING_FIELDS = ("role", "name", "setup", "label", "rank_best", "rank_worst", "anchor", "rating", "low", "high",
                 "matches", "wins", "draws", "losses",
                 "win_rate", "win_low", "win_high", "entered", "void", "fallback_rate", "invalid_rate", "error_rate",
                 "timeout_rate", "calls", "tokens_in", "tokens_out", "reasoning_tokens", "cost", "cost_per_win")
PAIRED_FIELDS = ("role", "first", "second", "pairs", "seeds", "mean", "low", "high", "p", "p_holm", "method")
FORMULA_STARTS = ("=", "+", "-", "@")  # and a tab or carriage return, which report_text.plain removes first
STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
.table { overflow-x: auto; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
th { white-space: nowrap; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
.warning { background: #fff3cd; border-left: 4px solid #e0a800; padding: 0.5em 0.8em; }
.damaged { color: #a00; }
.method { color: #555; font-size: 0.92em; }
code { font-size: 0.95em; }
svg.chart { max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
"""
CSP = "default-src 'none'; style-src 'unsafe-inline'"
VALID_RULE = (f"Only valid matches are rated: a match in which a model did not decide its own turns (replaced by "
              f"the built-in agent after failing in a row, or more than {FALLBACK_SHARE_ALLOWED:.0%} of its turns "
              "played by the fallback) is void. A void match is kept, counted against its contestant in the tables "
              "of contestants entered, and never played again unless asked (`tournament --replay-void`).")
COST_RULE = ("Cost: each model's tokens at its contestant's prices (US dollars per million tokens in and out, "
             "reasoning counted as output), over every match it played, void ones included; '?' where no price "
             "was given. Per win: that cost over its valid wins.")

def write_report(path: str | Path, text: str) -> None:
    """``text`` (UTF-8) written where the user named (saves.outputs: a file replaced atomically, or
    standard output); StorageError (one line) when the path is refused or cannot be written."""
    write_output(path, lambda out: out.write(text.encode()))


def ratings_csv(board: Board, roles: Sequence[str]) -> str:
    """One row per contestant and role, rated or not (every match of it void): its rating with its
    interval, its record and win rate (empty when not rated), the matches it entered, how many are
    void by its doing, its failure rates, tokens and cost."""
    rows = []
    for role in roles:
        rated = {(r.name, r.setup): r for r in board.standings.ratings[role]}
        for e in board.entries[role]:
            r = rated.get((e.name, e.setup))
            win_low, win_high = r.win_interval if r else (None, None)
            record = (r.rank_best, r.rank_worst, r.anchor, r.rating, r.low, r.high, r.matches, r.wins, r.draws,
                      r.losses, r.win_rate, win_low, win_high) if r else (None,) * 13
            rows.append((role, e.name, e.setup, e.label, *record, e.matches, e.void, e.fallback_rate,
                         e.invalid_rate, e.error_rate, e.timeout_rate, e.calls, e.tokens_in, e.tokens_out,
                         e.reasoning_tokens, e.cost if e.model else None, e.cost_per_win if e.model else None))
    return _csv(RATING_FIELDS, rows)


def matches_csv(board: Board, roles: Sequence[str]) -> str:
    """One row per match chosen, valid and void, in play order, with every figure the database keeps (a
    side's settings as JSON; the replay by its file name: where it lies is this machine's business)."""
    rows = []
    for row in board.rows:
        values = dict(zip(COLUMNS, row_values(row), strict=True))
        values["replay"] = Path(values["replay"]).name if values["replay"] else None
        rows.append(tuple(values.values()))
    return _csv(COLUMNS, rows)


def paired_csv(board: Board, roles: Sequence[str]) -> str:
    """One row per two contestants of a role with paired matches."""
    return _csv(PAIRED_FIELDS, [(role, p.first, p.second, p.pairs, p.seeds, p.mean, p.low, p.high, p.p, p.p_holm,
                                 p.method)
                                for role in roles for p in board.standings.paired[role]])


def html_page(board: Board, roles: Sequence[str]) -> str:
    """The whole page: what was rated and by which runs, each role's ratings (chart and table), its
    rating over matches, every contestant entered with its void matches, failures, tokens and cost,
    its paired differences; who the model contestants are; the head-to-head table; and how the
    figures are made. No local path is shown (the database by its file name only)."""
    rated = html(board.pooled()) or "nothing yet"
    body = [f"<h1>{html(GAME_NAME)} &mdash; leaderboard</h1>",
            (f"<p>{html(board.counted())} in <code>{html(board.path.name)}</code>. "
             f"Rated together: {rated}.</p>")]
    for warning in (board.warning(), board.standings.copies_warning):
        if warning:
            body.append(f'<p class="warning">{_prose(warning)}</p>')
    body += [f'<p class="damaged">{html(line)}</p>' for line in board.damaged]
    for role in roles:
        body += [_ratings(board, role), _history(board, role), _entries(board, role), _paired(board, role)]
    who = contestant_rows({role: board.entries[role] for role in roles})
    body += [_section("contestants", "Who played", _table(CONTESTANT_COLUMNS, who) if who else
                      "<p>Only the game's own agents played.</p>"),
             _section("head-to-head", HEAD_TO_HEAD_TITLE,
                      _table(HEAD_TO_HEAD_COLUMNS, head_to_head_rows(board.standings))),
             _section("method", "Method", _method(board))]
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Labyrinth leaderboard</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _entries(board: Board, role: str) -> str:
    title = ENTRIES_TITLE.format(ROLE_WORDS[role])
    return _section(f"entries-{role}", title, _table((*ENTRY_COLUMNS, *TOKEN_COLUMNS),
                                                     entry_rows(board.entries[role], with_tokens=True)))


def _method(board: Board) -> str:
    """How the figures were made, as a list: the valid-match rule, the ratings and intervals, the
    ground and seeds and the builds that played, and what cost means."""
    seeds = sorted({row.seed for row in board.rows})
    builds = sorted({row.build for row in board.rows})
    runs = "".join(f"<li><code>{html(run_id)}</code>: {html(design(recorded))}</li>"
                   for run_id, _, recorded in board.runs)
    items = [VALID_RULE, *method_text(board.standings),
             (f"Played on: {board.pooled() or 'nothing yet'}; {len(seeds)} seeds"
              f"{f' ({seeds[0]} to {seeds[-1]})' if seeds else ''}; by build{'s' * (len(builds) != 1)} "
              f"{', '.join(builds) or 'none'}."), COST_RULE]
    listed = "".join(f"<li>{_prose(item)}</li>" for item in items)
    return (f'<ul class="method">{listed}</ul>'
            + (f'<p class="method">The runs (each one\'s manifest is in the database; <code>labyrinth tournament '
               f'--rerun RUN</code> plays one again):</p><ul class="method">{runs}</ul>' if runs else ""))


def _prose(text: str) -> str:
    """``text`` escaped, its `quoted commands` set as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html(text))


def _ratings(board: Board, role: str) -> str:
    ratings = board.standings.ratings[role]
    title = RATINGS_TITLE.format(ROLE_WORDS[role])
    return _section(f"ratings-{role}", title,
                    interval_chart([(r.label, r.rating, r.low, r.high) for r in ratings], title=title),
                    _table(RATING_COLUMNS, rating_rows(ratings)))


def _history(board: Board, role: str) -> str:
    title = f"{ROLE_WORDS[role]} rating over matches"
    return _section(f"history-{role}", title,
                    line_chart([(r.label, r.history_at, r.history) for r in board.standings.ratings[role]],
                               title=title, x_label="its matches played", y_label="rating"))


def _paired(board: Board, role: str) -> str:
    paired = board.standings.paired[role]
    title = paired_title(role)
    if not paired:
        return _section(f"paired-{role}", title, "<p>No two contestants met the same opponent on the same seed.</p>")
    return _section(f"paired-{role}", title,
                    interval_chart([(f"{p.first} - {p.second}", p.mean, p.low, p.high) for p in paired],
                                   title=title, zero=0.0, form="{:+.2f}"),
                    _table(PAIRED_COLUMNS, paired_rows(paired)))


def _section(name: str, title: str, *parts: str) -> str:
    """A section of the page, its heading the title with a capital."""
    return (f'<section id="{name}"><h2>{html(title[0].upper() + title[1:])}</h2>'
            + "".join(parts) + "</section>")


def _table(columns: Sequence[Column], rows: list[tuple[str, ...]]) -> str:
    def cell(tag: str, column: Column, text: str) -> str:
        return f'<{tag}{" class=number" if column.right else ""}>{html(text)}</{tag}>'

    head = "".join(cell("th", c, c.header) for c in columns)
    body = "".join("<tr>" + "".join(cell("td", c, text) for c, text in zip(columns, row, strict=True)) + "</tr>"
                   for row in rows)
    return f'<div class="table"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _cell(text: str) -> str:
    """A text as a CSV cell: without control characters (a hand-edited database's escape sequence,
    carriage return or NUL would reach whatever shows the file), and kept as text when a spreadsheet
    would run it as a formula."""
    text = plain(text)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _figure(value: object) -> object:
    """A cell as written: nothing for a figure not known, a float to six decimals (no more is
    known; no 2.7e-17 for a zero), a text as ``_cell`` makes it."""
    if value is None:
        return ""
    if isinstance(value, str):
        return _cell(value)
    return round(value, 6) if isinstance(value, float) else value


def _csv(fields: Sequence[str], rows: list[tuple]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(fields)
    writer.writerows([_figure(value) for value in row] for row in rows)
    return out.getvalue()
