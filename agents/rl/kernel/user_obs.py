"""The RL user's observation for a batch of rows (slice 6b of the design note, kernel/__init__.py): what
user_view.UserView.observe gives after UserView.update, key for key (user_view.SPACES' eleven, float32, the planes
flat as spaces.observe hands them), written into one preallocated array a key, a row each (``new_observations``).

The view's memory is user_memory.UserMemory, kept by user_memory.remember from each row's state after its turn and
from what the turn tells (turn.Stops: the user's UserMoved path; the command: a LOOK hums). ``observe_turn`` is
called after turn.play_turns with its answer: a row it did not play is left alone (its memory and observation
untouched, its reason kept). ``observe_opening`` starts the rows given (a new game's state written into them:
LabyrinthEnv.reset's observation, UserView.__init__'s update of the opening). A row the kernel cannot observe as
the view would falls back with its reason (work.REASONS): kept whole (KEPT), the user too near its region's edge
for its sight (LEFT_REGION: the turn keeps the user away from it, the opening checks), or a stone seen lying
outside the ground (LEFT_REGION: no place of the search). Its env then replays its episode on the engine, whose
view is the Python one; the row's memory is not read again until its next opening.
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.constants import (
    CLOSE_SQ,
    FAINT_SQ,
    REENTRY_ALERT_TICKS,
    STAMINA_MAX,
    TICKS_PER_SECOND,
    VERY_CLOSE_SQ,
)
from labyrinth.engine.items import ITEM, ITEM_ORDER, LANTERN
from labyrinth.engine.presets import DIFFICULTIES
from labyrinth.engine.wsap.perception import NOT_SEEN

from ..planes import COARSE, RADIUS, SIDE, item_plane
from ..user_view import (
    _CELL_PLANES,
    _KINDS,
    _M,
    _SPANS_S,
    _W,
    DIRECTIONS,
    PROXIMITIES,
    SIGHTING_SPAN_S,
    SOUNDS,
    SPACES,
    STATUSES,
)
from .jit import jit
from .move import DIRECTIONS as KERNEL_DIRECTIONS
from .move import _exits
from .sight import distance_sq, near_edge
from .state import StateRows
from .stone_search import COUNT, G_LEVELS, G_X0, G_Y0, G_Z0, LEVEL, NO_WORD, WORDS, compass_word
from .turn import LOOK, Stops
from .user_memory import FRESH, G_BLOCK, G_SPAN, G_TOP, STONE_KINDS, UserMemory, remember
from .work import (
    INVENTORY,
    JUMP_COOLDOWN,
    JUMP_LEFT,
    JUMP_STARTED,
    KEPT,
    LEFT_REGION,
    MINOTAUR,
    PARALYSIS,
    PLAYED,
    STAMINA,
    TICK,
    TIMERS,
    TURN,
    USER,
    pack,
)

if KERNEL_DIRECTIONS != DIRECTIONS:
    raise ImportError("kernel/user_obs.py reads the exits in move.DIRECTIONS' order, which is user_view.DIRECTIONS'")
HARD = DIFFICULTIES.index("hard")  # the stones do not hum
PLANE_SIZE = SIDE * SIDE
WINDOW_KINDS = _KINDS  # a cell kind's window planes (NOT_SEEN: unknown)
W_TRAIL, W_MINOTAUR = _W["trail"], _W["minotaur"]
W_ITEMS = np.array([_W[item_plane(name)] for name in ITEM_ORDER], dtype=np.int64)
M_CELLS = len(_CELL_PLANES)  # the memory map's first planes, kept per level; the others are marks
M_YOU, M_MINOTAUR, M_MAY_LIE = _M["you"], _M["minotaur"], _M["stone_may_lie"]
M_ITEMS = np.array([_M[ITEM[name].kind] for name in ITEM_ORDER], dtype=np.int64)
M_UNKNOWN = _M["unknown"]
LANTERN_KIND = ITEM_ORDER.index(LANTERN.name)
SPANS = _SPANS_S  # float32, as the view divides by them
# the cue's one-hots: proximity, then sound, then status, each at its offset
P_VERY_CLOSE, P_CLOSE, P_FAINT, P_NONE, P_VANISHED, P_PARALYZED = (
    PROXIMITIES.index(p) for p in ("VERY CLOSE", "CLOSE", "FAINT", "NONE", "VANISHED", "PARALYZED"))
SOUND_OF_WORD = np.array([len(PROXIMITIES) + SOUNDS.index(word) for word in WORDS], dtype=np.int64)
S_ABOVE, S_BELOW = (len(PROXIMITIES) + SOUNDS.index(word) for word in ("ABOVE", "BELOW"))
S_FIRST = len(PROXIMITIES) + len(SOUNDS)
T_CHASING, T_VANISHING, T_VANISHED, T_ALERT, T_PARALYZED = (
    S_FIRST + STATUSES.index(s) for s in ("CHASING_3D", "VANISHING", "VANISHED", "RE_ENTRY_ALERT", "PARALYZED"))
KEYS = tuple(SPACES)  # the outputs' order, as ``_rows`` takes them


def new_observations(n: int) -> dict[str, np.ndarray]:
    """One array a key of user_view.SPACES, (n, *its shape), float32: where the observations are written."""
    return {key: np.zeros((n, *space.shape), dtype=np.float32) for key, space in SPACES.items()}


def observe_turn(rows: StateRows, memory: UserMemory, commands: np.ndarray, stops: Stops, why: np.ndarray,
                 turns: np.ndarray, max_turns: int, out: dict[str, np.ndarray]) -> np.ndarray:
    """After turn.play_turns(rows, commands, ..., stops) answered ``why``: each played row's memory kept and its
    observation written into ``out``; ``turns``: each row's Match turn count. Per row, why it fell back (0:
    observed)."""
    hummed = (commands[:, 0] == LOOK) & (rows.difficulty != HARD)
    return _observe(rows, memory, why == PLAYED, why.copy(), hummed, stops, turns, max_turns, out)


def observe_opening(rows: StateRows, memory: UserMemory, started: np.ndarray, max_turns: int,
                    out: dict[str, np.ndarray]) -> np.ndarray:
    """The ``started`` rows' (a bool mask) opening observations: their memory cleared, then kept from their new
    game's state; per row, why it fell back (0: observed, or not started)."""
    memory.clear(started)
    n = len(started)
    none = np.zeros(n, dtype=np.bool_)
    return _observe(rows, memory, started, np.zeros(n, dtype=np.int64), none, Stops(n), np.zeros(n, dtype=np.int64),
                    max_turns, out)


