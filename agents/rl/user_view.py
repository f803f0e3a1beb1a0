"""The user's numeric observation: what it perceives and remembers, as numbers a network
reads as they are (binary planes, one-hots, fractions of known spans), never a raw
coordinate, a raw second or a category code read as a magnitude.

It reads the user's perception (engine/wsap/perception.py: the cells it has seen, the items
where it saw them, the stones' last hum) and keeps what the perception does not: the trail
as an array, where each hum was heard, where and when the Minotaur was last seen. The
docs/rl.md documents each key.
"""

from __future__ import annotations

from functools import cache
from itertools import islice
from typing import Any, get_args

import numpy as np
from gymnasium import spaces

from labyrinth.engine import events as ev
from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import (
    JUMP_COOLDOWN_TICKS,
    TICKS_PER_SECOND,
    WORLD_SIZE,
)
from labyrinth.engine.figures import seconds
from labyrinth.engine.geometry import Pos
from labyrinth.engine.items import ITEM, ITEM_ORDER, KINDS, LANTERN, STONES
from labyrinth.engine.report import lantern_cooldown, stamina_pct, user_cue
from labyrinth.engine.schemas import AudioDirection, Direction, Proximity, TemporalStatus
from labyrinth.engine.turn import TurnResult
from labyrinth.engine.wsap.perception import NOT_SEEN

from ..builtin.stone_search import StoneSearch
from ..match.runner import Match
from ..match.side import user_map
from .planes import (
    COARSE,
    COMPASS_VECTORS,
    RADIUS,
    SIDE,
    Ground,
    flags,
    item_plane,
    kind_table,
    mark_coarse,
    mark_window,
    number_slices,
    one_hot,
    planes_space,
    unit_box,
)

# The window's planes: the cells' kinds first (from the perception's memory), then the marks.
WINDOW_PLANES = ("rock", "open", "unknown", "crawlway", "ramp_up", "ramp_down", *map(item_plane, ITEM_ORDER),
                 "trail", "minotaur")
_W = {name: i for i, name in enumerate(WINDOW_PLANES)}
_KINDS = kind_table({ROCK: [_W["rock"]], FLOOR: [_W["open"]], CRAWLWAY: [_W["open"], _W["crawlway"]],
                     RAMP_UP: [_W["open"], _W["ramp_up"]], RAMP_DOWN: [_W["open"], _W["ramp_down"]],
                     NOT_SEEN: [_W["unknown"]]}, _W["ramp_down"] + 1)
# The coarse map's planes, over the whole hunting ground on the user's level.
MEMORY_PLANES = ("open", "unknown", "trail", "ramp", "you", *KINDS, "minotaur", "stone_may_lie")  # a plane a kind
_M = {name: i for i, name in enumerate(MEMORY_PLANES)}
_CELL_PLANES = MEMORY_PLANES[:4]  # those kept as the user sees and treads cells; the others are marks
_COARSE_KINDS = {ROCK: (), FLOOR: (_M["open"],), CRAWLWAY: (_M["open"],), RAMP_UP: (_M["open"], _M["ramp"]),
                 RAMP_DOWN: (_M["open"], _M["ramp"])}
DIRECTIONS = get_args(Direction)  # the ways out, in the schemas' order
PROXIMITIES, SOUNDS, STATUSES = get_args(Proximity), (*get_args(AudioDirection), None), get_args(TemporalStatus)
CUE_SIZE = len(PROXIMITIES) + len(SOUNDS) + len(STATUSES)
_SPANS_S = np.array([JUMP_COOLDOWN_TICKS, LANTERN.effect_ticks, LANTERN.respawn_ticks], np.float32) / TICKS_PER_SECOND
_LEVEL_SIDE = WORLD_SIZE + 2 * RADIUS  # a level's trail and kinds arrays, with the window's margin all round

PLANE_SHAPES = {"map": (len(WINDOW_PLANES), SIDE, SIDE), "memory": (len(MEMORY_PLANES), COARSE, COARSE)}
SPACES: dict[str, spaces.Space] = {
    "map": planes_space(PLANE_SHAPES["map"]),
    "memory": planes_space(PLANE_SHAPES["memory"]),
    "position": unit_box(3),
    "stamina": unit_box(1),
    "timers": unit_box(4),
    "cue": unit_box(CUE_SIZE),
    "exits": unit_box(len(DIRECTIONS)),
    "hums": unit_box(len(STONES) * 6, signed=True),  # six numbers a stone, in STONES' order
    "items_seen": unit_box(len(ITEM_ORDER) * 4, signed=True),  # four numbers an item, in ITEM_ORDER
    "inventory": unit_box(len(ITEM_ORDER)),
    "sighting": unit_box(5, signed=True),
}
_SLICES = number_slices(SPACES)
_UNHEARD = (0.0,) * 6  # a stone's row of ``hum_rows`` before a LOOK hears it, and once held


