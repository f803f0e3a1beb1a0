"""Shortest paths for the Minotaur, who knows its labyrinth: A* over cells and ramps."""

from __future__ import annotations

from heapq import heappop, heappush

from .constants import PATH_BUDGET
from .geometry import Pos
from .world import World


def find_path(world: World, start: Pos, goal: Pos, budget: int = PATH_BUDGET) -> tuple[Pos, ...] | None:
    """The cells after ``start`` up to ``goal`` along a shortest Minotaur path.

    None when ``goal`` cannot be reached within ``budget`` expanded cells. Ties
    break on the cells' coordinates, so the same query always gives the same path.
    """
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
    neighbours = world.minotaur_neighbours
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
        if expanded > budget:
            return None
        cost += 1
        for nxt in neighbours(here):
            if cost < best.get(nxt, 1 << 30):
                best[nxt] = cost
                came[nxt] = here
                h = estimate(nxt)
                heappush(frontier, (cost + h, h, cost, nxt))
    return None