def _observe(rows: StateRows, memory: UserMemory, asked: np.ndarray, why: np.ndarray, hummed: np.ndarray,
             stops: Stops, turns: np.ndarray, max_turns: int, out: dict[str, np.ndarray]) -> np.ndarray:
    _rows(asked, why, pack(rows), rows.items, rows.kinds, rows.origin, rows.kept, hummed, stops.cells, stops.count,
          np.ascontiguousarray(turns, dtype=np.int64), max_turns, memory.ground, memory.arrays(),
          tuple(out[key] for key in KEYS))
    return why


@jit
def _rows(asked: np.ndarray, why: np.ndarray, work: np.ndarray, items: np.ndarray, kinds: np.ndarray,
          origins: np.ndarray, kept: np.ndarray, hummed: np.ndarray, stops: np.ndarray, stop_count: np.ndarray,
          turns: np.ndarray, max_turns: int, g: np.ndarray, memory: tuple, out: tuple) -> None:
    seen, trail, cells, lying, hums, heard_at, sighting, sighted, places, search, ends = memory
    fresh = np.empty((FRESH, 3), dtype=np.int64)
    scratch = np.empty((places.shape[2], 3), dtype=np.int64)
    for r in range(work.shape[0]):
        if not asked[r]:
            continue
        v = work[r]
        if kept[r]:
            why[r] = KEPT
            continue
        if near_edge(kinds[r], origins[r], v[USER], v[USER + 1], v[USER + 2]):
            why[r] = LEFT_REGION
            continue
        row = (seen[r], trail[r], cells[r], lying[r], hums[r], heard_at[r], sighting[r], sighted[r], places[r],
               search[r], ends[r])
        if not remember(v, items[r], kinds[r], origins[r], stops[r], stop_count[r], hummed[r], g, row, fresh,
                        scratch):
            why[r] = LEFT_REGION
            continue
        _numbers(v, kinds[r], origins[r], g, turns[r] / max_turns, lying[r], hums[r], heard_at[r], sighting[r], r, out)
        _planes(v, g, seen[r], trail[r], origins[r], cells[r], lying[r], sighting[r], sighted[r], places[r],
                search[r], out[0][r], out[1][r])


