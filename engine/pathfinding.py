"""Paths for the Minotaur, who knows its labyrinth: A* over cells and ramps.

Near targets get an exact shortest path. A far one (many levels or a wide
ground away, where an exact search could expand hundreds of thousands of
cells) gets the shortest path inside a corridor of chunks that is known to
join the two cells (chunk_route.py). Every Minotaur-open cell of the cube is
reachable from every other, so every such target is pathed, at a cost in
proportion to its distance.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappop, heappush

from .cells import MINOTAUR_OPEN
from .chunk_route import corridor
from .constants import EXACT_REACH_LEVELS, EXACT_REACH_STEPS, PATH_BUDGET, ROUTES_CACHE
from .geometry import X_SHIFT, Y_SHIFT, Pos, cell_id, id_pos
from .world import ChunkKey, World


def find_path(world: World, start: Pos, goal: Pos) -> tuple[Pos, ...]:
    """The cells after ``start`` up to ``goal`` along the Minotaur's path.

    Shortest when ``goal`` is within the exact search's reach (EXACT_REACH_*,
    PATH_BUDGET), else the shortest inside the corridor. The same query gives
    the same path in any process: ties break on the cells' coordinates.
    ValueError when either end is not a cell the Minotaur can stand in.
    """
    known = world.routes.get((start, goal))
    if known is not None:  # asked before in this labyrinth: the search would find it again
        return known
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
    if len(world.routes) >= ROUTES_CACHE:
        world.routes.clear()
    world.routes[start, goal] = path
    return path


def _search(world: World, start: Pos, goal: Pos, budget: int | None,
            inside: frozenset[ChunkKey] | None) -> tuple[Pos, ...] | None:
    """A* from ``start`` to ``goal``: None after expanding ``budget`` cells (when
    given) or when the cells of the chunks ``inside`` (when given) do not join them.

    The estimate of a cell's distance to the goal counts each level as one ramp step,
    and consecutive ramps of one direction lie in neighbouring chunks, at least two
    steps apart: dz + max(dx + dy, 2 dz - 2), admissible. It is written out in the
    loop, which every search spends its time in, over cell ids (geometry.cell_id: they
    hash faster than tuples, and order as the cells do, so ties break as on the cells).
    The frontier holds (f, h, id): the cost so far is f - h."""
    if start == goal:
        return ()
    first, last = cell_id(start), cell_id(goal)
    gx, gy, gz = goal
    dz = abs(start[2] - gz)
    h0 = dz + max(abs(start[0] - gx) + abs(start[1] - gy), 2 * dz - 2)
    best = {first: 0}
    came: dict[int, int] = {}
    frontier = [(h0, h0, first)]
    known_moves: Callable[[int], tuple[int, ...] | None]
    neighbours: Callable[[int], tuple[int, ...]]
    if inside is None:  # the moves known already are read straight from the world's table
        known_moves, neighbours = world.known_moves.get, world.minotaur_moves
    else:
        table, neighbours = world.moves_within(inside)
        known_moves = table.get
    known, pop, push = best.get, heappop, heappush
    expanded, limit = 0, budget if budget is not None else -1
    while frontier:
        f, h, here = pop(frontier)
        if here == last:
            path = [here]
            while (here := came[here]) != first:
                path.append(here)
            return tuple(map(id_pos, reversed(path)))
        cost = f - h
        if cost > best[here]:
            continue
        expanded += 1
        if expanded > limit >= 0:
            return None
        cost += 1
        for nxt in known_moves(here) or neighbours(here):
            if cost < known(nxt, 1 << 30):
                best[nxt] = cost
                came[nxt] = here
                x, y, z = nxt >> X_SHIFT, (nxt >> Y_SHIFT) & 511, nxt & 255
                dz = z - gz if z >= gz else gz - z
                dh = (x - gx if x >= gx else gx - x) + (y - gy if y >= gy else gy - y)
                h = dz + (dh if dh >= 2 * dz - 2 else 2 * dz - 2)  # noqa: FURB136 - max() costs a call here
                push(frontier, (cost + h, h, nxt))
    return None
