"""The Minotaur's RL observation (agents/rl/minotaur_view.py's MinotaurView.observe) for a batch of rows, in numba
(slice 6c of the design note, kernel/__init__.py): every key of minotaur_view.SPACES, as the env gives it (the
planes flat, float32), equal to the view's after every turn and at a game's start.

The view reads the Minotaur's report of the turn (MinotaurReport.fields); all of it is the row's but one number:
``noises_heard``, how many ticks of the turn it heard the user. A tick that hears writes last_heard at that tick, and
nothing else writes it, so the turn heard the user exactly when last_heard's tick is past the tick the turn began
at (``since``: the row's tick before the turn, signals.before_turn's B_TICK; at a game's start, its tick now). The
match's turn count (the timers' first number) is the caller's, as for signals.step_signals.

The planes come from the row's region: the window's cells around the Minotaur, and the coarse map's three planes of
its level (open, crawlway, ramp) pooled from the ground's cells. Those are fixed for a game, as the view keeps them:
``pool_levels`` makes them for every level of a row's region once its region is laid (a new game), into an array
the caller keeps beside the rows (``coarse_levels``); pooled again at every observation they cost more than the
rest of the memory's planes (a read of each cell of the ground, 256 on tiny and 1,024 on small). A row kept whole
(StateRows.kept), or whose window reaches past its region, is not observed: its reason (work.REASONS) says so, and
its keys are left zero.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP
from labyrinth.engine.constants import REENTRY_ALERT_TICKS, TICKS_PER_SECOND
from labyrinth.engine.items import ITEM_ORDER

from ..minotaur_view import _ITEM_M, _ITEM_W, _KINDS, _M, _SPANS_S, _W, PLANE_SHAPES, SPACES
from ..planes import COARSE, PLANES, RADIUS, SIDE, SIGHTING_SPAN_S
from ..user_view import STATUSES
from .ground import G_BLOCK, G_HEIGHT, G_SPAN, G_TOP, G_WIDTH, G_X0, G_Y0, G_Z0, coarse_cell, fraction, ground_vector
from .jit import jit
from .region import holds, laid_within
from .sight import minotaur_sees
from .state import NONE, StateRows
from .walk import cell
from .ways import DOWN, DX, DY, UP
from .work import KEPT, LEFT_REGION, PLAYED

# The view's tables as arrays: a cell kind's window planes; each item's window and memory plane, in ITEM_ORDER; the
# marks' planes; the timers' spans (float32, as the view divides by them).
KIND_PLANES = _KINDS
ITEM_WINDOW = np.array([_ITEM_W[name] for name in ITEM_ORDER], dtype=np.int64)
ITEM_MEMORY = np.array([_ITEM_M[name] for name in ITEM_ORDER], dtype=np.int64)
INTRUDER_W, NOISE_W, SIGHTING_W = _W["intruder"], _W["noise"], _W["sighting"]
OPEN_M, CRAWLWAY_M, RAMP_M, YOU_M, NOISE_M, SIGHTING_M = (_M[name] for name in ("open", "crawlway", "ramp", "you",
                                                                                 "noise", "sighting"))
SPANS_S = _SPANS_S
LEVEL_PLANES = RAMP_M + 1  # the memory's first planes, the level's own: open, crawlway, ramp (MinotaurView._level)
if (OPEN_M, CRAWLWAY_M, RAMP_M) != tuple(range(LEVEL_PLANES)):
    raise ImportError("minotaur_view.MEMORY_PLANES no longer begins with open, crawlway, ramp: see _pool")
# engine.report.temporal_status's answers, as their one-hot index in STATUSES.
PARALYZED, RE_ENTRY_ALERT, VANISHING, VANISHED, CHASING = (STATUSES.index(s) for s in (
    "PARALYZED", "RE_ENTRY_ALERT", "VANISHING", "VANISHED", "CHASING_3D"))


def observations(n: int) -> dict[str, np.ndarray]:
    """Room for ``n`` rows' observations: each key of minotaur_view.SPACES, (n, its size), float32 (every key's
    space is flat, a plane key's too, as the env hands it over: spaces.observe)."""
    return {key: np.zeros((n, spaces.flatdim(space)), dtype=np.float32) for key, space in SPACES.items()}


