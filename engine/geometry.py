"""Directions, distances, compass words and line-of-sight tables.

Positions are plain ``(x, y, z)`` tuples of ints inside the engine: x grows
EAST, y grows NORTH, z grows UP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from .constants import LEVEL_STEPS, MINOTAUR_SIGHT

Pos = tuple[int, int, int]


def pos_of(cell: Mapping[str, int]) -> Pos:
    """A cell of the wire's plain data (``{"x": ..., "y": ..., "z": ...}``, as an observation's fields
    and its JSON give it) as a position."""
    return cell["x"], cell["y"], cell["z"]


def place_words(pos: Sequence[int]) -> str:
    """A cell as every text of the game names a place (the status bar, look mode, travel, the lessons, the
    Memory screen): 'x 200 y 196 level 100'."""
    return f"x {pos[0]} y {pos[1]} level {pos[2]}"


def cell_of(pos: Pos) -> dict[str, int]:
    """A position as the wire's plain data gives a cell: ``pos_of``'s inverse."""
    return {"x": pos[0], "y": pos[1], "z": pos[2]}

# A cell as one int, for the searches' inner loops (an int hashes and compares at a fraction of a
# tuple's cost): x, y and z packed so that ids order exactly as their (x, y, z) tuples do, which
# keeps the searches' tie-breaks, and so their paths, as they were.
Y_SHIFT, X_SHIFT = 8, 17  # z < 256, y < 512 (constants.WORLD_LEVELS, WORLD_SIZE)


def cell_id(pos: Pos) -> int:
    return (pos[0] << X_SHIFT) | (pos[1] << Y_SHIFT) | pos[2]


def id_pos(cid: int) -> Pos:
    return cid >> X_SHIFT, (cid >> Y_SHIFT) & 511, cid & 255


HORIZONTAL: dict[str, tuple[int, int]] = {
    "NORTH": (0, 1),
    "SOUTH": (0, -1),
    "EAST": (1, 0),
    "WEST": (-1, 0),
}
# Each horizontal direction's opposite: the way back.
OPPOSITE: dict[str, str] = {way: next(back for back, step in HORIZONTAL.items() if step == (-dx, -dy))
                            for way, (dx, dy) in HORIZONTAL.items()}
RAMP_LEVELS: dict[str, int] = {"UP RAMP": 1, "DOWN RAMP": -1}  # the levels a ramp's step climbs
# What each horizontal step adds to a cell id (a ramp's adds 1 up, -1 down).
ID_STEPS: dict[str, int] = {d: (dx << X_SHIFT) + (dy << Y_SHIFT) for d, (dx, dy) in HORIZONTAL.items()}

# For each horizontal direction, the two across it: where a side passage opens (a run stops there).
SIDEWAYS: dict[str, tuple[str, str]] = {
    "NORTH": ("EAST", "WEST"), "SOUTH": ("EAST", "WEST"), "EAST": ("NORTH", "SOUTH"), "WEST": ("NORTH", "SOUTH"),
}

# The eight compass words, counter-clockwise from east (a bearing's angle is its index x 45 degrees).
COMPASS = ("EAST", "NORTH-EAST", "NORTH", "NORTH-WEST", "WEST", "SOUTH-WEST", "SOUTH", "SOUTH-EAST")
# Each compass word's step on a level: "NORTH-EAST" is a step north and one east.
COMPASS_STEPS: dict[str, tuple[int, int]] = {
    word: (sum(HORIZONTAL[w][0] for w in word.split("-")), sum(HORIZONTAL[w][1] for w in word.split("-")))
    for word in COMPASS}
# compass's sectors of 45 degrees centred on the eight words, in integer maths: tan(22.5 deg) ~ 0.4142 ~ 29/70,
# so a component under TAN_NUM / TAN_DEN of the other does not count.
TAN_NUM, TAN_DEN = 29, 70


def manhattan(a: Pos, b: Pos) -> int:
    """Steps apart along the axes, a level counting as one step: a lower bound of a walk between them."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])


def reckoned_steps(a: Pos, b: Pos) -> int:
    """Steps apart as a player reckons them, a level counting as four (a ramp is rarely near): how far the
    built-in user keeps from a threat, and how near a lesson's evidence finds a lantern or a jump's flight."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + 4 * abs(a[2] - b[2])


def distance_sq(a: Pos, b: Pos) -> int:
    """Squared 3-D distance in steps; a level counts as two steps (5 m)."""
    dz = (a[2] - b[2]) * LEVEL_STEPS
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + dz * dz


def compass(dx: int, dy: int) -> str | None:
    """The 8-point compass word for a horizontal offset, None for (0, 0)."""
    if dx == 0 and dy == 0:
        return None
    ax, ay = abs(dx), abs(dy)
    if ay * TAN_DEN < ax * TAN_NUM:
        return "EAST" if dx > 0 else "WEST"
    if ax * TAN_DEN < ay * TAN_NUM:
        return "NORTH" if dy > 0 else "SOUTH"
    return ("NORTH" if dy > 0 else "SOUTH") + "-" + ("EAST" if dx > 0 else "WEST")


def direction_3d(frm: Pos, to: Pos) -> str | None:
    """Compass word from ``frm`` to ``to``, or ABOVE / BELOW when straight over or under."""
    word = compass(to[0] - frm[0], to[1] - frm[1])
    if word is None and to[2] != frm[2]:
        return "ABOVE" if to[2] > frm[2] else "BELOW"
    return word


def _bresenham(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    cells = []
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    while True:
        cells.append((x0, y0))
        if x0 == x1 and y0 == y1:
            return cells
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


@cache
def sight_table(radius: int) -> tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]:
    """For each offset within ``radius``: the cells strictly between, as offsets.

    The line is always drawn from the lexicographically smaller end, so sight
    is symmetric: A sees B exactly when B sees A (at the same radius).
    """
    table = []
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            if dx * dx + dy * dy > radius * radius:
                continue
            if (dx, dy) >= (0, 0):
                line = _bresenham(0, 0, dx, dy)
            else:
                line = _bresenham(dx, dy, 0, 0)
            between = tuple(c for c in line if c != (0, 0) and c != (dx, dy))
            table.append((dx, dy, between))
    table.sort(key=lambda t: (t[0] * t[0] + t[1] * t[1], t[0], t[1]))
    return tuple(table)


LINES = {(dx, dy): between for dx, dy, between in sight_table(MINOTAUR_SIGHT)}  # how far any eye sees: line_clear's
