"""The built-in Minotaur (agents/builtin/builtin_minotaur.py's BuiltinMinotaur) deciding in numba, decision for
decision its Python self (slice 5 of the design note, kernel/__init__.py): from a row of StateRows, the state after
a turn, the action (work.PLANS) and target it would choose, its memory and its random stream advanced as the
Python agent advances its own.

It reads of the row only what its observation tells it (MinotaurReport.fields and perception's ramps_by_item):
its own place, its temporal state and cooldown, the clock, whether it sees the user (and where, then), the last
sighting and noise, its ways out (visible_paths), the lying items, the ramps near them (read from the region's
cells: a chunk's ramp cell is the one ramp World.ramps_within finds there) and the hunting ground.

Its memory, a row each (``MinotaurMemory``): the floats followed, face_to_face, guard_until and the time of the
item last seen taken; the guard, post, prowl and that item's place, each with a flag; the items' places at the
last decision (a sorted set, -1 for None); its Tactics; its random.Random as an mt.py row. ``guarded`` is not
held: only a Minotaur on its rounds reads it, and the RL envs' opponent (agents/rl/opponents.py: the registry's,
no lessons, no book) never plays rounds. Both difficulties are ported (normal guards, hard hunts and reads items).

A row it does not decide (``decide_rows`` answers work.REASONS' code): KEPT for a row whose state is kept whole
beside the arrays, UNPORTED for an agent that learnt a stone
from earlier games, or plays a strategy other than the default (rounds, never jumping: ``load`` marks the row),
LEFT_REGION when its eyes, ways out or a stone's ramps would read a cell outside the region. Such a row's memory
and stream are left as they were: the Python agent decides that turn, from its own memory, and is loaded back
(``load``) to go on in the kernel; a row marked unported stays with the Python agent.
"""

from __future__ import annotations

import math

import numpy as np

from labyrinth.engine.cells import FLOOR, MINOTAUR_OPEN, RAMP_DOWN, RAMP_UP
from labyrinth.engine.constants import MINOTAUR_SIGHT, TICKS_PER_SECOND
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.wsap.perception import RAMP_REACH

from ...builtin.builtin_minotaur import GUARD_RADIUS, JUMP_AFTER_S, RAMP_AMBUSH, TRACE_S, BuiltinMinotaur
from ...builtin.strategy import default_strategy
from . import mt
from .items import NEEDED
from .jit import jit
from .region import holds
from .sight import MINOTAUR_SQ, line_clear, within
from .state import NONE, StateRows
from .walk import OUTSIDE, cell
from .work import CHASE, JUMP, KEPT, LEFT_REGION, PATHFIND, PLAYED, SLOTS, UNPORTED, WAIT

# The floats of a row's memory.
FOLLOWED, FACE, UNTIL, TAKEN_AT = range(4)
FLOATS = 4
# The ints: guard, post, prowl and the item last seen taken, each (has, x, y, z); the count of the places items lay
# at the last decision (-1: None, never looked), then those places, sorted.
GUARD, POST, PROWL, TAKEN, LYING_COUNT, LYING = 0, 4, 8, 12, 16, 17
INTS = LYING + 3 * SLOTS
# The tactics: clue_fresh_s, guard_s (-1.0: None, it never guards), reads_items (1.0 or 0.0).
FRESH, GUARD_S, READS = range(3)
DECISION = 5  # a decision: work.PLANS' action, has a target, x, y, z (turn.decision_row's layout)
_MARGIN = MINOTAUR_SIGHT + 1  # the cells around the Minotaur its eyes and ways out read
if set(MINOTAUR_OPEN) != {FLOOR, RAMP_UP, RAMP_DOWN}:
    raise ImportError("cells.MINOTAUR_OPEN changed: kernel/minotaur_agent.py's _ways_out reads the old kinds")


