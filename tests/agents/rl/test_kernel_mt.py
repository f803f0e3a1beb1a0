"""The kernel's Mersenne Twister (agents/rl/kernel/mt.py) against CPython's random.Random, which draws the
engine's values: generators seeded by strings, ints and rng.derived, loaded anywhere in their stream, several
rows of one array drawing arbitrary mixes of calls in turn, every value equal to CPython's and every row, written
back, equal to its generator's getstate(). Without numba the same tests check the plain-Python functions."""

import copy
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.rl.kernel import mt
from labyrinth.engine.rng import derived

# numba compiles the module once per process (about 7 s without its disk cache): on one worker, paid once.
pytestmark = pytest.mark.xdist_group("kernel")

generators = st.one_of(
    st.text(max_size=12).map(random.Random),
    st.integers(-2**70, 2**70).map(random.Random),
    st.builds(derived, st.integers(-2**63, 2**63 - 1), st.sampled_from(["patrol", "minotaur", "jump"]),
              st.integers(0, 99)),
)
# Widths of randbelow: small ones (1 draws a bit all the same), around 2 ** 31 and 2 ** 32 (32-bit draws whose
# rejection is likeliest just past a power of two), and up to 2 ** 63 - 1 (two words a draw); randrange(start,
# stop) and randint from starts that keep stop in an int64.
spans = st.one_of(st.integers(1, 70), st.integers(2**31 - 4, 2**31 + 4), st.integers(2**32 - 2, 2**32 + 2),
                  st.integers(1, 2**62))
bounds = st.one_of(spans, st.integers(2**62, 2**63 - 1))
starts = st.integers(-2**61, 2**61)
# sample: CPython keeps a pool while n <= 21 (k <= 5), 85 (k <= 21), 277 (k <= 85), 1045 (k <= 341), else a set:
# n up to 300 and k up to 90 take both on either side, and n at those bounds tells the one from the other.
samples = st.one_of(st.integers(0, 300), st.sampled_from([21, 22, 85, 86, 277, 278, 1045, 1046])).flatmap(
    lambda n: st.tuples(st.just("sample"), st.just(n), st.integers(0, min(n, 90))))
calls = st.one_of(
    st.tuples(st.just("word")),
    st.tuples(st.just("random")),
    st.tuples(st.just("getrandbits"), st.integers(0, 63)),
    st.tuples(st.just("randrange"), bounds),
    st.tuples(st.just("randrange"), starts, spans),
    st.tuples(st.just("randint"), starts, spans),
    st.tuples(st.just("choice"), st.integers(1, 50)),
    samples,
)
# A generator, the words it draws before it is loaded (so anywhere between two twists), whether it holds a
# gauss() value for later (which no row keeps: handed back, the generator keeps its own), the calls.
streams = st.tuples(generators, st.integers(0, 1300), st.booleans(), st.lists(calls, max_size=40))


def cpython(rng: random.Random, call: tuple) -> object:
    """What the engine's generator answers."""
    name, *args = call
    if name == "word":
        return rng.getrandbits(32)
    if name == "randrange" and len(args) == 2:
        return rng.randrange(args[0], args[0] + args[1])
    if name == "randint":
        return rng.randint(args[0], args[0] + args[1] - 1)
    if name == "choice":
        return rng.choice([f"item {i}" for i in range(args[0])])
    if name == "sample":
        return rng.sample([f"item {i}" for i in range(args[0])], args[1])
    return getattr(rng, name)(*args)


def kernel(row: np.ndarray, call: tuple) -> object:
    """The same call on a row, its answer in CPython's terms (an index as the item it picks)."""
    name, *args = call
    if name == "word":
        return mt.word(row)
    if name == "random":
        return mt.random(row)
    if name == "getrandbits":
        return mt.getrandbits(row, args[0])
    if name == "randrange":
        return mt.randbelow(row, args[0]) if len(args) == 1 else mt.randrange(row, args[0], args[0] + args[1])
    if name == "randint":
        return mt.randint(row, args[0], args[0] + args[1] - 1)
    if name == "choice":
        return f"item {mt.choice(row, args[0])}"
    out = np.empty(args[1], dtype=np.int64)
    mt.sample(row, args[0], out)
    return [f"item {i}" for i in out.tolist()]


