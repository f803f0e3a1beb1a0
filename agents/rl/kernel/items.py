"""The item rules a turn runs, over a row: GRAB's reach (turn.item_in_reach, items_in_reach), GRAB and USE
(item_rules' take_* and freeze_minotaur), the countdowns (lantern_returns, with respawn's place drawn from
draws.py's words as placement.respawn_item draws it) and the items the user sees and remembers
(senses.items_in_sight, turn._note_seen_items).

An item slot is (kind, x, y, z), the kind its index in ITEM_ORDER; the rows keep lying items in ITEM_ORDER and
seen items sorted as the engine sorts its (name, position) tuples: by name, then place (``NAME_RANK``).
The rules are checked at import against the item table: an item whose rule is not one of these fails it.
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.constants import USER_SIGHT
from labyrinth.engine.item_rules import freeze_minotaur, lantern_returns, take_item, take_lantern, take_stone
from labyrinth.engine.items import COUNTDOWNS, ITEM_ORDER, ITEMS

from .draws import USED_UP, below
from .jit import jit
from .sight import USER_SQ, line_clear, within
from .state import NONE
from .work import INVENTORY, ITEM_COUNT, PLAYED, RESPAWNS, SEEN_COUNT, SEEN_FULL, SLOTS, TIMERS, USER
from .work import USED_UP as TABLE_USED_UP

_RULES = {item.name: (item.grab, item.use, item.countdown, item.sight) for item in ITEMS}
_PORTED: tuple[set[object], ...] = (
    {take_item, take_stone, take_lantern}, {None, freeze_minotaur}, {None, lantern_returns}, {None})
if any(rule not in ported for rules in _RULES.values() for rule, ported in zip(rules, _PORTED, strict=True)):
    raise ImportError("an item has a rule kernel/items.py has not ported (engine/item_rules.py)")
NEEDED = np.array([item.needed for item in ITEMS], dtype=np.bool_)  # the stones, by kind
USABLE = np.array([item.use is not None for item in ITEMS], dtype=np.bool_)
EFFECT_TICKS = np.array([item.effect_ticks for item in ITEMS], dtype=np.int64)
RESPAWN_TICKS = np.array([item.respawn_ticks for item in ITEMS], dtype=np.int64)
TIMED = np.array([any(item is timed for timed, _ in COUNTDOWNS) for item in ITEMS], dtype=np.bool_)
NAME_RANK = np.argsort(np.argsort(np.array(ITEM_ORDER)))  # a kind's place among the names sorted as text
if int(TIMED.sum()) > 1:
    raise ImportError("kernel/items.py draws the respawns of one timed item (the lantern's words, draws.py)")


@jit
def reach_slot(v: np.ndarray, items: np.ndarray, wanted: int) -> int:
    """turn.item_in_reach: the slot of the first lying item within a step of the user on its level (of kind
    ``wanted``, or any with -1); -1 when none."""
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    for slot in range(v[ITEM_COUNT]):
        kind, x, y, z = items[slot, 0], items[slot, 1], items[slot, 2], items[slot, 3]
        if z == uz and abs(x - ux) + abs(y - uy) <= 1 and (wanted < 0 or kind == wanted):
            return slot
    return -1


@jit
def in_reach(v: np.ndarray, items: np.ndarray, out: np.ndarray) -> None:
    """turn.items_in_reach into ``out``: a row per kind, (1 when in reach, x, y, z)."""
    out[:] = 0
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    for slot in range(v[ITEM_COUNT]):
        kind, x, y, z = items[slot, 0], items[slot, 1], items[slot, 2], items[slot, 3]
        if z == uz and abs(x - ux) + abs(y - uy) <= 1 and not out[kind, 0]:
            out[kind, 0], out[kind, 1], out[kind, 2], out[kind, 3] = 1, x, y, z


@jit
def came_in_reach(before: np.ndarray, now: np.ndarray) -> bool:
    """``items_in_reach(s) - reach`` is not empty."""
    for kind in range(now.shape[0]):
        if now[kind, 0] and not (before[kind, 0] and before[kind, 1] == now[kind, 1]
                                 and before[kind, 2] == now[kind, 2] and before[kind, 3] == now[kind, 3]):
            return True
    return False


@jit
def grab(v: np.ndarray, items: np.ndarray, slot: int) -> bool:
    """GRAB of the item in ``slot``: from the ground to the inventory; True when every stone is held now."""
    kind, count = items[slot, 0], v[ITEM_COUNT]
    for i in range(slot, count - 1):
        items[i] = items[i + 1]
    items[count - 1] = NONE
    v[ITEM_COUNT] = count - 1
    v[INVENTORY + kind] = 1
    for stone in range(SLOTS):
        if NEEDED[stone] and not v[INVENTORY + stone]:
            return False
    return True


@jit
def use(v: np.ndarray, wanted: int, paralysis: int) -> int:
    """USE (freeze_minotaur, the only rule of USE): the item leaves the inventory, the paralysis is set at least
    to its effect, its timer to its respawn. ``wanted`` -1: the first usable item held. The new paralysis."""
    kind = wanted
    if kind < 0:
        for usable in range(SLOTS):
            if USABLE[usable] and v[INVENTORY + usable]:
                kind = usable
                break
    v[INVENTORY + kind] = 0
    v[TIMERS + kind] = RESPAWN_TICKS[kind]
    return max(paralysis, EFFECT_TICKS[kind])


@jit
def count_down(v: np.ndarray, items: np.ndarray, ground: np.ndarray, words: np.ndarray) -> int:
    """Each timed item's countdown for a tick (lantern_returns): a new one laid once it runs out. A fallback
    code when its place is past the drawn words."""
    for kind in range(SLOTS):
        left = v[TIMERS + kind]
        if not TIMED[kind] or not left:
            continue
        v[TIMERS + kind] = left - 1
        if left == 1:
            code = _respawn(v, items, kind, ground, words)
            if code != PLAYED:
                return code
    return PLAYED


@jit
def _respawn(v: np.ndarray, items: np.ndarray, kind: int, ground: np.ndarray, words: np.ndarray) -> int:
    """item_rules.respawn with placement.respawn_item's draws: a level (choice), then x and y (randrange), again
    until the cell is out of the user's sight and not where an item lies."""
    again = v[RESPAWNS + kind] + 1
    if again > words.shape[0]:
        return TABLE_USED_UP
    table, used = words[again - 1], np.zeros(1, dtype=np.int64)
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    while True:
        level = below(table, used, ground[5])
        column = below(table, used, ground[3] // 2)
        row = below(table, used, ground[4] // 2)
        if level == USED_UP or column == USED_UP or row == USED_UP:
            return TABLE_USED_UP
        x, y, z = ground[0] + 2 * column, ground[1] + 2 * row, ground[2] + level
        out_of_sight = z != uz or (x - ux) ** 2 + (y - uy) ** 2 > USER_SIGHT ** 2
        taken = False
        for slot in range(v[ITEM_COUNT]):
            taken = taken or (items[slot, 1] == x and items[slot, 2] == y and items[slot, 3] == z)
        if out_of_sight and not taken:
            break
    v[RESPAWNS + kind] = again
    count = v[ITEM_COUNT]
    at = count  # items_with: after every item of its kind or before it in ITEM_ORDER
    while at > 0 and items[at - 1, 0] > kind:
        at -= 1
    for i in range(count, at, -1):
        items[i] = items[i - 1]
    items[at, 0], items[at, 1], items[at, 2], items[at, 3] = kind, x, y, z
    v[ITEM_COUNT] = count + 1
    return PLAYED


@jit
def note_seen(v: np.ndarray, items: np.ndarray, seen: np.ndarray, kinds: np.ndarray,
              origin: np.ndarray) -> tuple[int, bool]:
    """(code, new): turn._note_seen_items of senses.items_in_sight; a fallback code when the seen items would
    outgrow their slots."""
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    new = False
    for slot in range(v[ITEM_COUNT]):
        kind, x, y, z = items[slot, 0], items[slot, 1], items[slot, 2], items[slot, 3]
        if not (within(ux, uy, uz, x, y, z, USER_SQ) and line_clear(kinds, origin, ux, uy, uz, x, y, z)):
            continue
        count, at = v[SEEN_COUNT], 0
        known = False
        while at < count and not known:
            known = seen[at, 0] == kind and seen[at, 1] == x and seen[at, 2] == y and seen[at, 3] == z
            if not known and _before(seen[at, 0], seen[at, 1], seen[at, 2], seen[at, 3], kind, x, y, z):
                at += 1
            else:
                break
        if known:
            continue
        if count == seen.shape[0]:  # the rows' slots (StateRows: SEEN_SLOTS), full
            return SEEN_FULL, False
        for i in range(count, at, -1):
            seen[i] = seen[i - 1]
        seen[at, 0], seen[at, 1], seen[at, 2], seen[at, 3] = kind, x, y, z
        v[SEEN_COUNT] = count + 1
        new = True
    return PLAYED, new


@jit
def _before(kind: int, x: int, y: int, z: int, other: int, ox: int, oy: int, oz: int) -> bool:
    """(name, (x, y, z)) sorts before the other's, names compared as text."""
    if kind != other:
        return NAME_RANK[kind] < NAME_RANK[other]
    if x != ox:
        return x < ox
    return y < oy if y != oy else z < oz
