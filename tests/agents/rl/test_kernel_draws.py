"""The kernel's tables of a game's draws (agents/rl/kernel/draws.py) against the engine's generators: the jumps'
lengths as rng.jump_length draws them, and the first words of each patrol's and lantern respawn's
rng.derived generator, for seeds across the game's whole range. With numba the tables are seeded and drawn in
one compiled call (seeding.seed_columns); without, they are CPython's Randoms and this checks their layout."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.rl.kernel.draws import (
    JUMPS_DRAWN,
    LANTERN_WORD,
    PATROL_WORDS,
    PATROLS_DRAWN,
    RESPAWN_WORDS,
    RESPAWNS_DRAWN,
    Draws,
)
from labyrinth.engine.rng import DRAWN_SEEDS, SEED_LIMIT, derived, jump_length

pytestmark = pytest.mark.xdist_group("kernel")  # numba compiles once per process: on one worker


def words(generator: random.Random, count: int) -> list[int]:
    return [generator.getrandbits(32) for _ in range(count)]


def engines(seed: int) -> tuple[list[int], list[list[int]], list[list[int]]]:
    return ([jump_length(seed, j) for j in range(JUMPS_DRAWN)],
            [words(derived(seed, "patrol", p), PATROL_WORDS) for p in range(1, PATROLS_DRAWN + 1)],
            [words(derived(seed, LANTERN_WORD, n), RESPAWN_WORDS) for n in range(1, RESPAWNS_DRAWN + 1)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(-SEED_LIMIT, SEED_LIMIT - 1), st.integers(0, DRAWN_SEEDS - 1),
                          st.sampled_from([0, -1, 9, 10, DRAWN_SEEDS - 1, SEED_LIMIT - 1, -SEED_LIMIT])),
                min_size=1, max_size=4))
def test_each_rows_tables_are_the_engines_draws(seeds):
    draws = Draws(len(seeds) + 1)
    draws.jump_lengths[-1] = 7  # a row no game was written to keeps what it held
    for row, seed in enumerate(seeds):
        draws.write(row, seed)
    for row, seed in enumerate(seeds):
        jumps, patrols, respawns = engines(seed)
        assert draws.jump_lengths[row].tolist() == jumps, seed
        assert draws.patrol_words[row].tolist() == patrols, seed
        assert draws.respawn_words[row].tolist() == respawns, seed
    assert np.all(draws.jump_lengths[-1] == 7)


def test_a_row_written_again_holds_only_its_new_games_draws():
    draws = Draws(1)
    draws.write(0, 123456789)
    draws.write(0, 5)
    jumps, patrols, respawns = engines(5)
    assert (draws.jump_lengths[0].tolist(), draws.patrol_words[0].tolist(), draws.respawn_words[0].tolist()) == (
        jumps, patrols, respawns)
