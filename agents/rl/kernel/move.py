"""_Turn._move over a row: ``steps`` steps, or a run to the first place worth a stop (turn.run_on: round a bend,
up to a junction or a ramp), walked (two ticks a step) or run (one, while stamina lasts), and every reason it
stops: a wall or the edge, a crawlway too low to run, the paralyzed Minotaur in the way, the Minotaur newly
seen, an item newly seen or come within reach, the hoofbeats nearer, death. Then the turn's end: the items seen.
Each cell the user enters is written into ``stops`` (the engine's UserMoved path, which the user's view looks from:
user_obs.py), their count t[T_STOPS]; a move past the rows' STOPS falls back (STOPS_FULL).
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.cells import CRAWLWAY, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import (
    MAX_STEPS,
    RUN_COST,
    STAMINA_MAX,
    TICKS_PER_SECOND,
    WALK_GAIN,
    WORLD_LEVELS,
    WORLD_SIZE,
)

from .items import came_in_reach, in_reach, note_seen
from .jit import jit
from .sight import nearness
from .state import HIGH, LOW
from .tick import Tables, stand, tick, user_sees_minotaur
from .walk import Memo
from .ways import ACROSS, DOWN, DX, DY, OPPOSITE, UP
from .work import (
    JUMP_LEFT,
    MINOTAUR,
    OUTCOME,
    PARALYSIS,
    PLAYED,
    STAMINA,
    STOPS_FULL,
    T_NOISE,
    T_STEPS,
    T_STOPS,
    T_TICKS,
    T_TO,
    UNPORTED,
    USER,
)

NO_ONWARD, RAMP_RUN = -1, -2  # _run_on: where a run arrives; a run along a ramp's heading past its ramp


@jit
def _user_step(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray, heading: int,
               running: bool) -> tuple[bool, int, int, int]:
    """_Turn._next_cell: (blocked, the cell the step enters)."""
    x, y, z = v[USER], v[USER + 1], v[USER + 2]
    if heading < UP:
        tx, ty, tz = x + DX[heading], y + DY[heading], z
        if not (0 <= tx < WORLD_SIZE and 0 <= ty < WORLD_SIZE):
            return True, tx, ty, tz
        kind = kinds[z - origin[2], ty - origin[1], tx - origin[0]]
        if kind == ROCK or (kind == CRAWLWAY and running):
            return True, tx, ty, tz
    else:
        here = kinds[z - origin[2], y - origin[1], x - origin[0]]
        if here != (RAMP_UP if heading == UP else RAMP_DOWN):
            return True, x, y, z
        tx, ty, tz = x, y, z + 1 if heading == UP else z - 1
        if not 0 <= tz < WORLD_LEVELS:
            return True, tx, ty, tz
    blocks = v[PARALYSIS] and (tx, ty, tz) == (v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2])
    return blocks, tx, ty, tz


@jit
def _exits(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int) -> int:
    """World.user_exits as bits by ways.DIRECTIONS (the region holds every cell around the user: near_edge)."""
    bits = 0
    for way in range(4):
        if kinds[z - origin[2], y + DY[way] - origin[1], x + DX[way] - origin[0]] != ROCK:
            bits |= 1 << way
    here = kinds[z - origin[2], y - origin[1], x - origin[0]]
    if here == RAMP_UP:
        bits |= 1 << UP
    elif here == RAMP_DOWN:
        bits |= 1 << DOWN
    return bits


@jit
def _run_on(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray, fx: int, fy: int, fz: int, heading: int,
            came: int) -> int:
    """turn.run_on from (fx, fy, fz) to where the user stands: the heading on, NO_ONWARD where the run arrives."""
    x, y, z = v[USER], v[USER + 1], v[USER + 2]
    here = kinds[z - origin[2], y - origin[1], x - origin[0]]
    if here == RAMP_UP or here == RAMP_DOWN:
        return NO_ONWARD
    if heading >= UP:
        return RAMP_RUN  # every ramp step lands on a ramp: the engine has no way on for a ramp's heading
    after = _exits(kinds, origin, x, y, z)
    if after & (1 << heading):
        before = _exits(kinds, origin, fx, fy, fz) & ~(1 << OPPOSITE[came])
        for side in ACROSS[heading]:
            if after & (1 << side) and not before & (1 << side):
                return NO_ONWARD
        return heading
    first, count = heading, 0
    for side in ACROSS[heading]:
        if after & (1 << side):
            count += 1
            if count == 1:
                first = side
    return NO_ONWARD if count > 1 else first


@jit
def move(v: np.ndarray, t: np.ndarray, items: np.ndarray, seen: np.ndarray, world: Tables, memo: Memo,
         cmd: np.ndarray, reach: np.ndarray, stops: np.ndarray) -> int:
    """_Turn._move and the turn's end: ``steps`` steps, or a run to the first place worth a stop; the cells
    entered into ``stops``."""
    kinds, origin = world[0], world[1]
    run, wanted, speed = cmd[2] == 0, cmd[2] or MAX_STEPS, cmd[3]
    heading = came = cmd[1]
    saw = user_sees_minotaur(v, kinds, origin)
    moved, exhausted = 0, False
    while moved < wanted and not v[OUTCOME]:
        running = speed == 2 and v[STAMINA] > 0 and not exhausted
        if speed == 2 and not running:
            exhausted = True
        blocked, tx, ty, tz = _user_step(v, kinds, origin, heading, running)
        if blocked:
            break
        fx, fy, fz, near = v[USER], v[USER + 1], v[USER + 2], 0
        if run:
            in_reach(v, items, reach[0])
            near = nearness(v[USER:USER + 3], v[MINOTAUR:MINOTAUR + 3], v[PARALYSIS], v[JUMP_LEFT])
        if not running:  # a walking step takes two ticks; the user arrives on the second
            t[T_STEPS], t[T_NOISE] = 0, -1
            code = tick(v, t, items, world, memo)
            if code != PLAYED:
                return code
            if v[OUTCOME]:
                break
        t[T_STEPS], t[T_TO], t[T_TO + 1], t[T_TO + 2] = 1, tx, ty, tz
        t[T_NOISE] = HIGH if running else LOW
        code = tick(v, t, items, world, memo)
        if code != PLAYED:
            return code
        if moved == stops.shape[0]:
            return STOPS_FULL
        stops[moved, 0], stops[moved, 1], stops[moved, 2] = tx, ty, tz
        moved += 1
        t[T_STOPS] = moved
        if running:
            v[STAMINA] = max(0, v[STAMINA] - RUN_COST)
        else:
            v[STAMINA] = min(STAMINA_MAX, v[STAMINA] + WALK_GAIN)
        if v[OUTCOME]:
            break
        now = user_sees_minotaur(v, kinds, origin)
        if now and not saw:
            break  # ENCOUNTER
        saw = now
        code, new = note_seen(v, items, seen, kinds, origin)
        if code != PLAYED:
            return code
        if new:
            break  # ITEM_SIGHTED
        if run:
            if nearness(v[USER:USER + 3], v[MINOTAUR:MINOTAUR + 3], v[PARALYSIS], v[JUMP_LEFT]) > near:
                break
            in_reach(v, items, reach[1])
            if came_in_reach(reach[0], reach[1]):
                break
            onward = _run_on(v, kinds, origin, fx, fy, fz, heading, came)
            if onward == RAMP_RUN:
                return UNPORTED
            if onward == NO_ONWARD:
                break  # ARRIVED
            came, heading = heading, onward
    if moved == 0 and not v[OUTCOME]:  # a move that goes nowhere still takes 1 s
        t[T_TICKS] = TICKS_PER_SECOND
        code = stand(v, t, items, world, memo)
        if code != PLAYED:
            return code
    return note_seen(v, items, seen, kinds, origin)[0]
