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
from pathlib import Path

from labyrinth.agents.compete.paired import PairedDifference
from labyrinth.agents.compete.ratings import Rating, Standings, rate
from labyrinth.saves.results_db import NOBODY, MatchRow, ResultsDB, results_path

from .ascii_text import BLOCKS
from .terminal_text import printable

BARS = BLOCKS  # a sparkline's heights, lowest first
TITLES = {"user": "user", "minotaur": "Minotaur"}  # each role's standings, as the tables name them
OUTCOME_WORDS = {"ESCAPED": "escaped", "DEATH": "caught", "TIMEOUT": "timeout"}  # the user was, in the match list
RULES = ("preset", "difficulty", "max_turns", "learned")  # what a match was played under: the leaderboard's filters
RULE_WORDS = {"preset": ("preset", "presets", "--preset"), "difficulty": ("difficulty", "difficulties", "--difficulty"),
              "max_turns": ("turn limit", "turn limits", "--max-turns"),
              "learned": ("learning", "learning", "--learned")}  # each rule: one, several, the option choosing one


@dataclass(frozen=True)
class Column:
    header: str
    right: bool = False  # numbers keep to the right, names to the left


RATING_COLUMNS = (Column("#", True), Column("contestant"), Column("rating", True), Column("95% interval", True),
                  Column("games", True), Column("W/D/L", True), Column("win rate (95%)", True))
HEAD_TO_HEAD_COLUMNS = (Column("user"), Column("Minotaur"), Column("games", True), Column("escaped", True),
                        Column("caught", True), Column("timeouts", True))
PAIRED_COLUMNS = (Column("first"), Column("second"), Column("pairs", True), Column("seeds", True),
                  Column("first - second", True), Column("95% interval", True))
MATCH_COLUMNS = (Column("user"), Column("Minotaur"), Column("seed", True), Column("ground"), Column("outcome"),
                 Column("turns", True))


@dataclass(frozen=True)
class Board:
    """What the leaderboard shows: the matches it rated, the standings drawn from them, and the
    rows of the database it had to leave out."""

    path: Path  # the results database
    matches: tuple[MatchRow, ...]  # in play order, as the database gives them
    standings: Standings
    damaged: tuple[str, ...] = ()  # one line for each damaged row left out

    def grounds(self) -> list[tuple[str, str, int, str, int]]:
        """Each kind of match rated together (preset, difficulty, turn limit, who learned), with how
        many: the ratings pool them, so the reader is told what was pooled."""
        counts = Counter(tuple(getattr(m, rule) for rule in RULES) for m in self.matches)
        return [(*ground, n) for ground, n in sorted(counts.items())]

    def pooled(self) -> str:
        """The grounds in words: 'tiny, normal, ≤400 turns (48); small, ..., learning: user (12)'."""
        return printable("; ".join(f"{preset}, {difficulty}, ≤{turns} turns"
                                   f"{'' if learned == NOBODY else ', learning: ' + learned} ({n})"
                                   for preset, difficulty, turns, learned, n in self.grounds()))

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
               learned: str | None = None) -> Board | None:
    """The standings of the valid matches in the results database (with the given rules only, when
    given); None when there is no database yet. ResultsUnusable for one that cannot be read (it is
    kept as it is). The database is only read, never made or changed: a leaderboard is no reason to
    start one, and one on a read-only mount can be read."""
    path = results_path()
    if not path.exists():
        return None
    with ResultsDB(path, read_only=True) as db:
        matches = tuple(db.matches(preset=preset, difficulty=difficulty, max_turns=max_turns, learned=learned,
                                   void=False))
        damaged = tuple(db.damaged)
    return Board(path, matches, rate(matches), damaged)


def nothing_to_show(board: Board | None, **chosen: object) -> str | None:
    """Why there is no standing to show (no database yet, no match chosen), with what to do; or None.
    ``chosen``: the filters given (preset=..., max_turns=...), said when nothing matched them."""
    if board is None:
        return (f"no results yet: {results_path()} does not exist. `labyrinth tournament --users builtin,random "
                "--minotaurs builtin,wait` plays some.")
    if not board.matches:
        said = " and ".join(f"{RULE_WORDS[name][0]} {value}" for name, value in chosen.items() if value is not None)
        return f"no matches in {board.path}{' with ' + said if said else ''} yet."
    return None


def rating_rows(ratings: Sequence[Rating]) -> list[tuple[str, ...]]:
    """One row per contestant of a role, best first: its place, label, rating with its 95% interval,
    matches, wins/draws/losses, and win rate with its 95% Wilson interval."""
    rows: list[tuple[str, ...]] = []
    for place, r in enumerate(ratings, 1):
        low, high = r.win_interval
        rows.append((str(place), printable(r.label), f"{r.rating:.0f}", interval(r.low, r.high, "{:.0f}–{:.0f}"),
                     str(r.matches), f"{r.wins}/{r.draws}/{r.losses}", f"{r.win_rate:.0%} ({low:.0%}–{high:.0%})"))
    return rows


def head_to_head_rows(standings: Standings) -> list[tuple[str, ...]]:
    return [(printable(h.user), printable(h.minotaur), str(h.matches), str(h.escaped), str(h.caught),
             str(h.timeouts)) for h in standings.head_to_head]


def paired_rows(paired: Sequence[PairedDifference]) -> list[tuple[str, ...]]:
    """One row per two contestants of a role that met the same opponents on the same seeds."""
    return [(printable(p.first), printable(p.second), str(p.pairs), str(p.seeds), f"{p.mean:+.2f}",
             interval(p.low, p.high, "{:+.2f} to {:+.2f}")) for p in paired]


def interval(low: float | None, high: float | None, form: str) -> str:
    """An interval in ``form`` (its two ends); '–' alone when there is none (one seed, or not asked)."""
    return "–" if low is None or high is None else form.format(low, high)


def match_row(match: MatchRow, standings: Standings) -> tuple[str, ...]:
    """A match as the list shows it, its contestants named as the standings name them."""
    return (printable(standings.label(match, "user")), printable(standings.label(match, "minotaur")), str(match.seed),
            printable(f"{match.preset} {match.difficulty}"), OUTCOME_WORDS[match.outcome], str(match.turns))


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
        return BARS[len(BARS) // 2] * len(values)
    top = len(BARS) - 1
    return "".join(BARS[max(0, min(top, round((v - low) / (high - low) * top)))] for v in values)


def history_range(ratings: Sequence[Rating]) -> tuple[float, float]:
    """The lowest and highest rating any of ``ratings`` ever had: one scale for their sparklines."""
    seen = [v for r in ratings for v in r.history] or [0.0]
    return min(seen), max(seen)
