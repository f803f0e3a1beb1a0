"""A partial region (StateRows.lay_region(whole=False): the first of region.stages laid, every other chunk of the
cube region.UNLAID) read by the kernel: every way in reads an unlaid cell as outside the region. walk.cell answers
OUTSIDE there; sight.near_edge (the turn's and the user's observation's check of the cells around the user),
region.holds (the Minotaur's) and the A* (astar.find_paths) say so exactly when a cell they would read is unlaid,
compared here with the same region laid whole; lay_more then lays each stage in turn, exactly its chunks, until
the region is the whole, byte for byte."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine.cells import MINOTAUR_OPEN
from labyrinth.engine.constants import CHUNK, WORLD_LEVELS, WORLD_SIZE
from labyrinth.engine.presets import PRESETS, Bounds
from labyrinth.engine.world import World

pytest.importorskip("numba", reason="the kernel is compiled by numba, the [fast] extra: `pip install -e '.[fast]'`")

from labyrinth.agents.rl.kernel import maze, minotaur_obs
from labyrinth.agents.rl.kernel.astar import LEFT_REGION, find_paths
from labyrinth.agents.rl.kernel.maze import NEAR_WANTED
from labyrinth.agents.rl.kernel.region import MARGIN_CHUNKS, MINOTAUR_MARGIN_CHUNKS, WANTED, holds
from labyrinth.agents.rl.kernel.sight import MARGIN, near_edge
from labyrinth.agents.rl.kernel.state import StateRows
from labyrinth.agents.rl.kernel.steps import KernelSteps
from labyrinth.agents.rl.kernel.walk import OUTSIDE, cell

pytestmark = pytest.mark.xdist_group("kernel")  # numba compiles once per process: on one worker


def regions(seed: int, preset: str, margin: int = MARGIN_CHUNKS) -> tuple[StateRows, np.ndarray]:
    """Row 0 partial, and the whole region's cells of the same labyrinth, ``margin`` chunks around the ground."""
    rows, whole = StateRows(1, preset, margin), StateRows(1, preset, margin)
    rows.lay_region(0, World(seed), whole=False)
    whole.lay_region(0, World(seed))
    return rows, whole.kinds[0]


def points(data: st.DataObject, rows: StateRows, count: int) -> list[tuple[int, int, int]]:
    """Cells of the region's box, near the stages' edges (where partial and whole differ) as often as not."""
    chosen = []
    for _ in range(count):
        area = data.draw(st.sampled_from(rows.stages))
        chosen.append((data.draw(st.integers(area.x0, area.x0 + area.width - 1)),
                       data.draw(st.integers(area.y0, area.y0 + area.height - 1)),
                       data.draw(st.sampled_from(area.z_range))))
    return chosen


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), preset=st.sampled_from(["tiny", "small"]),
       margin=st.sampled_from([MARGIN_CHUNKS, MINOTAUR_MARGIN_CHUNKS]), data=st.data())
def test_every_check_reads_an_unlaid_cell_as_outside(seed, preset, margin, data):
    rows, whole = regions(seed, preset, margin)
    origin = rows.origin[0]
    for stage in range(len(rows.stages)):
        kinds = rows.kinds[0]
        assert rows.stage[0] == stage and rows.partial[0] == (stage < len(rows.stages) - 1)
        laid = kinds < WANTED
        assert np.array_equal(kinds[laid], whole[laid])  # what is laid is the labyrinth's
        assert np.array_equal(laid, _within(rows, rows.stages[stage]))  # exactly the stage's chunks
        for x, y, z in points(data, rows, 20):
            level, row, col = z - origin[2], y - origin[1], x - origin[0]
            assert cell(kinds, origin, x, y, z) == (OUTSIDE if kinds[level, row, col] >= WANTED
                                                    else whole[level, row, col])
            for reach in (MARGIN, 3):
                square = kinds[level, max(row - reach, 0):row + reach + 1, max(col - reach, 0):col + reach + 1]
                in_box = (reach <= row < kinds.shape[1] - reach and reach <= col < kinds.shape[2] - reach)
                assert holds(kinds, origin, x, y, z, reach) == (in_box and not (square >= WANTED).any())
            assert near_edge(kinds, origin, x, y, z) == (not holds(kinds, origin, x, y, z, MARGIN))
        assert rows.lay_more(np.ones(1, dtype=np.bool_))[0] == (stage < len(rows.stages) - 1)
    assert np.array_equal(rows.kinds[0], whole)


def _within(rows: StateRows, stage: Bounds) -> np.ndarray:
    """Which cells of the rows' box lie in the cube and within ``stage`` (a chunk-aligned box)."""
    box = rows.box
    z, y, x = np.meshgrid(np.arange(box.z0, box.z0 + box.levels), np.arange(box.y0, box.y0 + box.height),
                          np.arange(box.x0, box.x0 + box.width), indexing="ij")
    in_cube = (x >= 0) & (x < WORLD_SIZE) & (y >= 0) & (y < WORLD_SIZE) & (z >= 0) & (z < WORLD_LEVELS)
    return in_cube & ((x >= stage.x0) & (x < stage.x0 + stage.width) & (y >= stage.y0) & (y < stage.y0 + stage.height)
                      & (z >= stage.z0) & (z < stage.z0 + stage.levels))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), preset=st.sampled_from(["tiny", "small"]),
       margin=st.sampled_from([MARGIN_CHUNKS, MINOTAUR_MARGIN_CHUNKS]), data=st.data())
