"""A row's numbers as one int64 vector, the turn's working copy: what kernel/turn.py reads and changes, packed from
StateRows before a batch and written back only to the rows the kernel played (a row that falls back is handed
to the engine as it was). Each field's place is named here, from the one table FIELDS.

The lying and seen items and the Minotaur's path stay arrays of their own (StateRows.items, seen_items, path);
the seed, preset and difficulty are not in it: no turn changes them (the seed's draws are draws.py's tables).
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.items import ITEM_ORDER

from .state import StateRows

SLOTS = len(ITEM_ORDER)
# (StateRows' array, its width): the vector's fields in order.
FIELDS = (("tick", 1), ("turn", 1), ("stamina", 1), ("jump_left", 1), ("jump_started_turn", 1),
          ("jump_cooldown", 1), ("jumps", 1), ("paralysis", 1), ("stride", 1), ("searched_until", 1),
          ("patrols", 1), ("outcome", 1), ("user", 3), ("minotaur", 3), ("last_seen", 4), ("last_heard", 5),
          ("waypoint", 3), ("has_waypoint", 1), ("goal", 3), ("has_goal", 1), ("item_count", 1), ("seen_count", 1),
          ("inventory", SLOTS), ("timers", SLOTS), ("respawns", SLOTS), ("path_length", 1))
_AT = {name: sum(width for _, width in FIELDS[:i]) for i, (name, _) in enumerate(FIELDS)}
WIDTH = sum(width for _, width in FIELDS)
PATH_START = WIDTH  # the turn's own: where the path begins in its working buffer (a step taken moves it on)
TICK, TURN, STAMINA, JUMP_LEFT, JUMP_STARTED = (_AT[n] for n in ("tick", "turn", "stamina", "jump_left",
                                                                 "jump_started_turn"))
JUMP_COOLDOWN, JUMPS, PARALYSIS, STRIDE, SEARCHED = (_AT[n] for n in ("jump_cooldown", "jumps", "paralysis",
                                                                      "stride", "searched_until"))
PATROLS, OUTCOME, USER, MINOTAUR = (_AT[n] for n in ("patrols", "outcome", "user", "minotaur"))
SEEN_AT, HEARD_AT, WAYPOINT, HAS_WAYPOINT = (_AT[n] for n in ("last_seen", "last_heard", "waypoint", "has_waypoint"))
GOAL, HAS_GOAL, ITEM_COUNT, SEEN_COUNT = (_AT[n] for n in ("goal", "has_goal", "item_count", "seen_count"))
INVENTORY, TIMERS, RESPAWNS, PATH_LENGTH = (_AT[n] for n in ("inventory", "timers", "respawns", "path_length"))


def pack(rows: StateRows) -> np.ndarray:
    """Every row's vector, (n, WIDTH + 1) (the last column the turn's PATH_START)."""
    work = np.zeros((rows.user.shape[0], WIDTH + 1), dtype=np.int64)
    for name, width in FIELDS:
        at = _AT[name]
        work[:, at:at + width] = getattr(rows, name).reshape(-1, width)
    return work


def unpack(work: np.ndarray, rows: StateRows, played: np.ndarray) -> None:
    """The vectors of the rows ``played`` (a bool mask) back into ``rows``."""
    for name, width in FIELDS:
        at, held = _AT[name], getattr(rows, name)
        held[played] = work[played, at] if held.ndim == 1 else work[played, at:at + width]

# Why a row fell back (0: the kernel played its turn), by the code the turn returns: REASONS[code]. NEED_PATH is
# none: the turn stopped to ask for a path (walk.find_path), and is played again from its start once it is found.
PLAYED, KEPT, LEFT_REGION, NO_ROUTE, USED_UP, SEEN_FULL, UNPORTED, STOPS_FULL = range(8)
NEED_PATH = -1
REASONS = ("played", "kept (the row holds no state)", "left the region", "no route in the rows",
           "a table of draws used up", "seen items past their slots", "not ported", "a move's stops past their rows")

# The turn's own numbers beside the vector, a small array of its own: the Minotaur's plan (WAIT, CHASE, PATHFIND,
# JUMP: PLANS), whether it walks, whether it saw the user at the last tick, the turn's first tick, the PATHFIND
# target; and what the next tick is asked to do: how many ticks to stand, whether the user steps, where, the
# noise it makes (NOISES, -1 none); how many cells the user's move entered so far (its UserMoved event's path,
# the stops the user's view looks from); and what HAPPENED that the state's change does not tell. Passed in an
# array rather than as arguments: numba compiles a function again for each constant an argument is called with,
# and the turn's compile is most of its test's time.
PLANS = ("WAIT", "CHASE", "PATHFIND", "JUMP")
WAIT, CHASE, PATHFIND, JUMP = range(4)
T_PLAN, T_WALKS, T_SEES, T_START, T_TARGET = 0, 1, 2, 3, 4
T_TICKS, T_STEPS, T_TO, T_NOISE, T_STOPS, T_HAPPENED = 7, 8, 9, 12, 13, 14
T_WIDTH = 15
# HAPPENED: the turn's moments an achievement reads (achieved.py) that no state tells afterwards, as bits: a Temporal
# Whine sounded within VERY CLOSE range (its WhineHeard near), the Minotaur came to see the user (UserSpotted), it
# caught the user on re-entering time (UserCaught at_reentry).
WHINE_NEAR, SPOTTED, AMBUSH = 1, 2, 4
