"""What an RL env reports of each step besides the observation, for a batch of rows (slice 6a of the design note,
kernel/__init__.py): each role's action mask (commands.action_mask), the step's reward (engine/wsap/rewards.py),
terminated and truncated (game.RLGame's), computed in numba from the rows alone.

The masks read the row as it stands: the user's MOVEs along World.user_exits (the four cells beside the user not
ROCK, a ramp under its feet), GRAB of a kind (or of anything) within a step on its level (turn.item_in_reach), USE
of a usable item held (turn.unexecutable), LOOK and HALT always; the Minotaur's JUMP unless plan_for refuses it
(paralyzed, out of time, cooling down), its other plain actions always, and each PATHFIND while its target is
known to its view (the last noise, the last sighting, the first lying item of a stone's name: report.observation
holds every lying item) and open to it (cells.MINOTAUR_OPEN).

The reward is the role's WSAP reward of the turn's events, which the kernel does not make: they are read off the
state's change instead. A stone grabbed is a stone more in the inventory (stones never leave it nor lie twice:
no USE, no respawn; a GRAB takes one item), the escape and the catch are the outcome's change to ESCAPED or
DEATH, and the seconds are the ticks passed (the turn's time_taken). The sum is made in the events' order (the
per-second cost, the stone, then the escape or catch), so the float is the engine's bit for bit; the Minotaur's
is its negation, as minotaur_reward's. ``before`` is what the reward needs of the row before its turn: call
``before_turn`` ahead of turn.play_turns. terminated: the game's outcome set; truncated: the Match's turns (a
counter the caller keeps: one a step, refused commands included) at the task's max_turns with no outcome.

A row falls back (its flag set, the caller asks its LabyrinthEnv) when it is kept whole (state.StateRows.kept)
or when a cell a mask reads is outside its region (walk.OUTSIDE).
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.cells import FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import TICKS_PER_SECOND
from labyrinth.engine.items import ITEM_ORDER, STONES
from labyrinth.engine.schemas import MINOTAUR_PARAMS
from labyrinth.engine.wsap.rewards import CATCH, ESCAPE, PER_SECOND, STONE

from ..commands import COMMANDS, action_word
from .items import NEEDED, USABLE
from .jit import jit
from .state import DEATH, ESCAPED, NONE, StateRows
from .turn import GRAB, MOVE, USE, USER_ACTIONS
from .walk import OUTSIDE, cell
from .ways import DOWN, DX, DY, UP

# The Minotaur's commands (commands._minotaur_commands) as (what decides it, the stone's kind or -1): always
# possible, JUMP (plan_for may refuse it), a PATHFIND to the last noise, the last sighting, or a stone.
ALWAYS, JUMP_OK, TO_NOISE, TO_SIGHTING, TO_STONE = range(5)


def _minotaur_table() -> np.ndarray:
    plain = {action_word(action) for action, params in MINOTAUR_PARAMS.items() if not any(p.required for p in params)}
    if not plain <= {"wait", "chase", "jump"}:
        raise ImportError(f"kernel/signals.py knows which of {sorted(plain)} plan_for may refuse: only JUMP")
    stones = {f"pathfind_{action_word(stone)}": ITEM_ORDER.index(stone) for stone in STONES}
    table = []
    for c in COMMANDS["minotaur"]:
        if c.name in plain:
            table.append((JUMP_OK if c.name == "jump" else ALWAYS, -1))
        elif c.name == "pathfind_last_noise":
            table.append((TO_NOISE, -1))
        elif c.name == "pathfind_last_sighting":
            table.append((TO_SIGHTING, -1))
        elif c.name in stones:
            table.append((TO_STONE, stones[c.name]))
        else:
            raise ImportError(f"kernel/signals.py has no rule for the Minotaur's command {c.name}")
    return np.array(table, dtype=np.int64)


MINOTAUR_TABLE = _minotaur_table()
USER_WIDTH, MINOTAUR_WIDTH = len(COMMANDS["user"]), len(COMMANDS["minotaur"])
if USER_ACTIONS.shape[0] != USER_WIDTH:
    raise ImportError("every command of the user's is a UserInput (turn.USER_ACTIONS)")
# before_turn's columns: the tick, the outcome code, the stones held, 1 when the row was kept whole
B_TICK, B_OUTCOME, B_STONES, B_KEPT = range(4)


def user_masks(rows: StateRows) -> tuple[np.ndarray, np.ndarray]:
    """Every row's user action mask (int8, commands.action_mask's), and per row whether it fell back."""
    n = rows.user.shape[0]
    masks, fallback = np.zeros((n, USER_WIDTH), dtype=np.int8), np.zeros(n, dtype=np.bool_)
    _user_masks(rows.user, rows.items, rows.item_count, rows.inventory, rows.kinds, rows.origin, rows.kept,
                USER_ACTIONS, USABLE, masks, fallback)
    return masks, fallback


def minotaur_masks(rows: StateRows) -> tuple[np.ndarray, np.ndarray]:
    """Every row's Minotaur action mask (int8, commands.action_mask's), and per row whether it fell back."""
    n = rows.user.shape[0]
    masks, fallback = np.zeros((n, MINOTAUR_WIDTH), dtype=np.int8), np.zeros(n, dtype=np.bool_)
    _minotaur_masks(rows.paralysis, rows.jump_left, rows.jump_cooldown, rows.last_heard, rows.last_seen,
                    rows.items, rows.item_count, rows.kinds, rows.origin, rows.kept, MINOTAUR_TABLE, masks, fallback)
    return masks, fallback


def action_masks(rows: StateRows, role: str) -> tuple[np.ndarray, np.ndarray]:
    """``role``'s masks (user_masks or minotaur_masks): what the env's info and action_masks() give."""
    if role not in MASKS:
        raise ValueError(f"no role {role!r}")
    return MASKS[role](rows)


def before_turn(rows: StateRows) -> np.ndarray:
    """What ``step_signals`` needs of each row before its turn: (n, 4) int64, the columns B_*."""
    before = np.zeros((rows.user.shape[0], 4), dtype=np.int64)
    before[:, B_TICK], before[:, B_OUTCOME], before[:, B_KEPT] = rows.tick, rows.outcome, rows.kept
    before[:, B_STONES] = rows.inventory[:, NEEDED].sum(axis=1)
    return before


def step_signals(before: np.ndarray, rows: StateRows, turns: np.ndarray, max_turns: int, role: str
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each row's reward for ``role`` (float64), terminated and truncated (bool) after its turn, from the row
    ``before`` it (before_turn) and now; ``turns``: the Match's turns played, this step's included. Per row,
    whether it fell back (kept whole before or after)."""
    n = rows.user.shape[0]
    reward = np.zeros(n, dtype=np.float64)
    terminated, truncated, fallback = (np.zeros(n, dtype=np.bool_) for _ in range(3))
    _signals(before, rows.tick, rows.outcome, rows.inventory, rows.kept, np.ascontiguousarray(turns, dtype=np.int64),
             max_turns, NEEDED, reward, terminated, truncated, fallback)
    if role == "minotaur":
        reward = -reward  # minotaur_reward: the user's negated
    elif role != "user":
        raise ValueError(f"no role {role!r}")
    return reward, terminated, truncated, fallback


