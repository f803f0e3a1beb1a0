"""The kernel's A* (agents/rl/kernel/astar.py) against the engine's find_path, which is the rules: the same
path cell for cell on the tiny and small grounds, their margins and targets many levels away, alone and in a
batch, with the engine's caches cold and warm; and LEFT_REGION only where the engine's own search leaves the
region. The exact search's budget (PATH_BUDGET) is not spent on these grounds: one query across a large ground
spends it."""

from functools import cache

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from labyrinth.engine import pathfinding
from labyrinth.engine.cells import MINOTAUR_OPEN, ROCK
from labyrinth.engine.chunk_route import corridor
from labyrinth.engine.constants import CHUNK, CHUNKS_PER_SIDE, EXACT_REACH_LEVELS, PATH_BUDGET
from labyrinth.engine.pathfinding import find_path
from labyrinth.engine.presets import PRESETS, Bounds
from labyrinth.engine.world import World

pytest.importorskip("numba", reason="the kernel is compiled by numba, the [fast] extra: `pip install -e '.[fast]'`")

from labyrinth.agents.rl.kernel.astar import LEFT_REGION, NOT_OPEN, TOO_LONG, find_paths, path_in
from labyrinth.agents.rl.kernel.region import MARGIN_LEVELS, Region, around, region_of

# numba compiles the kernel once per process (10 to 20 s without its disk cache, as on a fresh CI machine):
# on one worker, the module's tests pay it once.
pytestmark = pytest.mark.xdist_group("kernel")
TALL = 12  # levels above and below the ground in the region of the far queries: beyond EXACT_REACH_LEVELS
seeds = st.integers(0, 2**32 - 1)
presets = st.sampled_from(["tiny", "small"])


@cache
def world(seed: int) -> World:
    """One World per seed for the whole module: its caches (routes, moves, chunks) warm up across examples."""
    return World(seed)


@cache
def region(seed: int, preset: str, levels: int = MARGIN_LEVELS) -> Region:
    return region_of(world(seed), around(PRESETS[preset], levels=levels))


def open_cells(reg: Region, box: Bounds, inside: bool) -> np.ndarray:
    """The Minotaur-open cells of the region inside ``box`` (or, with ``inside`` False, outside it), (x, y, z)
    rows in (z, y, x) order."""
    x0, y0, z0 = reg.origin
    levels, rows, cols = reg.kinds.shape
    z, y, x = np.ogrid[z0:z0 + levels, y0:y0 + rows, x0:x0 + cols]
    within = ((box.x0 <= x) & (x < box.x0 + box.width) & (box.y0 <= y) & (y < box.y0 + box.height)
              & (box.z0 <= z) & (z < box.z0 + box.levels))
    found = np.argwhere(np.isin(reg.kinds, list(MINOTAUR_OPEN)) & (within == inside))
    return found[:, ::-1] + reg.origin


def cell_in(cells: np.ndarray) -> st.SearchStrategy[tuple[int, int, int]]:
    """One row of ``cells`` as a position."""
    return st.integers(0, len(cells) - 1).map(lambda i: tuple(map(int, cells[i])))


