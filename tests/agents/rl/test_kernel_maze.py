"""The kernel's maze generation (agents/rl/kernel/maze.py, its generators seeded by kernel/seeding.py with
kernel/sha512.py's digests) against the engine's, which is the rules: the regions of the tiny and small grounds
laid byte for byte as region_of lays them from a World, for seeds across the game's whole range and the drawn
ones, several regions in one call; boxes anywhere in the cube and past its faces (its last chunk column and row
own no openings, its top level no ramp up, its bottom none down, chunks outside are ROCK); SHA-512 equal to
hashlib's, ints written as str writes them, and string seeding equal to random.Random's. Without numba the same
tests check the plain-Python functions, on fewer examples, and one process lays a region with numba's import
refused."""

import hashlib
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.rl.kernel import maze, mt, seeding, sha512
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.region import around, region_of
from labyrinth.engine.constants import CHUNK, CHUNKS_PER_SIDE, WORLD_LEVELS
from labyrinth.engine.presets import PRESETS, Bounds
from labyrinth.engine.rng import DRAWN_SEEDS, SEED_LIMIT
from labyrinth.engine.world import World

# numba compiles the module once per process (about 15 s without its disk cache): on one worker, paid once.
pytestmark = pytest.mark.xdist_group("kernel")
EXAMPLES = 1 if COMPILED else 0.1  # plain Python lays a region in seconds: a tenth of the examples

seeds = st.one_of(st.integers(-SEED_LIMIT, SEED_LIMIT - 1), st.integers(0, DRAWN_SEEDS - 1),
                  st.sampled_from([0, -1, DRAWN_SEEDS - 1, SEED_LIMIT - 1, -SEED_LIMIT]))


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


def test_many_drawn_seeds_in_one_call_are_the_engines():
    """The seeds a game draws (below DRAWN_SEEDS: 1 to 10 digits), 0 and the last among them, laid together."""
    chosen = random.Random("kernel maze seeds")
    seeds_ = [0, 1, 9, 10, DRAWN_SEEDS - 1, *(chosen.randrange(DRAWN_SEEDS) for _ in range(15 if COMPILED else 1))]
    box = around(PRESETS["tiny"])
    out = laid(seeds_, box)
    for i, seed in enumerate(seeds_):
        assert np.array_equal(out[i], engines(seed, box)), seed


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


@settings(max_examples=max(30, int(300 * EXAMPLES)), deadline=None)
@given(st.one_of(st.binary(max_size=300), st.builds(lambda seed, keys: f"{seed}:chunk:{keys}".encode(), seeds,
                                                    st.integers(0, 10**4))))
def test_sha512_is_hashlibs(data):
    """Messages of one, two or three blocks, and every length at which the padding spills into another."""
    out = np.empty(sha512.DIGEST, dtype=np.uint8)
    with np.errstate(over="ignore"):
        sha512.digest(np.frombuffer(data + b"\xff", dtype=np.uint8), len(data), out,
                      np.empty(sha512.SCRATCH, dtype=np.uint64))
    assert out.tobytes() == hashlib.sha512(data).digest()


def test_sha512_every_length_up_to_three_blocks():
    out, scratch = np.empty(sha512.DIGEST, dtype=np.uint8), np.empty(sha512.SCRATCH, dtype=np.uint64)
    data = bytes(random.Random("sha512 lengths").randrange(256) for _ in range(3 * sha512.BLOCK))
    with np.errstate(over="ignore"):
        for length in range(len(data) + 1):
            sha512.digest(np.frombuffer(data, dtype=np.uint8), length, out, scratch)
            assert out.tobytes() == hashlib.sha512(data[:length]).digest(), length


@settings(max_examples=max(30, int(200 * EXAMPLES)), deadline=None)
@given(st.one_of(st.integers(-SEED_LIMIT, SEED_LIMIT - 1), st.sampled_from([0, -1, 9, 10, -10, -SEED_LIMIT])))
def test_ints_are_written_as_str_writes_them(n):
    out = np.zeros(seeding.DIGITS, dtype=np.uint8)
    assert out[:seeding.decimal(n, out)].tobytes() == str(n).encode()


derived_strings = st.builds(lambda seed, keys: f"{seed}:chunk:{keys}", seeds, st.integers(-10**6, 10**6))
longest = "x" * seeding.LONGEST  # its key fills the state's 624 words, as no derived string comes near
any_strings = st.one_of(st.sampled_from(["", "\x00", "\x00\x00seed", longest, "\x00" + longest[1:]]),
                        st.text(max_size=40), st.text(min_size=500, max_size=600), derived_strings)


@settings(max_examples=max(20, int(300 * EXAMPLES)), deadline=None)
@given(st.lists(any_strings, min_size=1, max_size=5))
def test_string_seeding_is_cpythons(strings):
    """Any str up to seeding.LONGEST bytes, a NUL first, empty, or long, seeds the state random.Random(s) holds,
    and draws its values (twisted as drawn: mt.LAZY) through its first twist and on."""
    encoded = [s.encode() for s in strings]
    bounds = np.array([0, *np.cumsum([len(b) for b in encoded])], dtype=np.int64)
    work = seeding.scratch(len(strings), max(len(b) for b in encoded))
    with np.errstate(over="ignore"):
        states = seeding.seed_columns(np.frombuffer(b"".join(encoded), dtype=np.uint8), bounds, len(strings), work)
    rngs = [random.Random(s) for s in strings]
    assert states[:-1].T.tolist() == mt.load(rngs)[:, :-1].tolist()
    for g, rng in enumerate(rngs):
        row = states[:, g].copy()
        assert [mt.word(row) for _ in range(700)] == [rng.getrandbits(32) for _ in range(700)]


def test_a_string_too_long_for_the_state_is_refused():
    with pytest.raises(ValueError, match="longer than the state"):
        seeding.scratch(1, seeding.LONGEST + 1)


NO_NUMBA = """
import sys

import numpy as np


class NoNumba:  # as if the [fast] extra were not installed
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "numba":
            raise ImportError("numba is not installed")


sys.meta_path.insert(0, NoNumba())
from labyrinth.agents.rl.kernel import maze
from labyrinth.agents.rl.kernel.jit import COMPILED
from labyrinth.agents.rl.kernel.region import region_of
from labyrinth.engine.constants import CHUNK
from labyrinth.engine.presets import Bounds
from labyrinth.engine.world import World

box = Bounds(0, 0, 0, 2 * CHUNK, CHUNK, 2)  # two chunks on two levels, a ramp between
seeds = [0, -2**63, 2**31 - 1]
out = np.empty((len(seeds), box.levels, box.height, box.width), dtype=np.uint8)
maze.lay(seeds, box, out)
print(COMPILED, all(np.array_equal(out[i], region_of(World(seed), box).kinds) for i, seed in enumerate(seeds)))
"""


def test_without_numba_the_same_code_lays_the_same_cells():
    """The plain-Python kernel (jit a no-op), warnings as errors: numpy's scalars wrap the digest's sums
    silently (maze.lay's errstate)."""
    out = subprocess.run([sys.executable, "-W", "error", "-c", NO_NUMBA], capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True"]