def loaded(streams: list[tuple]) -> tuple[list[random.Random], np.ndarray]:
    """Each generator advanced by its offset in words, a gauss() drawn when asked, and their rows."""
    rngs = [stream[0] for stream in streams]
    for rng, offset, gauss, *_ in streams:
        rng.getrandbits(32 * offset)
        if gauss:
            rng.gauss()
    return rngs, mt.load(rngs)


@settings(max_examples=150, deadline=None)
@given(st.lists(streams, min_size=1, max_size=4))
def test_rows_draw_cpythons_values_and_states(streams):
    rngs, states = loaded(streams)
    assert states.shape == (len(rngs), mt.STATE)
    loaded_from = [copy.copy(rng) for rng in rngs]
    for step in range(max(len(stream[-1]) for stream in streams)):
        for i, (*_, stream) in enumerate(streams):  # the rows in turn: each draws from its own
            if step < len(stream):
                found, expected = kernel(states[i], stream[step]), cpython(rngs[i], stream[step])
                assert found == expected and type(found) is type(expected), (i, step, stream[step])
    for i, rng in enumerate(rngs):  # each row handed back to the generator it was loaded from
        mt.store(states[i], loaded_from[i])
        assert loaded_from[i].getstate() == rng.getstate()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(generators, st.integers(0, 1300), st.booleans()), min_size=1, max_size=6),
       st.integers(1, 700), st.data())
def test_whole_array_calls_draw_each_rows_values(seeded, count, data):
    """words, randoms and randbelows (njit code calling the row functions) on every row, in turn."""
    rngs, states = loaded(seeded)
    drawn = np.empty((len(rngs), count), dtype=np.uint32)
    mt.words(states, drawn)
    assert drawn.tolist() == [[rng.getrandbits(32) for _ in range(count)] for rng in rngs]
    values = np.empty((len(rngs), count), dtype=np.float64)
    mt.randoms(states, values)
    assert values.tolist() == [[rng.random() for _ in range(count)] for rng in rngs]
    width = data.draw(st.integers(1, 40))
    rows = st.lists(st.lists(bounds, min_size=width, max_size=width), min_size=len(rngs), max_size=len(rngs))
    limits = np.array(data.draw(rows), dtype=np.int64)
    below = np.empty((len(rngs), width), dtype=np.int64)
    mt.randbelows(states, limits, below)
    assert below.tolist() == [[rng.randrange(n) for n in row] for rng, row in zip(rngs, limits.tolist())]
    assert mt.load(rngs).tolist() == states.tolist()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(generators, st.lists(calls, max_size=120)), min_size=1, max_size=3))
def test_a_fresh_row_twisted_as_drawn_draws_cpythons_values(streams):
    """A row whose twist is due (as after seeding), marked mt.LAZY, draws its generator's values through its
    first twist and on into the next; handed back to a Random, it is refused."""
    rngs = [rng for rng, _ in streams]
    for rng in rngs:
        rng.getrandbits(32 * (624 - rng.getstate()[1][-1]))  # on to the end of the pass: a twist due
    states = mt.load(rngs)
    states[:, -1] += mt.LAZY
    for i, (rng, stream) in enumerate(streams):
        for call in [*stream, *[("word",)] * 700]:
            assert kernel(states[i], call) == cpython(rng, call), call
    with pytest.raises(ValueError, match="LAZY"):
        mt.store(states[0], random.Random())


@pytest.mark.parametrize("width", [0, -1, -2**63])
def test_an_empty_range_raises_as_cpythons_does(width):
    rng = random.Random(width)
    with pytest.raises(ValueError):
        rng.randrange(width)
    with pytest.raises(ValueError):
        mt.randbelow(mt.load([rng])[0], width)
