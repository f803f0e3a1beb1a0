"""The leaderboard as rows of text: the standings read from the results database,
for `labyrinth leaderboard`, its report files and the TUI's Leaderboard screen alike,
so that they never say a match, a rating or a win rate differently.

Each table is a tuple of columns (a header and which side its cells keep to)
and rows of plain strings, already made printable: the command line wraps them
in a Rich table, the screen in a DataTable, neither reads them as markup. The
rating over matches is drawn as a sparkline of block characters: eight heights
are enough to see a rating climb, settle or fall, they fit any terminal font
and width (ascii_text has a ramp for a terminal that is not UTF-8), and they need
no plotting package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from labyrinth.agents.compete.entries import Entry, entries
from labyrinth.agents.compete.manifest import ManifestError, keys, named
from labyrinth.agents.compete.paired import PairedDifference
from labyrinth.agents.compete.ratings import Rating, Standings, rate
from labyrinth.saves.results_db import NOBODY, MatchRow, ResultsDB, ResultsUnusable, results_path
from labyrinth.saves.results_terms import ROLE_WORDS

from .ascii_text import BLOCKS
from .game_words import ended
from .terminal_text import printable

RULES = ("preset", "difficulty", "max_turns", "learned", "build")  # what a match was played under: the filters
RULE_WORDS = {"preset": ("preset", "presets", "--preset"), "difficulty": ("difficulty", "difficulties", "--difficulty"),
              "max_turns": ("turn limit", "turn limits", "--max-turns"),
              "learned": ("learning", "learning", "--learned"),
              "build": ("build", "builds", "--build"),
              "run": ("run", "runs", "--run")}  # each rule: one, several, the option choosing one


@dataclass(frozen=True)
class Column:
    header: str
    right: bool = False  # numbers keep to the right, names to the left


RATING_COLUMNS = (Column("#", True), Column("contestant"), Column("rating", True), Column("95% interval", True),
                  Column("games", True), Column("W/D/L", True), Column("win rate (95%)", True))
HEAD_TO_HEAD_COLUMNS = (Column("user"), Column("Minotaur"), Column("games", True), Column("escaped", True),
                        Column("caught", True), Column("timeouts", True))
PAIRED_COLUMNS = (Column("first"), Column("second"), Column("pairs", True), Column("seeds", True),
                  Column("first - second", True), Column("95% interval", True), Column("p (Holm)", True))
ENTRY_COLUMNS = (Column("contestant"), Column("played", True), Column("void", True), Column("fallback", True),
                 Column("invalid", True), Column("errors", True), Column("timeout", True), Column("cost", True),
                 Column("$/win", True))
TOKEN_COLUMNS = (Column("calls", True), Column("tokens in", True), Column("tokens out", True),
                 Column("reasoning", True))  # the page's and the CSV's, beside ENTRY_COLUMNS: too wide for 80 columns
CONTESTANT_COLUMNS = (Column("role"), Column("contestant"), Column("provider/model"), Column("endpoint"),
                      Column("settings asked"), Column("settings sent"), Column("output"), Column("model answering"))
MATCH_COLUMNS = (Column("user"), Column("Minotaur"), Column("seed", True), Column("ground"), Column("outcome"),
                 Column("turns", True))


@dataclass(frozen=True)
class Board:
    """What the leaderboard shows: the matches it rated, the standings drawn from them, every
    contestant entered (void matches and all), the runs that played them, and the rows of the
    database it had to leave out."""

    path: Path  # the results database
    matches: tuple[MatchRow, ...]  # the valid ones, in play order, as the database gives them: rated
    standings: Standings
    damaged: tuple[str, ...] = ()  # one line for each damaged row left out
    rows: tuple[MatchRow, ...] = ()  # every match chosen, valid and void
    runs: tuple[tuple[str, str, dict[str, Any]], ...] = ()  # the runs that played them: id, start, manifest
    run: str | None = None  # the run chosen (--run), if one was

    @cached_property
    def entries(self) -> dict[str, tuple[Entry, ...]]:
        """Every contestant by role, rated or not (compete.entries); of a run chosen, every one its
        manifest names, even one with no match kept."""
        entered = next((recorded.get("contestants") for run_id, _, recorded in self.runs if run_id == self.run), None)
        return entries(self.rows, self.standings, entered)

    @property
    def void(self) -> int:
        return len(self.rows) - len(self.matches)

    def counted(self, where_void: str = "") -> str:
        """How many matches it holds, in words: '64 matches of run ... (and 16 void ones, not rated)';
        ``where_void``: where the void ones are shown, said with them ('e lists them')."""
        chosen = f" of run {self.run}" if self.run else ""
        shown = f": {where_void}" if where_void else ""
        void = f" (and {self.void} void one{'s' * (self.void != 1)}, not rated{shown})" if self.void else ""
        n = len(self.matches)
        return f"{n} match{'es' * (n != 1)}{chosen}{void}"

    def grounds(self) -> list[tuple[str, str, int, str, str, int]]:
        """Each kind of match rated together (preset, difficulty, turn limit, who learned, build), with
        how many: the ratings pool them, so the reader is told what was pooled."""
        counts = Counter(tuple(getattr(m, rule) for rule in RULES) for m in self.matches)
        return [(*ground, n) for ground, n in sorted(counts.items())]

    def pooled(self) -> str:
        """The grounds in words: 'tiny, normal, ≤400 turns, build 0.1.0 (48); small, ..., learning: user (12)'."""
        return printable("; ".join(f"{preset}, {difficulty}, ≤{turns} turns"
                                   f"{'' if learned == NOBODY else ', learning: ' + learned}"
                                   f"{', build ' + build if build else ''} ({n})"
                                   for preset, difficulty, turns, learned, build, n in self.grounds()))

    def warning(self) -> str | None:
        """What the ratings pool that should not be pooled (matches played under different rules),
        and how to rate one kind; None when every match was played under the same rules."""
        mixed = {rule: sorted({getattr(m, rule) for m in self.matches}) for rule in RULES}
        mixed = {rule: values for rule, values in mixed.items() if len(values) > 1}
        if not mixed:
            return None
        said = "; ".join(f"{RULE_WORDS[rule][1]} {', '.join(map(str, values))}" for rule, values in mixed.items())
        options = ", ".join(RULE_WORDS[rule][2] for rule in mixed)
        return printable(f"warning: these ratings pool matches played under different rules ({said}); "
                         f"rate one kind at a time with `labyrinth leaderboard {options}`")


def read_board(preset: str | None = None, difficulty: str | None = None, max_turns: int | None = None,
               learned: str | None = None, build: str | None = None, run: str | None = None) -> Board | None:
    """The standings of the valid matches in the results database (with the given rules only, when
    given; only the matches of the run ``run``, when given), and every match chosen, void ones
    included; None when there is no database yet. ResultsUnusable for one that cannot be read (it is
    kept as it is), and for a run it does not hold. The database is only read, never made or changed:
    a leaderboard is no reason to start one, and one on a read-only mount can be read."""
    path = results_path()
    if not path.exists():
        return None
    with ResultsDB(path, read_only=True) as db:
        rows = db.matches(preset=preset, difficulty=difficulty, max_turns=max_turns, learned=learned)
        runs = db.runs()
        damaged = tuple(db.damaged)
    if run is not None:
        try:
            wanted = set(keys(named(runs, run, path)))
        except ManifestError as problem:
            raise ResultsUnusable(str(problem)) from None
        rows = [row for row in rows if row.key in wanted]
    rows = [row for row in rows if build is None or row.build == build]
    matches = tuple(row for row in rows if row.valid)
    played_by = {row.run_id for row in rows}
    return Board(path, matches, rate(matches), damaged, tuple(rows),
                 tuple(found for found in runs if found[0] in played_by or found[0] == run), run)


def nothing_to_show(board: Board | None, **chosen: object) -> str | None:
    """Why there is no standing to show (no database yet, no match chosen), with what to do; or None.
    ``chosen``: the filters given (preset=..., max_turns=...), said when nothing matched them."""
    if board is None:
        return (f"no results yet: {results_path()} does not exist. `labyrinth tournament --users builtin,random "
                "--minotaurs builtin,wait` plays some.")
    if not board.rows:
        said = " and ".join(f"{RULE_WORDS[name][0]} {value}" for name, value in chosen.items() if value is not None)
        return f"no matches in {board.path}{' with ' + said if said else ''} yet."
    return None


def rating_rows(ratings: Sequence[Rating]) -> list[tuple[str, ...]]:
    """One row per contestant of a role, best first: its places (from its interval: contestants that
    cannot be told apart share them, '1–3'), label, rating with its 95% interval ('anchor' for the one
    the role is measured from), matches, wins/draws/losses, and win rate with its 95% Wilson interval."""
    rows: list[tuple[str, ...]] = []
    for r in ratings:
        low, high = r.win_interval
        places = str(r.rank_best) if r.rank_best == r.rank_worst else f"{r.rank_best}–{r.rank_worst}"
        span = "anchor" if r.anchor else interval(r.low, r.high, "{:.0f}–{:.0f}")
        rows.append((places, printable(r.label), f"{r.rating:.0f}", span, str(r.matches),
                     f"{r.wins}/{r.draws}/{r.losses}", f"{r.win_rate:.0%} ({low:.0%}–{high:.0%})"))
    return rows


def entry_rows(found: Sequence[Entry], with_tokens: bool = False) -> list[tuple[str, ...]]:
    """One row per contestant of a role, rated or not: the matches it played (copies of a game and void
    ones too: it played them, and a model's were paid for), how many are void by its doing, the
    share of its turns the fallback played and of its calls that failed each way, its cost ('–'
    where there is nothing to count: a rule agent makes no call); ``with_tokens``: its calls and
    tokens too (TOKEN_COLUMNS)."""
    rows: list[tuple[str, ...]] = []
    for e in found:
        row = (printable(e.label), str(e.matches), str(e.void), share(e.fallback_rate), share(e.invalid_rate),
               share(e.error_rate), share(e.timeout_rate), dollars(e.cost) if e.model else "–", _per_win(e))
        spent = (str(e.calls), tokens(e.tokens_in), tokens(e.tokens_out), tokens(e.reasoning_tokens)) \
            if e.calls else ("–",) * 4
        rows.append((*row, *spent) if with_tokens else row)
    return rows


def _per_win(entry: Entry) -> str:
    if not entry.model:
        return "–"
    return "no win" if entry.cost is not None and not entry.wins else dollars(entry.cost_per_win)


def contestant_rows(found: dict[str, tuple[Entry, ...]]) -> list[tuple[str, ...]]:
    """Who each model contestant is: its provider, model and endpoint's host, the settings it was asked
    with, what its requests sent (each distinct set of parameters, the most used first, and the asked
    settings they left out, with why), the output mode, and the models the API says answered (a rule
    agent is its name: the game's own code)."""
    rows: list[tuple[str, ...]] = []
    for role, entries_of_role in found.items():
        for e in entries_of_role:
            if not e.model:
                continue
            asked = ", ".join(f"{name} {e.settings[name]}" for name in ASKED if e.settings.get(name) is not None)
            sent = "; ".join(", ".join(f"{name} {value}" for name, value in (r.get("parameters") or {}).items()
                                       if name != "model") + (f" (system text {r['system']})" if r.get("system")
                                                              else "") for r in e.sent) or "nothing answered"
            sent += "".join(f"; {setting} dropped: {why}" for setting, why in e.dropped.items())
            output = ", ".join(dict.fromkeys(str(r.get("output")) for r in e.sent if r.get("output"))) or "–"
            rows.append((ROLE_WORDS[role], printable(e.label),
                         printable(f"{e.settings.get('provider', '')}/{e.settings.get('model', '')}"),
                         printable(e.host), printable(asked),
                         printable(sent), printable(output), printable(", ".join(e.model_versions) or "–")))
    return rows


ASKED = ("temperature", "max_tokens", "reasoning_effort")  # the sampling settings a contestant is asked with


def share(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.0%}" if rate == 0 or rate >= 0.01 else "<1%"


def tokens(count: int) -> str:
    """A count of tokens short: 950, 12.3k, 4.56M."""
    return f"{count}" if count < 1000 else f"{count / 1000:.3g}k" if count < 1_000_000 else f"{count / 1e6:.3g}M"


def dollars(amount: float | None) -> str:
    """US dollars to the cent, or to three figures under one dollar; '?' when the prices are not known."""
    if amount is None:
        return "?"
    return f"${amount:,.2f}" if amount >= 1 or amount == 0 else f"${amount:.3g}"


def head_to_head_rows(standings: Standings) -> list[tuple[str, ...]]:
    return [(printable(h.user), printable(h.minotaur), str(h.matches), str(h.escaped), str(h.caught),
             str(h.timeouts)) for h in standings.head_to_head]


def paired_rows(paired: Sequence[PairedDifference]) -> list[tuple[str, ...]]:
    """One row per two contestants of a role that met the same opponents on the same seeds: the mean
    difference with its 95% interval, and its p-value adjusted by Holm's method over every pair shown."""
    return [(printable(p.first), printable(p.second), str(p.pairs), str(p.seeds), f"{p.mean:+.2f}",
             interval(p.low, p.high, "{:+.2f} to {:+.2f}"), p_value(p.p_holm)) for p in paired]


def p_value(p: float | None) -> str:
    """A p-value as a table shows it: three places, '<0.001' below; '–' when there is none (one seed)."""
    return "–" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}"


def interval(low: float | None, high: float | None, form: str) -> str:
    """An interval in ``form`` (its two ends); '–' alone when there is none (one seed, or not asked)."""
    return "–" if low is None or high is None else form.format(low, high)


def match_row(match: MatchRow, standings: Standings) -> tuple[str, ...]:
    """A match as the list shows it, its contestants named as the standings name them."""
    return (printable(standings.label(match, "user")), printable(standings.label(match, "minotaur")), str(match.seed),
            printable(f"{match.preset} {match.difficulty}"), ended(match.outcome), str(match.turns))


def sparkline(values: Sequence[float], width: int, low: float | None = None, high: float | None = None) -> str:
    """``values`` as at most ``width`` bars between ``low`` and ``high`` (their own extremes when not
    given: pass a role's, to compare its contestants on one scale). More values than bars: each bar
    is the value at the end of its share, so the last bar is always the latest value."""
    if not values or width < 1:
        return ""
    if len(values) > width:
        values = [values[(i + 1) * len(values) // width - 1] for i in range(width)]
    low = min(values) if low is None else low
    high = max(values) if high is None else high
    if high <= low:
        return BLOCKS[len(BLOCKS) // 2] * len(values)
    top = len(BLOCKS) - 1
    return "".join(BLOCKS[max(0, min(top, round((v - low) / (high - low) * top)))] for v in values)


def history_range(ratings: Sequence[Rating]) -> tuple[float, float]:
    """The lowest and highest rating any of ``ratings`` ever had: one scale for their sparklines."""
    seen = [v for r in ratings for v in r.history] or [0.0]
    return min(seen), max(seen)
