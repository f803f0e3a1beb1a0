"""The ways a step goes, numbered once for every slice of the kernel: schemas.Direction's order (the four
horizontal ways in geometry.HORIZONTAL's order, then the two ramps), which is also the order of the observations'
exits (user_view.DIRECTIONS), so a way's number indexes an exit flag as it is. Each horizontal way's step east and
north, the way back and the two across it (where a side passage stops a run) come from geometry's tables, so a
slice reads them by number instead of spelling them again."""

from __future__ import annotations

from typing import get_args

from labyrinth.engine.geometry import HORIZONTAL, RAMP_LEVELS, SIDEWAYS
from labyrinth.engine.schemas import Direction

DIRECTIONS: tuple[str, ...] = get_args(Direction)
if DIRECTIONS != (*HORIZONTAL, *RAMP_LEVELS):
    raise ImportError("the kernel numbers the ways as schemas.Direction lists them: geometry.HORIZONTAL's, then the "
                      "ramps")
UP, DOWN = DIRECTIONS.index("UP RAMP"), DIRECTIONS.index("DOWN RAMP")
DX = tuple(dx for dx, _ in HORIZONTAL.values())  # a horizontal way's step east, by its number
DY = tuple(dy for _, dy in HORIZONTAL.values())  # and north
OPPOSITE = tuple(list(HORIZONTAL.values()).index((-dx, -dy)) for dx, dy in HORIZONTAL.values())
ACROSS = tuple(tuple(DIRECTIONS.index(side) for side in SIDEWAYS[way]) for way in HORIZONTAL)  # geometry.SIDEWAYS
