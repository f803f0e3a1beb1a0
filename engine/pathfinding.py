"""Paths for the Minotaur, who knows its labyrinth: A* over cells and ramps.

Near targets get an exact shortest path. A far one (many levels or a wide
ground away, where an exact search could expand hundreds of thousands of
cells) gets the shortest path inside a corridor of chunks that is known to
join the two cells (chunk_route.py). Every Minotaur-open cell of the cube is
reachable from every other, so every such target is pathed, at a cost in
proportion to its distance.
"""

from __future__ import annotations

from heapq import heappop, heappush

from .cells import MINOTAUR_OPEN
from .chunk_route import corridor
from .constants import EXACT_REACH_LEVELS, EXACT_REACH_STEPS, PATH_BUDGET
from .geometry import Pos
from .world import ChunkKey, World


def find_path(world: World, start: Pos, goal: Pos) -> tuple[Pos, ...]:
    """The cells after ``start`` up to ``goal`` along the Minotaur's path.

    Shortest when ``goal`` is within the exact search's reach (EXACT_REACH_*,
    PATH_BUDGET), else the shortest inside the corridor. The same query gives
    the same path in any process: ties break on the cells' coordinates.
    ValueError when either end is not a cell the Minotaur can stand in.
    """
    for end in (start, goal):
        if world.cell(*end) not in MINOTAUR_OPEN:
            raise ValueError(f"{end} is rock, a crawlway or outside the cube: the Minotaur cannot stand there")
    near = (abs(start[2] - goal[2]) <= EXACT_REACH_LEVELS
            and abs(start[0] - goal[0]) + abs(start[1] - goal[1]) <= EXACT_REACH_STEPS)
    path = _search(world, start, goal, PATH_BUDGET, None) if near else None
    if path is None:
        path = _search(world, start, goal, None, corridor(start, goal))
    if path is None:  # the maze's guarantees (maze.py) rule this out
        raise ValueError(f"the corridor from {start} to {goal} holds no path: the maze is broken")
    return path


def _search(world: World, start: Pos, goal: Pos, budget: int | None,
            inside: frozenset[ChunkKey] | None) -> tuple[Pos, ...] | None:
    """A* from ``start`` to ``goal``: None after expanding ``budget`` cells (when
    given) or when the cells of the chunks ``inside`` (when given) do not join them."""
    if start == goal:
        return ()
    gx, gy, gz = goal

    def estimate(p: Pos) -> int:
        # Each level is one ramp step, and consecutive ramps of one direction
        # lie in neighbouring chunks, at least two steps apart: admissible.
        dz = abs(p[2] - gz)
        return dz + max(abs(p[0] - gx) + abs(p[1] - gy), 2 * dz - 2)

    best = {start: 0}
    came: dict[Pos, Pos] = {}
    h0 = estimate(start)
    frontier = [(h0, h0, 0, start)]
    if inside is None:
        neighbours = world.minotaur_neighbours
    else:
        def neighbours(p: Pos, within=world.minotaur_neighbours_within) -> tuple[Pos, ...]:
            return within(p, inside)
    expanded = 0
    while frontier:
        _, _, cost, here = heappop(frontier)
        if here == goal:
            path = [here]
            while (here := came[here]) != start:
                path.append(here)
            return tuple(reversed(path))
        if cost > best[here]:
            continue
        expanded += 1
        if budget is not None and expanded > budget:
            return None
        cost += 1
        for nxt in neighbours(here):
            if cost < best.get(nxt, 1 << 30):
                best[nxt] = cost
                came[nxt] = here
                h = estimate(nxt)
                heappush(frontier, (cost + h, h, cost, nxt))
    return None
