"""--seed is bounded where it is parsed: a seed no save could keep is refused by argparse before
anything is played, and the results database refuses one it cannot keep in plain words."""

from __future__ import annotations

import pytest

from labyrinth.saves.experience import SEED_LIMIT
from labyrinth.saves.results_db import MatchRow, ResultsDB, ResultsUnusable
from labyrinth.tui.cli import main

MATCHES = {"arena": [], "tournament": ["--users", "builtin", "--minotaurs", "wait"]}


@pytest.mark.parametrize("command", ["play", "spectate", "hotseat", "gsm", "world", *MATCHES])
@pytest.mark.parametrize("seed", [SEED_LIMIT, -SEED_LIMIT - 1, "1.5", "1e-300", "9" * 400],
                         ids=["past the highest", "below the lowest", "1.5", "1e-300", "400 digits"])
def test_a_seed_out_of_range_is_refused_by_argparse_naming_the_range(capsys, command, seed):
    with pytest.raises(SystemExit) as stopped:
        main([command, *MATCHES.get(command, []), f"--seed={seed}"])
    (line,) = [line for line in capsys.readouterr().err.splitlines() if not line.startswith(("usage:", " "))]
    assert stopped.value.code == 2 and "argument --seed: the seed must be a whole number " \
                                       f"from {-SEED_LIMIT} to {SEED_LIMIT - 1}, not " in line
    assert len(line) < 400  # a seed of 400 digits is not echoed whole


@pytest.mark.parametrize("command", list(MATCHES))
def test_the_last_seed_of_the_games_is_bounded_too(capsys, command):
    with pytest.raises(SystemExit) as stopped:
        main([command, *MATCHES[command], "--seed", str(SEED_LIMIT - 2), "--games", "3"])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and f"labyrinth {command}: error: --seed {SEED_LIMIT - 2} with --games 3 " \
                                       f"would reach seed {SEED_LIMIT}: the last seed must be at most" in err


def test_the_lowest_and_highest_seeds_are_played(capsys):
    for seed in (-SEED_LIMIT, SEED_LIMIT - 1):
        assert main(["arena", "--seed", str(seed), "--games", "1", "--preset", "tiny", "--max-turns", "3",
                     "--json"]) == 0, capsys.readouterr().err  # with memory: the reflection keeps the seed


def test_a_seed_the_database_cannot_keep_is_said_not_raised(tmp_path):
    row = MatchRow("builtin", "wait", SEED_LIMIT, "tiny", "normal", 20, "TIMEOUT", 20, 1.0, 0.1, None)
    with ResultsDB(tmp_path / "results.db") as db, pytest.raises(ResultsUnusable, match="cannot keep the match "
                                                                 "builtin vs wait, seed 9223372036854775808"):
        db.record(row)
