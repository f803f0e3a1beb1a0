"""The user's training shaping (``LabyrinthEnv(shaping=True)``): terms the env adds to the
WSAP reward so that a learner is paid for progress long before its first escape. The
game's own rewards (engine/wsap/rewards.py) are never changed, and evaluation counts
them alone.

Two terms, per step:

- **New cells**: NEW_CELL_BONUS for each cell of the hunting ground the user sees for the
  first time (its perception's memory): exploring where the stones lie pays. Tiny's ground
  has 512 cells, so at most about 1, less than a stone. Cells outside the ground pay
  nothing: the labyrinth goes on beyond it, no stone lies there, and when they paid, random
  wandering earned 2 to 3 a game from them, more than two stones' worth.
- **Approach**: the change of
  ``APPROACH * (reach * stones held - walking distance to the nearest missing stone)``, where
  ``reach`` (``Shaping.reach``) is four times the ground's longer side, in steps.
  Its sum over a game telescopes to the potential's change from start to end, so no loop
  can farm it. It is not Ng et al.'s (1999) policy-invariant form, which discounts the next
  potential by the learner's gamma and ends every game at zero: the end's potential stays
  in the sum, so a stone held at the end is worth APPROACH * reach more, and the best policy
  with it may differ a little from the best without. The distance is a
  breadth-first search over the cells the user can walk (ramps included) from each stone,
  made once a game within the hunting ground and a margin around it, and capped at
  ``reach``. The learner never sees it: it must find the stones by what it perceives (the
  hums, sight), and the term only says, afterwards, whether a step brought it nearer.
"""

from __future__ import annotations

from collections import deque
from itertools import islice

from labyrinth.engine.geometry import HORIZONTAL, RAMP_LEVELS, Pos
from labyrinth.engine.items import STONES
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.world import World

from ..match.runner import Match
from ..match.side import user_map

NEW_CELL_BONUS = 0.002
APPROACH = 0.02  # a step nearer the nearest missing stone
MARGIN = 8  # cells around the hunting ground the distances cover (the user may walk out of it)


def distances(world: World, start: Pos, box: tuple[int, int, int, int, int, int]) -> dict[Pos, int]:
    """Walking steps from ``start`` to every cell of ``box`` (x0, y0, z0, x1, y1, z1, inclusive) the
    user can reach inside it; a walk is reversible, so it is also the way to ``start``."""
    x0, y0, z0, x1, y1, z1 = box
    found, frontier = {start: 0}, deque([start])
    while frontier:
        here = frontier.popleft()
        x, y, z = here
        for way in world.user_exits(here):
            dx, dy = HORIZONTAL.get(way, (0, 0))
            step = (x + dx, y + dy, z + RAMP_LEVELS.get(way, 0))
            if step not in found and x0 <= step[0] <= x1 and y0 <= step[1] <= y1 and z0 <= step[2] <= z1:
                found[step] = found[here] + 1
                frontier.append(step)
    return found


class Shaping:
    """One game's shaping terms; ``reward`` after every step gives that step's."""

    def __init__(self, match: Match) -> None:
        self.match = match
        b = PRESETS[match.preset]
        self.reach = 4 * max(b.width, b.height)  # the cap of a distance, and a stone held's worth in steps
        box = (b.x0 - MARGIN, b.y0 - MARGIN, b.z0, b.last[0] + MARGIN, b.last[1] + MARGIN, b.last[2])
        lying = dict(match.game.state.items)
        self.fields = {stone: distances(match.game.world, lying[stone], box) for stone in STONES if stone in lying}
        self.bounds = b
        self.looked = self.inside = 0  # cells of the perception's memory counted; those in the ground
        self.seen = self._seen()
        self.potential = self._potential()

    def reward(self) -> float:
        seen, potential = self._seen(), self._potential()
        shaped = NEW_CELL_BONUS * (seen - self.seen) + APPROACH * (potential - self.potential)
        self.seen, self.potential = seen, potential
        return shaped

    def _seen(self) -> int:
        """The cells of the hunting ground the user has seen, counted as the perception's memory grows."""
        seen = user_map(self.match.seats["user"]).seen
        fresh = len(seen) - self.looked
        if fresh:
            self.inside += sum(self.bounds.contains(*pos) for pos in islice(reversed(seen), fresh))
            self.looked = len(seen)
        return self.inside

    def _potential(self) -> float:
        state = self.match.game.state
        missing = [field for stone, field in self.fields.items() if stone not in state.inventory]
        nearest = min((field.get(state.user, self.reach) for field in missing), default=0)
        return self.reach * (len(STONES) - len(missing)) - min(nearest, self.reach)
