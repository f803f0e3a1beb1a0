"""The items of the labyrinth, one row each: every list, letter, name, word and number
about an item that the rest of the code shows or checks is read from this table (the
schemas, the words, the perceptions, the RL views and commands, the parser, the maps,
the help), so that an item is added here, not in twenty places.

An item is its row plus its rules: the row holds its numbers (how long its effect lasts, when a new one
comes) and names what GRAB, USE, its countdown and its light do (engine/item_rules.py); engine/turn.py carries
them out through this table and names no item, the state keeps every item's timer in one map (GameState.timers),
an item that is not a stone starts near the user (placement.place_items), and the user's sight is what the
rows' ``sight`` rules add to its own (senses.user_sight).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal, get_args

from .constants import TICKS_PER_SECOND
from .figures import seconds_text
from .item_rules import (
    Countdown,
    Grab,
    Sight,
    Use,
    freeze_minotaur,
    lantern_returns,
    take_item,
    take_lantern,
    take_stone,
)

# The names on the wire, written out because a type checker reads a Literal only as written;
# the check after the table keeps the two in step.
ItemName = Literal["RED STONE", "BLUE STONE", "YELLOW STONE", "LANTERN"]
Kind = Literal["stone", "lantern"]


@dataclass(frozen=True)
class Item:
    """One item: how it is named, drawn and told, its numbers, and the rules of GRAB, USE and its countdown."""

    name: ItemName
    letter: str  # its mark on every map, and in the map an observation's text draws
    colour: str  # its mark's terminal colour (a Rich colour name)
    rgb: tuple[int, int, int]  # its mark's colour in the RL environments' pictures
    kind: Kind  # the sort of thing it is: an observation's entity type, an RL map's plane
    needed: bool = False  # one of the stones: hold every needed item to escape
    grab: Grab = take_item  # the event of its GRAB (after it has moved from the ground to the inventory)
    use: Use | None = None  # what USE does (after it has left the inventory); None: it cannot be used
    countdown: Countdown | None = None  # its timer's tick, run every tick of the game
    sight: Sight | None = None  # what its effect adds to the user's sight (the steps, now); None: nothing
    # What USE does, as the USE action tells an agent, and in a few words as the help's rules say it:
    # "{effect}" and "{respawn}" stand for its two durations (use_text, effect_text).
    use_words: str | None = None
    effect_words: str | None = None
    effect_ticks: int = 0  # how long USE's effect lasts
    respawn_ticks: int = 0  # a new one appears this long after it is used; 0: never

    @property
    def effect_time(self) -> str:
        """'120 s': how long its effect lasts, as a reader reads it."""
        return seconds_text(self.effect_ticks)

    @property
    def use_text(self) -> str:
        """What USE does with it, as the USE action tells an agent ('' when it cannot be used)."""
        return (self.use_words or "").format(effect=self.effect_time, respawn=seconds_text(self.respawn_ticks))

    @property
    def effect_text(self) -> str:
        """'freezes it for 120 s': what USE does, as the help's rules say it ('' when it cannot be used)."""
        return (self.effect_words or "").format(effect=self.effect_time, respawn=seconds_text(self.respawn_ticks))

    @property
    def noun(self) -> str:
        """'red stone', 'lantern': the name in running text."""
        return self.name.lower()

    @property
    def word(self) -> str:
        """What a person types for it: its name's first word ('red', 'lantern')."""
        return self.name.split()[0].lower()


ITEMS: tuple[Item, ...] = (
    Item("RED STONE", "R", "red", (220, 40, 40), "stone", needed=True, grab=take_stone),
    Item("BLUE STONE", "B", "dodger_blue1", (50, 90, 230), "stone", needed=True, grab=take_stone),
    Item("YELLOW STONE", "Y", "yellow", (235, 205, 40), "stone", needed=True, grab=take_stone),
    Item("LANTERN", "L", "orange1", (255, 150, 0), "lantern", grab=take_lantern, use=freeze_minotaur,
         countdown=lantern_returns, effect_ticks=120 * TICKS_PER_SECOND, respawn_ticks=720 * TICKS_PER_SECOND,
         use_words=("Raise the LANTERN: the Minotaur is paralyzed for {effect}, wherever it is; the lantern burns "
                    "out and a new one appears somewhere {respawn} later."),
         effect_words="freezes it for {effect}"),
)
assert get_args(ItemName) == tuple(item.name for item in ITEMS), "ItemName and ITEMS name the same items"
assert all((item.use is None) == (item.use_words is None) == (item.effect_words is None) for item in ITEMS), \
    "an item that USE acts on says what it does, and only such an item"

ITEM: dict[str, Item] = {item.name: item for item in ITEMS}  # by name: the state keeps names as plain text
ITEM_ORDER: tuple[ItemName, ...] = tuple(item.name for item in ITEMS)  # the order items are kept and listed in
STONES: tuple[ItemName, ...] = tuple(item.name for item in ITEMS if item.needed)
USABLE: tuple[ItemName, ...] = tuple(item.name for item in ITEMS if item.use)
# The items with a timer of their own, each with its countdown: what every tick of the game runs.
COUNTDOWNS: tuple[tuple[Item, Countdown], ...] = tuple((item, item.countdown) for item in ITEMS if item.countdown)
SIGHTS: tuple[tuple[Item, Sight], ...] = tuple((item, item.sight) for item in ITEMS if item.sight)  # senses.user_sight
LANTERN = ITEM["LANTERN"]  # the item whose USE freezes the Minotaur: what the Minotaur's texts and views quote
KINDS: tuple[Kind, ...] = tuple(dict.fromkeys(item.kind for item in ITEMS))  # 'stone', 'lantern': once each
LETTERS: dict[str, str] = {item.name: item.letter for item in ITEMS}


def _kind_marks(kind: Kind) -> str:
    letters = [item.letter for item in ITEMS if item.kind == kind]
    return f"{' '.join(letters)} {kind}{'s' if len(letters) > 1 else ''}"


KIND_MARKS = tuple(map(_kind_marks, KINDS))  # 'R B Y stones', 'L lantern': the marks, as a map's legend says them
MARKS_LEGEND = ", ".join(KIND_MARKS)


def _listed(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


STONES_NAMED = f"the {_listed([name.split()[0] for name in STONES])} stones"  # 'the RED, BLUE and YELLOW stones'


def stones_held(inventory: Collection[str]) -> int:
    """How many of the stones an inventory holds."""
    return sum(name in inventory for name in STONES)
