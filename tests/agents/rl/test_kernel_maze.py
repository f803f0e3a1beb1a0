"""The kernel's maze generation (agents/rl/kernel/maze.py, its generators seeded by kernel/seeding.py) against
the engine's, which is the rules: the regions of the tiny and small grounds laid byte for byte as region_of
lays them from a World, for seeds across the game's whole range, several regions in one call; boxes anywhere
in the cube and past its faces (its last chunk column and row own no openings, its top level no ramp up, its
bottom none down, chunks outside are ROCK); and string seeding equal to random.Random's. Without numba the
same tests check the plain-Python functions, on fewer examples."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.rl.kernel import maze, mt, seeding
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.region import around, region_of
from labyrinth.engine.constants import CHUNK, CHUNKS_PER_SIDE, WORLD_LEVELS
from labyrinth.engine.presets import PRESETS, Bounds
from labyrinth.engine.rng import SEED_LIMIT
from labyrinth.engine.world import World

# numba compiles the module once per process (about 15 s without its disk cache): on one worker, paid once.
pytestmark = pytest.mark.xdist_group("kernel")
EXAMPLES = 1 if COMPILED else 0.1  # plain Python lays a region in seconds: a tenth of the examples

seeds = st.one_of(st.integers(-SEED_LIMIT, SEED_LIMIT - 1), st.integers(-2**31, 2**31),
                  st.sampled_from([0, -1, SEED_LIMIT - 1, -SEED_LIMIT]))


def engines(seed: int, box: Bounds) -> np.ndarray:
    return region_of(World(seed), box).kinds


def laid(seeds_: list[int], box: Bounds) -> np.ndarray:
    out = np.full((len(seeds_), box.levels, box.height, box.width), 255, dtype=np.uint8)
    maze.lay(seeds_, box, out)
    return out


@settings(max_examples=max(3, int(40 * EXAMPLES)), deadline=None)
@given(st.lists(seeds, min_size=1, max_size=3), st.sampled_from(["tiny", "small"]))
def test_regions_are_the_engines_byte_for_byte(seeds_, preset):
    box = around(PRESETS[preset])
    out = laid(seeds_, box)
    for i, seed in enumerate(seeds_):
        assert np.array_equal(out[i], engines(seed, box)), (seed, preset)


edge = st.sampled_from([-2, -1, 0, 1, CHUNKS_PER_SIDE - 2, CHUNKS_PER_SIDE - 1, CHUNKS_PER_SIDE])
chunk_at = st.one_of(st.integers(-3, CHUNKS_PER_SIDE + 2), edge)
level_at = st.one_of(st.integers(-2, WORLD_LEVELS + 1), st.sampled_from([0, 1, WORLD_LEVELS - 2, WORLD_LEVELS - 1]))


@settings(max_examples=max(10, int(150 * EXAMPLES)), deadline=None)
@given(seeds, chunk_at, chunk_at, level_at, st.integers(1, 3), st.integers(1, 3), st.integers(1, 3))
def test_boxes_anywhere_are_the_engines(seed, cx, cy, z, columns, rows, levels):
    """A box of chunks anywhere: single chunks at far corners and edges, on any level, and the ramps
    between its levels, against World.chunk_cells (maze.generate_chunk inside the cube, ROCK outside)."""
    box = Bounds(cx * CHUNK, cy * CHUNK, z, columns * CHUNK, rows * CHUNK, levels)
    assert np.array_equal(laid([seed], box)[0], engines(seed, box)), box


def test_a_box_off_chunk_borders_or_a_wrong_out_is_refused():
    with pytest.raises(ValueError, match="chunk borders"):
        maze.lay([1], Bounds(4, 0, 0, CHUNK, CHUNK, 1), np.empty((1, 1, CHUNK, CHUNK), dtype=np.uint8))
    with pytest.raises(ValueError, match="not 2 regions"):
        maze.lay([1, 2], Bounds(0, 0, 0, CHUNK, CHUNK, 1), np.empty((1, 1, CHUNK, CHUNK), dtype=np.uint8))


derived_strings = st.builds(lambda seed, keys: f"{seed}:chunk:{keys}", seeds, st.integers(-10**6, 10**6))
any_strings = st.one_of(st.sampled_from(["", "\x00", "\x00\x00seed"]), st.text(max_size=40),
                    st.text(min_size=2600, max_size=3000), derived_strings)


@settings(max_examples=max(20, int(300 * EXAMPLES)), deadline=None)
@given(st.lists(any_strings, min_size=1, max_size=5))
def test_string_seeding_is_cpythons(strings):
    """Any str, a NUL first, empty, or long enough that its key outgrows the 624 words, seeds the state
    random.Random(s) holds."""
    flat, bounds = seeding.keys(strings)
    states = np.zeros((len(strings), mt.STATE), dtype=np.uint32)
    seeding.seed_rows(flat, bounds, states)
    assert states.tolist() == mt.load([random.Random(s) for s in strings]).tolist()