@jit
def _fraction(value: float, low: float) -> float:
    """planes._clip."""
    return min(max(value, low), 1.0)


@jit
def _numbers(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray, g: np.ndarray, turns: float, lying: np.ndarray,
             hums: np.ndarray, heard_at: np.ndarray, sighting: np.ndarray, r: int, out: tuple) -> None:
    """UserView.observe's numbers of row ``r``: every key but the planes."""
    position, stamina, timers, cue, exits, hum_out, items_seen, inventory, seen_out = out[2:]
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    sx, sy, sz = g[G_SPAN], g[G_SPAN + 1], g[G_SPAN + 2]
    position[r, 0] = _fraction((ux - g[G_X0]) / sx, 0.0)
    position[r, 1] = _fraction((uy - g[G_Y0]) / sy, 0.0)
    position[r, 2] = _fraction((uz - g[G_Z0]) / sz, 0.0)
    stamina[r, 0] = v[STAMINA] / STAMINA_MAX
    timers[r, 0] = min(turns, 1.0)
    timers[r, 1] = min(np.float32(v[JUMP_COOLDOWN] / TICKS_PER_SECOND) / SPANS[0], 1.0)
    timers[r, 2] = min(np.float32(v[PARALYSIS] / TICKS_PER_SECOND) / SPANS[1], 1.0)
    timers[r, 3] = min(np.float32(v[TIMERS + LANTERN_KIND] / TICKS_PER_SECOND) / SPANS[2], 1.0)
    cue[r, :] = 0.0
    mx, my, mz = v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2]
    d2 = distance_sq(ux, uy, uz, mx, my, mz)
    if v[PARALYSIS]:
        cue[r, P_PARALYZED] = 1.0
    elif v[JUMP_LEFT]:
        cue[r, P_VANISHED] = 1.0
    else:
        cue[r, P_VERY_CLOSE if d2 <= VERY_CLOSE_SQ else P_CLOSE if d2 <= CLOSE_SQ else P_FAINT if d2 <= FAINT_SQ
            else P_NONE] = 1.0
    if d2 > FAINT_SQ:
        cue[r, SOUND_OF_WORD[NO_WORD]] = 1.0
    else:
        word = compass_word(mx - ux, my - uy)
        cue[r, SOUND_OF_WORD[word] if word != NO_WORD or mz == uz else S_ABOVE if mz > uz else S_BELOW] = 1.0
    if v[PARALYSIS]:
        cue[r, T_PARALYZED] = 1.0
    elif v[JUMP_LEFT]:
        cue[r, T_ALERT if v[JUMP_LEFT] <= REENTRY_ALERT_TICKS else
            T_VANISHING if v[JUMP_STARTED] == v[TURN] else T_VANISHED] = 1.0
    else:
        cue[r, T_CHASING] = 1.0
    bits = _exits(kinds, origin, ux, uy, uz)
    for way in range(exits.shape[1]):
        exits[r, way] = 1.0 if bits & (1 << way) else 0.0
    hum_out[r, :] = 0.0
    for s in range(hums.shape[0]):
        for c in range(4):
            hum_out[r, 6 * s + c] = hums[s, c]
        if heard_at[0] and hums[s, 0] == 1.0:
            hum_out[r, 6 * s + 4] = _fraction((ux - heard_at[1]) / sx, -1.0)
            hum_out[r, 6 * s + 5] = _fraction((uy - heard_at[2]) / sy, -1.0)
    for kind in range(lying.shape[0]):
        items_seen[r, 4 * kind:4 * kind + 4] = 0.0
        if lying[kind, 0]:
            items_seen[r, 4 * kind] = 1.0
            items_seen[r, 4 * kind + 1] = _fraction((lying[kind, 1] - ux) / sx, -1.0)
            items_seen[r, 4 * kind + 2] = _fraction((lying[kind, 2] - uy) / sy, -1.0)
            items_seen[r, 4 * kind + 3] = _fraction((lying[kind, 3] - uz) / sz, -1.0)
        inventory[r, kind] = 1.0 if v[INVENTORY + kind] else 0.0
    seen_out[r, :] = 0.0
    if sighting[0]:
        seen_out[r, 0] = 1.0
        seen_out[r, 1] = _fraction((sighting[1] - ux) / sx, -1.0)
        seen_out[r, 2] = _fraction((sighting[2] - uy) / sy, -1.0)
        seen_out[r, 3] = _fraction((sighting[3] - uz) / sz, -1.0)
        age = v[TICK] / TICKS_PER_SECOND - sighting[4] / TICKS_PER_SECOND
        seen_out[r, 4] = min(age / SIGHTING_SPAN_S, 1.0)