def coarse_levels(rows: StateRows) -> np.ndarray:
    """Room for each row's coarse planes of every level of its region, (n, levels, LEVEL_PLANES, COARSE, COARSE)
    uint8: ``pool_levels`` fills a row's at each new game."""
    n, levels = rows.kinds.shape[:2]
    return np.zeros((n, levels, LEVEL_PLANES, COARSE, COARSE), dtype=np.uint8)


def pool_levels(rows: StateRows, levels: np.ndarray, new: np.ndarray) -> None:
    """The coarse planes of the rows ``new`` (bool, a row each) into ``levels`` (``coarse_levels``), from their
    regions: once a row's region is laid (StateRows.lay_region), before it is observed."""
    _pool(rows.kinds, rows.origin, ground_vector(rows.preset), np.ascontiguousarray(new, dtype=np.bool_), levels)


def observe(rows: StateRows, levels: np.ndarray, turns: np.ndarray, since: np.ndarray, max_turns: int,
            out: dict[str, np.ndarray], asked: np.ndarray | None = None) -> np.ndarray:
    """Each asked row's observation (``asked``, a bool mask; every row when None) into ``out`` (``observations``'s
    arrays; the other rows' left as they are): ``levels``, their coarse planes (``pool_levels``); ``turns``, the
    Match's turns played; ``since``, each row's tick before the turn (its tick now at a game's start). Per row, why
    it was not observed (work.REASONS; 0: observed, or not asked), its keys then zero."""
    n = rows.user.shape[0]
    why = np.zeros(n, dtype=np.int64)
    asked = np.ones(n, dtype=np.bool_) if asked is None else np.ascontiguousarray(asked, dtype=np.bool_)
    planes = {key: out[key].reshape(n, *PLANE_SHAPES[key]) for key in PLANES}  # views: written through
    _observe(rows.user, rows.minotaur, rows.tick, rows.turn, rows.paralysis, rows.jump_left, rows.jump_started_turn,
             rows.jump_cooldown, rows.outcome, rows.last_seen, rows.last_heard, rows.items, rows.item_count,
             rows.kinds, rows.origin, rows.kept, asked, levels, np.ascontiguousarray(turns, dtype=np.int64),
             np.ascontiguousarray(since, dtype=np.int64), max_turns, ground_vector(rows.preset), planes["map"],
             planes["memory"], out["position"], out["timers"], out["cue"], out["exits"], out["items_lying"],
             out["intruder"], why)
    return why


@jit
def _mark_window(grid: np.ndarray, plane: int, x: int, y: int, z: int, ax: int, ay: int, az: int) -> None:
    """planes.mark_window: ``plane`` at (ax, ay, az) when it lies in the window around (x, y, z)."""
    row, col = RADIUS - (ay - y), ax - x + RADIUS
    if az == z and 0 <= row < SIDE and 0 <= col < SIDE:
        grid[plane, row, col] = 1.0


@jit
def _mark_coarse(memory: np.ndarray, plane: int, ground: np.ndarray, z: int, ax: int, ay: int, az: int) -> None:
    """planes.mark_coarse of one place."""
    if az == z:
        row, col = coarse_cell(ground, ax, ay)
        memory[plane, row, col] = 1.0


@jit
def _offset(numbers: np.ndarray, at: int, ground: np.ndarray, x: int, y: int, z: int, tx: int, ty: int,
            tz: int) -> None:
    """Ground.offset from (x, y, z) to (tx, ty, tz) into numbers[at:at + 3]."""
    numbers[at] = fraction((tx - x) / ground[G_SPAN], -1.0)
    numbers[at + 1] = fraction((ty - y) / ground[G_SPAN + 1], -1.0)
    numbers[at + 2] = fraction((tz - z) / ground[G_SPAN + 2], -1.0)


@jit
def _trace(numbers: np.ndarray, at: int, trace: np.ndarray, ground: np.ndarray, x: int, y: int, z: int,
           tick: int) -> None:
    """Ground.trace of a sighting or a noise (x, y, z, tick; tick NONE: none) into numbers[at:at + 5]."""
    if trace[3] == NONE:
        return
    numbers[at] = 1.0
    _offset(numbers, at + 1, ground, x, y, z, trace[0], trace[1], trace[2])
    numbers[at + 4] = min((tick / TICKS_PER_SECOND - trace[3] / TICKS_PER_SECOND) / SIGHTING_SPAN_S, 1.0)


