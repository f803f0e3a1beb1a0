"""The engine's random draws a turn may make, drawn when a row gets its game and read by the kernel: every
generator of a turn is ``rng.derived(seed, purpose, key)``, seeded by a string, and what it yields depends only on
the seed and the key. With numba the 38 generators are seeded side by side (seeding.seed_columns, as maze.py's) and
drawn from in one call (about 50 µs a game, against 600 for CPython's Randoms); without, they are CPython's.

Two kinds of table, one row per env:
- values that are the seed's alone: the length of jump j (rng.jump_length), for j < JUMPS_DRAWN;
- the generator's raw 32-bit words, whose values depend on bounds the game sets later (a patrol waypoint is drawn
  around where the Minotaur stands; a new lantern out of the user's sight): the first WORDS of
  derived(seed, "patrol", p) for p = 1..PATROLS_DRAWN, and of derived(seed, "lantern", n) for n = 1..RESPAWNS_DRAWN.
  ``below`` turns them into values as CPython's Random._randbelow does (getrandbits(k) is a word's top k bits
  for k <= 32, redrawn while the value is too big), so randrange, randint and choice give the engine's values.

A draw past a table (a fifth jump, a 33rd patrol, words used up) answers USED_UP and the row falls back.
"""

from __future__ import annotations

import random

import numpy as np

from labyrinth.engine.constants import JUMP_MAX_TICKS, JUMP_MIN_TICKS
from labyrinth.engine.rng import derived, jump_length

from .jit import COMPILED, jit
from .mt import randint, word
from .seeding import DIGITS, decimal, scratch, seed_columns

JUMPS_DRAWN = 4  # a jump's cooldown is 600 s: four take 40 minutes of play
PATROLS_DRAWN = 32
PATROL_WORDS = 16  # three randint of at most 49 values: 3 words, 6 when every draw is redrawn once
RESPAWNS_DRAWN = 2  # a new lantern comes 720 s after the last was used
RESPAWN_WORDS = 64  # a place is a choice and two randrange (3 words or more); redrawn when in sight or taken
USED_UP = -1
LANTERN_WORD = "lantern"  # the lantern's item.word, its respawns' purpose (item_rules.respawn)


class Draws:
    """The tables of N rows (``Draws(n)``); ``write(row, seed)`` when the row gets the game of ``seed``."""

    def __init__(self, n: int) -> None:
        self.jump_lengths = np.zeros((n, JUMPS_DRAWN), dtype=np.int64)
        self.patrol_words = np.zeros((n, PATROLS_DRAWN, PATROL_WORDS), dtype=np.int64)
        self.respawn_words = np.zeros((n, RESPAWNS_DRAWN, RESPAWN_WORDS), dtype=np.int64)
        self._work = scratch(len(_END_TEXTS), _LONGEST)  # seed_columns' arrays (an env's own: nothing shared)

    def write(self, row: int, seed: int) -> None:
        if COMPILED:
            _write(seed, _ENDS, _BOUNDS, self._work, self.jump_lengths[row], self.patrol_words[row],
                   self.respawn_words[row])
            return
        self.jump_lengths[row] = [jump_length(seed, jump) for jump in range(JUMPS_DRAWN)]
        self.patrol_words[row] = [_words(derived(seed, "patrol", p), PATROL_WORDS) for p in range(1, PATROLS_DRAWN + 1)]
        self.respawn_words[row] = [_words(derived(seed, LANTERN_WORD, n), RESPAWN_WORDS)
                                   for n in range(1, RESPAWNS_DRAWN + 1)]


def _words(rng: random.Random, count: int) -> list[int]:
    return [rng.getrandbits(32) for _ in range(count)]


# The generators' strings after the seed (rng.derived joins the seed, the purpose and the keys with ":"), in the
# tables' order: the jumps', the patrols', the respawns'; as UTF-8 bytes one after the other, and where each starts.
_END_TEXTS = [f":jump:{j}".encode() for j in range(JUMPS_DRAWN)] + [
    f":patrol:{p}".encode() for p in range(1, PATROLS_DRAWN + 1)] + [
    f":{LANTERN_WORD}:{n}".encode() for n in range(1, RESPAWNS_DRAWN + 1)]
_ENDS = np.frombuffer(b"".join(_END_TEXTS), dtype=np.uint8)
_BOUNDS = np.concatenate(([0], np.cumsum([len(end) for end in _END_TEXTS]))).astype(np.int64)
_LONGEST = DIGITS + max(len(end) for end in _END_TEXTS)


@jit
def _write(seed: int, ends: np.ndarray, bounds: np.ndarray, work: tuple[np.ndarray, ...], jump_lengths: np.ndarray,
           patrol_words: np.ndarray, respawn_words: np.ndarray) -> None:
    """A row's tables for the game of ``seed``: its generators' strings (the seed's digits, then each end),
    seeded at once (seeding.seed_columns), then drawn as jump_length and _words draw."""
    digits = np.empty(DIGITS, dtype=np.uint8)
    count = decimal(seed, digits)
    generators = bounds.shape[0] - 1
    text = np.empty(generators * count + bounds[generators], dtype=np.uint8)
    starts = np.empty(generators + 1, dtype=np.int64)
    starts[0] = 0
    for g in range(generators):
        at, end = starts[g], bounds[g + 1] - bounds[g]
        text[at:at + count] = digits[:count]
        text[at + count:at + count + end] = ends[bounds[g]:bounds[g + 1]]
        starts[g + 1] = at + count + end
    states = seed_columns(text, starts, generators, work)
    jumps, patrols = jump_lengths.shape[0], patrol_words.shape[0]
    for j in range(jumps):
        jump_lengths[j] = randint(states[:, j], JUMP_MIN_TICKS, JUMP_MAX_TICKS)
    for p in range(patrols):
        for w in range(patrol_words.shape[1]):
            patrol_words[p, w] = word(states[:, jumps + p])
    for n in range(respawn_words.shape[0]):
        for w in range(respawn_words.shape[1]):
            respawn_words[n, w] = word(states[:, jumps + patrols + n])


@jit
def below(words: np.ndarray, used: np.ndarray, n: int) -> int:
    """Random._randbelow(n) (n >= 1) from ``words``, ``used[0]`` of which are spent already; USED_UP when
    they run out."""
    bits = 0
    while (1 << bits) <= n:
        bits += 1  # n.bit_length()
    while used[0] < words.shape[0]:
        value = words[used[0]] >> (32 - bits)
        used[0] += 1
        if value < n:
            return value
    return USED_UP