@jit
def _coarse(g: np.ndarray, x: int, y: int) -> tuple[int, int]:
    """planes.Ground.coarse_cell."""
    return (min(max((g[G_TOP] - y) // g[G_BLOCK], 0), COARSE - 1),
            min(max((x - g[G_X0]) // g[G_BLOCK], 0), COARSE - 1))


@jit
def _planes(v: np.ndarray, g: np.ndarray, seen: np.ndarray, trail: np.ndarray, origin: np.ndarray,
            cells: np.ndarray, lying: np.ndarray, sighting: np.ndarray, sighted: np.ndarray, places: np.ndarray,
            search: np.ndarray, window: np.ndarray, memory: np.ndarray) -> None:
    """UserView._window and _memory, flat (planes, rows north first, columns west first)."""
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    levels, height, width = seen.shape
    window[:] = 0.0
    for row in range(SIDE):
        for col in range(SIDE):
            x, y, z = ux - RADIUS + col - origin[0], uy + RADIUS - row - origin[1], uz - origin[2]
            inside = 0 <= x < width and 0 <= y < height and 0 <= z < levels
            kind = seen[z, y, x] if inside else NOT_SEEN
            for plane in range(WINDOW_KINDS.shape[1]):
                if WINDOW_KINDS[kind, plane]:
                    window[plane * PLANE_SIZE + row * SIDE + col] = 1.0
            if inside and trail[z, y, x]:
                window[W_TRAIL * PLANE_SIZE + row * SIDE + col] = 1.0
    for kind in range(lying.shape[0]):
        if lying[kind, 0]:
            _mark_window(window, W_ITEMS[kind], ux, uy, uz, lying[kind, 1], lying[kind, 2], lying[kind, 3])
    if sighted[0]:
        _mark_window(window, W_MINOTAUR, ux, uy, uz, sighted[1], sighted[2], sighted[3])
    memory[:] = 0.0
    area = COARSE * COARSE
    level = uz - g[G_Z0]
    if 0 <= level < g[G_LEVELS]:
        for plane in range(M_CELLS):
            for i in range(COARSE):
                for j in range(COARSE):
                    memory[plane * area + i * COARSE + j] = cells[level, plane, i, j]
    else:
        memory[M_UNKNOWN * area:(M_UNKNOWN + 1) * area] = 1.0
    i, j = _coarse(g, ux, uy)
    memory[M_YOU * area + i * COARSE + j] = 1.0
    for kind in range(lying.shape[0]):
        if lying[kind, 0] and lying[kind, 3] == uz:
            i, j = _coarse(g, lying[kind, 1], lying[kind, 2])
            memory[M_ITEMS[kind] * area + i * COARSE + j] = 1.0
    if sighting[0] and sighting[3] == uz:
        i, j = _coarse(g, sighting[1], sighting[2])
        memory[M_MINOTAUR * area + i * COARSE + j] = 1.0
    for s in range(search.shape[0]):  # UserView._may_lie: the places of each stone not held, on this level
        if search[s, COUNT] and search[s, LEVEL] == uz and not v[INVENTORY + STONE_KINDS[s]]:
            for y in range(places.shape[1]):
                for x in range(places.shape[2]):
                    if places[s, y, x]:
                        i, j = _coarse(g, g[G_X0] + x, g[G_Y0] + y)
                        memory[M_MAY_LIE * area + i * COARSE + j] = 1.0


@jit
def _mark_window(window: np.ndarray, plane: int, ux: int, uy: int, uz: int, x: int, y: int, z: int) -> None:
    """planes.mark_window."""
    row, col = RADIUS - (y - uy), x - ux + RADIUS
    if z == uz and 0 <= row < SIDE and 0 <= col < SIDE:
        window[plane * PLANE_SIZE + row * SIDE + col] = 1.0