@cache
def _cue(proximity: str, direction: str | None, status: str) -> tuple[float, ...]:
    """What the user hears as one-hots (made once for each of the few hundred cues there are)."""
    return (*one_hot(PROXIMITIES, proximity), *one_hot(SOUNDS, direction), *one_hot(STATUSES, status))


class UserView:
    """One game's numeric observation of the user; ``update`` after every turn."""

    def __init__(self, match: Match, max_turns: int) -> None:
        self.match, self.max_turns = match, max_turns
        self.ground = Ground(match.preset)
        self.perception = user_map(match.seats["user"])
        self.trails: dict[int, np.ndarray] = {}  # by level: 1 where the user stood or passed
        self.kinds: dict[int, np.ndarray] = {}  # by level: each cell's kind as seen (NOT_SEEN until it is)
        self.heard_at: Pos | None = None  # where the user stood at its last LOOK that heard stones hum
        self.hum_rows = [_UNHEARD] * len(STONES)  # the hums' heard, bearing and levels columns (and 2 for _hums)
        self.sighting: tuple[Pos, float] | None = None  # where and when the Minotaur was last seen
        self.sighted: Pos | None = None  # where the user sees it now
        self.cells: dict[int, np.ndarray] = {}  # by level: the memory map's planes of cells, kept as cells are seen
        self.seen = 0  # how many cells of the perception's memory the planes hold
        self.may_lie: tuple[int, list[set[Pos]], np.ndarray] | None = None  # _may_lie's: level, sets, plane
        g = self.ground  # where each missing stone may still lie, by every hum heard and every cell seen
        self.search = StoneSearch({"x0": g.x0, "y0": g.y0, "z0": g.z0, "width": g.width, "height": g.height,
                                   "levels": g.levels}, self.perception.seen)
        self.update(match.last)

    def update(self, result: TurnResult) -> None:
        state = result.state
        stops = [p for e in result.events if isinstance(e, ev.UserMoved) for p in e.path]
        for pos in [*stops, state.user]:
            x, y, z = pos
            trail = self._trail(z)
            if not trail[y + RADIUS, x + RADIUS]:
                trail[y + RADIUS, x + RADIUS] = 1
                self._remember(pos, _M["trail"])
        seen = self.perception.seen
        fresh = list(islice(reversed(seen.items()), len(seen) - self.seen))  # the cells seen this turn
        for pos, kind in fresh:
            self._remember(pos, *_COARSE_KINDS[kind])
        self._see(fresh)
        self.seen = len(seen)
        for e in result.events:
            if isinstance(e, ev.StonesHummed):
                self.heard_at = state.user
                self._hear(state.user, e.hums)
                for stone, direction, levels in e.hums:
                    self.search.hear(stone, state.user, direction, levels)
            elif isinstance(e, ev.StoneGrabbed):
                self.hum_rows[STONES.index(e.stone)] = _UNHEARD
        self.search.look(pos for pos, _ in fresh)
        for name, pos in self.perception.items.items():
            if name in STONES:
                self.search.seen(name, pos)
        self.sighted = self.perception.minotaur_in_sight(state)
        if self.sighted is not None:
            self.sighting = self.sighted, seconds(state.tick)

    def _remember(self, pos: Pos, *planes: int) -> None:
        """Mark the coarse map's cell of ``pos`` (a cell of the ground) as seen, and set ``planes`` there."""
        g = self.ground
        if not g.bounds.contains(*pos):
            return
        cells = self.cells.get(pos[2])
        if cells is None:
            cells = self.cells[pos[2]] = np.zeros((len(_CELL_PLANES), COARSE, COARSE), np.uint8)
            cells[_M["unknown"]] = 1
        row, col = g.coarse_cell(pos)
        cells[_M["unknown"], row, col] = 0
        for plane in planes:
            cells[plane, row, col] = 1

    def _see(self, fresh: list[tuple[Pos, int]]) -> None:
        """Keep the kinds of the cells seen this turn: a window is then a slice of its level's kinds (as the
        trail's) through _KINDS, not the perception's remembered cells looked up one by one every turn. A byte
        a cell, not its planes: a user in the whole cube walks a hundred levels and more, 0.34 MB each with the
        trail (1.2 MB as planes). A cell seen lies within the margin (the perception's rows hold it with a
        narrower one)."""
        for (x, y, z), kind in fresh:  # a few cells on a fifth of the turns: one at a time costs least
            self._kinds(z)[y + RADIUS, x + RADIUS] = kind

    def _kinds(self, z: int) -> np.ndarray:
        kinds = self.kinds.get(z)
        if kinds is None:
            kinds = self.kinds[z] = np.full((_LEVEL_SIDE, _LEVEL_SIDE), NOT_SEEN, np.uint8)
        return kinds

    def _trail(self, z: int) -> np.ndarray:
        trail = self.trails.get(z)
        if trail is None:
            trail = self.trails[z] = np.zeros((_LEVEL_SIDE, _LEVEL_SIDE), np.uint8)
        return trail

    def observe(self) -> dict[str, Any]:
        match, g = self.match, self.ground
        state = match.last.state  # its response's numbers read from it: the response (and its words) unbuilt
        here, cue = state.user, user_cue(state)
        held = set(state.inventory)
        numbers = np.array([  # in _SLICES' order
            *g.position(here),
            stamina_pct(state),
            min(match.turns / self.max_turns, 1.0), min(cue.cooldown_time / _SPANS_S[0], 1.0),
            min(cue.paralysis_time_left / _SPANS_S[1], 1.0), min(lantern_cooldown(state) / _SPANS_S[2], 1.0),
            *_cue(cue.proximity, cue.audio_direction, cue.temporal_status),
            *flags(DIRECTIONS, match.game.world.user_exits(here)),
            *self._hums(here),
            *self.ground.items(here, self.perception.items),
            *[float(name in held) for name in ITEM_ORDER],
            *self.ground.trace(here, self.sighting, seconds(state.tick)),
        ], np.float32)
        return {"map": self._window(here), "memory": self._memory(here),
                **{key: numbers[where] for key, where in _SLICES.items()}}

    def _window(self, here: Pos) -> np.ndarray:
        x, y, z = here
        grid = np.zeros((len(WINDOW_PLANES), SIDE, SIDE), np.uint8)
        grid[:_KINDS.shape[1]] = _KINDS[self._kinds(z)[y:y + SIDE, x:x + SIDE][::-1]].transpose(2, 0, 1)
        for name, pos in self.perception.items.items():
            mark_window(grid, _W[item_plane(name)], here, pos)
        grid[_W["trail"]] = self._trail(z)[y:y + SIDE, x:x + SIDE][::-1]
        if self.sighted is not None:
            mark_window(grid, _W["minotaur"], here, self.sighted)
        return grid

    def _memory(self, here: Pos) -> np.ndarray:
        g, z = self.ground, here[2]
        grid = np.zeros((len(MEMORY_PLANES), COARSE, COARSE), np.uint8)
        cells = self.cells.get(z)
        if cells is None:
            grid[_M["unknown"]] = 1
        else:
            grid[:len(_CELL_PLANES)] = cells
        mark_coarse(grid, _M["you"], g, z, [here])
        for name, p in self.perception.items.items():  # each item seen on its kind's plane
            if p[2] == z:
                grid[(_M[ITEM[name].kind], *g.coarse_cell(p))] = 1
        if self.sighting is not None:
            mark_coarse(grid, _M["minotaur"], g, z, [self.sighting[0]])
        grid[_M["stone_may_lie"]] = self._may_lie(z)
        return grid

    def _may_lie(self, z: int) -> np.ndarray:
        """The coarse cells of level ``z`` where a stone not held may still lie: worked out when the
        search narrows (it replaces a stone's set of places, never changes it), a stone is grabbed or
        the user changes level, not every turn: hundreds of places, a few changes a game."""
        held = self.match.game.state.inventory
        sets = [places for stone, places in self.search.candidates.items() if stone not in held]
        known = self.may_lie
        if known is None or known[0] != z or len(known[1]) != len(sets) or any(
                a is not b for a, b in zip(known[1], sets)):
            plane = np.zeros((COARSE, COARSE), np.uint8)
            for places in sets:  # a stone's places all lie on the level it hums from
                if next(iter(places))[2] == z:
                    rows, cols = self.ground.coarse_cells(places)
                    plane[rows, cols] = 1
            known = self.may_lie = (z, sets, plane)
        return known[2]

    def _hear(self, here: Pos, hums: tuple[tuple[str, str | None, int], ...]) -> None:
        """A LOOK's hums as the rows' first columns: heard (1), the bearing as a unit vector (east,
        north; 0, 0 straight above or below), the levels up as a fraction of the ground's."""
        self.hum_rows = [_UNHEARD] * len(STONES)
        for stone, direction, levels in hums:
            east, north = COMPASS_VECTORS.get(direction or "", (0.0, 0.0))
            up = self.ground.offset(here, (here[0], here[1], here[2] + levels))[2]
            self.hum_rows[STONES.index(stone)] = (1.0, east, north, up, 0.0, 0.0)

    def _hums(self, here: Pos) -> list[float]:
        """Each stone's last hum (0 once held), and the way from where it was heard to here, so that a
        bearing heard elsewhere can be followed."""
        if self.heard_at is None:
            return [n for row in self.hum_rows for n in row]
        moved = self.ground.offset(self.heard_at, here)[:2]
        return [n for row in self.hum_rows for n in (row[:4] + moved if row[0] == 1.0 else row)]
