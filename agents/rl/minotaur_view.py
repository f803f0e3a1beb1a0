"""The Minotaur's numeric observation, on the user's design (user_view.py): binary planes
of its window and of a coarse map of the hunting ground, one-hots, fractions of known spans.

It knows its labyrinth, so its planes hold every cell; what it remembers is the intruder:
the last sighting and the last noise (its observation's ``last_seen`` and ``last_heard``),
which the map marks and the numbers give as ways and ages. docs/rl.md documents each key.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import JUMP_COOLDOWN_TICKS, JUMP_MAX_TICKS, TICKS_PER_SECOND
from labyrinth.engine.geometry import Pos, pos_of
from labyrinth.engine.items import ITEM, ITEM_ORDER, KINDS, LANTERN
from labyrinth.engine.turn import TurnResult

from ..match.runner import Match
from .level_kinds import LevelKinds
from .planes import (
    COARSE,
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
    window_planes,
)
from .user_view import DIRECTIONS, STATUSES

WINDOW_PLANES = ("rock", "open", "crawlway", "ramp_up", "ramp_down", *map(item_plane, ITEM_ORDER),
                 "intruder", "noise", "sighting")
_W = {name: i for i, name in enumerate(WINDOW_PLANES)}
# "open": where it may stand (never a crawlway, which is the intruder's refuge).
_KINDS = kind_table({ROCK: [_W["rock"]], FLOOR: [_W["open"]], CRAWLWAY: [_W["crawlway"]],
                     RAMP_UP: [_W["open"], _W["ramp_up"]], RAMP_DOWN: [_W["open"], _W["ramp_down"]]},
                    _W["ramp_down"] + 1)
MEMORY_PLANES = ("open", "crawlway", "ramp", "you", *KINDS, "noise", "sighting")  # a plane for each kind of item
_M = {name: i for i, name in enumerate(MEMORY_PLANES)}
_PAD = 2 * RADIUS  # how far beyond the ground a level's kinds are kept: the window's reach, and as much again
_SPANS_S = np.array([JUMP_COOLDOWN_TICKS, JUMP_MAX_TICKS, LANTERN.effect_ticks], np.float32) / TICKS_PER_SECOND

PLANE_SHAPES = {"map": (len(WINDOW_PLANES), SIDE, SIDE), "memory": (len(MEMORY_PLANES), COARSE, COARSE)}
SPACES: dict[str, spaces.Space] = {
    "map": planes_space(PLANE_SHAPES["map"]),
    "memory": planes_space(PLANE_SHAPES["memory"]),
    "position": unit_box(3),
    "timers": unit_box(4),
    "cue": unit_box(len(STATUSES) + 2),
    "exits": unit_box(len(DIRECTIONS)),
    "items_lying": unit_box(len(ITEM_ORDER) * 4, signed=True),  # four numbers an item, in ITEM_ORDER
    "intruder": unit_box(2 * 5, signed=True),  # the last sighting's five numbers, then the last noise's
}
_SLICES = number_slices(SPACES)
_TIMED = slice(_SLICES["timers"].start + 1, _SLICES["timers"].stop)  # the timers _SPANS_S scales
_ITEM_W: dict[str, int] = {name: _W[item_plane(name)] for name in ITEM_ORDER}  # each item's window plane, named once
_ITEM_M: dict[str, int] = {name: _M[ITEM[name].kind] for name in ITEM_ORDER}  # and its kind's memory plane


class MinotaurView:
    """One game's numeric observation of the Minotaur; ``update`` after every turn (its
    memory is its observation's, so there is nothing to keep but the labyrinth's planes)."""

    def __init__(self, match: Match, max_turns: int) -> None:
        self.match, self.max_turns = match, max_turns
        self.ground = Ground(match.preset)
        self._levels: dict[int, LevelKinds] = {}  # the kinds of each level's cells around the ground (_kinds)
        self._coarse: dict[int, np.ndarray] = {}  # the coarse planes of the labyrinth itself, by level

    def update(self, result: TurnResult) -> None:
        """Nothing to keep: the observation carries the Minotaur's memory."""

    def observe(self) -> dict[str, Any]:
        match, g = self.match, self.ground
        o = match.last.minotaur_fields(words=False)  # its observation's numbers: no model, no words written
        here = pos_of(o["position"])
        items: list[tuple[str, Pos]] = [(i["name"], pos_of(i["position"])) for i in o["items"]]
        numbers = np.array([  # in _SLICES' order; the three timers of _SPANS_S scaled below, in float32
            *g.position(here),
            min(match.turns / self.max_turns, 1.0), o["cooldown_time"], o["jump_time_left"], o["paralysis_time_left"],
            *one_hot(STATUSES, o["temporal_status"]), float(o["sees_user"]), float(o["noises_heard"] > 0),
            *flags(DIRECTIONS, o["visible_paths"]),
            *g.items(here, dict(items)),
            *g.trace(here, _known(o["last_seen"]), o["game_time"]),
            *g.trace(here, _known(o["last_heard"]), o["game_time"]),
        ], np.float32)
        timed = numbers[_TIMED]
        np.minimum(timed / _SPANS_S, 1.0, out=timed)
        return {"map": self._window(o, items, here), "memory": self._memory(o, items, here),
                **{key: numbers[where] for key, where in _SLICES.items()}}

    def _window(self, o: dict[str, Any], items: list[tuple[str, Pos]], here: Pos) -> np.ndarray:
        grid = window_planes(self._cells(here), _KINDS, len(WINDOW_PLANES))
        for name, pos in items:
            mark_window(grid, _ITEM_W[name], here, pos)
        if o["user_position"]:
            mark_window(grid, _W["intruder"], here, pos_of(o["user_position"]))
        if o["last_heard"]:
            mark_window(grid, _W["noise"], here, pos_of(o["last_heard"]["position"]))
        if o["last_seen"]:
            mark_window(grid, _W["sighting"], here, pos_of(o["last_seen"]["position"]))
        return grid

    def _memory(self, o: dict[str, Any], items: list[tuple[str, Pos]], here: Pos) -> np.ndarray:
        g, z = self.ground, here[2]
        grid = np.zeros((len(MEMORY_PLANES), COARSE, COARSE), np.uint8)
        grid[:_M["ramp"] + 1] = self._level(z)
        mark_coarse(grid, _M["you"], g, z, [here])
        for name, pos in items:  # each item on its kind's plane
            if pos[2] == z:
                grid[(_ITEM_M[name], *g.coarse_cell(pos))] = 1
        if o["last_heard"]:
            mark_coarse(grid, _M["noise"], g, z, [pos_of(o["last_heard"]["position"])])
        if o["last_seen"]:
            mark_coarse(grid, _M["sighting"], g, z, [pos_of(o["last_seen"]["position"])])
        return grid

    def _cells(self, here: Pos) -> bytes:
        """The window's cell kinds, row by row, north first: cut from the level's kinds around the ground
        (read from the world a chunk at a time, once a game), or read row by row beyond it."""
        x, y, z = here
        kinds = self._kinds(z)
        g = self.ground
        row, col = g.top + _PAD - (y + RADIUS), x - RADIUS - (g.x0 - _PAD)
        rows, cols = kinds.shape
        if 0 <= row and row + SIDE <= rows and 0 <= col and col + SIDE <= cols:
            return kinds.area(row, col, SIDE, SIDE).tobytes()
        world = self.match.game.world
        return b"".join(world.row(x - RADIUS, SIDE, r, z) for r in range(y + RADIUS, y - RADIUS - 1, -1))

    def _kinds(self, z: int) -> LevelKinds:
        """The kinds of level ``z``'s cells over the ground and _PAD around it: fixed for the game."""
        kinds = self._levels.get(z)
        if kinds is None:
            kinds = self._levels[z] = LevelKinds(self.match.game.world, self.ground, z, _PAD)
        return kinds

    def _level(self, z: int) -> np.ndarray:
        """The labyrinth's coarse planes on level ``z`` (open, crawlway, ramp): fixed for the game, so made once."""
        planes = self._coarse.get(z)
        if planes is None:
            g = self.ground
            kinds = self._kinds(z).area(_PAD, _PAD, g.height, g.width)
            planes = self._coarse[z] = g.pool(np.stack([np.isin(kinds, (FLOOR, RAMP_UP, RAMP_DOWN)),
                                                        kinds == CRAWLWAY,
                                                        np.isin(kinds, (RAMP_UP, RAMP_DOWN))]).view(np.uint8))
        return planes


def _known(trace: dict[str, Any] | None) -> tuple[Pos, float] | None:
    """A sighting or a noise of the observation as Ground.trace takes it: where, and the game second."""
    return None if trace is None else (pos_of(trace["position"]), trace["game_time"])
