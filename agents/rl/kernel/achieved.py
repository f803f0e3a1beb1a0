"""The achievements a turn earns (engine/wsap/achievements.py), for a batch of rows: read off each row's change, as
signals.py reads the reward, and, for the three moments a row's change does not tell, off the flags the turn
raises as they happen (work.HAPPENED: a Temporal Whine sounded within VERY CLOSE range, the Minotaur came to see
the user, it caught the user on re-entering time).

The user's: a stone more held (first_stone; two_stones once two or more are held), the outcome come to ESCAPED, a
lantern more held (lantern_found) or one fewer (lantern_paralysis: only a USE takes it from the inventory), a
near whine in a turn that did not end in the catch (whine_survivor). The Minotaur's: spotted (the flag), heard
(last_heard's tick moved: only a tick that hears writes it), time_leap (a jump more), caught (the outcome come to
DEATH), reentry_ambush (the flag).
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine.items import ITEM_ORDER, LANTERN
from labyrinth.engine.wsap.roles import ROLES

from .items import NEEDED
from .state import DEATH, ESCAPED, StateRows
from .work import AMBUSH, SPOTTED, WHINE_NEAR

_LANTERN = ITEM_ORDER.index(LANTERN.name)
# before()'s columns
STONES_HELD, LANTERNS, OUTCOME, JUMPS, HEARD_TICK = range(5)
# The achievements ``unlocked`` reads, by role: one more in the engine's tables fails the import until it does.
READ = {"user": {"first_stone", "two_stones", "escaped", "lantern_found", "lantern_paralysis", "whine_survivor"},
        "minotaur": {"spotted", "heard", "time_leap", "caught", "reentry_ambush"}}
if any(set(ROLES[role].achievements) != names for role, names in READ.items()):
    raise ImportError("engine/wsap/achievements.py changed: kernel/achieved.py reads the old achievements")


def before(rows: StateRows) -> np.ndarray:
    """What ``unlocked`` needs of each row before its turn, (n, 5) int64 (the columns above)."""
    return np.stack([rows.inventory[:, NEEDED].sum(axis=1), rows.inventory[:, _LANTERN], rows.outcome,
                     rows.jumps, rows.last_heard[:, 3]], axis=1)


def unlocked(role: str, was: np.ndarray, rows: StateRows, happened: np.ndarray) -> np.ndarray:
    """Each row's achievements of ``role`` earned by its turn, (n, len(ROLES[role].achievements)) bool, in that
    table's order; ``was``: ``before`` the turn, ``happened``: the turn's flags (work.HAPPENED)."""
    caught = (rows.outcome == DEATH) & (was[:, OUTCOME] != DEATH)
    if role == "user":
        stones = rows.inventory[:, NEEDED].sum(axis=1)
        grabbed = stones > was[:, STONES_HELD]
        earned = {"first_stone": grabbed, "two_stones": grabbed & (stones >= 2),
                  "escaped": (rows.outcome == ESCAPED) & (was[:, OUTCOME] != ESCAPED),
                  "lantern_found": rows.inventory[:, _LANTERN] > was[:, LANTERNS],
                  "lantern_paralysis": rows.inventory[:, _LANTERN] < was[:, LANTERNS],
                  "whine_survivor": (happened & WHINE_NEAR != 0) & ~caught}
    else:
        earned = {"spotted": happened & SPOTTED != 0, "heard": rows.last_heard[:, 3] != was[:, HEARD_TICK],
                  "time_leap": rows.jumps > was[:, JUMPS], "caught": caught,
                  "reentry_ambush": happened & AMBUSH != 0}
    return np.stack([earned[name] for name in ROLES[role].achievements], axis=1)