class MinotaurMemory:
    """The memory of N built-in Minotaurs, a row each, and their random streams (mt.py rows)."""

    def __init__(self, n: int) -> None:
        self.floats = np.zeros((n, FLOATS), dtype=np.float64)
        self.ints = np.zeros((n, INTS), dtype=np.int64)
        self.tactics = np.zeros((n, 3), dtype=np.float64)
        self.rng = np.zeros((n, mt.STATE), dtype=np.uint32)
        self.ported = np.zeros(n, dtype=np.bool_)  # False: the agent plays what is not ported, in Python always

    def load(self, row: int, agent: BuiltinMinotaur) -> None:
        """Row ``row`` from ``agent``, as it is now (at the start of a game, or after it decided in Python)."""
        t = agent.tactics
        self.ported[row] = (not t.rounds and not agent.last_stones
                            and agent.arms == default_strategy("minotaur"))
        self.tactics[row] = (t.clue_fresh_s, -1.0 if t.guard_s is None else t.guard_s, float(t.reads_items))
        taken = agent.taken
        self.floats[row] = (agent.followed, agent.face_to_face, agent.guard_until,
                            0.0 if taken is None else taken[0])
        ints = self.ints[row]
        ints[:] = 0
        for at, place in ((GUARD, agent.guard), (POST, agent.post), (PROWL, agent.prowl),
                          (TAKEN, None if taken is None else taken[1])):
            if place is not None:
                ints[at:at + 4] = (1, *place)
        lying = agent.lying
        ints[LYING_COUNT] = -1 if lying is None else len(lying)
        if lying is not None:
            if len(lying) > SLOTS:
                self.ported[row] = False
            else:
                for k, place in enumerate(sorted(lying)):
                    ints[LYING + 3 * k:LYING + 3 * k + 3] = place
        self.rng[row] = mt.load([agent.rng])[0]

    def store(self, row: int, agent: BuiltinMinotaur) -> None:
        """Row ``row`` into ``agent`` (its memory and stream; ``guarded`` and its tactics as they were)."""
        f, ints = self.floats[row].tolist(), self.ints[row].tolist()

        def place(at: int) -> tuple[int, int, int] | None:
            return (ints[at + 1], ints[at + 2], ints[at + 3]) if ints[at] else None

        agent.followed, agent.face_to_face, agent.guard_until = f[FOLLOWED], f[FACE], f[UNTIL]
        agent.guard, agent.post, agent.prowl = place(GUARD), place(POST), place(PROWL)
        taken = place(TAKEN)
        agent.taken = None if taken is None else (f[TAKEN_AT], taken)
        count = ints[LYING_COUNT]
        agent.lying = None if count < 0 else {tuple(ints[LYING + 3 * k:LYING + 3 * k + 3]) for k in range(count)}
        mt.store(self.rng[row], agent.rng)


