"""What an item does when it is grabbed, used, and while its countdown runs: the rules the rows of the item
table name (engine/items.py), so that engine/turn.py carries out GRAB and USE through the table and names no item.

A rule works on the turn's working copy of the state, never on a state a caller holds, and returns the events it
caused. An item's numbers (how long its effect lasts, when it comes back) are its row's, passed to its rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import events as ev
from .geometry import Pos

if TYPE_CHECKING:  # the rows name these rules, and the state lists the rows' names: a cycle at run time
    from .items import Item
    from .state import GameState

Grab = Callable[["GameState", "Item", Pos], ev.Event]  # the event of the item taken from ``pos``
Use = Callable[["GameState", "Item"], tuple[ev.Event, ...]]  # what USE does, once the item has left the inventory
Countdown = Callable[["GameState", "Item"], tuple[ev.Event, ...]]  # a tick of the item's own timer
Sight = Callable[["GameState", "Item"], int]  # the steps its effect adds to the user's sight now (senses.user_sight)

NOTHING: tuple[ev.Event, ...] = ()  # a countdown's tick that changed nothing: the common case, every tick


def take_item(s: GameState, item: Item, pos: Pos) -> ev.Event:
    """GRAB of an item with no words of its own."""
    return ev.ItemGrabbed(s.tick, item.name, pos)


def take_stone(s: GameState, item: Item, pos: Pos) -> ev.Event:
    return ev.StoneGrabbed(s.tick, item.name, pos)


def take_lantern(s: GameState, item: Item, pos: Pos) -> ev.Event:
    return ev.LanternGrabbed(s.tick, pos)


def set_timer(s: GameState, item: Item, ticks: int) -> None:
    """Start (or, with 0, stop) ``item``'s countdown: the state's map of timers is replaced, never changed in
    place, since a clone of the state shares it."""
    timers = {name: left for name, left in s.timers.items() if name != item.name}
    if ticks:
        timers[item.name] = ticks
    s.timers = timers


def tick_timer(s: GameState, item: Item) -> bool:
    """One tick off ``item``'s countdown; True on the tick it runs out (False while it runs, or when none
    does: the common case, every tick)."""
    left = s.timers.get(item.name)
    if not left:
        return False
    set_timer(s, item, left - 1)
    return left == 1


def freeze_minotaur(s: GameState, item: Item) -> tuple[ev.Event, ...]:
    """USE LANTERN: the Minotaur is paralyzed wherever it is (a jump under way runs on: the two timers are
    independent), and a new lantern is on its way. A paralysis under way is never shortened: none is in a
    game begun by the rules (a new lantern comes long after the last one's effect), but the RL ladder's
    Stones task begins with the Minotaur frozen for the whole game (agents/rl/tasks.py)."""
    s.paralysis = max(s.paralysis, item.effect_ticks)
    set_timer(s, item, item.respawn_ticks)
    return (ev.LanternUsed(s.tick, s.user),)


def lantern_returns(s: GameState, item: Item) -> tuple[ev.Event, ...]:
    """The lantern's countdown: a new one appears somewhere once it runs out."""
    if not tick_timer(s, item):
        return NOTHING
    return (ev.LanternSpawned(s.tick, respawn(s, item)),)


def respawn(s: GameState, item: Item) -> Pos:
    """A new one of ``item`` laid somewhere out of the user's sight; where it lies."""
    from .placement import respawn_item  # placement reads the item table, which names this rule
    from .senses import user_sight

    again = s.respawns.get(item.name, 0) + 1
    pos = respawn_item(s.seed, item.word, again, s.bounds, s.user, user_sight(s), {pos for _, pos in s.items})
    s.respawns = {**s.respawns, item.name: again}
    s.items = s.items_with((item.name, pos))
    return pos
