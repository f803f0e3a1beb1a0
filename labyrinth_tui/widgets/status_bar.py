"""The status bar: where the player stands (x, y, level) inside the hunting ground's bounds (the
places the lessons name), stamina, the game clock, the three stones and the lantern.

One line at any width: each part has a long and shorter forms, and the bar shortens the least
needed parts first, so that at 80 columns the position and the level are always there."""

from __future__ import annotations

from rich.text import Text
from textual import events

from labyrinth.engine import GameStateResponse
from labyrinth.engine.items import ITEM, ITEMS
from labyrinth.engine.presets import PRESETS, Bounds

from .fitted import Fitted
from .time_words import clock, countdown

STONE_STYLES = tuple((item.name, item.colour) for item in ITEMS if item.needed)
LANTERN_ITEM = ITEM["LANTERN"]  # the item whose respawn the wire counts down (UserState.lantern_cooldown)
BAR = 10
GAP = "  "
PLACE, STAMINA, TIME, STONES, LANTERN = range(5)  # the parts, in the order they are shown: the place first,
# so that a terminal too narrow for the whole line cuts the lantern, never the level
# Which part gives up its longer form next when the line is too wide: the stamina bar (its
# percent stays), the ground's bounds, the lantern's and the clock's labels, the stones' label.
SHORTEN_FIRST = (STAMINA, PLACE, LANTERN, TIME, STONES, STAMINA, PLACE)


class StatusBar(Fitted):
    """The player's state in one line, fitted to the bar's width."""

    preset: str | None = None  # the game's preset, set by the screen: the hunting ground's bounds come from it

    def show(self, response: GameStateResponse) -> None:
        ground = PRESETS[self.preset] if self.preset else None
        self._parts = status_parts(response, ground)
        self.update(fit(self._parts, self.content_size.width))

    def on_resize(self, event: events.Resize) -> None:
        if getattr(self, "_parts", None):
            self.update(fit(self._parts, self.content_size.width), layout=False)


def status_parts(response: GameStateResponse, ground: Bounds | None) -> list[list[Text]]:
    """Each part of the bar as its forms, longest first."""
    state = response.user_state
    pct = Text(f"{state.stamina_pct:.0%}", style="green" if state.stamina_pct > 0.3 else "bold red")
    filled = round(state.stamina_pct * BAR)
    bar = Text("stamina ").append("█" * filled, style=pct.style).append("░" * (BAR - filled), style="grey37")
    stamina = [bar + Text(" ") + pct, Text("stamina ") + pct, pct]
    game_time = clock(response.environment.game_time)
    stones = Text()
    for name, colour in STONE_STYLES:
        held = name in state.inventory
        stones.append(name[0] if held else "·", style=f"bold {colour}" if held else "grey42")
    noun = LANTERN_ITEM.noun
    if LANTERN_ITEM.name in state.inventory:
        lantern = [Text(f"{noun} ").append("held", style=f"bold {LANTERN_ITEM.colour}")]
    elif state.lantern_cooldown:
        wait = countdown(state.lantern_cooldown)
        lantern = [Text(f"{noun}: new one in {wait}", style="dim"), Text(f"{noun} in {wait}", style="dim")]
    else:
        lantern = [Text(f"{noun} somewhere", style="dim")]
    return [place_forms(state.position.x, state.position.y, state.position.z, ground), stamina,
            [Text(f"time {game_time}"), Text(game_time)], [Text("stones ") + stones, stones], lantern]


def place_forms(x: int, y: int, z: int, ground: Bounds | None) -> list[Text]:
    """Where the player stands, as the lessons and the log give places: 'x 207 y 210 level 99', with the
    hunting ground's bounds after each number when there is room: 'x 207 (176-223)'."""
    level = Text(f"level {z}", style="bold")
    here = Text(f"x {x} y {y} ") + level
    if ground is None:
        return [here, level]
    x1, y1, z1 = ground.last
    bounded = (Text(f"x {x} ({ground.x0}-{x1}) y {y} ({ground.y0}-{y1}) ") + level
               + Text(f" ({ground.z0}-{z1})"))
    return [bounded, here, level]


def fit(parts: list[list[Text]], width: int, order: tuple[int, ...] = SHORTEN_FIRST, gap: str = GAP) -> Text:
    """The parts on one line, ``gap`` between them, each in its longest form that lets the whole line fit
    ``width`` (shortening in ``order``, a part named again to shorten it once more); at a width too small
    for the shortest, cut at the end."""
    chosen = [0] * len(parts)

    def line() -> Text:
        return Text(gap).join(part[i] for part, i in zip(parts, chosen))

    for part in order:
        if not width or line().cell_len <= width:
            break
        chosen[part] = min(chosen[part] + 1, len(parts[part]) - 1)
    text = line()
    text.no_wrap, text.overflow = True, "ellipsis"
    return text
