"""What a player sets in the config file for the game screen, as DCSS's .crawlrc or NetHack's .nethackrc:
the map's keys ([keys], keymap.py) and the rest ([options]). Checked here, where they are read, knowing
the game's keys and themes: each problem is one line naming the table and the entry, and only that entry
is left out (a key keeps its action, an option its default); the rest of the file is the providers'
(saves/config.py checks it when a model is asked for). A file that cannot be read at all gives one line
too, and every default::

    [keys]
    look = "l"                  # LOOK back on l...
    east = ["right", "d"]       # ...which east gives up
    grab = ["g", ",", "p"]

    [options]
    theme = "high-contrast"     # or "colour-blind", or any of Textual's (the help lists them)
    map_margin = 6              # cells kept between you and the map's edge
    shift_move = "walk"         # shift + a way walks the corridor (quiet); "run" runs it (fast, loud)
    explore_stops = ["stone"]   # autoexplore stops for a stone first seen, not the lantern or a ramp
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from labyrinth.saves.config import ConfigError, config_path, read_tables

from .explore import STOPS
from .keymap import DEFAULT_KEYS, SHIFT_MOVE, ShiftMove, remapped
from .terminal_text import printable
from .themes import theme_names
from .widgets.map_frame import MARGIN

MOST_MARGIN = 50  # more keeps you centred on any terminal: the map is never that many cells from you to its edge


@dataclass(frozen=True)
class PlayerOptions:
    """The [options] table: the colour theme (None: Textual's default), the cells kept between you and
    the map's edge (``map_margin``: the map scrolls before you come closer), what shift + a way does
    (``shift_move``: "run", fast and loud, or "walk", quiet, each along the corridor), and what
    autoexplore stops for besides danger (``explore_stops``: some of explore.STOPS; the Minotaur in
    sight or heard close stops it always)."""

    theme: str | None = None
    map_margin: int = MARGIN  # by default as the map keeps it, as an editor's scrolloff
    shift_move: ShiftMove = SHIFT_MOVE
    explore_stops: tuple[str, ...] = STOPS  # every stop, by default


@dataclass(frozen=True)
class PlayerSettings:
    """The map's keys (each action's name -> its keys), the options, and a line for each problem found."""

    keys: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_KEYS))
    options: PlayerOptions = field(default_factory=PlayerOptions)
    problems: tuple[str, ...] = ()


def read_settings(taken: Mapping[str, str], path: Path | None = None) -> PlayerSettings:
    """The [keys] and [options] of the config file at ``path`` (the user's by default); ``taken``: the
    game screen's own keys, which no map action may take (a key -> what it does there)."""
    path = path or config_path()
    try:
        tables = read_tables(path)
    except ConfigError as exc:
        return PlayerSettings(problems=(f"{printable(str(exc))}; the game's keys and options are its own",))
    keys_table, options_table = tables.get("keys", {}), tables.get("options", {})
    problems: list[str] = []
    for name, table in (("keys", keys_table), ("options", options_table)):
        if not isinstance(table, dict):
            problems.append(f"[{name}]: a table of settings, such as [{name}] on a line of its own, not a value")
    keys, key_problems = remapped(keys_table if isinstance(keys_table, dict) else {}, taken)
    options, option_problems = _options(options_table if isinstance(options_table, dict) else {})
    said = [f"{path}: {printable(problem)}" for problem in (*problems, *key_problems, *option_problems)]
    return PlayerSettings(keys, options, tuple(said))


def _options(table: Mapping[str, Any]) -> tuple[PlayerOptions, list[str]]:
    """The options a table sets, each checked (one left out keeps its default), and a line for each problem."""
    chosen: dict[str, Any] = {}
    problems = []
    for name, value in table.items():
        problem = _option_problem(name, value)
        if problem:
            problems.append(f"[options] {name}: {problem}")
        else:
            chosen[name] = _stops(value) if name == "explore_stops" else value
    return PlayerOptions(**chosen), problems


def _option_problem(name: str, value: Any) -> str | None:
    known = PlayerOptions.__dataclass_fields__
    if name not in known:
        return f"unknown option (known: {', '.join(known)})"
    default = getattr(PlayerOptions(), name)
    if name == "theme":
        names = theme_names()
        return None if value in names else f"{_written(value)} is no theme (themes: {', '.join(names)})"
    if name == "map_margin":
        whole = isinstance(value, int) and not isinstance(value, bool)
        return None if whole and 0 <= value <= MOST_MARGIN else (
            f"must be a whole number of cells from 0 to {MOST_MARGIN} (a large one keeps you centred), "
            f"not {_written(value)}; it stays {default}")
    if name == "explore_stops":
        return _stops_problem(value)
    choices = get_args(ShiftMove)
    return None if value in choices else f"must be {' or '.join(map(repr, choices))}, not {_written(value)}"


def _stops(value: str | list[str]) -> tuple[str, ...]:
    """An explore_stops entry found right, as the options keep it: each stop once."""
    return tuple(dict.fromkeys([value] if isinstance(value, str) else value))


def _stops_problem(value: Any) -> str | None:
    """What is wrong with an explore_stops entry: not a stop's name or a list of them, or a name of no stop
    the player chooses."""
    names = f"(they are {', '.join(STOPS)}; the Minotaur in sight or heard close always stops it); every stop is kept"
    written = [value] if isinstance(value, str) else value
    if not isinstance(written, list) or not all(isinstance(stop, str) for stop in written):
        return f'give a list of stops, such as ["stone", "ramp"], not {_written(value)} {names}'
    unknown = next((stop for stop in written if stop not in STOPS), None)
    return None if unknown is None else f"{_written(unknown)} is no stop you may choose {names}"


def _written(value: Any) -> str:
    """A value as a line quotes it: short, and no terminal escape."""
    text = repr(value)
    return printable(text if len(text) <= 40 else text[:37] + "...")
