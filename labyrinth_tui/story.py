"""A game's story in plain text, as a roguelike's morgue file tells one: the outcome, the run in
figures, the map the user explored of each level it visited, and the last messages. Made from the
replay (its turns played back through the one turn loop), so the game-over screen's summary and
`labyrinth replay FILE --summary` are the same text."""

from __future__ import annotations

from collections.abc import Mapping

from labyrinth.engine.cells import CELL_CHARS
from labyrinth.engine.geometry import Pos
from labyrinth.engine.items import LETTERS, MARKS_LEGEND, STONES
from labyrinth.engine.wsap.actions import GAME_NAME
from labyrinth.saves.replays import Replay

from .command_parser import typed
from .dates import local_time
from .game_words import matchup
from .session import Figures, ReplaySession
from .terminal_text import printable
from .widgets.time_words import clock

LAST_TURNS = 10  # the turns whose messages close the story
OUTCOMES = {"ESCAPED": "escaped with the three stones", "DEATH": "caught by the Minotaur",
            "TIMEOUT": "out of turns"}  # what became of the user
LEGEND = ("# rock  . passage  = crawlway  ^ ramp up  v ramp down  @ where the user ended\n"
          f"{MARKS_LEGEND} (where last seen)  M the Minotaur in sight, m where it was last heard")


def story(replay: Replay) -> str:
    """The story of ``replay``'s game, as far as it plays back as recorded."""
    session, figures, told = ReplaySession(replay), Figures(), []
    while (recorded := session.step()) is not None:  # None once it is over
        figures.count(session.match.last)
        told.append((typed(recorded.user), session.response.raw_text_output))
    h, end, state = replay.header, replay.end, session.game.state
    assert replay.path is not None  # read_replay's: read from its file
    lines = [f"{GAME_NAME} - the story of a game ({printable(replay.path.name)})",
             (f"{h.preset}, seed {h.seed}, {h.difficulty}: {printable(matchup(h.user_agent, h.minotaur_agent))}, "
              f"begun {printable(local_time(h.created_at))}"), ""]
    if end is not None:
        said = "Outcome" if session.mismatch is None else "Recorded outcome (not played back)"
        lines.append(f"{said}: {OUTCOMES.get(end.outcome, printable(end.outcome))} after {end.turns} turns "
                     f"and {clock(end.game_time)} of game time.")
    else:
        lines.append(f"Unfinished: the recording stops after turn {len(replay.turns)}.")
    if session.mismatch is not None:
        how = "every turn, but not to its ending" if session.mismatch.ending else f"only to turn {session.length}"
        lines.append(f"(It plays back as recorded {how}: {printable(session.mismatch.detail)})")
    held = [item for item in state.inventory if item in STONES]
    lines += ["", (f"turns {figures.turns}   walked {figures.walked} steps   stones {len(held)}/{len(STONES)}"
                   f"{' (' + ', '.join(held) + ')' if held else ''}   jumps seen {figures.jumps_seen}   "
                   f"lanterns used {figures.lanterns_used}"), ""]
    where, seen = session.known.minotaur_mark()
    marks = {p: LETTERS[name] for name, p in session.mapped.items.items()}
    if where is not None:
        marks[where] = "M" if seen else "m"
    marks[state.user] = "@"
    lines.append(LEGEND)
    for z in sorted({p[2] for p in session.mapped.walked}, reverse=True):
        lines += ["", f"Level {z}:", *level_rows(session.mapped.seen, z, marks)]
    lines += ["", "The last turn:" if len(told) == 1 else f"The last {min(LAST_TURNS, len(told))} turns:"]
    for said, text in told[-LAST_TURNS:]:
        lines += [f"> {printable(said)}", *(printable(line) for line in text.splitlines())]
    return "\n".join(lines) + "\n"


def level_rows(cells: Mapping[Pos, int], z: int, marks: Mapping[Pos, str]) -> list[str]:
    """The cells seen on level ``z`` as text rows, north first, over the box they and the marks fill;
    marks on top."""
    here = [p for p in (*cells, *marks) if p[2] == z]
    xs, ys = [p[0] for p in here], [p[1] for p in here]
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        row = "".join(marks.get((x, y, z)) or (CELL_CHARS[cells[(x, y, z)]] if (x, y, z) in cells else " ")
                      for x in range(min(xs), max(xs) + 1))
        rows.append(row.rstrip())
    return rows