def test_before_a_turn_every_cell_a_chunk_and_a_level_around_the_user_and_the_minotaur_is_laid(seed, preset, margin,
                                                                                               data):
    """StateRows.lay_near, before each kernel turn: wherever the user and the Minotaur stand in the region's box, every
    cell within a chunk and a level of each is then laid, with the labyrinth's cells; nothing laid before is undone."""
    rows, whole = regions(seed, preset, margin)
    for (ux, uy, uz), (mx, my, mz) in zip(points(data, rows, 8), points(data, rows, 8), strict=True):
        rows.user[0], rows.minotaur[0] = (ux, uy, uz), (mx, my, mz)
        was = rows.kinds[0] < WANTED
        rows.lay_near(np.ones(1, dtype=np.bool_))
        kinds, origin = rows.kinds[0], rows.origin[0]
        laid = kinds < WANTED
        assert np.array_equal(kinds[laid], whole[laid]) and not (was & ~laid).any()
        for x, y, z in ((ux, uy, uz), (mx, my, mz)):
            around = kinds[max(z - 1 - origin[2], 0):z + 2 - origin[2],
                           max(y - CHUNK - origin[1], 0):y + CHUNK + 1 - origin[1],
                           max(x - CHUNK - origin[0], 0):x + CHUNK + 1 - origin[0]]
            assert not (around >= WANTED).any()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), preset=st.sampled_from(["tiny", "small"]),
       margin=st.sampled_from([MARGIN_CHUNKS, MINOTAUR_MARGIN_CHUNKS]), data=st.data())
def test_the_chunks_a_check_marked_needed_are_laid_and_those_near_them(seed, preset, margin, data):
    """A check that meets a chunk not laid yet marks it needed (region.WANTED); maze.lay_wanted lays each marked chunk
    and the chunks not laid yet within NEAR_WANTED of it (with none, exactly the marked ones), with the labyrinth's
    cells, and touches no other chunk."""
    near = data.draw(st.sampled_from([(0, 0), NEAR_WANTED]))
    rows, whole = regions(seed, preset, margin)
    kinds, origin = rows.kinds[0], rows.origin[0]
    for x, y, z in points(data, rows, 6):
        holds(kinds, origin, x, y, z, 3)
    corners = kinds[:, ::CHUNK, ::CHUNK]
    marked, was = corners == WANTED, kinds.copy()
    count = maze.lay_wanted(seed, rows.box, kinds, near)
    laid = kinds[:, ::CHUNK, ::CHUNK] < WANTED
    now = laid & ~(was[:, ::CHUNK, ::CHUNK] < WANTED)  # the chunks this lay laid
    assert count == now.sum() and (now >= marked).all()
    reach = np.zeros_like(marked)
    for level, row, col in zip(*np.nonzero(marked), strict=True):
        reach[max(level - near[0], 0):level + near[0] + 1, max(row - near[1], 0):row + near[1] + 1,
              max(col - near[1], 0):col + near[1] + 1] = True
    assert not (now & ~reach).any()
    assert np.array_equal(kinds[kinds < WANTED], whole[kinds < WANTED])
    untouched = np.repeat(np.repeat(~now, CHUNK, axis=1), CHUNK, axis=2)
    assert np.array_equal(kinds[untouched], was[untouched])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), preset=st.sampled_from(["tiny", "small"]), data=st.data())
def test_a_path_on_a_partial_region_is_the_whole_regions_or_left_region(seed, preset, data):
    """From a cell of the ground to open cells near it and far past the near chunks: the A* on the partial
    region finds the whole region's path, or says it needs a cell not laid."""
    rows, whole = regions(seed, preset)
    world, ground = World(seed), PRESETS[preset]
    opens = [p for p in points(data, rows, 60) if world.cell(*p) in MINOTAUR_OPEN]
    start = next(p for p in ((ground.x0 + dx, ground.y0 + dy, ground.z0) for dx in range(ground.width)
                             for dy in range(ground.height)) if world.cell(*p) in MINOTAUR_OPEN)
    if not opens:
        return
    starts = np.array([start] * len(opens), dtype=np.int64)
    goals = np.array(opens, dtype=np.int64)
    origins = np.repeat(rows.origin[:1], len(opens), axis=0)
    out = np.zeros((len(opens), 4096, 3), dtype=np.int64)
    partial = find_paths(np.repeat(rows.kinds[:1], len(opens), axis=0), origins, starts, goals, out.copy())
    expected = find_paths(np.repeat(whole[np.newaxis], len(opens), axis=0), origins, starts, goals, out)
    for got, want in zip(partial.tolist(), expected.tolist(), strict=True):
        assert got in (want, LEFT_REGION), (got, want)


def test_the_minotaurs_coarse_levels_are_pooled_again_as_each_stage_is_laid():
    """The Minotaur's view pools every level of the region once a game (minotaur_obs.pool_levels); a game's start
    lays only the levels near the ground, so laying the chunks a turn needs or a further stage pools again, until the
    levels are those of a region laid whole."""
    seed = 5
    kernel = KernelSteps(StateRows(1, "tiny"), "minotaur", "wait", 50)
    kernel.start(np.ones(1, dtype=np.bool_), [seed])
    whole = StateRows(1, "tiny")
    whole.lay_region(0, World(seed))
    levels = minotaur_obs.coarse_levels(whole)
    minotaur_obs.pool_levels(whole, levels, np.ones(1, dtype=np.bool_))
    assert kernel.rows.partial[0] and not np.array_equal(kernel.levels, levels)  # the far levels: nothing yet
    while kernel.rows.partial[0]:
        kernel._lay_needed(np.ones(1, dtype=np.bool_))
    assert np.array_equal(kernel.levels, levels)
