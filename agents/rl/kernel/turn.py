"""engine.turn.advance for a batch of rows (slice 3 of the design note, kernel/__init__.py): each row's next
state from its user command and its Minotaur's decision, ticks of 0.5 s as _Turn plays them: MOVE (steps or a run,
walked or run, the ramps, stamina, every reason a move stops), HALT, LOOK, GRAB and USE, the Minotaur's plan
(plan_for), its walk (walk.py) and JUMP, the senses that write the state (last_seen, last_heard, the items seen),
the timers and the lantern's return (items.py), death and escape. Events, words and views are not made: nothing
of the state depends on them.

``play_turns`` answers, per row, why it fell back (work.REASONS; 0: played): a row the kernel cannot play as the
engine would is left as it was, for the engine to step (vector_env.step_on_engine): a cell or a search outside
the region, a path past the rows, a draw past draws.py's tables, seen items past their slots, a state kept whole.

Inputs, a row each: a command (COMMANDS' order: MOVE, HALT, LOOK, GRAB, USE; a direction in DIRECTIONS, -1 when
none; steps, 0 when none; speed; a target in ITEM_ORDER, -1 when none: ``command_row``, and USER_ACTIONS for the
RL env's numbered actions) and a decision (PLANS' action, 1 when it has target coordinates, x, y, z:
``decision_row``).

numba's disk cache (astar._compiler) keys each compiled function on its own file alone, and the turn's machine
code holds its callees': after changing walk.py, items.py, sight.py, draws.py, work.py or astar.py without this
file, delete agents/rl/kernel/__pycache__/*.nbi and *.nbc, or the turn runs the old code.
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.cells import CRAWLWAY, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import (
    HEAR_HIGH_SQ,
    HEAR_LOW_SQ,
    JUMP_COOLDOWN_TICKS,
    MAX_STEPS,
    REST_GAIN_PER_TICK,
    RUN_COST,
    STAMINA_MAX,
    TICKS_PER_SECOND,
    WALK_GAIN,
    WORLD_LEVELS,
    WORLD_SIZE,
)
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.schemas import MinotaurDecision, UserInput

from ..commands import COMMANDS
from . import astar
from .astar import _jit
from .draws import Draws
from .items import USABLE, came_in_reach, count_down, grab, in_reach, note_seen, reach_slot, use
from .sight import distance_sq, minotaur_sees, near_edge, nearness, user_sees
from .state import PATH_ROWS, StateRows
from .walk import OUTSIDE, Memo, cell, find_path, next_cell
from .work import (
    CHASE,
    GOAL,
    HAS_GOAL,
    HEARD_AT,
    INVENTORY,
    JUMP,
    JUMP_COOLDOWN,
    JUMP_LEFT,
    JUMP_STARTED,
    JUMPS,
    KEPT,
    LEFT_REGION,
    MINOTAUR,
    NEED_PATH,
    NO_ROUTE,
    OUTCOME,
    PARALYSIS,
    PATH_LENGTH,
    PATH_START,
    PATHFIND,
    PLANS,
    PLAYED,
    SEEN_AT,
    SLOTS,
    STAMINA,
    STRIDE,
    T_NOISE,
    T_PLAN,
    T_SEES,
    T_START,
    T_STEPS,
    T_TARGET,
    T_TICKS,
    T_TO,
    T_WALKS,
    T_WIDTH,
    TICK,
    TURN,
    UNPORTED,
    USED_UP,
    USER,
    WAIT,
    pack,
    unpack,
)

COMMAND_WORDS = ("MOVE", "HALT", "LOOK", "GRAB", "USE")
MOVE, HALT, LOOK, GRAB, USE = range(5)
DIRECTIONS = ("NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP")  # geometry.HORIZONTAL's order, then ramps
UP, DOWN = 4, 5
_DX, _DY = (0, 0, 1, -1), (1, -1, 0, 0)
_OPPOSITE = (1, 0, 3, 2)
_SIDEWAYS = ((2, 3), (2, 3), (0, 1), (0, 1))  # geometry.SIDEWAYS
LOW, HIGH = 0, 1  # state.NOISES
DEATH, ESCAPED = 1, 2  # state.OUTCOMES
NO_ONWARD, RAMP_RUN = -1, -2
MEMO = 8  # the paths a turn may search (a PATHFIND's, then one each time CHASE's goal moves off its path)
# What a row's turn reads besides its numbers: its region (kinds, origin), the ground, the path's buffer, the draws.
Tables = tuple[np.ndarray, ...]  # _run_on: where a run arrives; a run along a ramp's heading past its ramp


def command_row(command: UserInput) -> np.ndarray:
    """A user command as the kernel's row (COMMAND_WORDS, DIRECTIONS, steps, speed, ITEM_ORDER)."""
    return np.array([COMMAND_WORDS.index(command.command),
                     -1 if command.direction is None else DIRECTIONS.index(command.direction), command.steps or 0,
                     command.speed, -1 if command.target is None else ITEM_ORDER.index(command.target)],
                    dtype=np.int64)


