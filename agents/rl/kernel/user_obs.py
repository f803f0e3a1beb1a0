"""The RL user's observation for a batch of rows (slice 6b of the design note, kernel/__init__.py): what
user_view.UserView.observe gives after UserView.update, key for key (user_view.SPACES' eleven, float32, the planes
flat as spaces.observe hands them), written into one preallocated array a key, a row each (``new_observations``).

The view's memory is user_memory.UserMemory, kept by user_memory.remember from each row's state after its turn and
from what the turn tells (turn.Told: the user's UserMoved path; the command: a LOOK hums); the observation is
written from it by user_numbers.py (every key but the planes) and user_planes.py (the window and the coarse map,
with stone_search.py's places as stone_may_lie). ``observe_turn`` is
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
from gymnasium.spaces import flatdim

from labyrinth.engine.presets import DIFFICULTIES

from ..user_view import SPACES
from .jit import jit
from .sight import near_edge
from .state import StateRows
from .turn import LOOK, Told
from .user_memory import FRESH, UserMemory, remember
from .user_numbers import NUMBER_KEYS, write_numbers
from .user_planes import write_planes
from .work import KEPT, LEFT_REGION, PLAYED, USER, pack

HARD = DIFFICULTIES.index("hard")  # the stones do not hum
KEYS = tuple(SPACES)  # the outputs' order, as ``_rows`` takes them: the planes, then the numbers
if KEYS != ("map", "memory", *NUMBER_KEYS):
    raise ImportError(f"kernel/user_obs.py writes user_view.SPACES' planes, then its numbers, not {KEYS}")


def new_observations(n: int) -> dict[str, np.ndarray]:
    """One array a key of user_view.SPACES, (n, its numbers), float32 (every key flat, the planes too): where the
    observations are written."""
    return {key: np.zeros((n, flatdim(space)), dtype=np.float32) for key, space in SPACES.items()}


def observe_turn(rows: StateRows, memory: UserMemory, commands: np.ndarray, stops: Told, why: np.ndarray,
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
    return _observe(rows, memory, started, np.zeros(n, dtype=np.int64), none, Told(n), np.zeros(n, dtype=np.int64),
                    max_turns, out)


def _observe(rows: StateRows, memory: UserMemory, asked: np.ndarray, why: np.ndarray, hummed: np.ndarray,
             stops: Told, turns: np.ndarray, max_turns: int, out: dict[str, np.ndarray]) -> np.ndarray:
    _rows(asked, why, pack(rows), rows.items, rows.kinds, rows.origin, rows.kept, hummed, stops.cells, stops.count,
          np.ascontiguousarray(turns, dtype=np.int64), max_turns, memory.ground, memory.arrays(),
          tuple(out[key] for key in KEYS))
    return why


@jit
def _rows(asked: np.ndarray, why: np.ndarray, work: np.ndarray, items: np.ndarray, kinds: np.ndarray,
          origins: np.ndarray, kept: np.ndarray, hummed: np.ndarray, stops: np.ndarray, stop_count: np.ndarray,
          turns: np.ndarray, max_turns: int, g: np.ndarray, memory: tuple, out: tuple) -> None:
    """Each asked row's memory kept and its observation written; ``why`` set where it falls back."""
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
        write_numbers(v, kinds[r], origins[r], g, turns[r] / max_turns, lying[r], hums[r], heard_at[r], sighting[r],
                      r, out[2:])
        write_planes(v, g, seen[r], trail[r], origins[r], cells[r], lying[r], sighting[r], sighted[r], places[r],
                     search[r], out[0][r], out[1][r])


