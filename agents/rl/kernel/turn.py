"""engine.turn.advance for a batch of rows (slice 3 of the design note, kernel/__init__.py): each row's next
state from its user command and its Minotaur's decision, ticks of 0.5 s as _Turn plays them: MOVE (steps or a run,
walked or run, the ramps, stamina, every reason a move stops: move.py), HALT, LOOK, GRAB and USE, the Minotaur's
plan (plan_for), its walk (walk.py) and JUMP, the ticks (tick.py) and the senses that write the state (last_seen,
last_heard, the items seen), the timers and the lantern's return (items.py), death and escape. Events, words and
views are not made: nothing of the state depends on them. The A* (astar.py) is called here only, between tries
of a turn that asked for a path (walk.find_path).

``play_turns`` answers, per row, why it fell back (work.REASONS; 0: played): a row the kernel cannot play as the
engine would is left as it was, for the engine to step (kernel/steps.py hands it over): a cell or a search outside
the region, a path past the rows, a draw past draws.py's tables, seen items past their slots, a state kept whole.

Inputs, a row each: a command (COMMAND_WORDS: MOVE, HALT, LOOK, GRAB, USE; a direction in DIRECTIONS, -1 when
none; steps, 0 when none; speed; a target in ITEM_ORDER, -1 when none: ``command_row``, and USER_ACTIONS for the
RL env's numbered actions) and a decision (PLANS' action, 1 when it has target coordinates, x, y, z:
``decision_row``).

Output beside the rows, for the user's view (user_obs.py): every cell the user's move entered, the engine's
UserMoved path (``Told``, a row each, written where the turn was played; 0 cells for a turn without a move). A
move of more than STOPS cells falls back (work.STOPS_FULL): the RL user's runs seldom pass a tiny ground's width.

numba's disk cache (jit.py) keys each compiled function on its own file alone, and the turn's machine
code holds its callees': after changing another of the kernel's files without this one, delete
agents/rl/kernel/__pycache__/*.nbi and *.nbc, or the turn runs the old code.
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.cells import CRAWLWAY, ROCK
from labyrinth.engine.constants import (
    TICKS_PER_SECOND,
)
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.schemas import MinotaurDecision, UserInput

from ..commands import COMMANDS
from . import astar
from .draws import Draws
from .items import USABLE, grab, note_seen, reach_slot, use
from .jit import jit
from .move import move
from .sight import near_edge
from .state import ESCAPED, PATH_ROWS, StateRows
from .tick import minotaur_sees_user, run_timers, stand
from .walk import OUTSIDE, Memo, cell, find_path
from .ways import DIRECTIONS
from .work import (
    CHASE,
    GOAL,
    HAS_GOAL,
    INVENTORY,
    JUMP,
    JUMP_COOLDOWN,
    JUMP_LEFT,
    KEPT,
    LEFT_REGION,
    NEED_PATH,
    NO_ROUTE,
    OUTCOME,
    PARALYSIS,
    PATH_LENGTH,
    PATH_START,
    PATHFIND,
    PLANS,
    PLAYED,
    SLOTS,
    STRIDE,
    T_HAPPENED,
    T_PLAN,
    T_SEES,
    T_START,
    T_STOPS,
    T_TARGET,
    T_TICKS,
    T_WALKS,
    T_WIDTH,
    TICK,
    TURN,
    USER,
    WAIT,
    pack,
    unpack,
)

COMMAND_WORDS = ("MOVE", "HALT", "LOOK", "GRAB", "USE")
MOVE, HALT, LOOK, GRAB, USE = range(5)
MEMO = 8  # the paths a turn may search (a PATHFIND's, then one each time CHASE's goal moves off its path)
STOPS = 32  # the cells of a move a row records (a move may take MAX_STEPS)


class Told:
    """What each row's last turn played tells beyond its state: the cells its user entered, in order (the UserMoved
    path: ``cells[i, :count[i]]``, x, y, z), and what happened (work.HAPPENED's bits)."""

    def __init__(self, n: int) -> None:
        self.cells = np.zeros((n, STOPS, 3), dtype=np.int64)
        self.count = np.zeros(n, dtype=np.int64)
        self.happened = np.zeros(n, dtype=np.int64)


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


def play_turns(rows: StateRows, commands: np.ndarray, decisions: np.ndarray, draws: Draws,
               stops: Told | None = None, playing: np.ndarray | None = None) -> np.ndarray:
    """Every row's turn (``commands``, ``decisions``: a row each), written into ``rows`` where the kernel played it,
    and the cells its user entered and what happened (work.HAPPENED) into ``stops`` (when given); per row, why it
    fell back (0: played; work.REASONS) and was left as it was. ``playing``: a bool mask of the rows to play (all
    when None); the others are left as they are, and answer 0."""
    stops = Told(len(commands)) if stops is None else stops
    playing = np.ones(len(commands), dtype=np.bool_) if playing is None else np.ascontiguousarray(playing, np.bool_)
    work = pack(rows)
    ground = PRESETS[rows.preset]
    bounds = np.array([ground.x0, ground.y0, ground.z0, ground.width, ground.height, ground.levels], dtype=np.int64)
    why = np.zeros(len(work), dtype=np.int64)
    # int64 and contiguous, as the rows are: an array of another layout would make numba compile the turn again
    commands, decisions = (np.ascontiguousarray(a, dtype=np.int64) for a in (commands, decisions))
    _turns(work, rows.items, rows.seen_items, rows.path, rows.kinds, rows.origin, rows.kept, playing, commands,
           decisions, bounds, draws.jump_lengths, draws.patrol_words, draws.respawn_words, stops.cells, stops.count,
           stops.happened, why)
    unpack(work, rows, playing & (why == PLAYED))
    return why


@jit
def _turns(work: np.ndarray, items: np.ndarray, seen: np.ndarray, paths: np.ndarray, kinds: np.ndarray,
           origins: np.ndarray, kept: np.ndarray, playing: np.ndarray, commands: np.ndarray, decisions: np.ndarray,
           ground: np.ndarray, jump_lengths: np.ndarray, patrol_words: np.ndarray, respawn_words: np.ndarray,
           stops: np.ndarray, stop_count: np.ndarray, happened: np.ndarray, why: np.ndarray) -> None:
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
    entered = np.empty((stops.shape[1], 3), dtype=np.int64)
    for r in range(work.shape[0]):
        stop_count[r], happened[r] = 0, 0
        if not playing[r]:
            continue
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
                         jump_lengths[r], patrol_words[r], respawn_words[r], memo, reach, entered)
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
            stop_count[r], happened[r] = t[T_STOPS], t[T_HAPPENED]
            stops[r, :t[T_STOPS]] = entered[:t[T_STOPS]]


