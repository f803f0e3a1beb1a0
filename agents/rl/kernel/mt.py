"""The engine's random draws for many envs at once: CPython's ``random.Random`` (its Mersenne Twister and the
3.11 methods the engine calls) re-done over one state array, compiled by numba when the [fast] extra is
installed, so that a row draws exactly the values its Python generator would and can be handed back to it.

A row is ``Random.getstate()[1]``: the 624 state words and the index of the next word, uint32, (N, STATE) for N
generators (``load``; ``store`` writes a row back into a Random, mid-stream). The draws take one row and
advance it as CPython advances its generator: ``word`` (genrand_uint32: the twist, then the tempering),
``random``, ``getrandbits`` (k <= 63: int64 holds no 64-bit draw), ``randbelow`` (``_randbelow_with_getrandbits``,
which randrange, randint, choice and sample call), ``randrange``, ``randint``, ``choice`` (an index), ``sample``
(indices, by either of CPython's two ways). Integers are int64s; the arguments are not checked as CPython
checks them, but an empty range raises ValueError as there (its loop would never end). ``words``, ``randoms``
and ``randbelows`` draw for every row in one call.

Without numba the functions below are plain Python (the same values, far slower); ``jit.COMPILED`` says which.
"""

from __future__ import annotations

import math
import random as _random
from array import array
from collections.abc import Sequence

import numpy as np

from .jit import jit

STATE = 625  # a row: the 624 words, then the index of the next (624 once a twist is due)
# An index of LAZY or more (LAZY plus the index): a row twisted a word at a time, as each is drawn. CPython's
# twist makes the words in order, each from words not yet remade and words already made, so word k made just
# before it is drawn has the same value; a row seeded for a few dozen draws (seeding.py's) is spared making the
# other 600. Its words past the index are not yet twisted: no Random holds such a state, and store refuses it.
LAZY = 1 << 16
_N, _M = 624, 397
_MATRIX_A, _UPPER, _LOWER = 0x9908B0DF, 0x80000000, 0x7FFFFFFF


def load(generators: Sequence[_random.Random]) -> np.ndarray:
    """The generators' states as rows, (len(generators), STATE) uint32; the generators are left as they were. The
    words go through an array of C unsigned ints, whose buffer numpy takes as it is: 16 µs a generator where numpy
    reading the 625 Python ints itself took 23 (a vector env's every new game loads its Minotaur's)."""
    words = array("I")
    for generator in generators:
        words += array("I", generator.getstate()[1])
    return np.frombuffer(words, dtype=np.uint32).reshape(-1, STATE)


def store(row: np.ndarray, generator: _random.Random) -> None:
    """Set ``generator`` to the state of ``row``: it goes on drawing where the row stopped. A gauss() value it
    holds for later is kept: no row draws one, as none of CPython's draws done here touches it."""
    if row[_N] >= LAZY:
        raise ValueError("a row twisted as it is drawn (mt.LAZY) holds no state of a Random")
    version, _, gauss_next = generator.getstate()
    generator.setstate((version, tuple(row.tolist()), gauss_next))


@jit
def _twist(mt: np.ndarray, kk: int) -> None:
    """Word ``kk`` of genrand_uint32's regeneration of the 624 words, in place: done for kk = 0 to 623 in order,
    CPython's, whose words from 227 on are made from words this pass has already made, the last from the new
    first word."""
    y = (int(mt[kk]) & _UPPER) | (int(mt[(kk + 1) % _N]) & _LOWER)
    mt[kk] = int(mt[(kk + _M) % _N]) ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)


@jit
def word(mt: np.ndarray) -> int:
    """The next 32-bit word of the row (genrand_uint32, tempered), as getrandbits(32) draws it."""
    index = int(mt[_N])
    if index < _N:
        mt[_N] = index + 1
    elif index < LAZY:  # a twist due
        for kk in range(_N):
            _twist(mt, kk)
        index = 0
        mt[_N] = 1
    else:  # twisted as drawn: word index - LAZY made now, after the last the first again
        index = (index - LAZY) % _N
        _twist(mt, index)
        mt[_N] = LAZY + index + 1
    y = int(mt[index])
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)


@jit
def random(mt: np.ndarray) -> float:
    """Random.random(): 53 bits from two words, the first's top 27 and the second's top 26."""
    a = word(mt) >> 5
    b = word(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@jit
def getrandbits(mt: np.ndarray, k: int) -> int:
    """Random.getrandbits(k) for 0 <= k <= 63: no word for k = 0; one word's top k bits up to 32; else the
    first word is the low 32 bits and the second's top k - 32 bits the high ones (CPython fills its words
    from the least significant)."""
    if k == 0:
        return 0
    if k <= 32:
        return word(mt) >> (32 - k)
    low = word(mt)
    return low | ((word(mt) >> (64 - k)) << 32)


@jit
def randbelow(mt: np.ndarray, n: int) -> int:
    """Random._randbelow(n) for 0 < n < 2 ** 63: n.bit_length() bits, drawn again while they reach n
    (engine.maze._below)."""
    if n <= 0:
        raise ValueError("empty range: randbelow needs n > 0")
    k = 0
    while n >> k:
        k += 1
    r = getrandbits(mt, k)
    while r >= n:
        r = getrandbits(mt, k)
    return r


@jit
def randrange(mt: np.ndarray, start: int, stop: int) -> int:
    """Random.randrange(start, stop) (step 1); randrange(n) is randbelow(mt, n)."""
    return start + randbelow(mt, stop - start)


@jit
def randint(mt: np.ndarray, a: int, b: int) -> int:
    """Random.randint(a, b), both ends included."""
    return a + randbelow(mt, b - a + 1)


@jit
def choice(mt: np.ndarray, length: int) -> int:
    """The index Random.choice picks from a sequence of ``length`` items."""
    return randbelow(mt, length)


@jit
def sample(mt: np.ndarray, n: int, out: np.ndarray) -> None:
    """The indices Random.sample(population, len(out)) picks from a population of n, in its order, into ``out``.
    CPython keeps whichever is smaller: a pool of the n indices, the picked one replaced by the last unpicked
    (n <= setsize), or the set of indices picked so far, drawing again on a repeat."""
    k = out.shape[0]
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3) / math.log(4))  # math.log(k * 3, 4), as CPython computes it
    if n <= setsize:
        pool = np.arange(n)
        for i in range(k):
            j = randbelow(mt, n - i)
            out[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected = set()
        for i in range(k):
            j = randbelow(mt, n)
            while j in selected:
                j = randbelow(mt, n)
            selected.add(j)
            out[i] = j


@jit
def words(states: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` (uint32 or int64) filled with row i's next words: the tables the kernel reads, drawn for
    every env in one call."""
    for i in range(states.shape[0]):
        row = states[i]
        for j in range(out.shape[1]):
            out[i, j] = word(row)


@jit
def randoms(states: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` (float64) filled with row i's next random() values."""
    for i in range(states.shape[0]):
        row = states[i]
        for j in range(out.shape[1]):
            out[i, j] = random(row)


@jit
def randbelows(states: np.ndarray, bounds: np.ndarray, out: np.ndarray) -> None:
    """``out[i, j]`` = randbelow(row i, ``bounds[i, j]``), in order along j: bounds that differ by env, as a
    patrol's waypoint around where each Minotaur stands."""
    for i in range(states.shape[0]):
        row = states[i]
        for j in range(out.shape[1]):
            out[i, j] = randbelow(row, bounds[i, j])
