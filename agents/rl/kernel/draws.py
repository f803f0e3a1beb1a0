"""The engine's random draws a turn may make, drawn in Python when a row gets its game and read by the kernel:
every generator of a turn is ``rng.derived(seed, purpose, key)``, seeded by a string (made here by CPython's
Random: seeding.py could seed them in numba, as maze.py's), and what it yields depends only on the seed and the key.

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

from labyrinth.engine.rng import derived, jump_length

from .jit import jit

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

    def write(self, row: int, seed: int) -> None:
        self.jump_lengths[row] = [jump_length(seed, jump) for jump in range(JUMPS_DRAWN)]
        self.patrol_words[row] = [_words(derived(seed, "patrol", p), PATROL_WORDS) for p in range(1, PATROLS_DRAWN + 1)]
        self.respawn_words[row] = [_words(derived(seed, LANTERN_WORD, n), RESPAWN_WORDS)
                                   for n in range(1, RESPAWNS_DRAWN + 1)]


def _words(rng: random.Random, count: int) -> list[int]:
    return [rng.getrandbits(32) for _ in range(count)]


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