@jit
def _turn(v: np.ndarray, t: np.ndarray, items: np.ndarray, seen: np.ndarray, path: np.ndarray, kinds: np.ndarray,
          origin: np.ndarray, cmd: np.ndarray, dec: np.ndarray, ground: np.ndarray, jumps: np.ndarray,
          patrols: np.ndarray, respawns: np.ndarray, memo: Memo, reach: np.ndarray, stops: np.ndarray) -> int:
    """advance(): _Turn's __init__ and run."""
    t[T_STOPS], t[T_HAPPENED] = 0, 0
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
    t[T_SEES] = minotaur_sees_user(v, kinds, origin)
    t[T_START] = v[TICK]
    v[TURN] += 1
    world = (kinds, origin, ground, path, jumps, patrols, respawns)
    if cmd[0] == MOVE:
        return move(v, t, items, seen, world, memo, cmd, reach, stops)
    if cmd[0] == HALT:
        t[T_TICKS] = TICKS_PER_SECOND * (cmd[2] or 1)
        code = stand(v, t, items, world, memo)
    else:
        _act_at_once(v, t, items, cmd)
        if v[OUTCOME]:  # escaped: the second passes, the timers run, nobody acts
            for _ in range(TICKS_PER_SECOND):
                v[TICK] += 1
                code = run_timers(v, t, items, world)
                if code != PLAYED:
                    return code
        else:
            t[T_TICKS] = TICKS_PER_SECOND
            code = stand(v, t, items, world, memo)
    if code != PLAYED:
        return code
    return note_seen(v, items, seen, kinds, origin)[0]


def unexecutable_rows(rows: StateRows, commands: np.ndarray) -> np.ndarray:
    """Per row, whether the game refuses its command before any turn (engine.turn.unexecutable)."""
    return _unexecutable_rows(pack(rows), rows.items, np.ascontiguousarray(commands, dtype=np.int64))


@jit
def _unexecutable_rows(work: np.ndarray, items: np.ndarray, commands: np.ndarray) -> np.ndarray:
    out = np.zeros(work.shape[0], dtype=np.bool_)
    for r in range(work.shape[0]):
        out[r] = _unexecutable(work[r], items[r], commands[r])
    return out


@jit
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


@jit
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


@jit
def _act_at_once(v: np.ndarray, t: np.ndarray, items: np.ndarray, cmd: np.ndarray) -> None:
    """GRAB (ESCAPED once every stone is held) and USE; LOOK changes nothing. A JUMP after the lantern: WAIT."""
    if cmd[0] == GRAB:
        if grab(v, items, reach_slot(v, items, cmd[4])):
            v[OUTCOME] = ESCAPED
    elif cmd[0] == USE:
        v[PARALYSIS] = use(v, cmd[4], v[PARALYSIS])
    if t[T_PLAN] == JUMP and v[PARALYSIS]:
        t[T_PLAN] = WAIT


