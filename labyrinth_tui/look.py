"""Look mode's words: what the player knows of one cell of the map, from what it has seen, walked,
heard and guessed; nothing it does not know (an unseen cell is unknown)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from labyrinth.engine.cells import FLOOR
from labyrinth.engine.geometry import Pos, place_words
from labyrinth.engine.presets import Bounds

from .knowledge import Bearings, Sighting
from .widgets.map_glyphs import CELL_GLYPHS
from .widgets.time_words import clock


def ago(turns: int) -> str:
    return "this turn" if turns <= 0 else f"{turns} turn{'s' * (turns != 1)} ago"


def describe(cell: Pos, *, cells: Mapping[Pos, int], walked: Collection[Pos], items: Mapping[str, Pos], user: Pos,
             sighting: Sighting | None, bearings: Bearings | None, ground: Bounds | None, turn: int) -> str:
    """One line: where the cell is, what it is (passage, rock, crawlway, ramp up or down, unknown), and
    what happened there that the player knows: itself, its trail, a stone or the lantern seen there, the
    Minotaur seen or guessed there (and when), the stones heard from there (and when)."""
    x, y, z = cell
    kind = cells.get(cell)
    said = [CELL_GLYPHS[kind].meaning if kind is not None else "unknown: not seen yet"]
    if kind == FLOOR and cell in walked:
        said[0] += ", your trail"
    if ground is not None and not ground.contains(x, y, z):
        said.append("outside the hunting ground")
    if cell == user:
        said.insert(0, "you are here")
    said += [f"the {name} was seen lying here" for name, at in items.items() if at == cell]
    if sighting is not None and sighting.where == cell:
        how = "seen" if sighting.seen else "guessed from its hoofbeats"
        said.append(f"the Minotaur {how} here at {clock(sighting.heard_at)} ({ago(turn - sighting.turn)})")
    if bearings is not None and bearings.spot == cell:
        said.append(f"the stones were heard from here at {clock(bearings.heard_at)} ({ago(turn - bearings.turn)})")
    return f"{place_words(cell)}: " + "; ".join(said)