def decision_row(decision: MinotaurDecision) -> np.ndarray:
    """A Minotaur decision as the kernel's row (PLANS' action, has coordinates, x, y, z)."""
    c = decision.target_coords
    return np.array([PLANS.index(decision.action), c is not None, *((c.x, c.y, c.z) if c else (0, 0, 0))],
                    dtype=np.int64)


# The RL user's commands by action number (agents/rl/commands.py: the same whatever the game, so made without a
# Match), and as the kernel's rows.
_MADE = [c.make(None) for c in COMMANDS["user"]]  # type: ignore[arg-type]
USER_COMMANDS = tuple(c for c in _MADE if isinstance(c, UserInput))
USER_ACTIONS = np.array([command_row(c) for c in USER_COMMANDS], dtype=np.int64)


def play_turns(rows: StateRows, commands: np.ndarray, decisions: np.ndarray, draws: Draws) -> np.ndarray:
    """Every row's turn (``commands``, ``decisions``: a row each), written into ``rows`` where the kernel played it;
    per row, why it fell back (0: played; work.REASONS) and was left as it was."""
    work = pack(rows)
    ground = PRESETS[rows.preset]
    bounds = np.array([ground.x0, ground.y0, ground.z0, ground.width, ground.height, ground.levels], dtype=np.int64)
    why = np.zeros(len(work), dtype=np.int64)
    # int64 and contiguous, as the rows are: an array of another layout would make numba compile the turn again
    commands, decisions = (np.ascontiguousarray(a, dtype=np.int64) for a in (commands, decisions))
    _turns(work, rows.items, rows.seen_items, rows.path, rows.kinds, rows.origin, rows.kept, commands, decisions,
           bounds, draws.jump_lengths, draws.patrol_words, draws.respawn_words, why)
    unpack(work, rows, why == PLAYED)
    return why