MASKS = {"user": user_masks, "minotaur": minotaur_masks}


@jit
def _user_masks(user: np.ndarray, items: np.ndarray, item_count: np.ndarray, inventory: np.ndarray,
                kinds: np.ndarray, origins: np.ndarray, kept: np.ndarray, actions: np.ndarray, usable: np.ndarray,
                masks: np.ndarray, fallback: np.ndarray) -> None:
    """commands.action_mask of the user, per row: UserMoment's exits and reach, unexecutable's USE."""
    slots = inventory.shape[1]
    exits = np.zeros(6, dtype=np.bool_)
    reach = np.zeros(slots, dtype=np.bool_)
    for r in range(user.shape[0]):
        if kept[r]:
            fallback[r] = True
            continue
        x, y, z = user[r, 0], user[r, 1], user[r, 2]
        here = cell(kinds[r], origins[r], x, y, z)
        fallback[r] = here == OUTSIDE
        for d in range(4):
            kind = cell(kinds[r], origins[r], x + DX[d], y + DY[d], z)
            if kind == OUTSIDE:
                fallback[r] = True
            exits[d] = kind != ROCK
        exits[UP], exits[DOWN] = here == RAMP_UP, here == RAMP_DOWN
        reach[:] = False
        for slot in range(item_count[r]):
            if items[r, slot, 3] == z and abs(items[r, slot, 1] - x) + abs(items[r, slot, 2] - y) <= 1:
                reach[items[r, slot, 0]] = True
        anything = reach.any()
        for a in range(actions.shape[0]):
            word, target = actions[a, 0], actions[a, 4]
            if word == MOVE:
                masks[r, a] = exits[actions[a, 1]]
            elif word == GRAB:
                masks[r, a] = reach[target] if target >= 0 else anything
            elif word == USE:
                held = False
                for kind in range(slots):
                    if usable[kind] and inventory[r, kind] and (target < 0 or kind == target):
                        held = True
                masks[r, a] = held
            else:  # LOOK, HALT
                masks[r, a] = 1