def check(seed: int, reg: Region, start, goal) -> bool:
    """The kernel's path equals find_path's on a fresh World and on the module's warm one; False when the
    kernel leaves the question to the engine (LEFT_REGION), which it may do only when the engine's search
    read a cell outside the region (so generated its chunk) or find_path's corridor does not fit in it."""
    fresh = World(seed)
    expected = find_path(fresh, start, goal)
    assert find_path(world(seed), start, goal) == expected
    found = path_in(reg, start, goal)
    if found is None:
        per_level = CHUNKS_PER_SIDE * CHUNKS_PER_SIDE
        read = [(key % CHUNKS_PER_SIDE, key // CHUNKS_PER_SIDE % CHUNKS_PER_SIDE, key // per_level)
                for key in fresh._chunks]  # the World's chunks by key, as World._chunk files them
        outside = [chunk for chunk in (*read, *corridor(start, goal))
                   if not reg.contains((chunk[0] * CHUNK, chunk[1] * CHUNK, chunk[2]))]
        assert outside, f"the kernel fell back on {start} -> {goal} though the engine stayed in the region"
        return False
    assert found == expected
    return True


@settings(max_examples=30)
@given(seed=seeds, preset=presets, data=st.data())
def test_ground_and_margin_paths_equal_find_path(seed, preset, data):
    reg = region(seed, preset)
    ground = open_cells(reg, PRESETS[preset], True)
    margin = open_cells(reg, PRESETS[preset], False)
    start = data.draw(cell_in(ground) | cell_in(margin))
    goal = data.draw(cell_in(ground) | cell_in(ground) | cell_in(margin) | st.just(start))
    event("answered" if check(seed, reg, start, goal) else "left to the engine")


@settings(max_examples=10)
@given(seed=seeds, preset=presets, data=st.data())
def test_far_levels_take_the_corridor_as_find_path_does(seed, preset, data):
    """Ends more than EXACT_REACH_LEVELS apart: find_path searches the corridor at once, and so does the kernel."""
    reg = region(seed, preset, TALL)
    ground = PRESETS[preset]
    column = Bounds(ground.x0, ground.y0, ground.z0 - TALL, ground.width, ground.height, ground.levels + 2 * TALL)
    cells = open_cells(reg, column, True)
    start = data.draw(cell_in(cells[(ground.z0 <= cells[:, 2]) & (cells[:, 2] < ground.z0 + ground.levels)]))
    goal = data.draw(cell_in(cells[abs(cells[:, 2] - start[2]) > EXACT_REACH_LEVELS]))
    assert check(seed, reg, start, goal)


@settings(max_examples=10)
@given(seed=seeds, preset=presets, data=st.data())
def test_an_end_the_minotaur_cannot_stand_in_is_refused_by_both(seed, preset, data):
    reg = region(seed, preset)
    ground = PRESETS[preset]
    closed = [(x, y, z) for z in ground.z_range for y in range(ground.y0, ground.y0 + ground.height)
              for x in range(ground.x0, ground.x0 + ground.width) if world(seed).cell(x, y, z) not in MINOTAUR_OPEN]
    start, goal = data.draw(st.sampled_from(closed)), data.draw(cell_in(open_cells(reg, ground, True)))
    ends = data.draw(st.sampled_from([(start, goal), (goal, start)]))
    with pytest.raises(ValueError, match="cannot stand there"):
        find_path(World(seed), *ends)
    with pytest.raises(ValueError, match="cannot stand there"):
        path_in(reg, *ends)


def test_an_exact_search_past_its_budget_gives_way_to_the_corridor_as_in_find_path():
    """Corner to corner of a large ground, 8 levels up: near enough for the exact search, which spends its
    PATH_BUDGET expansions (pathfinding._search answers None), so find_path takes the corridor: so must the kernel."""
    ground = PRESETS["large"]
    start, goal = (ground.x0, ground.y0, ground.z0), (ground.x0 + ground.width - 2, ground.y0 + ground.height - 2,
                                                      ground.z0 + EXACT_REACH_LEVELS)
    assert pathfinding._search(World(1), start, goal, PATH_BUDGET, None) is None
    reg = region_of(World(1), around(ground, levels=3))
    assert path_in(reg, start, goal) == find_path(World(1), start, goal)


def test_the_region_answers_nearly_every_query_of_the_ground():
    """LEFT_REGION is the exception the margin was measured for (region.py), not the kernel's way out."""
    asked = answered = 0
    for seed in range(6):
        for preset in ("tiny", "small"):
            reg = region(seed, preset)
            cells = open_cells(reg, PRESETS[preset], True)
            rng = np.random.default_rng(seed)
            for _ in range(15):
                start, goal = (tuple(map(int, cells[i])) for i in rng.integers(len(cells), size=2))
                asked += 1
                answered += check(seed, reg, start, goal)
    assert answered >= 0.95 * asked


def test_one_call_answers_many_envs_each_as_alone():
    """find_paths over envs of different labyrinths: each row is its own env's answer, statuses included."""
    queries = []
    for seed in range(8):
        reg = region(seed, "small")
        cells = open_cells(reg, PRESETS["small"], True)
        start, goal = (tuple(map(int, cells[seed * k % len(cells)])) for k in (37, 101))
        queries.append((seed, reg, start, goal))
    seed, reg, start, _ = queries[0]
    queries.append((seed, reg, start, start))  # no step at all: 0
    x0, y0, z0 = reg.origin
    queries.append((seed, reg, start, (x0 - 2, y0, z0)))  # an end outside the region
    ground = PRESETS["small"]
    rock = (ground.x0 + 1, ground.y0 + 1, ground.z0)  # between four maze cells: always rock (maze.py)
    assert world(seed).cell(*rock) == ROCK
    queries.append((seed, reg, start, rock))
    kinds = np.stack([q[1].kinds for q in queries])
    origins = np.array([q[1].origin for q in queries], dtype=np.int64)
    starts, goals = (np.array([q[i] for q in queries], dtype=np.int64) for i in (2, 3))
    out = np.zeros((len(queries), 512, 3), dtype=np.int64)
    lengths = find_paths(kinds, origins, starts, goals, out)
    for (seed, _, start, goal), length, path in zip(queries[:9], lengths, out, strict=False):
        expected = find_path(World(seed), start, goal)
        assert length == len(expected)
        assert tuple(map(tuple, path[:length].tolist())) == expected
    assert list(lengths[9:]) == [LEFT_REGION, NOT_OPEN]
    longest = int(lengths[:8].max())
    short = np.zeros((len(queries), longest - 1, 3), dtype=np.int64)
    assert TOO_LONG in find_paths(kinds, origins, starts, goals, short)