@_jit
def _turns(work: np.ndarray, items: np.ndarray, seen: np.ndarray, paths: np.ndarray, kinds: np.ndarray,
           origins: np.ndarray, kept: np.ndarray, commands: np.ndarray, decisions: np.ndarray, ground: np.ndarray,
           jump_lengths: np.ndarray, patrol_words: np.ndarray, respawn_words: np.ndarray, why: np.ndarray) -> None:
    """Each row's turn on a copy of it, copied back where played."""
    levels, rows, cols = kinds.shape[1], kinds.shape[2], kinds.shape[3]
    cells = levels * rows * cols
    # astar's scratch, once for all rows; a search pushes a cell at most once per way in (6), so the heap never grows
    chunk_mark, stamps = np.zeros((levels, rows // 8, cols // 8), dtype=np.int64), np.zeros(1, dtype=np.int64)
    scratch, heap = np.zeros((3, cells), dtype=np.int64), np.empty(6 * cells + 8, dtype=np.int64)
    memo = (np.zeros((MEMO, 6), dtype=np.int64), np.zeros(MEMO, dtype=np.int64),
            np.zeros((MEMO, PATH_ROWS, 3), dtype=np.int64), np.zeros(1, dtype=np.int64))
    keys, lengths, found, count = memo
    path = np.empty((2 * PATH_ROWS + 2, 3), dtype=np.int64)  # room for a path and the steps added to it
    t = np.zeros(T_WIDTH, dtype=np.int64)
    reach = np.zeros((2, SLOTS, 4), dtype=np.int64)
    for r in range(work.shape[0]):
        if kept[r]:
            why[r] = KEPT
            continue
        count[0] = 0
        code = NEED_PATH
        while code == NEED_PATH:  # the turn from its start, with every path it asked for so far
            v, lying, known = work[r].copy(), items[r].copy(), seen[r].copy()
            length = v[PATH_LENGTH]
            path[:length] = paths[r, :length]
            v[PATH_START] = 0
            code = _turn(v, t, lying, known, path, kinds[r], origins[r], commands[r], decisions[r], ground,
                         jump_lengths[r], patrol_words[r], respawn_words[r], memo, reach)
            if code == NEED_PATH:
                k = count[0]
                lengths[k] = astar._find_path(kinds[r], origins[r], keys[k, :3].copy(), keys[k, 3:].copy(), found[k],
                                              chunk_mark, stamps, scratch, heap)[0]
                count[0] += 1
                if lengths[k] < 0:
                    code = LEFT_REGION if lengths[k] == astar.LEFT_REGION else NO_ROUTE
        why[r] = code
        if code == PLAYED:
            work[r], items[r], seen[r] = v, lying, known
            start, length = v[PATH_START], v[PATH_LENGTH]
            paths[r, :length] = path[start:start + length]


@_jit
def _turn(v: np.ndarray, t: np.ndarray, items: np.ndarray, seen: np.ndarray, path: np.ndarray, kinds: np.ndarray,
          origin: np.ndarray, cmd: np.ndarray, dec: np.ndarray, ground: np.ndarray, jumps: np.ndarray,
          patrols: np.ndarray, respawns: np.ndarray, memo: Memo, reach: np.ndarray) -> int:
    """advance(): _Turn's __init__ and run."""
    if v[OUTCOME] or _unexecutable(v, items, cmd):
        return PLAYED  # the very state comes back
    if near_edge(kinds, origin, v[USER], v[USER + 1], v[USER + 2]):
        return LEFT_REGION
    code = _plan(v, t, path, kinds, origin, dec, memo)
    if code != PLAYED:
        return code
    t[T_WALKS] = t[T_PLAN] == CHASE or t[T_PLAN] == PATHFIND
    if not t[T_WALKS]:
        v[STRIDE] = 0
    t[T_SEES] = _minotaur_sees(v, kinds, origin)
    t[T_START] = v[TICK]
    v[TURN] += 1
    world = (kinds, origin, ground, path, jumps, patrols, respawns)
    if cmd[0] == MOVE:
        return _move(v, t, items, seen, world, memo, cmd, reach)
    if cmd[0] == HALT:
        t[T_TICKS] = TICKS_PER_SECOND * (cmd[2] or 1)
        code = _stand(v, t, items, world, memo)
    else:
        _act_at_once(v, t, items, cmd)
        if v[OUTCOME]:  # escaped: the second passes, the timers run, nobody acts
            for _ in range(TICKS_PER_SECOND):
                v[TICK] += 1
                code = _run_timers(v, items, world)
                if code != PLAYED:
                    return code
        else:
            t[T_TICKS] = TICKS_PER_SECOND
            code = _stand(v, t, items, world, memo)
    if code != PLAYED:
        return code
    return note_seen(v, items, seen, kinds, origin)[0]


@_jit
def _unexecutable(v: np.ndarray, items: np.ndarray, cmd: np.ndarray) -> bool:
    """turn.unexecutable: a GRAB with nothing in reach, a USE of what cannot be used or is not held."""
    if cmd[0] == GRAB:
        return reach_slot(v, items, cmd[4]) < 0
    if cmd[0] == USE:
        if cmd[4] >= 0:
            return not (USABLE[cmd[4]] and v[INVENTORY + cmd[4]])
        for kind in range(SLOTS):
            if USABLE[kind] and v[INVENTORY + kind]:
                return False
        return True
    return False


@_jit
def _plan(v: np.ndarray, t: np.ndarray, path: np.ndarray, kinds: np.ndarray, origin: np.ndarray, dec: np.ndarray,
          memo: Memo) -> int:
    """minotaur.plan_for into ``t``: a refused decision waits; a PATHFIND to a new target finds its path."""
    action = dec[0]
    t[T_PLAN] = action
    if action == JUMP:
        if v[PARALYSIS] or v[JUMP_LEFT] or v[JUMP_COOLDOWN]:
            t[T_PLAN] = WAIT
    elif action == PATHFIND:
        if not dec[1]:
            t[T_PLAN] = WAIT
            return PLAYED
        kind = cell(kinds, origin, dec[2], dec[3], dec[4])
        if kind == OUTSIDE:
            return LEFT_REGION
        if kind == ROCK or kind == CRAWLWAY:
            t[T_PLAN] = WAIT
            return PLAYED
        t[T_TARGET], t[T_TARGET + 1], t[T_TARGET + 2] = dec[2], dec[3], dec[4]
        same = v[HAS_GOAL] and v[GOAL] == dec[2] and v[GOAL + 1] == dec[3] and v[GOAL + 2] == dec[4]
        if not same or not v[PATH_LENGTH]:
            v[GOAL], v[GOAL + 1], v[GOAL + 2], v[HAS_GOAL] = dec[2], dec[3], dec[4], 1
            return find_path(v, path, memo, dec[2], dec[3], dec[4])
    return PLAYED


@_jit
def _minotaur_sees(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray) -> bool:
    active = v[PARALYSIS] == 0 and v[JUMP_LEFT] == 0
    return minotaur_sees(kinds, origin, v[USER:USER + 3], v[MINOTAUR:MINOTAUR + 3], active)


@_jit
def _user_sees(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray) -> bool:
    active = v[PARALYSIS] == 0 and v[JUMP_LEFT] == 0
    return user_sees(kinds, origin, v[USER:USER + 3], v[MINOTAUR:MINOTAUR + 3], active)


@_jit
def _act_at_once(v: np.ndarray, t: np.ndarray, items: np.ndarray, cmd: np.ndarray) -> None:
    """GRAB (ESCAPED once every stone is held) and USE; LOOK changes nothing. A JUMP after the lantern: WAIT."""
    if cmd[0] == GRAB:
        if grab(v, items, reach_slot(v, items, cmd[4])):
            v[OUTCOME] = ESCAPED
    elif cmd[0] == USE:
        v[PARALYSIS] = use(v, cmd[4], v[PARALYSIS])
    if t[T_PLAN] == JUMP and v[PARALYSIS]:
        t[T_PLAN] = WAIT


@_jit
def _stand(v: np.ndarray, t: np.ndarray, items: np.ndarray, world: Tables, memo: Memo) -> int:
    """_Turn._stand for t[T_TICKS] ticks."""
    for _ in range(t[T_TICKS]):
        if v[OUTCOME]:
            return PLAYED
        t[T_STEPS], t[T_NOISE] = 0, -1
        code = _tick(v, t, items, world, memo)
        if code != PLAYED:
            return code
        v[STAMINA] = min(STAMINA_MAX, v[STAMINA] + REST_GAIN_PER_TICK)
    return PLAYED


@_jit
def _tick(v: np.ndarray, t: np.ndarray, items: np.ndarray, world: Tables, memo: Memo) -> int:
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
    code = _run_timers(v, items, world)
    if code != PLAYED or v[OUTCOME]:
        return code
    if noise >= 0 and not v[JUMP_LEFT]:
        d2 = distance_sq(v[USER], v[USER + 1], v[USER + 2], v[MINOTAUR], v[MINOTAUR + 1], v[MINOTAUR + 2])
        if d2 <= (HEAR_HIGH_SQ if noise == HIGH else HEAR_LOW_SQ):
            v[HEARD_AT:HEARD_AT + 3] = v[USER:USER + 3]
            v[HEARD_AT + 3], v[HEARD_AT + 4] = v[TICK], noise
    t[T_SEES] = _minotaur_sees(v, kinds, origin)
    if t[T_SEES]:
        v[SEEN_AT:SEEN_AT + 3] = v[USER:USER + 3]
        v[SEEN_AT + 3] = v[TICK]
    return PLAYED


@_jit
def _run_timers(v: np.ndarray, items: np.ndarray, world: Tables) -> int:
    if v[JUMP_COOLDOWN]:
        v[JUMP_COOLDOWN] -= 1
    if v[PARALYSIS]:
        v[PARALYSIS] -= 1
    if v[JUMP_LEFT]:
        v[JUMP_LEFT] -= 1
        same = v[USER] == v[MINOTAUR] and v[USER + 1] == v[MINOTAUR + 1] and v[USER + 2] == v[MINOTAUR + 2]
        if not v[JUMP_LEFT] and same and not v[PARALYSIS]:
            v[OUTCOME] = v[OUTCOME] or DEATH  # it re-entered time where the user stood
    return count_down(v, items, world[2], world[6])


@_jit
def _user_step(v: np.ndarray, kinds: np.ndarray, origin: np.ndarray, heading: int,
               running: bool) -> tuple[bool, int, int, int]:
    """_Turn._next_cell: (blocked, the cell the step enters)."""
    x, y, z = v[USER], v[USER + 1], v[USER + 2]
    if heading < UP:
        tx, ty, tz = x + _DX[heading], y + _DY[heading], z
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


@_jit
def _exits(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int) -> int:
    """World.user_exits as bits by DIRECTIONS (the region holds every cell around the user: near_edge)."""
    bits = 0
    for way in range(4):
        if kinds[z - origin[2], y + _DY[way] - origin[1], x + _DX[way] - origin[0]] != ROCK:
            bits |= 1 << way
    here = kinds[z - origin[2], y - origin[1], x - origin[0]]
    if here == RAMP_UP:
        bits |= 1 << UP
    elif here == RAMP_DOWN:
        bits |= 1 << DOWN
    return bits


@_jit
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
        before = _exits(kinds, origin, fx, fy, fz) & ~(1 << _OPPOSITE[came])
        for side in _SIDEWAYS[heading]:
            if after & (1 << side) and not before & (1 << side):
                return NO_ONWARD
        return heading
    first, count = heading, 0
    for side in _SIDEWAYS[heading]:
        if after & (1 << side):
            count += 1
            if count == 1:
                first = side
    return NO_ONWARD if count > 1 else first


@_jit
def _move(v: np.ndarray, t: np.ndarray, items: np.ndarray, seen: np.ndarray, world: Tables, memo: Memo,
          cmd: np.ndarray, reach: np.ndarray) -> int:
    """_Turn._move and the turn's end: ``steps`` steps, or a run to the first place worth a stop."""
    kinds, origin = world[0], world[1]
    run, wanted, speed = cmd[2] == 0, cmd[2] or MAX_STEPS, cmd[3]
    heading = came = cmd[1]
    saw = _user_sees(v, kinds, origin)
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
            code = _tick(v, t, items, world, memo)
            if code != PLAYED:
                return code
            if v[OUTCOME]:
                break
        t[T_STEPS], t[T_TO], t[T_TO + 1], t[T_TO + 2] = 1, tx, ty, tz
        t[T_NOISE] = HIGH if running else LOW
        code = _tick(v, t, items, world, memo)
        if code != PLAYED:
            return code
        moved += 1
        if running:
            v[STAMINA] = max(0, v[STAMINA] - RUN_COST)
        else:
            v[STAMINA] = min(STAMINA_MAX, v[STAMINA] + WALK_GAIN)
        if v[OUTCOME]:
            break
        now = _user_sees(v, kinds, origin)
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
        code = _stand(v, t, items, world, memo)
        if code != PLAYED:
            return code
    return note_seen(v, items, seen, kinds, origin)[0]
