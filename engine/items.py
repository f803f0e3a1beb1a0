"""The items of the labyrinth, one row each: every list, letter, name, word and number
about an item that the rest of the code shows or checks is read from this table (the
schemas, the words, the perceptions, the RL views and commands, the parser, the maps,
the help), so that an item is added here, not in twenty places.

What an item does to the game when used is a rule, and stays in engine/turn.py; its
durations are the rules' numbers (engine/constants.py), named here.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal, get_args

from .constants import LANTERN_RESPAWN_TICKS
from .figures import LANTERN_RESPAWN, PARALYSIS

# The names on the wire, written out because a type checker reads a Literal only as written;
# the check after the table keeps the two in step.
ItemName = Literal["RED STONE", "BLUE STONE", "YELLOW STONE", "LANTERN"]
Kind = Literal["stone", "lantern"]


@dataclass(frozen=True)
class Item:
    """One item: how it is named, drawn and told, and what USE does with it."""

    name: ItemName
    letter: str  # its mark on every map, and in the map an observation's text draws
    colour: str  # its mark's terminal colour (a Rich colour name)
    rgb: tuple[int, int, int]  # its mark's colour in the RL environments' pictures
    kind: Kind  # the sort of thing it is: an observation's entity type, an RL map's plane
    needed: bool = False  # one of the stones: hold every needed item to escape
    use: str | None = None  # what USE does, as the USE action tells an agent; None: it cannot be used
    effect: str | None = None  # the same in a few words, as the help's rules say it
    respawn_ticks: int = 0  # a new one appears this long after it is used; 0: never

    @property
    def noun(self) -> str:
        """'red stone', 'lantern': the name in running text."""
        return self.name.lower()

    @property
    def word(self) -> str:
        """What a person types for it: its name's first word ('red', 'lantern')."""
        return self.name.split()[0].lower()


ITEMS: tuple[Item, ...] = (
    Item("RED STONE", "R", "red", (220, 40, 40), "stone", needed=True),
    Item("BLUE STONE", "B", "dodger_blue1", (50, 90, 230), "stone", needed=True),
    Item("YELLOW STONE", "Y", "yellow", (235, 205, 40), "stone", needed=True),
    Item("LANTERN", "L", "orange1", (255, 150, 0), "lantern",
         use=(f"Raise the LANTERN: the Minotaur is paralyzed for {PARALYSIS}, wherever it is; the lantern burns "
              f"out and a new one appears somewhere {LANTERN_RESPAWN} later."),
         effect=f"freezes it for {PARALYSIS}", respawn_ticks=LANTERN_RESPAWN_TICKS),
)
assert get_args(ItemName) == tuple(item.name for item in ITEMS), "ItemName and ITEMS name the same items"

ITEM: dict[str, Item] = {item.name: item for item in ITEMS}  # by name: the state keeps names as plain text
ITEM_ORDER: tuple[ItemName, ...] = tuple(item.name for item in ITEMS)  # the order items are kept and listed in
STONES: tuple[ItemName, ...] = tuple(item.name for item in ITEMS if item.needed)
USABLE: tuple[ItemName, ...] = tuple(item.name for item in ITEMS if item.use)
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
