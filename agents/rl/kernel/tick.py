"""_Turn's tick over a row: half a second in which both move at once (the Minotaur's step from walk.py), then the
timers run (the jump's, the paralysis's, the items' countdowns: items.py), then the senses write what they caught
(last_heard, last_seen); and _Turn._stand, ticks of standing still. The turn's numbers are the row's work vector
``v`` and its own array ``t`` (work.py); a fallback code stops the turn (PLAYED: go on).
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.constants import (
    HEAR_HIGH_SQ,
    HEAR_LOW_SQ,
    JUMP_COOLDOWN_TICKS,
    REENTRY_ALERT_TICKS,
    REST_GAIN_PER_TICK,
    STAMINA_MAX,
    VERY_CLOSE_SQ,
)

from .items import count_down
from .jit import jit
from .sight import distance_sq, minotaur_sees, near_edge, user_sees
from .state import DEATH, HIGH
from .walk import Memo, next_cell
from .work import (
    AMBUSH,
    HEARD_AT,
    JUMP,
    JUMP_COOLDOWN,
    JUMP_LEFT,
    JUMP_STARTED,
    JUMPS,
    LEFT_REGION,
    MINOTAUR,
    OUTCOME,
    PARALYSIS,
    PLAYED,
    SEEN_AT,
    SPOTTED,
    STAMINA,
    STRIDE,
    T_HAPPENED,
    T_NOISE,
    T_PLAN,
    T_SEES,
    T_START,
    T_STEPS,
    T_TICKS,
    T_TO,
    T_WALKS,
    TICK,
    TURN,
    USED_UP,
    USER,
    WHINE_NEAR,
)

# What a row's turn reads besides its numbers: its region (kinds, origin), the ground, the path's buffer, the
# draws (jump lengths, patrol words, respawn words).
Tables = tuple[np.ndarray, ...]


@jit
def minotaur_sees_user(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray) -> bool:
    active = v[PARALYSIS] == 0 and v[JUMP_LEFT] == 0
    return minotaur_sees(kinds, origin, v[USER:USER + 3], v[MINOTAUR:MINOTAUR + 3], active)


@jit
def user_sees_minotaur(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray) -> bool:
    active = v[PARALYSIS] == 0 and v[JUMP_LEFT] == 0
    return user_sees(kinds, origin, v[USER:USER + 3], v[MINOTAUR:MINOTAUR + 3], active)


@jit
def stand(v: np.ndarray, t: np.ndarray, items: np.ndarray, world: Tables, memo: Memo) -> int:
    """_Turn._stand for t[T_TICKS] ticks."""
    for _ in range(t[T_TICKS]):
        if v[OUTCOME]:
            return PLAYED
        t[T_STEPS], t[T_NOISE] = 0, -1
        code = tick(v, t, items, world, memo)
        if code != PLAYED:
            return code
        v[STAMINA] = min(STAMINA_MAX, v[STAMINA] + REST_GAIN_PER_TICK)
    return PLAYED


@jit
def tick(v: np.ndarray, t: np.ndarray, items: np.ndarray, world: Tables, memo: Memo) -> int:
    """_Turn._tick: both move at once, then the timers, then the senses. The user steps into t[T_TO] when
    t[T_STEPS], making the noise t[T_NOISE]."""
    kinds, origin, ground, path, jumps, patrols, _ = world
    user_moves, noise = t[T_STEPS] != 0, t[T_NOISE]
    ux, uy, uz = t[T_TO], t[T_TO + 1], t[T_TO + 2]
    if t[T_PLAN] == JUMP and v[TICK] == t[T_START]:
        if v[JUMPS] >= jumps.shape[0]:
            return USED_UP
        v[JUMP_LEFT] = jumps[v[JUMPS]]
        v[JUMPS] += 1
        v[JUMP_STARTED] = v[TURN]
        v[JUMP_COOLDOWN] = JUMP_COOLDOWN_TICKS
        v[STRIDE] = 0
        _whine(v, t)  # VANISHING
    active = v[PARALYSIS] == 0 and v[JUMP_LEFT] == 0
    stepped, mx, my, mz = False, 0, 0, 0
    if active and t[T_WALKS]:
        code, stepped, mx, my, mz = next_cell(v, t, path, kinds, origin, ground, patrols, memo)
        if code != PLAYED:
            return code
    fx, fy, fz = v[USER], v[USER + 1], v[USER + 2]
    gx, gy, gz = v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2]
    if user_moves:
        v[USER], v[USER + 1], v[USER + 2] = ux, uy, uz
        if near_edge(kinds, origin, ux, uy, uz):
            return LEFT_REGION
    if stepped:
        v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2] = mx, my, mz
    if active:
        if v[USER] == v[MINOTAUR] and v[USER + 1] == v[MINOTAUR + 1] and v[USER + 2] == v[MINOTAUR + 2]:
            v[OUTCOME] = v[OUTCOME] or DEATH
        elif (user_moves and stepped and (ux, uy, uz) == (gx, gy, gz) and (mx, my, mz) == (fx, fy, fz)):
            v[OUTCOME] = v[OUTCOME] or DEATH  # they ran into each other
    v[TICK] += 1
    code = run_timers(v, t, items, world)
    if code != PLAYED or v[OUTCOME]:
        return code
    if noise >= 0 and not v[JUMP_LEFT]:
        d2 = distance_sq(v[USER], v[USER + 1], v[USER + 2], v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2])
        if d2 <= (HEAR_HIGH_SQ if noise == HIGH else HEAR_LOW_SQ):
            v[HEARD_AT:HEARD_AT + 3] = v[USER:USER + 3]
            v[HEARD_AT + 3], v[HEARD_AT + 4] = v[TICK], noise
    sees = minotaur_sees_user(v, kinds, origin)
    if sees and not t[T_SEES]:
        t[T_HAPPENED] |= SPOTTED
    t[T_SEES] = sees
    if t[T_SEES]:
        v[SEEN_AT:SEEN_AT + 3] = v[USER:USER + 3]
        v[SEEN_AT + 3] = v[TICK]
    return PLAYED


@jit
def run_timers(v: np.ndarray, t: np.ndarray, items: np.ndarray, world: Tables) -> int:
    if v[JUMP_COOLDOWN]:
        v[JUMP_COOLDOWN] -= 1
    if v[PARALYSIS]:
        v[PARALYSIS] -= 1
    if v[JUMP_LEFT]:
        v[JUMP_LEFT] -= 1
        same = v[USER] == v[MINOTAUR] and v[USER + 1] == v[MINOTAUR + 1] and v[USER + 2] == v[MINOTAUR + 2]
        if v[JUMP_LEFT] == REENTRY_ALERT_TICKS:
            _whine(v, t)  # RE_ENTRY_ALERT
        elif not v[JUMP_LEFT] and same and not v[PARALYSIS]:
            if not v[OUTCOME]:
                t[T_HAPPENED] |= AMBUSH
            v[OUTCOME] = v[OUTCOME] or DEATH  # it re-entered time where the user stood
    return count_down(v, items, world[2], world[6])


@jit
def _whine(v: np.ndarray, t: np.ndarray) -> None:
    """A Temporal Whine sounds (_Turn._whine_bearing): within VERY CLOSE range, the turn's WHINE_NEAR."""
    d2 = distance_sq(v[USER], v[USER + 1], v[USER + 2], v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2])
    if d2 <= VERY_CLOSE_SQ:
        t[T_HAPPENED] |= WHINE_NEAR
