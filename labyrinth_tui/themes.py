"""The colour themes: Textual's own, and two of the game's, registered with the app: ``high-contrast``
(white on black, bright marks, nothing dim) and ``colour-blind`` (the Okabe-Ito palette, whose colours
stay apart for every common colour blindness: the Minotaur vermillion, you blue, never red against
green). A theme colours the screens through Textual's variables ($primary, $error...); the map's glyphs
(map_glyphs.py) carry colours of their own, which each of these two themes redraws (``recolour``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

from rich.style import Style
from textual.theme import BUILTIN_THEMES, Theme

HIGH_CONTRAST = Theme(
    name="high-contrast", primary="#FFFF00", secondary="#00FFFF", accent="#FFFF00", warning="#FFB000",
    error="#FF5555", success="#00FF66", foreground="#FFFFFF", background="#000000", surface="#000000",
    panel="#262626", dark=True, text_alpha=1.0,
)
# Okabe and Ito's eight colours: blue #0072B2, sky blue #56B4E9, bluish green #009E73, yellow #F0E442,
# orange #E69F00, vermillion #D55E00, reddish purple #CC79A7, and black.
COLOUR_BLIND = Theme(
    name="colour-blind", primary="#0072B2", secondary="#56B4E9", accent="#E69F00", warning="#F0E442",
    error="#D55E00", success="#009E73", foreground="#F0F0F0", background="#0E1216", surface="#161B21",
    panel="#1F262E", dark=True,
)
THEMES: tuple[Theme, ...] = (HIGH_CONTRAST, COLOUR_BLIND)


@dataclass(frozen=True)
class MapColours:
    """How a theme redraws the map's glyphs: each colour by another, and whether a dim one stays dim."""

    colours: Mapping[str, str] = field(default_factory=dict)
    dim: bool = True


MAP_COLOURS = {
    HIGH_CONTRAST.name: MapColours({"grey23": "grey62", "grey42": "bright_white", "grey50": "bright_white",
                                    "dark_green": "blue", "red3": "red", "green": "bright_green"}, dim=False),
    COLOUR_BLIND.name: MapColours({"dark_green": "#0072B2", "red3": "#D55E00", "red": "#D55E00",
                                   "dodger_blue1": "#56B4E9", "yellow": "#F0E442", "orange1": "#E69F00",
                                   "green": "#009E73", "bright_green": "#56B4E9", "cyan": "#56B4E9",
                                   "dark_goldenrod": "#E69F00"}),
}


def theme_names() -> list[str]:
    """Every theme a player may choose: Textual's, then the game's."""
    return [*BUILTIN_THEMES, *(theme.name for theme in THEMES)]


def recolour(theme: str) -> Callable[[Style], Style] | None:
    """How the map's styles are drawn in ``theme`` (None: as they are)."""
    return (lambda style: _recoloured(theme, style)) if theme in MAP_COLOURS else None


@cache
def _recoloured(theme: str, style: Style) -> Style:
    """``style`` in ``theme``'s map colours: a handful of styles, each worked out once."""
    palette = MAP_COLOURS[theme]

    def swapped(colour) -> str | None:
        return None if colour is None else palette.colours.get(colour.name, colour.name)

    return Style(color=swapped(style.color), bgcolor=swapped(style.bgcolor), bold=style.bold,
                 dim=style.dim and palette.dim, italic=style.italic, underline=style.underline)
