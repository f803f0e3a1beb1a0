"""The Minotaur's rules: which decisions are allowed, and where it goes each tick.

Its decision holds for the whole turn. CHASE re-aims every step at its best
knowledge of the user; PATHFIND follows a shortest path to fixed coordinates.
The current path lives in the state (``goal``, ``path``), so a game restored
mid-chase moves exactly as the original would.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from .cells import CRAWLWAY, MINOTAUR_OPEN, ROCK
from .constants import (
    MINOTAUR_PACE,
    MINOTAUR_SEEING_PACE,
    PATROL_REACH,
    QUARTERS,
    TICKS_PER_SECOND,
)
from .geometry import HORIZONTAL, Pos, cell_id, manhattan
from .items import ITEM
from .pathfinding import find_path
from .presets import PRESETS
from .rng import derived
from .schemas import MinotaurDecision
from .state import GameState
from .world import World

# A plan is the decision as the rules let it stand: ("WAIT",), ("CHASE",),
# ("JUMP",) or ("PATHFIND", target).
Plan = tuple[Literal["WAIT", "CHASE", "JUMP"]] | tuple[Literal["PATHFIND"], Pos]


def plan_for(world: World, state: GameState, decision: MinotaurDecision) -> tuple[Plan, str | None]:
    """The plan the rules allow for ``decision``, and why it was refused (None if not).

    A PATHFIND's route is found here, once, and kept in ``state`` (the turn's working copy).
    """
    action = decision.action
    if action == "JUMP":
        if state.paralysis:
            return ("WAIT",), "JUMP refused: the Minotaur is paralyzed by the lantern"
        if state.jump_left:
            return ("WAIT",), "JUMP refused: the Minotaur is already out of time"
        if state.jump_cooldown:
            left = state.jump_cooldown / TICKS_PER_SECOND
            return ("WAIT",), f"JUMP refused: the cooldown has {left:g} s left"
        return ("JUMP",), None
    if action == "PATHFIND":
        c = decision.target_coords
        if c is None:
            return ("WAIT",), "PATHFIND refused: it needs target_coords {x, y, z}"
        target = (c.x, c.y, c.z)
        kind = world.cell(*target)
        if kind == ROCK:
            return ("WAIT",), f"PATHFIND refused: {target} is solid rock or outside the cube"
        if kind == CRAWLWAY:
            return ("WAIT",), f"PATHFIND refused: {target} is a crawlway, too low for the Minotaur"
        if target != state.goal or not state.path:
            state.goal, state.path = target, find_path(world, state.minotaur, target)
        return ("PATHFIND", target), None
    return (action,), None


def next_cell(world: World, state: GameState, plan: Plan, sees_user: bool) -> Pos | None:
    """Advance a walking (CHASE or PATHFIND) Minotaur's stride by one tick; the cell it steps into now, if any.

    Mutates ``state`` (the turn's working copy): stride, path, knowledge spent,
    patrol waypoints.
    """
    state.stride += MINOTAUR_SEEING_PACE if sees_user else MINOTAUR_PACE
    if state.stride < QUARTERS:
        return None
    state.stride -= QUARTERS
    goal = plan[1] if plan[0] == "PATHFIND" else _chase_goal(world, state, sees_user)
    if goal is None or goal == state.minotaur:
        return None
    if goal != state.goal or not state.path:
        state.path = _route(world, state, goal)
        state.goal = goal
    step, state.path = state.path[0], state.path[1:]
    return step


def routes_ahead(world: World, state: GameState) -> Iterator[Pos]:
    """The Minotaur's routes to where a hunter goes first, found ahead of need, one per step of this
    generator: to each stone still lying, and (before its first patrol) to where CHASE patrols first.
    The first search of a wide labyrinth builds the hundreds of chunks it crosses (about 80 ms on
    ``full``: the first key's turn, five times any other's); a front with idle time (the TUI, while
    the opening is read) runs a step between frames. Only caches fill: a route is a function of the
    labyrinth alone (world.routes), so no game changes. Yields each goal whose route is known."""
    start = state.minotaur
    goals = [where for name, where in state.items if ITEM[name].needed]
    if state.patrols == 0:
        goals.append(patrol_waypoint(state))
    for goal in goals:
        if goal != start and world.cell(*goal) in MINOTAUR_OPEN and world.cell(*start) in MINOTAUR_OPEN:
            find_path(world, start, goal)
            yield goal


def _route(world: World, state: GameState, goal: Pos) -> tuple[Pos, ...]:
    """The path to ``goal``: the current one bent by a step when the goal moved
    by one cell (a fleeing user), else a fresh shortest path."""
    path, here = state.path, state.minotaur
    if goal in path:
        return path[: path.index(goal) + 1]
    end = path[-1] if path else here
    reach = manhattan(here, goal)
    if cell_id(goal) in world.minotaur_moves(cell_id(end)) and len(path) < 2 * reach + 6:
        return (*path, goal)
    return find_path(world, here, goal)


def _chase_goal(world: World, state: GameState, sees_user: bool) -> Pos | None:
    """CHASE: the user if seen, else the freshest unexplored noise or sighting,
    else the next patrol waypoint."""
    if sees_user:
        return _standable(world, state.user, state.minotaur)
    clues = []
    if state.last_heard and state.last_heard[1] > state.searched_until:
        clues.append((state.last_heard[1], state.last_heard[0]))
    if state.last_seen and state.last_seen[1] > state.searched_until:
        clues.append((state.last_seen[1], state.last_seen[0]))
    if clues:
        tick, where = max(clues)
        goal = _standable(world, where, state.minotaur)
        if goal != state.minotaur:
            return goal
        state.searched_until = tick  # nothing here: that clue is spent
    if state.waypoint is None or state.waypoint == state.minotaur:
        state.waypoint = patrol_waypoint(state)
        state.patrols += 1
    return state.waypoint


def _standable(world: World, pos: Pos, frm: Pos) -> Pos:
    """``pos``, or when it is a crawlway the open cell beside it nearest to ``frm``."""
    if world.cell(*pos) != CRAWLWAY:
        return pos
    x, y, z = pos
    sides = [(x + dx, y + dy, z) for dx, dy in HORIZONTAL.values() if world.cell(x + dx, y + dy, z) in MINOTAUR_OPEN]
    if not sides:
        return frm
    return min(sides, key=lambda p: (manhattan(p, frm), p))


def patrol_waypoint(state: GameState) -> Pos:
    """Patrol: first the hunting ground's centre, then random maze cells of the
    ground near where the Minotaur stands (so a path is always short to find)."""
    b = PRESETS[state.preset]
    if state.patrols == 0:
        return (b.x0 + b.width // 2, b.y0 + b.height // 2, b.z0 + b.levels // 2)
    rng = derived(state.seed, "patrol", state.patrols)
    x, y, z = state.minotaur

    def near(value: int, low: int, size: int, reach: int) -> int:
        return rng.randint(max(low, value - reach), min(low + size - 1, value + reach))

    return (near(x, b.x0, b.width, PATROL_REACH) & ~1, near(y, b.y0, b.height, PATROL_REACH) & ~1,
            near(z, b.z0, b.levels, 1))
