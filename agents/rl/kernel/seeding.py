"""``random.Random(string)`` for many strings at once, its state made in numba: how the kernel seeds the
engine's string-seeded generators (rng.derived) without building a Random per string.

CPython 3.11 seeds from a str (version 2) with the integer ``int.from_bytes(s + sha512(s).digest())`` (big
endian), whose 32-bit words, least significant first, are the key of the Mersenne Twister's init_by_array. The
sha512 stays in CPython (``keys``: a few microseconds a string); init_by_array is done here (``seed_row``). A
Random made and read back (getstate, then a uint32 array) costs about fifty times the digest, more than the
engine spends generating a chunk from it, so it is no way in for state the kernel makes by the hundred.

A row is mt.py's: the 624 words and the index of the next (624: a twist is due, as after seeding).
"""

from __future__ import annotations

from collections.abc import Sequence
from hashlib import sha512

import numpy as np

from .jit import jit
from .mt import STATE

_N = STATE - 1


def _genrand(s: int) -> np.ndarray:
    """init_genrand(s): the words init_by_array starts from (always from 19650218)."""
    mt = [s]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
    return np.array(mt, dtype=np.int64)


_START = _genrand(19650218)


def keys(strings: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The seeding integers' bytes of ``strings`` (each ``s + sha512(s)``, big endian) one after the other,
    uint8, and where each starts and ends: key ``k`` is ``flat[bounds[k]:bounds[k + 1]]``."""
    parts = [s.encode() for s in strings]
    flat = b"".join(part + sha512(part).digest() for part in parts)
    bounds = np.zeros(len(parts) + 1, dtype=np.int64)
    bounds[1:] = np.cumsum([len(part) + 64 for part in parts])
    return np.frombuffer(flat, dtype=np.uint8), bounds


@jit
def seed_row(flat: np.ndarray, start: int, stop: int, row: np.ndarray) -> None:
    """``row`` set to the state of ``random.Random(s)`` for the key ``flat[start:stop]`` (keys). The key has
    as many 32-bit words as the integer's significant bytes fill, and one for 0 (CPython counts them from its
    bit length): leading zero bytes, as from a string starting with NUL, count for nothing."""
    while start < stop - 1 and flat[start] == 0:
        start += 1
    length = (stop - start + 3) // 4
    key = np.zeros(length, dtype=np.int64)
    for b in range(stop - start):  # byte b from the least significant end goes to word b // 4
        key[b >> 2] |= int(flat[stop - 1 - b]) << (8 * (b & 3))
    mt = _START.copy()
    i, j, last = 1, 0, mt[0]  # last: mt[i - 1], kept out of memory (the steps are one chain)
    for _ in range(max(_N, length)):
        last = mt[i] = ((mt[i] ^ (((last ^ (last >> 30)) * 1664525) & 0xFFFFFFFF)) + key[j] + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= _N:
            mt[0] = last
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        last = mt[i] = ((mt[i] ^ (((last ^ (last >> 30)) * 1566083941) & 0xFFFFFFFF)) - i) & 0xFFFFFFFF
        i += 1
        if i >= _N:
            mt[0] = last
            i = 1
    mt[0] = 0x80000000
    for k in range(_N):
        row[k] = mt[k]
    row[_N] = _N


@jit
def seed_rows(flat: np.ndarray, bounds: np.ndarray, states: np.ndarray) -> None:
    """``states[k]`` seeded from key k of ``keys``: what ``mt.load([random.Random(s) for s in strings])`` gives."""
    for k in range(bounds.shape[0] - 1):
        seed_row(flat, bounds[k], bounds[k + 1], states[k])
