"""Where things start and come back: the user, the Minotaur, the stones and the other items.

Maze cells (even x and y) are always open and every level is connected, so a
random maze cell of the hunting ground is always reachable: no search needed.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .constants import CENTRE
from .geometry import Pos, manhattan
from .items import ITEM_ORDER, ITEMS, STONES
from .presets import Bounds
from .rng import derived


def _maze_cells(bounds: Bounds, z: int) -> list[Pos]:
    return [(x, y, z) for y in range(bounds.y0, bounds.y0 + bounds.height, 2)
            for x in range(bounds.x0, bounds.x0 + bounds.width, 2)]


def _random_maze_cell(rng: random.Random, bounds: Bounds, z: int) -> Pos:
    return (bounds.x0 + 2 * rng.randrange(bounds.width // 2),
            bounds.y0 + 2 * rng.randrange(bounds.height // 2), z)


def user_start() -> Pos:
    """The cube's centre, which is always a maze cell."""
    return CENTRE


def minotaur_start(seed: int, bounds: Bounds, user: Pos) -> Pos:
    """A maze cell on the ground's perimeter, on the user's level, at least half
    the ground's width away (Manhattan distance, so by path too)."""
    return derived(seed, "minotaur-start").choice(_far_ring(bounds, user))


@lru_cache(maxsize=64)
def _far_ring(bounds: Bounds, user: Pos) -> tuple[Pos, ...]:
    """``minotaur_start``'s choices, the same for every game of a ground (the user starts at the
    centre): found once, not in every new game (an RL environment starts dozens a second). The ring's
    cells are listed row by row, as ``_maze_cells`` lists them, without walking the ground's inside:
    on ``full`` that walk was most of a new game's time."""
    xs = range(bounds.x0, bounds.x0 + bounds.width, 2)
    sides = [x for x in xs if x in (bounds.x0, bounds.x0 + bounds.width - 2)]
    edges = (bounds.y0, bounds.y0 + bounds.height - 2)
    ring = [(x, y, user[2]) for y in range(bounds.y0, bounds.y0 + bounds.height, 2)
            for x in (xs if y in edges else sides)]
    return tuple(p for p in ring if manhattan(p, user) >= bounds.width // 2)


def place_stones(seed: int, bounds: Bounds, user: Pos, taken: set[Pos]) -> list[tuple[str, Pos]]:
    """The stones: on different levels when there are as many levels as stones, as far
    apart (from each other and the start) as a few draws allow, never on ``taken``."""
    rng = derived(seed, "stones")
    levels = list(bounds.z_range)
    if len(levels) >= len(STONES):
        chosen = rng.sample(levels, len(STONES))
    else:
        chosen = [rng.choice(levels) for _ in STONES]
    wanted = max(4, bounds.width // 4)
    placed: list[tuple[str, Pos]] = []
    for name, z in zip(STONES, chosen):
        best: Pos | None = None
        best_gap = -1
        for _ in range(64):
            cand = _random_maze_cell(rng, bounds, z)
            if cand in taken or any(cand == p for _, p in placed):
                continue
            gap = min([manhattan(cand, user)] + [manhattan(cand, p) for _, p in placed])
            if gap > best_gap:
                best, best_gap = cand, gap
            if gap >= wanted:
                break
        if best is None:  # 64 draws all taken: only on a ground of a handful of cells
            best = next(p for p in _maze_cells(bounds, z) if p not in taken and all(p != q for _, q in placed))
        placed.append((name, best))
    return placed


def place_near_start(seed: int, word: str, bounds: Bounds, user: Pos, taken: set[Pos]) -> Pos:
    """The first of an item that is not a stone (the lantern), drawn by the item's ``word``: on the user's
    level, a walk away but findable."""
    rng = derived(seed, word, 0)
    near, far = max(3, bounds.width // 8), max(6, bounds.width // 2)
    for _ in range(256):
        cand = _random_maze_cell(rng, bounds, user[2])
        if near <= manhattan(cand, user) <= far and cand not in taken:
            return cand
    return next(p for p in _maze_cells(bounds, user[2]) if p not in taken and p != user)


def place_items(seed: int, bounds: Bounds, user: Pos, minotaur: Pos) -> tuple[tuple[str, Pos], ...]:
    """Every item lying at the start, in ITEM_ORDER: the stones, then each other item clear of what lies
    before it."""
    placed = place_stones(seed, bounds, user, {user, minotaur})
    for item in ITEMS:
        if not item.needed:
            taken = {pos for _, pos in placed} | {user, minotaur}
            placed.append((item.name, place_near_start(seed, item.word, bounds, user, taken)))
    return tuple(sorted(placed, key=lambda item: ITEM_ORDER.index(item[0])))


def respawn_item(seed: int, word: str, count: int, bounds: Bounds, user: Pos, sight: int, taken: set[Pos]) -> Pos:
    """The ``count``-th new one of an item (drawn by its ``word``) on a random maze cell of the ground, out of
    the user's ``sight``."""
    rng = derived(seed, word, count)
    levels = list(bounds.z_range)
    while True:
        cand = _random_maze_cell(rng, bounds, rng.choice(levels))
        out_of_sight = cand[2] != user[2] or (cand[0] - user[0]) ** 2 + (cand[1] - user[1]) ** 2 > sight ** 2
        if out_of_sight and cand not in taken:
            return cand
