"""The labyrinth itself: lazy, deterministic, connected, with loops, dead ends,
crawlways and ramps on every level of every preset."""

from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labyrinth.engine import PRESETS, World
from labyrinth.engine.cells import CELL_CHARS, CRAWLWAY, FLOOR, MINOTAUR_OPEN, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import CHUNK, WORLD_LEVELS, WORLD_SIZE
from labyrinth.engine.geometry import cell_id, id_pos
from labyrinth.engine.maze import generate_chunk

OPEN = set(CELL_CHARS) - {"#"}


def _components(rows: list[str], passable: set[str]) -> int:
    """Connected components of the passable cells of one level's rows."""
    h, w = len(rows), len(rows[0])
    seen = [[False] * w for _ in range(h)]
    count = 0
    for sy in range(h):
        for sx in range(w):
            if rows[sy][sx] not in passable or seen[sy][sx]:
                continue
            count += 1
            seen[sy][sx] = True
            todo = deque([(sx, sy)])
            while todo:
                x, y = todo.popleft()
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if 0 <= nx < w and 0 <= ny < h and not seen[ny][nx] and rows[ny][nx] in passable:
                        seen[ny][nx] = True
                        todo.append((nx, ny))
    return count


def _levels(preset: str):
    b = PRESETS[preset]
    if preset == "full":  # 200 levels of 400 x 400: the bottom, the middle, the top and a few between
        return [0, 1, 57, 100, 142, 198, 199]
    return list(b.z_range)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.slow
def test_every_level_is_connected_for_both_and_has_ramps(preset):
    world, b = World(5), PRESETS[preset]
    for z in _levels(preset):
        rows = world.level_rows(b, z)
        assert _components(rows, OPEN) == 1, f"level {z} of {preset} is split for the user"
        # The Minotaur cannot crawl, yet reaches every non-crawlway cell.
        assert _components(rows, OPEN - {"="}) == 1, f"level {z} of {preset} is split for the Minotaur"
        text = "".join(rows)
        if z < WORLD_LEVELS - 1:
            assert "^" in text, f"no ramp up on level {z}"
        if z > 0:
            assert "v" in text, f"no ramp down on level {z}"


def test_levels_have_loops_dead_ends_and_a_few_crawlways():
    world, b = World(5), PRESETS["standard"]
    rows = world.level_rows(b, 100)
    open_cells = {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c != "#"}
    edges = sum(1 for x, y in open_cells for n in ((x + 1, y), (x, y + 1)) if n in open_cells)
    assert edges > len(open_cells) - 1, "a tree: no loops"
    dead_ends = [c for c in open_cells
                 if sum(n in open_cells
                        for n in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1))) == 1]
    assert len(dead_ends) >= 10
    crawlways = "".join(rows).count("=")
    assert 2 <= crawlways <= len(open_cells) // 20


