"""``random.Random(s)`` for many short strings at once, made in numba: how the kernel seeds the engine's
string-seeded generators (rng.derived) without a Random, a Python string or a hashlib call per generator.

CPython 3.11 seeds from a str (version 2) with the integer ``int.from_bytes(s + sha512(s).digest())`` (big
endian), whose 32-bit words, least significant first, are the key of the Mersenne Twister's init_by_array.
Both are done here (``seed_columns``): the digest by sha512.py, then the key (``_key``), then init_by_array.
A Random made and read back (getstate, then a uint32 array) costs more than the engine spends generating a
chunk from it, and hashlib wants a Python string a generator, so neither is a way in for state the kernel makes
by the hundred.

init_by_array is one long chain, each of its 1,247 steps waiting for the last (a multiply among them): a
generator alone is bound by the chain's latency (about 3.5 µs). ``seed_columns`` runs the chains of a group of
generators side by side, step by step, word i of every generator in one row of the array, so the processor's
vectors take several chains at once (about 0.3 µs a generator in groups of 64; with its digest and key, 1).
The steps are the same for every key no longer than the state (the first loop runs max(624, key length) steps),
which a string of up to LONGEST bytes gives; a longer one is refused, as no derived string comes near. The first
loop also adds the key's words in turn, each generator its own: generators whose keys are as long (a run) add
the same word at each step, so a region's strings, alike but for a digit here and there, stay in vectors.

A generator's state is a column of mt.py's row layout: the 624 words and the index of the next, marked
mt.LAZY: its twist is done a word at a time as it draws, as a chunk draws a few dozen words of the 624.
"""

from __future__ import annotations

import numpy as np

from .jit import jit
from .mt import LAZY, STATE
from .sha512 import DIGEST, SCRATCH, digest

_N = STATE - 1
_MASK = 0xFFFFFFFF
DIGITS = 20  # bytes of the longest int64 written out: 19 digits and a sign
LONGEST = 4 * _N - DIGEST  # bytes of a string whose key still fits the state's 624 words


def _genrand(s: int) -> np.ndarray:
    """init_genrand(s): the words init_by_array starts from (always from 19650218)."""
    mt = [s]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & _MASK)
    return np.array(mt, dtype=np.uint32)


_START = _genrand(19650218)


def scratch(group: int, longest: int) -> tuple[np.ndarray, ...]:
    """The arrays seed_columns works in, for groups of up to ``group`` strings of up to ``longest`` bytes: the
    seeding integer's bytes, the digest's words, the keys (a column a generator), the runs of generators whose
    keys are as long (where each starts, and the length), and the states (a column a generator)."""
    if longest > LONGEST:
        raise ValueError(f"a string of {longest} bytes makes a key longer than the state")
    return (np.empty(longest + DIGEST, dtype=np.uint8), np.empty(SCRATCH, dtype=np.uint64),
            np.empty(((longest + DIGEST + 3) // 4, group), dtype=np.uint32), np.empty((2, group + 1), dtype=np.int64),
            np.empty((STATE, group), dtype=np.uint32))


@jit
def _key(data: np.ndarray, length: int, key: np.ndarray) -> int:
    """``key[j]`` = word j of the key of random.Random(s) plus j (modulo 2**32, as init_by_array adds it), for
    s = ``data[:length]``, followed in ``data`` by its digest; the key's length returned. The key has as many
    words as the integer's significant bytes fill, and one for 0 (CPython counts them from its bit length):
    leading zero bytes, as from a string starting with NUL, count for nothing."""
    stop = length + DIGEST
    start = 0
    while start < stop - 1 and data[start] == 0:
        start += 1
    n = (stop - start + 3) // 4
    for j in range(n):  # byte b from the least significant end goes to word b // 4
        word = 0
        for b in range(4 * j, min(4 * j + 4, stop - start)):
            word |= int(data[stop - 1 - b]) << (8 * (b & 3))
        key[j] = (word + j) & _MASK
    return n


@jit
def seed_columns(text: np.ndarray, bounds: np.ndarray, count: int, work: tuple[np.ndarray, ...]) -> np.ndarray:
    """The states of ``random.Random(s)`` for strings g < ``count``, ``s = text[bounds[g]:bounds[g + 1]]`` (UTF-8
    bytes), ``work``: scratch's arrays for up to ``count`` strings. Returned: its states, (STATE, group), the
    column of generator g an mt.py row (mt.word and the draws take it), twisted as drawn (mt.LAZY): the
    first draws of a chunk's generator use a tenth of its words. Strings whose keys are as long are best
    next to each other (a region's are, but for its ramps'): a run of them takes each step's key word at once."""
    data, hashing, keys, runs, states = work
    count_runs = 0
    for g in range(count):
        length = bounds[g + 1] - bounds[g]
        data[:length] = text[bounds[g]:bounds[g + 1]]
        digest(data, length, data[length:length + DIGEST], hashing)
        n = _key(data, length, keys[:, g])
        if count_runs == 0 or runs[1, count_runs - 1] != n:
            runs[0, count_runs], runs[1, count_runs] = g, n
            count_runs += 1
    runs[0, count_runs] = count
    for i in range(_N):
        states[i, :] = _START[i]
    # init_by_array, a step for a run of generators at once: the step's i is the same for all (the module's
    # docstring), and a row of states holds word i of each, side by side for the processor's vectors (read
    # through a row's slice: indexed in two dimensions, numba's loop was not vectorised, three times as slow).
    i = 1
    for r in range(count_runs):
        first, stop, n = runs[0, r], runs[0, r + 1], runs[1, r]
        i = 1
        for t in range(_N):
            words, before, adds = states[i, first:stop], states[i - 1, first:stop], keys[t % n, first:stop]
            for g in range(stop - first):
                last = int(before[g])
                words[g] = ((int(words[g]) ^ (((last ^ (last >> 30)) * 1664525) & _MASK)) + int(adds[g])) & _MASK
            i += 1
            if i >= _N:
                states[0, first:stop] = states[_N - 1, first:stop]
                i = 1
    for _ in range(_N - 1):
        words, before = states[i, :count], states[i - 1, :count]
        for g in range(count):
            last = int(before[g])
            words[g] = ((int(words[g]) ^ (((last ^ (last >> 30)) * 1566083941) & _MASK)) - i) & _MASK
        i += 1
        if i >= _N:
            states[0, :] = states[_N - 1, :]
            i = 1
    states[0, :] = 0x80000000
    states[_N, :] = LAZY + _N
    return states


@jit
def decimal(n: int, out: np.ndarray) -> int:
    """``str(n)`` as ASCII into ``out`` (uint8, room for DIGITS bytes), its length returned: the ints rng.derived
    joins into its strings, any int64 (-2**63 too, whose negation int64 cannot hold: its digits are taken
    from the negative side)."""
    count = 0
    rest = n if n < 0 else -n
    while True:
        out[count] = 48 - rest % -10  # rest % -10 is minus the last digit (Python's modulo takes the divisor's sign)
        count += 1
        rest = (rest - rest % -10) // 10
        if rest == 0:
            break
    if n < 0:
        out[count] = 45  # "-"
        count += 1
    for k in range(count // 2):  # written from the last digit: turned around
        out[k], out[count - 1 - k] = out[count - 1 - k], out[k]
    return count