@jit
def _open(kinds: np.ndarray, origin: np.ndarray, x: int, y: int, z: int) -> int:
    """1 when the cell is MINOTAUR_OPEN, 0 when not, OUTSIDE when the region does not hold it."""
    kind = cell(kinds, origin, x, y, z)
    if kind == OUTSIDE:
        return OUTSIDE
    return 1 if kind == FLOOR or kind == RAMP_UP or kind == RAMP_DOWN else 0


@jit
def _minotaur_masks(paralysis: np.ndarray, jump_left: np.ndarray, jump_cooldown: np.ndarray, last_heard: np.ndarray,
                    last_seen: np.ndarray, items: np.ndarray, item_count: np.ndarray, kinds: np.ndarray,
                    origins: np.ndarray, kept: np.ndarray, table: np.ndarray, masks: np.ndarray,
                    fallback: np.ndarray) -> None:
    """commands.action_mask of the Minotaur, per row: plan_for's JUMP, each PATHFIND's target known and open."""
    for r in range(paralysis.shape[0]):
        if kept[r]:
            fallback[r] = True
            continue
        for a in range(table.shape[0]):
            what, kind = table[a, 0], table[a, 1]
            if what == ALWAYS:
                masks[r, a] = 1
                continue
            if what == JUMP_OK:
                masks[r, a] = not (paralysis[r] or jump_left[r] or jump_cooldown[r])
                continue
            known, x, y, z = False, 0, 0, 0
            if what == TO_NOISE:
                known, x, y, z = last_heard[r, 3] != NONE, last_heard[r, 0], last_heard[r, 1], last_heard[r, 2]
            elif what == TO_SIGHTING:
                known, x, y, z = last_seen[r, 3] != NONE, last_seen[r, 0], last_seen[r, 1], last_seen[r, 2]
            else:
                for slot in range(item_count[r]):
                    if items[r, slot, 0] == kind:
                        known, x, y, z = True, items[r, slot, 1], items[r, slot, 2], items[r, slot, 3]
                        break
            if not known:
                masks[r, a] = 0
                continue
            is_open = _open(kinds[r], origins[r], x, y, z)
            if is_open == OUTSIDE:
                fallback[r] = True
                is_open = 0
            masks[r, a] = is_open


@jit
def _signals(before: np.ndarray, tick: np.ndarray, outcome: np.ndarray, inventory: np.ndarray, kept: np.ndarray,
             turns: np.ndarray, max_turns: int, stone_kinds: np.ndarray, reward: np.ndarray, terminated: np.ndarray,
             truncated: np.ndarray, fallback: np.ndarray) -> None:
    """rewards.user_reward of the events the state's change tells; RLGame's terminated and truncated."""
    for r in range(tick.shape[0]):
        if kept[r] or before[r, B_KEPT]:
            fallback[r] = True
            continue
        seconds = (tick[r] - before[r, B_TICK]) / TICKS_PER_SECOND
        value = -PER_SECOND * seconds
        stones = 0
        for kind in range(inventory.shape[1]):
            if stone_kinds[kind] and inventory[r, kind]:
                stones += 1
        for _ in range(stones - before[r, B_STONES]):
            value += STONE
        if not before[r, B_OUTCOME]:
            if outcome[r] == ESCAPED:
                value += ESCAPE
            elif outcome[r] == DEATH:
                value -= CATCH
        reward[r] = value
        terminated[r] = outcome[r] != 0
        truncated[r] = outcome[r] == 0 and turns[r] >= max_turns