@given(seed=st.integers(0, 2**31), cx=st.integers(0, WORLD_SIZE // CHUNK - 1),
       cy=st.integers(0, WORLD_SIZE // CHUNK - 1), z=st.integers(0, WORLD_LEVELS - 1))
def test_chunks_are_deterministic_and_ramps_join_levels(seed, cx, cy, z):
    chunk = generate_chunk(seed, cx, cy, z)
    assert chunk == generate_chunk(seed, cx, cy, z)
    assert len(chunk) == CHUNK * CHUNK and set(chunk) <= {ROCK, FLOOR, CRAWLWAY, RAMP_UP, RAMP_DOWN}
    world = World(seed)
    for i, kind in enumerate(chunk):
        x, y = cx * CHUNK + i % CHUNK, cy * CHUNK + i // CHUNK
        assert world.cell(x, y, z) == kind
        if kind == RAMP_UP:
            assert world.cell(x, y, z + 1) == RAMP_DOWN
        if kind == RAMP_DOWN:
            assert world.cell(x, y, z - 1) == RAMP_UP
        if x % 2 == 0 and y % 2 == 0:
            assert kind in MINOTAUR_OPEN, "maze cells are always open, to the Minotaur too (World._chunk_moves)"
        if x % 2 and y % 2:
            assert kind == ROCK, "wall posts are always rock"
    assert chunk.count(RAMP_UP) <= 1 and chunk.count(RAMP_DOWN) <= 1


def test_outside_the_cube_is_rock_and_the_edges_are_closed():
    world = World(3)
    assert world.cell(-1, 0, 0) == ROCK and world.cell(0, WORLD_SIZE, 0) == ROCK
    assert world.cell(0, 0, -1) == ROCK and world.cell(0, 0, WORLD_LEVELS) == ROCK
    east = [world.cell(WORLD_SIZE - 1, y, 7) for y in range(WORLD_SIZE)]
    north = [world.cell(x, WORLD_SIZE - 1, 7) for x in range(WORLD_SIZE)]
    assert set(east) == {ROCK} and set(north) == {ROCK}
    assert world.cell(0, 0, 0) != RAMP_DOWN and world.cell(0, 0, WORLD_LEVELS - 1) != RAMP_UP


def test_the_world_is_lazy():
    world = World(9)
    assert world.chunks_generated == 0
    world.cell(200, 200, 100)
    assert world.chunks_generated == 1
    world.level_rows(PRESETS["standard"], 100)
    assert world.chunks_generated == 36  # 48 x 48 cells = 6 x 6 chunks, nothing more


def test_different_seeds_give_different_labyrinths():
    b = PRESETS["standard"]
    assert World(1).level_rows(b, 100) != World(2).level_rows(b, 100)


@given(x0=st.integers(-30, WORLD_SIZE + 5), width=st.integers(1, 40), y=st.integers(-2, WORLD_SIZE + 1),
       z=st.integers(-1, WORLD_LEVELS))
def test_a_row_read_a_chunk_at_a_time_is_the_cells_one_by_one(x0, width, y, z):
    world = World(5)
    assert world.row(x0, width, y, z) == bytes(world.cell(x, y, z) for x in range(x0, x0 + width))



@given(cx=st.integers(-2, WORLD_SIZE // CHUNK + 1), cy=st.integers(-2, WORLD_SIZE // CHUNK + 1),
       z=st.integers(-1, WORLD_LEVELS))
def test_a_chunk_read_in_one_piece_is_its_cells_one_by_one(cx, cy, z):
    world = World(5)
    assert world.chunk_cells(cx, cy, z) == bytes(world.cell(cx * CHUNK + i % CHUNK, cy * CHUNK + i // CHUNK, z)
                                                 for i in range(CHUNK * CHUNK))


cells_of_the_cube = st.tuples(st.integers(0, WORLD_SIZE - 1), st.integers(0, WORLD_SIZE - 1),
                              st.integers(0, WORLD_LEVELS - 1))


@given(a=cells_of_the_cube, b=cells_of_the_cube)
def test_cell_ids_give_back_their_cell_and_order_as_the_cells_do(a, b):
    """The searches break ties on cell ids as they did on (x, y, z): the same paths."""
    assert id_pos(cell_id(a)) == a
    assert (cell_id(a) < cell_id(b)) == (a < b)


@given(seed=st.integers(0, 2**31), cell=cells_of_the_cube)
def test_the_minotaurs_moves_are_its_open_neighbours_and_the_ramp_it_stands_on(seed, cell):
    world = World(seed)
    x, y, z = cell
    around = [(x + dx, y + dy, z) for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))]
    here = world.cell(x, y, z)
    ramp = [(x, y, z + 1)] if here == RAMP_UP else [(x, y, z - 1)] if here == RAMP_DOWN else []
    assert list(world.minotaur_neighbours(cell)) == [p for p in around if world.cell(*p) in MINOTAUR_OPEN] + ramp


@given(st.integers(2, 40), st.integers(2, 40), st.integers(-7, 0), st.integers(-7, 0))
def test_the_minotaurs_start_ring_is_the_grounds_edge_maze_cells_far_enough_in_their_row_order(width, height, dx, dy):
    """placement._far_ring lists the edge rows and columns directly: the same cells, in the same order (the draw
    picks by index), as filtering every maze cell of the level."""
    from labyrinth.engine.constants import CENTRE
    from labyrinth.engine.geometry import manhattan
    from labyrinth.engine.placement import _far_ring, _maze_cells
    from labyrinth.engine.presets import Bounds

    bounds = Bounds(x0=CENTRE[0] + dx, y0=CENTRE[1] + dy, z0=CENTRE[2], width=width, height=height, levels=1)
    edge = [p for p in _maze_cells(bounds, CENTRE[2]) if p[0] in (bounds.x0, bounds.x0 + width - 2)
            or p[1] in (bounds.y0, bounds.y0 + height - 2)]
    assert _far_ring.__wrapped__(bounds, CENTRE) == tuple(p for p in edge if manhattan(p, CENTRE) >= width // 2)