@jit
def _status(paralysis: int, jump_left: int, jump_started_turn: int, turn: int) -> int:
    """engine.report.temporal_status, as its index in STATUSES."""
    if paralysis:
        return PARALYZED
    if jump_left:
        if jump_left <= REENTRY_ALERT_TICKS:
            return RE_ENTRY_ALERT
        return VANISHING if jump_started_turn == turn else VANISHED
    return CHASING


@jit
def _timer(ticks: int, span: np.float32) -> np.float32:
    """A timer's seconds as the view scales them: float32 seconds over a float32 span, at most 1. The quotient of
    two float32s worked out in float64 and rounded to float32 is float32's own (double's 53 bits are more than
    twice float32's 24, plus two), so this is numpy's float32 division."""
    seconds = np.float32(ticks / TICKS_PER_SECOND)
    return min(np.float32(np.float64(seconds) / np.float64(span)), np.float32(1.0))


@jit
def _window(grid: np.ndarray, kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int) -> bool:
    """The window's cell planes (MinotaurView._cells through the view's kind table), north first; False when a cell
    of it lies outside the region or in a chunk not laid yet (nothing is then read). The region's cells are read
    as they lie (a cell past the cube's faces is ROCK there too: region.py), a plane at a time."""
    if not holds(kinds, origin, x, y, z, RADIUS):
        return False
    west, north, level = x - RADIUS - origin[0], y + RADIUS - origin[1], z - origin[2]
    for plane in range(KIND_PLANES.shape[1]):
        for row in range(SIDE):
            for col in range(SIDE):
                grid[plane, row, col] = KIND_PLANES[kinds[level, north - row, west + col], plane]
    return True


@jit
def _ground_laid(kinds: np.ndarray, origin: np.ndarray, ground: np.ndarray, z: int) -> bool:
    """Whether every chunk of the ground's cells on level z is laid, as the level's coarse planes (pool_levels) need
    them; the chunks not laid yet are marked needed (region.want). A level outside the region holds none."""
    level = z - origin[2]
    if not 0 <= level < kinds.shape[0]:
        return False
    west, south = ground[G_X0] - origin[0], ground[G_TOP] - ground[G_HEIGHT] + 1 - origin[1]
    return laid_within(kinds, level, west, south, west + ground[G_WIDTH] - 1, south + ground[G_HEIGHT] - 1)


@jit
def _pool(kinds: np.ndarray, origins: np.ndarray, ground: np.ndarray, new: np.ndarray, levels: np.ndarray) -> None:
    """MinotaurView._level of every level of each new row's region: the ground's cells pooled into the coarse map's
    open, crawlway and ramp planes (a coarse cell 1 if any cell of its block is; Ground.pool)."""
    block = ground[G_BLOCK]
    for i in range(kinds.shape[0]):
        if not new[i]:
            continue
        planes, origin = levels[i], origins[i]
        planes[:] = 0
        for level in range(kinds.shape[1]):
            for r in range(ground[G_HEIGHT]):
                y = ground[G_TOP] - r - origin[1]
                for c in range(ground[G_WIDTH]):
                    kind = kinds[i, level, y, ground[G_X0] + c - origin[0]]
                    row, col = r // block, c // block
                    if kind == FLOOR or kind == RAMP_UP or kind == RAMP_DOWN:
                        planes[level, OPEN_M, row, col] = 1
                    if kind == CRAWLWAY:
                        planes[level, CRAWLWAY_M, row, col] = 1
                    if kind == RAMP_UP or kind == RAMP_DOWN:
                        planes[level, RAMP_M, row, col] = 1


