"""PATHFIND's search: valid paths, as short as a breadth-first search wherever
that is affordable, and a path to every reachable cell of the full cube."""

from collections import deque
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from labyrinth.engine.cells import MINOTAUR_OPEN
from labyrinth.engine.chunk_route import chunk_walk
from labyrinth.engine.constants import CHUNKS_PER_SIDE, WORLD_LEVELS
from labyrinth.engine.maze import has_ramp_up
from labyrinth.engine.pathfinding import find_path
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.world import World

from ..scenes import CHASE, halt, scene

FAR = (176, 176, 98)  # the user, out of the Minotaur's senses


def bfs_length(world: World, start, goal) -> int:
    """The length of a shortest Minotaur path by plain breadth-first search."""
    seen, frontier = {start: 0}, deque([start])
    while frontier:
        here = frontier.popleft()
        if here == goal:
            return seen[here]
        for nxt in world.minotaur_neighbours(here):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                frontier.append(nxt)
    raise AssertionError(f"{goal} unreachable from {start}")


def assert_walkable(world: World, start, goal, path) -> None:
    assert path is not None, f"no path from {start} to {goal}"
    assert (path[-1] if path else start) == goal
    for a, b in zip((start, *path), path):
        assert b in world.minotaur_neighbours(a), f"{a} -> {b} is not a Minotaur step"


def open_cell(world: World, preset: str, draw) -> tuple[int, int, int]:
    """A Minotaur-open cell of the preset's ground, drawn by hypothesis."""
    b = PRESETS[preset]
    while True:
        cell = (draw(st.integers(b.x0, b.x0 + b.width - 1)), draw(st.integers(b.y0, b.y0 + b.height - 1)),
                draw(st.sampled_from(list(b.z_range))))
        if world.cell(*cell) in MINOTAUR_OPEN:
            return cell


_WORLDS: dict[int, World] = {}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 6), preset=st.sampled_from(["tiny", "small", "standard"]), data=st.data())
def test_a_path_is_valid_and_as_short_as_breadth_first_search(seed, preset, data):
    world = _WORLDS.setdefault(seed, World(seed))
    start, goal = open_cell(world, preset, data.draw), open_cell(world, preset, data.draw)
    path = find_path(world, start, goal)
    assert_walkable(world, start, goal, path)
    assert len(path) == bfs_length(world, start, goal)


# No shrinking: every example crosses the cube, and any failing one says what it is.
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])
@given(seed=st.integers(1, 1000), data=st.data())
@pytest.mark.slow
def test_every_open_cell_of_the_full_cube_is_pathed(seed, data):
    world = World(seed)
    start, goal = open_cell(world, "full", data.draw), open_cell(world, "full", data.draw)
    assert_walkable(world, start, goal, find_path(world, start, goal))


def test_the_far_target_the_audit_named_is_pathed_and_walked():
    game = scene(preset="full", user=FAR, minotaur=(2, 2, 0))
    result = game.step(halt(10), {"action": "PATHFIND", "target_coords": {"x": 200, "y": 200, "z": 100}})
    assert "refused" not in result.observation.message
    assert game.state.minotaur != (2, 2, 0) and game.state.path[-1] == (200, 200, 100)


def test_the_same_query_gives_the_same_path_in_a_fresh_world():
    start, goal = (200, 200, 100), (2, 2, 0)
    assert find_path(World(5), start, goal) == find_path(World(5), start, goal)


@pytest.mark.parametrize("cache_cells", [100_000, 500])
def test_what_one_search_remembers_leaves_the_next_ones_paths_as_in_a_fresh_world(monkeypatch, cache_cells):
    """The searches before a query (near ones fill the world's table of moves, far ones generate chunks)
    and the table starting afresh when full leave its path as in a fresh world: overlapping queries in turn."""
    from labyrinth.engine import world as world_module

    monkeypatch.setattr(world_module, "MOVES_CACHE_CELLS", cache_cells)
    queries = [((200, 200, 100), (2, 2, 0)), ((190, 180, 96), (10, 30, 4)), ((200, 200, 100), (120, 150, 70)),
               ((40, 40, 10), (200, 200, 100)), ((60, 52, 14), (30, 30, 8))]
    world = World(5)
    for start, goal in queries:
        assert find_path(world, start, goal) == find_path(World(5), start, goal), (start, goal)


def test_chase_keeps_a_clue_that_lies_far_away():
    # A sighting 30 levels up, from before a long PATHFIND took the Minotaur away.
    game = scene(preset="full", user=FAR, minotaur=(200, 200, 100))
    world = game.world
    seen = next((x, y, 130) for y in range(200, 260, 2) for x in range(200, 260, 2)
                if world.cell(x, y, 130) in MINOTAUR_OPEN)
    game.state.last_seen = (seen, 0)
    game.step(halt(4), CHASE)
    assert game.state.goal == seen and game.state.searched_until == -1
    assert game.state.minotaur != (200, 200, 100)


def test_a_far_target_is_searched_once_however_many_turns_walk_to_it(monkeypatch):
    from labyrinth.engine import minotaur

    searches = []

    def counted(world, start, goal):
        searches.append(goal)
        return find_path(world, start, goal)

    monkeypatch.setattr(minotaur, "find_path", counted)
    game = scene(preset="full", user=FAR, minotaur=(200, 200, 100))
    far = {"action": "PATHFIND", "target_coords": {"x": 2, "y": 2, "z": 0}}
    rock = {"action": "PATHFIND", "target_coords": {"x": 201, "y": 201, "z": 100}}
    for _ in range(4):
        assert "refused" not in game.step(halt(3), far).observation.message
        assert "solid rock" in game.step(halt(1), rock).observation.message
    assert searches == [(2, 2, 0)]


chunks = st.tuples(st.integers(0, CHUNKS_PER_SIDE - 1), st.integers(0, CHUNKS_PER_SIDE - 1),
                   st.integers(0, WORLD_LEVELS - 1))


@given(start=chunks, goal=chunks)
def test_the_chunk_walk_moves_to_a_neighbour_or_through_a_ramp_each_time(start, goal):
    walk = chunk_walk(start, goal)
    assert walk[0] == start and walk[-1] == goal
    for (ax, ay, az), (bx, by, bz) in pairwise(walk):
        assert 0 <= bx < CHUNKS_PER_SIDE and 0 <= by < CHUNKS_PER_SIDE
        if az == bz:
            assert abs(ax - bx) + abs(ay - by) == 1
        else:
            assert (ax, ay) == (bx, by) and has_ramp_up(ax, ay, min(az, bz))
    dz = abs(start[2] - goal[2])
    assert len(walk) - 1 <= 2 * dz + abs(start[0] - goal[0]) + abs(start[1] - goal[1]) + 1
