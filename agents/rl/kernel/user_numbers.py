"""The numbers of the RL user's observation for one row (user_obs.py's slice): every key of user_view.SPACES but
the planes, as UserView.observe makes them, float for float: a fraction worked out in float64 as the view does
(and by numpy's float32 where the view divides by its float32 spans: the timers), then stored as float32.
"""

from __future__ import annotations

import numpy as np
from gymnasium.spaces import flatdim

from labyrinth.engine.constants import (
    CLOSE_SQ,
    FAINT_SQ,
    REENTRY_ALERT_TICKS,
    STAMINA_MAX,
    TICKS_PER_SECOND,
    VERY_CLOSE_SQ,
)
from labyrinth.engine.items import ITEM_ORDER, LANTERN, STONES

from ..planes import SIGHTING_SPAN_S
from ..user_view import _SPANS_S, PROXIMITIES, SOUNDS, SPACES, STATUSES
from .ground import G_SPAN, G_X0, G_Y0, G_Z0, fraction
from .jit import jit
from .move import _exits
from .sight import distance_sq
from .stone_search import NO_WORD, WORDS, compass_word
from .work import (
    INVENTORY,
    JUMP_COOLDOWN,
    JUMP_LEFT,
    JUMP_STARTED,
    MINOTAUR,
    PARALYSIS,
    STAMINA,
    TICK,
    TIMERS,
    TURN,
    USER,
)

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
NUMBER_KEYS = ("position", "stamina", "timers", "cue", "exits", "hums", "items_seen", "inventory", "sighting")
if tuple(SPACES)[-len(NUMBER_KEYS):] != NUMBER_KEYS:
    raise ImportError(f"kernel/user_numbers.py writes {NUMBER_KEYS}, the last of user_view.SPACES' keys, in order")
HUM_WIDTH = flatdim(SPACES["hums"]) // len(STONES)  # a stone's numbers: its hum row, then the way moved since
ITEM_WIDTH = flatdim(SPACES["items_seen"]) // len(ITEM_ORDER)  # an item's: seen lying, the way there


@jit
def write_numbers(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray, g: np.ndarray, turns: float,
                  lying: np.ndarray, hums: np.ndarray, heard_at: np.ndarray, sighting: np.ndarray, r: int,
                  out: tuple) -> None:
    """UserView.observe's numbers of row ``r`` into ``out``, the arrays of NUMBER_KEYS; ``turns``: the Match's turn
    count over the task's max_turns."""
    position, stamina, timers, cue, exits, hum_out, items_seen, inventory, seen_out = out
    ux, uy, uz = v[USER], v[USER + 1], v[USER + 2]
    sx, sy, sz = g[G_SPAN], g[G_SPAN + 1], g[G_SPAN + 2]
    position[r, 0] = fraction((ux - g[G_X0]) / sx, 0.0)
    position[r, 1] = fraction((uy - g[G_Y0]) / sy, 0.0)
    position[r, 2] = fraction((uz - g[G_Z0]) / sz, 0.0)
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
        at = HUM_WIDTH * s
        for c in range(hums.shape[1]):
            hum_out[r, at + c] = hums[s, c]
        if heard_at[0] and hums[s, 0] == 1.0:
            hum_out[r, at + 4] = fraction((ux - heard_at[1]) / sx, -1.0)
            hum_out[r, at + 5] = fraction((uy - heard_at[2]) / sy, -1.0)
    for kind in range(lying.shape[0]):
        at = ITEM_WIDTH * kind
        items_seen[r, at:at + ITEM_WIDTH] = 0.0
        if lying[kind, 0]:
            items_seen[r, at] = 1.0
            items_seen[r, at + 1] = fraction((lying[kind, 1] - ux) / sx, -1.0)
            items_seen[r, at + 2] = fraction((lying[kind, 2] - uy) / sy, -1.0)
            items_seen[r, at + 3] = fraction((lying[kind, 3] - uz) / sz, -1.0)
        inventory[r, kind] = 1.0 if v[INVENTORY + kind] else 0.0
    seen_out[r, :] = 0.0
    if sighting[0]:
        seen_out[r, 0] = 1.0
        seen_out[r, 1] = fraction((sighting[1] - ux) / sx, -1.0)
        seen_out[r, 2] = fraction((sighting[2] - uy) / sy, -1.0)
        seen_out[r, 3] = fraction((sighting[3] - uz) / sz, -1.0)
        age = v[TICK] / TICKS_PER_SECOND - sighting[4] / TICKS_PER_SECOND
        seen_out[r, 4] = min(age / SIGHTING_SPAN_S, 1.0)