@jit
def _observe(user: np.ndarray, minotaur: np.ndarray, tick: np.ndarray, turn: np.ndarray, paralysis: np.ndarray,
             jump_left: np.ndarray, jump_started_turn: np.ndarray, jump_cooldown: np.ndarray, outcome: np.ndarray,
             last_seen: np.ndarray, last_heard: np.ndarray, items: np.ndarray, item_count: np.ndarray,
             kinds: np.ndarray, origins: np.ndarray, kept: np.ndarray, asked: np.ndarray, levels: np.ndarray,
             turns: np.ndarray,
             since: np.ndarray, max_turns: int, ground: np.ndarray, grids: np.ndarray, memories: np.ndarray,
             position: np.ndarray, timers: np.ndarray, cue: np.ndarray, exits: np.ndarray, items_lying: np.ndarray,
             intruder: np.ndarray, why: np.ndarray) -> None:
    """MinotaurView.observe, row by row."""
    for r in range(user.shape[0]):
        if not asked[r]:
            continue
        grid, memory = grids[r], memories[r]
        grid[KIND_PLANES.shape[1]:] = 0.0  # the marks' planes: the cells' and the level's are written whole below
        memory[LEVEL_PLANES:] = 0.0
        for keyed in (position, timers, cue, exits, items_lying, intruder):
            keyed[r] = 0.0
        kind_of, origin = kinds[r], origins[r]
        x, y, z = minotaur[r, 0], minotaur[r, 1], minotaur[r, 2]
        why[r] = (KEPT if kept[r] else PLAYED if _window(grid, kind_of, origin, x, y, z)
                  and _ground_laid(kind_of, origin, ground, z) else LEFT_REGION)
        if why[r] != PLAYED:
            grid[:] = 0.0
            memory[:] = 0.0
            continue
        sees = outcome[r] == 0 and minotaur_sees(kind_of, origin, user[r], minotaur[r],
                                                 paralysis[r] == 0 and jump_left[r] == 0)
        pooled = levels[r, z - origin[2]]
        for plane in range(LEVEL_PLANES):
            memory[plane] = pooled[plane]
        _mark_coarse(memory, YOU_M, ground, z, x, y, z)
        for slot in range(item_count[r]):
            kind, ix, iy, iz = items[r, slot, 0], items[r, slot, 1], items[r, slot, 2], items[r, slot, 3]
            _mark_window(grid, ITEM_WINDOW[kind], x, y, z, ix, iy, iz)
            _mark_coarse(memory, ITEM_MEMORY[kind], ground, z, ix, iy, iz)
            items_lying[r, 4 * kind] = 1.0  # the last of a name is the one the view's dict keeps
            _offset(items_lying[r], 4 * kind + 1, ground, x, y, z, ix, iy, iz)
        if sees:
            _mark_window(grid, INTRUDER_W, x, y, z, user[r, 0], user[r, 1], user[r, 2])
        heard, seen = last_heard[r], last_seen[r]
        if heard[3] != NONE:
            _mark_window(grid, NOISE_W, x, y, z, heard[0], heard[1], heard[2])
            _mark_coarse(memory, NOISE_M, ground, z, heard[0], heard[1], heard[2])
        if seen[3] != NONE:
            _mark_window(grid, SIGHTING_W, x, y, z, seen[0], seen[1], seen[2])
            _mark_coarse(memory, SIGHTING_M, ground, z, seen[0], seen[1], seen[2])
        position[r, 0] = fraction((x - ground[G_X0]) / ground[G_SPAN], 0.0)
        position[r, 1] = fraction((y - ground[G_Y0]) / ground[G_SPAN + 1], 0.0)
        position[r, 2] = fraction((z - ground[G_Z0]) / ground[G_SPAN + 2], 0.0)
        timers[r, 0] = min(turns[r] / max_turns, 1.0)
        timers[r, 1] = _timer(jump_cooldown[r], SPANS_S[0])
        timers[r, 2] = _timer(jump_left[r], SPANS_S[1])
        timers[r, 3] = _timer(paralysis[r], SPANS_S[2])
        cue[r, _status(paralysis[r], jump_left[r], jump_started_turn[r], turn[r])] = 1.0
        cue[r, len(STATUSES)] = 1.0 if sees else 0.0
        cue[r, len(STATUSES) + 1] = 1.0 if heard[3] > since[r] else 0.0  # noises_heard > 0
        for d in range(4):
            kind = cell(kind_of, origin, x + DX[d], y + DY[d], z)
            if kind == FLOOR or kind == RAMP_UP or kind == RAMP_DOWN:  # cells.MINOTAUR_OPEN
                exits[r, d] = 1.0  # a way's number is its exit flag (ways.py)
        here = cell(kind_of, origin, x, y, z)
        if here == RAMP_UP:
            exits[r, UP] = 1.0
        elif here == RAMP_DOWN:
            exits[r, DOWN] = 1.0
        _trace(intruder[r], 0, seen, ground, x, y, z, tick[r])
        _trace(intruder[r], 5, heard, ground, x, y, z, tick[r])
