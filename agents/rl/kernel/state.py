"""The state of N games as dense arrays, one row per env: what the kernel's slices read and write
instead of N GameStates, and a GameState's way in and out of a row, exact both ways.

Every field of engine.state.GameState has its arrays here (the table below checks, at import, that none is
left out); the row also holds its labyrinth's region (region.py), laid when the row gets a new game. The
arrays are int64 wherever they hold a number: the A* search (astar.py) reads positions and writes paths as int64,
so a kernel passes these arrays as they are, and one range check covers every number of a state.

A state that fixed rows cannot hold (a path longer than PATH_ROWS, more seen items than SEEN_SLOTS, a
number past int64, an inventory out of ITEM_ORDER...) is never cut to fit: its row is flagged ``kept``
(why: ``kept_why``) and the state itself is kept beside the arrays, so reading the row gives it back whole.
The kernel steps such a row on the engine (steps.py hands it over), as it does every row it cannot play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import numpy as np

from labyrinth.engine.geometry import Pos
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.engine.presets import DIFFICULTIES, PRESETS
from labyrinth.engine.schemas import Ending
from labyrinth.engine.state import GameState
from labyrinth.engine.world import World

from . import maze
from .jit import COMPILED
from .region import MARGIN_CHUNKS, around, mark_near, region_of, stages

REGION_PRESETS = ("tiny", "small")  # the grounds whose region's margins were measured (region.py)
OUTCOME_CODES: tuple[Ending | None, ...] = (None, "DEATH", "ESCAPED")  # a row's outcome code: its index, 0 playing
NOISES = ("LOW", "HIGH")  # last_heard's loudness code, from engine.schemas' Noise
DEATH, ESCAPED = OUTCOME_CODES.index("DEATH"), OUTCOME_CODES.index("ESCAPED")
LOW, HIGH = NOISES.index("LOW"), NOISES.index("HIGH")
NONE = -1  # an item slot's kind, last_seen's and last_heard's tick, when there is none
SEEN_SLOTS = 16  # seen_items: one per item and place seen (a lantern respawned and seen again adds one)
PATH_ROWS = 1024  # the Minotaur's path; longer than any path of a tiny or small region (astar's bench)
# The counters: one int64 array each, named as the state's field.
COUNTERS = ("seed", "tick", "turn", "stamina", "jump_left", "jump_started_turn", "jump_cooldown", "jumps",
            "paralysis", "stride", "searched_until", "patrols")
# Every field of GameState, by what holds it here: a field added to the state fails this module's import
# until it has arrays (and its round trip test, tests/agents/rl/test_kernel_state.py, fails without them).
HELD = {*COUNTERS, "preset", "difficulty", "outcome", "user", "minotaur", "inventory", "items", "seen_items",
        "timers", "respawns", "last_seen", "last_heard", "waypoint", "goal", "path"}
_MISSING = {f.name for f in fields(GameState)} ^ HELD
if _MISSING:
    raise ImportError(f"kernel/state.py holds no arrays for GameState's {sorted(_MISSING)} (or holds a gone field)")
_INT64 = (-(2**63), 2**63 - 1)
_KIND: dict[str, int] = {name: code for code, name in enumerate(ITEM_ORDER)}


class StateRows:
    """N games of one preset (``StateRows(n, preset)``: room for them; a row holds a game once written).
    Positions are (x, y, z) rows; an item slot is (kind in ITEM_ORDER or NONE, x, y, z), the slots in the
    state's order; a map of counts (inventory, timers, respawns) is a column per item of ITEM_ORDER, 0 where
    the state holds none. ``kinds[i]`` is row i's region, ``origin[i]`` its first cell (region.py)."""

    # One (n,) array per name of COUNTERS, made by __init__:
    seed: np.ndarray
    tick: np.ndarray
    turn: np.ndarray
    stamina: np.ndarray
    jump_left: np.ndarray
    jump_started_turn: np.ndarray
    jump_cooldown: np.ndarray
    jumps: np.ndarray
    paralysis: np.ndarray
    stride: np.ndarray
    searched_until: np.ndarray
    patrols: np.ndarray

    def __init__(self, n: int, preset: str, margin: int = MARGIN_CHUNKS) -> None:
        """Room for ``n`` games of ``preset``, each region ``margin`` chunks around the ground (region.py)."""
        if preset not in REGION_PRESETS:
            raise ValueError(f"the kernel's rows hold a game of {' or '.join(REGION_PRESETS)}, not {preset!r}: "
                             f"only those grounds have a measured region")
        box, slots = around(PRESETS[preset], margin), len(ITEM_ORDER)

        def ints(*shape: int) -> np.ndarray:
            return np.zeros((n, *shape), dtype=np.int64)

        self.preset = preset
        for name in COUNTERS:
            setattr(self, name, ints())
        self.difficulty = ints()  # its index in engine.presets.DIFFICULTIES
        self.outcome = ints()  # its index in OUTCOME_CODES
        self.user, self.minotaur = ints(3), ints(3)
        self.inventory = ints(slots)  # 1 where the user holds the item
        self.items, self.item_count = ints(slots, 4), ints()
        self.seen_items, self.seen_count = ints(SEEN_SLOTS, 4), ints()
        self.timers, self.respawns = ints(slots), ints(slots)
        self.last_seen = ints(4)  # x, y, z, tick (NONE: never seen)
        self.last_heard = ints(5)  # x, y, z, tick (NONE: never heard), loudness code (NOISES)
        self.waypoint, self.has_waypoint = ints(3), np.zeros(n, dtype=np.bool_)
        self.goal, self.has_goal = ints(3), np.zeros(n, dtype=np.bool_)
        self.path, self.path_length = ints(PATH_ROWS, 3), ints()
        self.box = box
        # what each stage of a game's region lays (region.stages: the last is the box)
        self.stages = (*(around(PRESETS[preset], chunks, levels) for chunks, levels in stages(margin)[:-1]), box)
        self.kinds = np.zeros((n, box.levels, box.height, box.width), dtype=np.uint8)
        self.origin = ints(3)
        self.stage = np.zeros(n, dtype=np.int64)  # the last of self.stages each row's region has laid (lay_more)
        self.region_seed = ints()  # the labyrinth each row's region is of: its game's seed
        self.kept = np.zeros(n, dtype=np.bool_)  # True where the state did not fit the arrays: kept whole beside
        self.kept_why: dict[int, str] = {}  # what did not fit, by row
        self._kept_states: dict[int, GameState] = {}

    def write(self, row: int, state: GameState) -> None:
        """Put ``state`` in row ``row`` (its region is laid apart, by ``lay_region``, once a game); a state
        the arrays cannot hold is kept whole and the row flagged (``kept``, ``kept_why``)."""
        if state.preset != self.preset:
            raise ValueError(f"these rows hold {self.preset} games, not a {state.preset} one")
        why = _unfit(state)
        if why is not None:
            self.kept[row], self.kept_why[row], self._kept_states[row] = True, why, state.clone()
            return
        self.kept[row] = False
        self.kept_why.pop(row, None)
        self._kept_states.pop(row, None)
        for name in COUNTERS:
            getattr(self, name)[row] = getattr(state, name)
        self.difficulty[row] = DIFFICULTIES.index(state.difficulty)
        self.outcome[row] = OUTCOME_CODES.index(state.outcome)
        self.user[row], self.minotaur[row] = state.user, state.minotaur
        for counts, held in ((self.inventory, dict.fromkeys(state.inventory, 1)), (self.timers, state.timers),
                             (self.respawns, state.respawns)):
            counts[row] = [held.get(name, 0) for name in ITEM_ORDER]
        self.item_count[row] = _slots(self.items[row], state.items)
        self.seen_count[row] = _slots(self.seen_items[row], state.seen_items)
        self.last_seen[row] = (*state.last_seen[0], state.last_seen[1]) if state.last_seen else (0, 0, 0, NONE)
        heard = state.last_heard
        self.last_heard[row] = (*heard[0], heard[1], NOISES.index(heard[2])) if heard else (0, 0, 0, NONE, 0)
        self.has_waypoint[row], self.waypoint[row] = state.waypoint is not None, state.waypoint or (0, 0, 0)
        self.has_goal[row], self.goal[row] = state.goal is not None, state.goal or (0, 0, 0)
        self.path_length[row] = len(state.path)
        if state.path:
            self.path[row, :len(state.path)] = state.path

    def state(self, row: int) -> GameState:
        """Row ``row`` as a GameState, equal to the one written there (a new object, as a turn's clone)."""
        if self.kept[row]:
            return self._kept_states[row].clone()
        counters = {name: int(getattr(self, name)[row]) for name in COUNTERS}
        inventory, timers, respawns = (self.inventory[row].tolist(), self.timers[row].tolist(),
                                       self.respawns[row].tolist())
        seen, heard = self.last_seen[row].tolist(), self.last_heard[row].tolist()
        return GameState(
            **counters, preset=self.preset, difficulty=DIFFICULTIES[self.difficulty[row]],
            outcome=OUTCOME_CODES[self.outcome[row]], user=_pos(self.user[row]), minotaur=_pos(self.minotaur[row]),
            inventory=tuple(name for name, held in zip(ITEM_ORDER, inventory, strict=True) if held),
            items=_lying(self.items[row], self.item_count[row]),
            seen_items=_lying(self.seen_items[row], self.seen_count[row]),
            timers={name: n for name, n in zip(ITEM_ORDER, timers, strict=True) if n},
            respawns={name: n for name, n in zip(ITEM_ORDER, respawns, strict=True) if n},
            last_seen=None if seen[3] == NONE else (tuple(seen[:3]), seen[3]),
            last_heard=None if heard[3] == NONE else (tuple(heard[:3]), heard[3], NOISES[heard[4]]),
            waypoint=_pos(self.waypoint[row]) if self.has_waypoint[row] else None,
            goal=_pos(self.goal[row]) if self.has_goal[row] else None,
            path=tuple((x, y, z) for x, y, z in self.path[row, :self.path_length[row]].tolist()),
        )

    @property
    def partial(self) -> np.ndarray:
        """Where a row's region is not laid whole (a bool mask): what its turns read may be UNLAID."""
        return self.stage < len(self.stages) - 1

    def lay_region(self, row: int, world: World, whole: bool = True) -> None:
        """Row ``row``'s region: its game's labyrinth (``world``, the seed's) around the ground, as the kernel
        reads it. With numba, maze.py generates its cells straight into the row (a sixth of the engine's time
        or less: bench/rl/kernel_maze_bench.py), and unless ``whole``, only its first stage (region.stages; the
        rest UNLAID, which the kernel reads as outside: ``lay_more`` lays the next); ``world`` is left as it
        was, to generate the chunks its game reads. Without numba, ``world`` generates them all (they stay in
        its cache, for the engine)."""
        box = self.box
        self.origin[row], self.region_seed[row] = (box.x0, box.y0, box.z0), world.seed
        last = len(self.stages) - 1
        if COMPILED:
            maze.lay([world.seed], box, self.kinds[row:row + 1], None if whole else self.stages[0])
            self.stage[row] = last if whole else 0
            return
        self.kinds[row] = region_of(world, box).kinds
        self.stage[row] = last

    def lay_more(self, at: np.ndarray) -> np.ndarray:
        """The next stage of the regions of the rows ``at`` (a bool mask) that have one laid; those rows (a bool
        mask)."""
        last = len(self.stages) - 1
        laid = at & (self.stage < last)
        for row in np.flatnonzero(laid).tolist():
            was, now = int(self.stage[row]), int(self.stage[row]) + 1
            maze.lay([int(self.region_seed[row])], self.box, self.kinds[row:row + 1],
                     None if now == last else self.stages[now], self.stages[was])
            self.stage[row] = now
        return laid

    def lay_wanted(self, at: np.ndarray) -> np.ndarray:
        """The chunks a check marked needed (region.WANTED) laid in the regions of the rows ``at`` (a bool mask), with
        the ramps they show (maze.lay_wanted); the rows that had any (a bool mask)."""
        laid = np.zeros(len(at), dtype=np.bool_)
        for row in np.flatnonzero(at & self.partial).tolist():
            laid[row] = maze.lay_wanted(int(self.region_seed[row]), self.box, self.kinds[row]) > 0
        return laid

    def lay_near(self, at: np.ndarray) -> np.ndarray:
        """The chunks not laid yet within a chunk and a level of where the user and the Minotaur of the rows ``at``
        (a bool mask) stand, laid (region.mark_near, then lay_wanted): what their next turn may read, laid before
        it; the rows that had any (a bool mask)."""
        marked = np.zeros(len(at), dtype=np.bool_)
        asked = np.ascontiguousarray(at & self.partial)
        if asked.any():
            for figures in (self.user, self.minotaur):
                mark_near(self.kinds, self.origin, figures, asked, marked)
            for row in np.flatnonzero(marked).tolist():
                maze.lay_wanted(int(self.region_seed[row]), self.box, self.kinds[row], (0, 0))
        return marked


