"""SHA-512 (FIPS 180-4) in numba, for the short strings that seed the engine's generators: CPython seeds a
Random from a str with the string's bytes followed by their SHA-512 (engine/rng.py's derived), and the kernel
seeds hundreds of them a region (maze.py), too many to hash one Python string at a time through hashlib.

The words are uint64 and every addition wraps, as the standard's arithmetic is modulo 2**64. numba's uint64
wraps silently; without numba the same code runs on numpy's uint64 scalars, which wrap too but warn: a Python
caller there says so once with ``np.errstate(over="ignore")`` (maze.lay). Every constant is a np.uint64, as
numba types a uint64 mixed with a plain int as a float.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import jit

BLOCK = 128  # bytes a block
DIGEST = 64  # bytes of a digest
_ROUNDS = 80
SCRATCH = _ROUNDS + 8  # uint64 words digest works in: the rounds' schedule, then the hash
_LENGTH_BYTES = 16  # the message's length in bits closes its last block, big endian


def _primes(count: int) -> list[int]:
    primes: list[int] = []
    n = 2
    while len(primes) < count:
        if all(n % p for p in primes):
            primes.append(n)
        n += 1
    return primes


def _icbrt(n: int) -> int:
    """The integer cube root of ``n`` (Newton's method from above, in integers: exact for any size)."""
    x = 1 << -(-n.bit_length() // 3)
    while True:
        y = (2 * x + n // (x * x)) // 3
        if y >= x:
            return x
        x = y


# The standard's constants, from their definition: the first 64 bits of the fractional parts of the cube
# roots of the first 80 primes (the rounds') and of the square roots of the first 8 (the initial hash).
_MASK = (1 << 64) - 1
_K = np.array([_icbrt(p << 192) & _MASK for p in _primes(_ROUNDS)], dtype=np.uint64)
_H0 = np.array([math.isqrt(p << 128) & _MASK for p in _primes(8)], dtype=np.uint64)
_1, _6, _7, _8, _14, _18, _19, _28, _34, _39, _41, _61, _64 = (
    np.uint64(n) for n in (1, 6, 7, 8, 14, 18, 19, 28, 34, 39, 41, 61, 64))  # the shifts and rotations
_BYTE = np.uint64(0xFF)


@jit
def _rotr(x: np.uint64, n: np.uint64) -> np.uint64:
    return (x >> n) | (x << (_64 - n))


@jit
def blocks(length: int) -> int:
    """How many blocks a message of ``length`` bytes pads to: it, a 0x80 byte and the 16-byte length."""
    return (length + 1 + _LENGTH_BYTES + BLOCK - 1) // BLOCK


@jit
def _padded(data: np.ndarray, length: int, at: int) -> np.uint64:
    """Byte ``at`` of the padded message ``data[:length]``: the message, 0x80, zeros, then its length in bits
    (whose upper 8 bytes are zero for any message an array can hold)."""
    if at < length:
        return np.uint64(data[at])
    if at == length:
        return np.uint64(0x80)
    from_end = blocks(length) * BLOCK - 1 - at
    if from_end < 8:
        return (np.uint64(8 * length) >> np.uint64(8 * from_end)) & _BYTE
    return np.uint64(0)


@jit
def digest(data: np.ndarray, length: int, out: np.ndarray, scratch: np.ndarray) -> None:
    """``out[:DIGEST]`` (uint8) set to the SHA-512 of ``data[:length]`` (uint8), as hashlib.sha512's digest;
    ``scratch``: SCRATCH uint64 words (a region's hundreds of digests allocate nothing)."""
    schedule, h = scratch[:_ROUNDS], scratch[_ROUNDS:]
    h[:] = _H0
    for block in range(blocks(length)):
        for t in range(16):
            word = np.uint64(0)
            for b in range(8):
                word = (word << _8) | _padded(data, length, block * BLOCK + 8 * t + b)
            schedule[t] = word
        for t in range(16, _ROUNDS):
            w15, w2 = schedule[t - 15], schedule[t - 2]
            s0 = _rotr(w15, _1) ^ _rotr(w15, _8) ^ (w15 >> _7)
            s1 = _rotr(w2, _19) ^ _rotr(w2, _61) ^ (w2 >> _6)
            schedule[t] = schedule[t - 16] + s0 + schedule[t - 7] + s1
        a, b_, c, d, e, f, g, hh = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
        for t in range(_ROUNDS):
            t1 = hh + (_rotr(e, _14) ^ _rotr(e, _18) ^ _rotr(e, _41)) + ((e & f) ^ (~e & g)) + _K[t] + schedule[t]
            t2 = (_rotr(a, _28) ^ _rotr(a, _34) ^ _rotr(a, _39)) + ((a & b_) ^ (a & c) ^ (b_ & c))
            hh, g, f, e, d, c, b_, a = g, f, e, d + t1, c, b_, a, t1 + t2
        h[0] += a
        h[1] += b_
        h[2] += c
        h[3] += d
        h[4] += e
        h[5] += f
        h[6] += g
        h[7] += hh
    for k in range(DIGEST):
        out[k] = (h[k // 8] >> np.uint64(56 - 8 * (k % 8))) & _BYTE
