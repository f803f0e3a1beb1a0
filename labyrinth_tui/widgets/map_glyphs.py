"""How the map draws each thing it knows, and what each glyph means: one table, which the help's
legend shows. A glyph is two columns, the first alone at half width; in a big cell (four columns
and two lines) a wall or an edge fills the cell and a mark stands in its top line."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style

from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.items import ITEMS


@dataclass(frozen=True)
class Glyph:
    """How the map draws one thing, and what it means."""

    text: str
    style: Style
    meaning: str

    @property
    def colour(self):
        """The colour it is drawn in as half a character (an overview): its glyph's, or none (floor, unknown)."""
        return None if self in (CELL_GLYPHS[FLOOR], UNKNOWN) else self.style.color

    def drawn(self, scale: int, line: int = 0) -> str:
        """The glyph in a cell ``scale`` columns wide, on the cell's ``line`` (a big cell has two): a wall
        (two like characters) fills the cell; a mark stands once, a column in, on the top line."""
        if scale <= 2:
            return self.text[:scale]
        if self.text[0] == self.text[1] != " ":
            return self.text[0] * scale
        return (" " + self.text[0] if line == 0 else "").ljust(scale)


CELL_GLYPHS = {
    ROCK: Glyph("██", Style(color="grey23"), "rock"),
    FLOOR: Glyph("· ", Style(color="grey42"), "passage"),
    CRAWLWAY: Glyph("==", Style(color="dark_goldenrod"), "crawlway (walk only; the Minotaur cannot enter)"),
    RAMP_UP: Glyph("^ ", Style(color="cyan", bold=True), "ramp up"),
    RAMP_DOWN: Glyph("v ", Style(color="cyan", bold=True), "ramp down"),
}
ITEM_GLYPHS: dict[str, Glyph] = {item.name: Glyph(f"{item.letter} ", Style(color=item.colour, bold=True), item.noun)
                                 for item in ITEMS}
TRAIL = Glyph("• ", Style(color="green", dim=True), "passage you have walked (your trail)")
USER = Glyph("@ ", Style(color="bright_white", bold=True, bgcolor="dark_green"), "you")
HERE = Glyph("X ", Style(color="bright_green", bold=True), "you are here, on another level (looking with [ ])")
MINOTAUR_SEEN = Glyph("M ", Style(color="bright_white", bold=True, bgcolor="red3"), "the Minotaur, in sight")
MINOTAUR_GUESS = Glyph("m ", Style(color="red", dim=True), "where the Minotaur was last seen or heard (a guess, on "
                                                          "the level it was heard from; x tells when)")
EDGE = Glyph("░░", Style(color="grey50"), "the hunting ground's edge (the maze goes on beyond it)")
UNKNOWN = Glyph("  ", Style(), "not seen yet")
HALVES = Glyph("▀", Style(color="grey23"), "a whole level too tall to fit (spectating, o): two cells a character, "
                                           "each half in its cell's colour (rock grey, floor blank)")
LEGEND: tuple[Glyph, ...] = (*CELL_GLYPHS.values(), TRAIL, *ITEM_GLYPHS.values(), USER, HERE, MINOTAUR_SEEN,
                             MINOTAUR_GUESS, EDGE, HALVES, UNKNOWN)
CURSOR = Style(color="black", bgcolor="yellow", bold=True)  # look mode's cursor (x): the cell's mark on it


def legend_rows() -> list[tuple[str, str]]:
    """The legend as (glyph as drawn, meaning) rows, a blank glyph as "": what the help shows."""
    return [(g.text.rstrip(), g.meaning) for g in LEGEND]


MARKS_FIRST = (USER, MINOTAUR_SEEN, MINOTAUR_GUESS, HERE)  # which mark an overview's character shows of two


def stacked(upper: Glyph, lower: Glyph) -> Glyph:
    """One character of an overview for two cells, one above the other: a mark (the agents first), else
    an upper half-block in the upper cell's colour on the lower cell's."""
    marks = [g for g in (upper, lower) if g in MARKS_FIRST or g in ITEM_GLYPHS.values()]
    if marks:
        return min(marks, key=lambda g: MARKS_FIRST.index(g) if g in MARKS_FIRST else len(MARKS_FIRST))
    if upper.colour is None and lower.colour is None:
        return UNKNOWN  # floor or nothing known, in both
    return Glyph(HALVES.text, Style(color=upper.colour or "default", bgcolor=lower.colour or "default"),
                 HALVES.meaning)