def rows_of(states: Sequence[GameState], worlds: Sequence[World] | None = None) -> StateRows:
    """Games as rows, their regions laid (``worlds``: their labyrinths, when the caller has them; a new
    World of each seed otherwise): what the vector env makes at reset, and what the tests convert."""
    if not states:
        raise ValueError("no games to make rows of")
    rows = StateRows(len(states), states[0].preset)
    for row, state in enumerate(states):
        rows.write(row, state)
        rows.lay_region(row, worlds[row] if worlds is not None else World(state.seed))
    return rows


def _unfit(state: GameState) -> str | None:
    """Why ``state`` does not fit fixed rows, or None. A value of the wrong type counts (a bool where an int
    is due would come back an int), so a row always reads back as equal."""
    numbers: list[Any] = [getattr(state, name) for name in COUNTERS]
    positions: list[Any] = [state.user, state.minotaur, *(pos for _, pos in (*state.items, *state.seen_items))]
    positions += [p for p in (state.waypoint, state.goal) if p is not None]
    positions += state.path
    names = [*state.inventory, *(name for name, _ in (*state.items, *state.seen_items)), *state.timers,
             *state.respawns]
    if state.difficulty not in DIFFICULTIES or state.outcome not in OUTCOME_CODES or any(n not in _KIND for n in names):
        return f"difficulty {state.difficulty!r}, outcome {state.outcome!r} or an item name unknown"
    if state.inventory != tuple(n for n in ITEM_ORDER if n in state.inventory):
        return f"inventory {state.inventory} is not in ITEM_ORDER, once each"
    if len(state.items) > len(ITEM_ORDER) or len(state.seen_items) > SEEN_SLOTS or len(state.path) > PATH_ROWS:
        return (f"{len(state.items)} items lying, {len(state.seen_items)} seen or a path of {len(state.path)} "
                f"cells: past {len(ITEM_ORDER)}, {SEEN_SLOTS} or {PATH_ROWS}")
    if any(n <= 0 for n in (*state.timers.values(), *state.respawns.values()) if type(n) is int):
        return "a timer or respawn count of 0 or less (a row's 0 means none)"
    numbers += [*state.timers.values(), *state.respawns.values()]
    if state.last_seen is not None and len(state.last_seen) != 2:
        return f"a last sighting {state.last_seen} not (where, tick)"
    if state.last_heard is not None and (len(state.last_heard) != 3 or state.last_heard[2] not in NOISES):
        return f"a last noise {state.last_heard} not (where, tick, LOW or HIGH)"
    for known in (state.last_seen, state.last_heard):
        if known is not None:
            positions.append(known[0])
            numbers.append(known[1])
            if type(known[1]) is int and known[1] < 0:
                return f"a sighting or noise at tick {known[1]} (a row's {NONE} means none)"
    if any(type(p) is not tuple or len(p) != 3 for p in positions):
        return "a position that is not an (x, y, z) tuple"
    numbers += [v for p in positions for v in p]
    if any(type(v) is not int or not _INT64[0] <= v <= _INT64[1] for v in numbers):
        return "a number that is not an int64"
    return None


def _slots(out: np.ndarray, lying: tuple[tuple[str, Pos], ...]) -> int:
    """Write items (name, position) into the slots ``out``, in their order, the others NONE; their count."""
    out[:] = NONE
    for slot, (name, pos) in enumerate(lying):
        out[slot] = (_KIND[name], *pos)
    return len(lying)


def _lying(slots: np.ndarray, count: np.int64) -> tuple[tuple[str, Pos], ...]:
    return tuple((ITEM_ORDER[kind], (x, y, z)) for kind, x, y, z in slots[:count].tolist())


def _pos(cells: np.ndarray) -> Pos:
    x, y, z = cells.tolist()
    return (x, y, z)
