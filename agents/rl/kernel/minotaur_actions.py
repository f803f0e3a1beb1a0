"""The RL Minotaur's numbered actions as the kernel's decision rows (turn.decision_row), for a batch of rows: what
commands.py's Minotaur commands ``make`` of the Match, read off the rows instead. A plain action (WAIT, CHASE,
JUMP) is its one decision; a PATHFIND goes where its view says its target is (signals.MINOTAUR_TABLE's rule for
each command): the last noise, the last sighting, or the first lying item of a stone's name (report.observation
lists the items in the state's order), and with no target when the view knows none (the engine then refuses it
and the Minotaur waits, as it does for the env).
"""

from __future__ import annotations

import numpy as np

from labyrinth.engine import MinotaurDecision

from ..commands import COMMANDS, Command
from .jit import jit
from .minotaur_agent import DECISION
from .signals import MINOTAUR_TABLE, TO_NOISE, TO_SIGHTING, TO_STONE
from .state import NONE, StateRows
from .turn import decision_row
from .work import PATHFIND


def _made(rule: int, command: Command) -> np.ndarray:
    """A command's decision row as made without a view: a plain action's whole decision, a PATHFIND's action
    alone (its target is the row's, read by ``minotaur_decisions``)."""
    if rule in (TO_NOISE, TO_SIGHTING, TO_STONE):
        return np.array((PATHFIND, 0, 0, 0, 0), dtype=np.int64)
    decision = command.make(None)  # type: ignore[arg-type]  # a plain command's decision reads no Match
    if not isinstance(decision, MinotaurDecision):
        raise TypeError(f"the Minotaur's command {command.name} makes no MinotaurDecision")
    return decision_row(decision)


PLAIN = np.array([_made(rule, command) for command, (rule, _) in zip(COMMANDS["minotaur"], MINOTAUR_TABLE.tolist(),
                                                                     strict=True)], dtype=np.int64)


def minotaur_decisions(rows: StateRows, actions: np.ndarray) -> np.ndarray:
    """Each row's decision (n, DECISION) for its action (an index of COMMANDS["minotaur"])."""
    out = np.zeros((len(actions), DECISION), dtype=np.int64)
    _decisions(np.ascontiguousarray(actions, dtype=np.int64), rows.last_heard, rows.last_seen, rows.items,
               rows.item_count, MINOTAUR_TABLE, PLAIN, out)
    return out


@jit
def _decisions(actions: np.ndarray, last_heard: np.ndarray, last_seen: np.ndarray, items: np.ndarray,
               item_count: np.ndarray, table: np.ndarray, plain: np.ndarray, out: np.ndarray) -> None:
    for r in range(actions.shape[0]):
        a = actions[r]
        rule, kind = table[a, 0], table[a, 1]
        out[r] = plain[a]
        if rule == TO_NOISE and last_heard[r, 3] != NONE:
            out[r, 1:] = (1, last_heard[r, 0], last_heard[r, 1], last_heard[r, 2])
        elif rule == TO_SIGHTING and last_seen[r, 3] != NONE:
            out[r, 1:] = (1, last_seen[r, 0], last_seen[r, 1], last_seen[r, 2])
        elif rule == TO_STONE:
            for s in range(item_count[r]):
                if items[r, s, 0] == kind:
                    out[r, 1:] = (1, items[r, s, 1], items[r, s, 2], items[r, s, 3])
                    break