def decide_rows(rows: StateRows, memory: MinotaurMemory, asked: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Each asked row's decision into ``out`` (n, DECISION), its memory and stream advanced; per row, why it was not
    decided (work.REASONS; 0: decided), its memory then left as it was. Rows not asked answer PLAYED, untouched."""
    ground = PRESETS[rows.preset]
    bounds = np.array([ground.x0, ground.y0, ground.z0, ground.width, ground.height, ground.levels], dtype=np.int64)
    why = np.zeros(len(asked), dtype=np.int64)
    _decide_all(np.ascontiguousarray(asked, dtype=np.bool_), rows.user, rows.minotaur, rows.tick, rows.paralysis,
                rows.jump_left, rows.jump_cooldown, rows.outcome, rows.last_seen, rows.last_heard, rows.items,
                rows.item_count, rows.kinds, rows.origin, bounds, memory.floats, memory.ints, memory.tactics,
                memory.rng, memory.ported, rows.kept, out, why)
    return why


@jit
def _decide_all(asked: np.ndarray, user: np.ndarray, minotaur: np.ndarray, tick: np.ndarray, paralysis: np.ndarray,
                jump_left: np.ndarray, jump_cooldown: np.ndarray, outcome: np.ndarray, last_seen: np.ndarray,
                last_heard: np.ndarray, items: np.ndarray, item_count: np.ndarray, kinds: np.ndarray,
                origin: np.ndarray, ground: np.ndarray, floats: np.ndarray, ints: np.ndarray, tactics: np.ndarray,
                rng: np.ndarray, ported: np.ndarray, kept: np.ndarray, out: np.ndarray, why: np.ndarray) -> None:
    for i in range(asked.shape[0]):
        if not asked[i]:
            continue
        if kept[i]:  # the row holds no state (StateRows.kept): the Python agent decides from the state kept whole
            why[i] = KEPT
            continue
        if not ported[i]:
            why[i] = UNPORTED
            continue
        f, n, r = floats[i].copy(), ints[i].copy(), rng[i].copy()  # written back only when decided
        decision = np.zeros(DECISION, dtype=np.int64)
        code = _decide(user[i], minotaur[i], tick[i], paralysis[i], jump_left[i], jump_cooldown[i], outcome[i],
                       last_seen[i], last_heard[i], items[i], item_count[i], kinds[i], origin[i], ground,
                       f, n, tactics[i], r, decision)
        why[i] = code
        if code == PLAYED:
            floats[i] = f
            ints[i] = n
            rng[i] = r
            out[i] = decision


@jit
def _set(decision: np.ndarray, action: int, has: int, x: int, y: int, z: int) -> int:
    decision[0], decision[1], decision[2], decision[3], decision[4] = action, has, x, y, z
    return PLAYED


@jit
def _ways_out(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int) -> int:
    """len(visible_paths): World.minotaur_moves' count, the four steps on the level and a ramp's."""
    count = 0
    for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        kind = cell(kinds, origin, x + dx, y + dy, z)
        if kind == FLOOR or kind == RAMP_UP or kind == RAMP_DOWN:  # cells.MINOTAUR_OPEN
            count += 1
    here = cell(kinds, origin, x, y, z)
    if here == RAMP_UP or here == RAMP_DOWN:
        count += 1
    return count


@jit
def _nearest_ramp(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int, found: np.ndarray) -> int:
    """ramps_near((x, y, z))[0] into ``found`` (x, y, z): 1, or 0 when no ramp lies within RAMP_REACH,
    LEFT_REGION when a cell to read lies outside the region. Nearest first, then by (x, y): the list's sort."""
    best = -1
    for dy in range(-RAMP_REACH, RAMP_REACH + 1):
        reach = RAMP_REACH - abs(dy)
        for dx in range(-reach, reach + 1):
            kind = cell(kinds, origin, x + dx, y + dy, z)
            if kind == OUTSIDE:
                return LEFT_REGION
            if kind != RAMP_UP and kind != RAMP_DOWN:
                continue
            d = abs(dx) + abs(dy)
            if (best < 0 or d < best or d == best and (x + dx < found[0] or x + dx == found[0]
                                                         and y + dy < found[1])):
                best, found[0], found[1], found[2] = d, x + dx, y + dy, z
    return 1 if best >= 0 else 0


@jit
def _later(t1: float, x1: int, y1: int, z1: int, h1: int, t2: float, x2: int, y2: int, z2: int, h2: int) -> bool:
    """(t1, (x1, y1, z1), h1) > (t2, (x2, y2, z2), h2), as Python orders tuples."""
    if t1 != t2:
        return t1 > t2
    if x1 != x2:
        return x1 > x2
    if y1 != y2:
        return y1 > y2
    if z1 != z2:
        return z1 > z2
    return h1 > h2


@jit
def _decide(user: np.ndarray, me: np.ndarray, tick: int, paralysis: int, jump_left: int, jump_cooldown: int,
            outcome: int, last_seen: np.ndarray, last_heard: np.ndarray, items: np.ndarray, item_count: int,
            kinds: np.ndarray, origin: np.ndarray, ground: np.ndarray, f: np.ndarray, n: np.ndarray,
            tactics: np.ndarray, r: np.ndarray, decision: np.ndarray) -> int:
    """BuiltinMinotaur.decide over a row: the decision into ``decision``; PLAYED, or why not (then the copies
    ``f``, ``n``, ``r`` of its memory and stream are thrown away)."""
    x, y, z = me[0], me[1], me[2]
    if not holds(kinds, origin, x, y, z, _MARGIN):
        return LEFT_REGION
    now = tick / TICKS_PER_SECOND
    fresh_s, guard_s = tactics[FRESH], tactics[GUARD_S]
    if tactics[READS] > 0.0:  # _see_items_taken
        _see_items_taken(items, item_count, now, f, n)
    if paralysis != 0 or jump_left != 0:
        return _set(decision, WAIT, 0, 0, 0, 0)
    if (outcome == 0 and within(user[0], user[1], user[2], x, y, z, MINOTAUR_SQ)
            and line_clear(kinds, origin, x, y, z, user[0], user[1], user[2])):
        if abs(user[0] - x) + abs(user[1] - y) <= 2:
            f[FACE] = now
        return _set(decision, CHASE, 0, 0, 0, 0)
    if jump_cooldown == 0 and now - f[FACE] <= JUMP_AFTER_S and _ways_out(kinds, origin, x, y, z) >= 3:
        f[FACE] = -math.inf
        return _set(decision, JUMP, 0, 0, 0, 0)
    # _fresh_clue: the freshest of the noise, the sighting and the item taken, not yet followed, fresh enough
    found, ct, cx, cy, cz, ch = False, 0.0, 0, 0, 0, 0
    for k in range(3):
        if k == 0:
            if last_heard[3] == NONE:
                continue
            t, px, py, pz, h = last_heard[3] / TICKS_PER_SECOND, last_heard[0], last_heard[1], last_heard[2], 1
        elif k == 1:
            if last_seen[3] == NONE:
                continue
            t, px, py, pz, h = last_seen[3] / TICKS_PER_SECOND, last_seen[0], last_seen[1], last_seen[2], 1
        else:
            if n[TAKEN] == 0:
                continue
            t, px, py, pz, h = f[TAKEN_AT], n[TAKEN + 1], n[TAKEN + 2], n[TAKEN + 3], 0
        if not (t > f[FOLLOWED] and now - t <= fresh_s):
            continue
        if not found or _later(t, px, py, pz, h, ct, cx, cy, cz, ch):
            found, ct, cx, cy, cz, ch = True, t, px, py, pz, h
    if found:
        if abs(cx - x) + abs(cy - y) + abs(cz - z) <= 1:
            f[FOLLOWED] = ct  # reached it (rounds, which would drop the guard here, is not ported: load)
        elif ch:
            return _set(decision, CHASE, 0, 0, 0, 0)
        else:
            return _set(decision, PATHFIND, 1, cx, cy, cz)
    if guard_s < 0.0:
        return _set(decision, CHASE, 0, 0, 0, 0)
    return _guard(x, y, z, now, last_seen, last_heard, items, item_count, kinds, origin, ground, f, n, guard_s, r,
                  decision)


@jit
def _see_items_taken(items: np.ndarray, item_count: int, now: float, f: np.ndarray, n: np.ndarray) -> None:
    """BuiltinMinotaur._see_items_taken: the places items lie now, as a sorted set; the greatest place gone from
    the last decision's is where an item was taken now."""
    places = np.empty((item_count, 3), dtype=np.int64)
    count = 0
    for s in range(item_count):
        px, py, pz = items[s, 1], items[s, 2], items[s, 3]
        at = 0  # sorted insertion, duplicates dropped
        while at < count and (places[at, 0], places[at, 1], places[at, 2]) < (px, py, pz):
            at += 1
        if at < count and places[at, 0] == px and places[at, 1] == py and places[at, 2] == pz:
            continue
        for j in range(count, at, -1):
            places[j] = places[j - 1]
        places[at, 0], places[at, 1], places[at, 2] = px, py, pz
        count += 1
    old = n[LYING_COUNT]
    for k in range(old):  # ascending: the last gone is the greatest, which sorted(...)'s loop leaves in taken
        ox, oy, oz = n[LYING + 3 * k], n[LYING + 3 * k + 1], n[LYING + 3 * k + 2]
        kept = False
        for j in range(count):
            if places[j, 0] == ox and places[j, 1] == oy and places[j, 2] == oz:
                kept = True
        if not kept:
            f[TAKEN_AT] = now
            n[TAKEN], n[TAKEN + 1], n[TAKEN + 2], n[TAKEN + 3] = 1, ox, oy, oz
    n[LYING_COUNT] = count
    n[LYING:] = 0
    for j in range(count):
        n[LYING + 3 * j], n[LYING + 3 * j + 1], n[LYING + 3 * j + 2] = places[j, 0], places[j, 1], places[j, 2]


@jit
def _guard(x: int, y: int, z: int, now: float, last_seen: np.ndarray, last_heard: np.ndarray, items: np.ndarray,
           item_count: int, kinds: np.ndarray, origin: np.ndarray, ground: np.ndarray, f: np.ndarray, n: np.ndarray,
           guard_s: float, r: np.ndarray, decision: np.ndarray) -> int:
    """BuiltinMinotaur._guard (not on its rounds)."""
    if n[PROWL]:
        if n[PROWL + 1] != x or n[PROWL + 2] != y or n[PROWL + 3] != z:
            return _set(decision, PATHFIND, 1, n[PROWL + 1], n[PROWL + 2], n[PROWL + 3])
        n[PROWL:PROWL + 4] = 0
    stones = np.empty(item_count, dtype=np.int64)  # the slots of the stones, in the items' order
    count, guarded = 0, False
    for s in range(item_count):
        if NEEDED[items[s, 0]]:
            stones[count] = s
            count += 1
            if n[GUARD] and items[s, 1] == n[GUARD + 1] and items[s, 2] == n[GUARD + 2] and items[s, 3] == n[GUARD + 3]:
                guarded = True
    if count == 0:
        return _set(decision, WAIT, 0, 0, 0, 0)
    if not guarded:
        pick = _likely_next(now, last_seen, last_heard, items, stones[:count], f, n, r)
        gx, gy, gz = items[pick, 1], items[pick, 2], items[pick, 3]
        # ramps_by_stone[guard]: the ramps of the name of the last item lying there, near the last item of that name
        named = -1
        for s in range(item_count):
            if items[s, 1] == gx and items[s, 2] == gy and items[s, 3] == gz:
                named = items[s, 0]
        last = pick
        for s in range(item_count):
            if items[s, 0] == named:
                last = s
        ramp = np.zeros(3, dtype=np.int64)
        near = _nearest_ramp(kinds, origin, items[last, 1], items[last, 2], items[last, 3], ramp)
        if near == LEFT_REGION:
            return LEFT_REGION
        n[GUARD], n[GUARD + 1], n[GUARD + 2], n[GUARD + 3] = 1, gx, gy, gz
        f[UNTIL] = math.inf
        if near == 1 and mt.random(r) < RAMP_AMBUSH:
            n[POST], n[POST + 1], n[POST + 2], n[POST + 3] = 1, ramp[0], ramp[1], ramp[2]
        else:
            n[POST], n[POST + 1], n[POST + 2], n[POST + 3] = 1, gx, gy, gz
    px, py, pz = n[POST + 1], n[POST + 2], n[POST + 3]
    if abs(px - x) + abs(py - y) > GUARD_RADIUS or pz != z:
        return _set(decision, PATHFIND, 1, px, py, pz)
    if f[UNTIL] == math.inf:
        f[UNTIL] = now + guard_s
    if now < f[UNTIL]:
        return _set(decision, WAIT, 0, 0, 0, 0)
    n[GUARD:GUARD + 4] = 0
    wx = ground[0] + 2 * mt.randbelow(r, ground[3] // 2)
    wy = ground[1] + 2 * mt.randbelow(r, ground[4] // 2)
    wz = ground[2] + mt.randbelow(r, ground[5])
    n[PROWL], n[PROWL + 1], n[PROWL + 2], n[PROWL + 3] = 1, wx, wy, wz
    return _set(decision, PATHFIND, 1, wx, wy, wz)


@jit
def _likely_next(now: float, last_seen: np.ndarray, last_heard: np.ndarray, items: np.ndarray, stones: np.ndarray,
                 f: np.ndarray, n: np.ndarray, r: np.ndarray) -> int:
    """BuiltinMinotaur._likely_next, as the item slot of the stone (no lessons: ``load`` leaves an agent that
    learnt stones in Python). The freshest clue is the first of the latest (max's way), then the nearest stone."""
    found, ct, cx, cy, cz = False, 0.0, 0, 0, 0
    for k in range(3):
        if k == 0:
            if last_seen[3] == NONE:
                continue
            t, px, py, pz = last_seen[3] / TICKS_PER_SECOND, last_seen[0], last_seen[1], last_seen[2]
        elif k == 1:
            if last_heard[3] == NONE:
                continue
            t, px, py, pz = last_heard[3] / TICKS_PER_SECOND, last_heard[0], last_heard[1], last_heard[2]
        else:
            if n[TAKEN] == 0:
                continue
            t, px, py, pz = f[TAKEN_AT], n[TAKEN + 1], n[TAKEN + 2], n[TAKEN + 3]
        if now - t > TRACE_S:
            continue
        if not found or t > ct:
            found, ct, cx, cy, cz = True, t, px, py, pz
    if not found:
        return stones[mt.randbelow(r, stones.shape[0])]
    best, bd = -1, 0
    for s in stones:
        d = abs(items[s, 1] - cx) + abs(items[s, 2] - cy) + 8 * abs(items[s, 3] - cz)
        if best < 0 or d < bd or d == bd and (items[s, 1], items[s, 2], items[s, 3]) < (
                items[best, 1], items[best, 2], items[best, 3]):
            best, bd = s, d
    return best
