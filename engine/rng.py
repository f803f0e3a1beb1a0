"""Derived randomness: one independent, stable generator per purpose.

``random.Random`` seeded with a string hashes it with SHA-512, so the same
seed, purpose and keys give the same draws in every process (unlike
``hash()``), and no generator state has to be saved with the game.
"""

import random

from .constants import JUMP_MAX_TICKS, JUMP_MIN_TICKS

# A game's seed is in [-SEED_LIMIT, SEED_LIMIT): the bound the experience log, the saved games and the
# results database's 64-bit integers share, which every command's --seed checks.
SEED_LIMIT = 2**63
# A game's seed, when nobody chose it, is drawn below this (the title form, `--seed` left out, an RL
# env's reset without one); any seed up to SEED_LIMIT can still be given by hand.
DRAWN_SEEDS = 2**31


def derived(seed: int, purpose: str, *keys: int) -> random.Random:
    """A generator for one purpose, e.g. ``derived(seed, "chunk", cx, cy, z)``."""
    return random.Random(":".join((str(seed), purpose, *map(str, keys))))


def jump_length(seed: int, jump: int) -> int:
    """How many ticks the Minotaur's jump number ``jump`` (from 0) lasts: drawn from the seed, so no state
    needs to keep it once the jump is over."""
    return derived(seed, "jump", jump).randint(JUMP_MIN_TICKS, JUMP_MAX_TICKS)
