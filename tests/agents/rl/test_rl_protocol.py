"""The ladder's protocol (agents/rl/protocol.py): the seed splits are disjoint and fixed, training
draws the train split's games only, ``evaluate`` plays the same games every time and the built-in
yardstick the very games the env plays, and a rate's Wilson interval covers the truth."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.rl.gym_env import task_env
from labyrinth.agents.rl.protocol import (
    BUILTIN,
    RUN_GAMES,
    SPLITS,
    Episode,
    RandomPolicy,
    Report,
    SplitGames,
    evaluate,
    game_seed_of,
    rate,
    split_of,
    split_seeds,
    training_env,
)

TINY = "Labyrinth/User-Tiny-v1"


def test_the_splits_are_disjoint_fixed_and_named():
    eval_seeds, test_seeds = split_seeds("eval", 1000), split_seeds("test", 1000)
    train_seeds = split_seeds("train", 1000, start=5 * RUN_GAMES)
    assert eval_seeds[:2] == [1_000_000, 1_000_001] and test_seeds[0] == 2_000_000  # documented on the card
    assert not set(eval_seeds) & set(test_seeds) and not (set(eval_seeds) | set(test_seeds)) & set(train_seeds)
    assert {split_of(s) for s in eval_seeds} == {"eval"} and split_of(train_seeds[-1]) == "train"
    assert split_of(42) is None  # the examples' and checkers' seeds are in no split
    games = {split: {game_seed_of(s) for s in split_seeds(split, 500)} for split in SPLITS}
    assert not games["eval"] & games["test"] and not games["train"] & (games["eval"] | games["test"])
    with pytest.raises(ValueError, match="seeds are numbered"):
        split_seeds("eval", 10, start=999_995)
    with pytest.raises(ValueError, match="no split"):
        split_seeds("validation", 1)


@settings(max_examples=20)
@given(st.integers(0, 2**40))
def test_a_reset_seed_gives_the_game_seed_the_env_plays(seed):
    env = task_env(TINY)
    env.reset(seed=seed)
    assert env.match.seed == game_seed_of(seed)


def test_training_plays_the_train_splits_games_in_turn_whatever_seed_it_is_given():
    runs = [[training_env(TINY, run, index, 2) for index in range(2)] for run in range(2)]
    played = []
    for env in (env for run in runs for env in run):
        for _ in range(3):
            env.reset()
            played.append(env.unwrapped.match.seed)
    first = [game_seed_of(s) for s in split_seeds("train", 6)]
    assert played[:6] == [first[0], first[2], first[4], first[1], first[3], first[5]]  # env 0 evens, env 1 odds
    assert len(set(played)) == 12  # the second run plays other games
    runs[0][0].reset(seed=3)  # a trainer's seed does not choose the game: the split does
    assert runs[0][0].unwrapped.match.seed == game_seed_of(split_seeds("train", 1, 6)[0])
    assert runs[0][0].get_wrapper_attr("action_masks")().dtype == np.int8  # how sb3-contrib reads the mask
    with pytest.raises(ValueError, match="seeds are numbered"):
        SplitGames(task_env(TINY), "eval", first=1_000_000)


def test_evaluate_plays_the_same_games_alike_and_counts_what_the_infos_say():
    first, again = (evaluate(RandomPolicy(7), TINY, "eval", 6) for _ in range(2))
    assert first.episodes == again.episodes and first.policy == "random"
    assert [e.seed for e in first.episodes] == split_seeds("eval", 6)
    reversed_order = evaluate(RandomPolicy(7), TINY, "eval", 3, start=3)
    assert reversed_order.episodes == first.episodes[3:]  # a game is played alike wherever it falls
    summary = first.summary()
    assert summary["episodes"] == 6 and summary["win"] == summary["escaped"]
    assert summary["death"]["count"] + summary["escaped"]["count"] + summary["timeout"]["count"] == 6
    assert set(summary["achievements"]) == {"first_stone", "two_stones", "escaped", "lantern_found",
                                            "lantern_paralysis", "whine_survivor"}
    assert json.loads(json.dumps(first.to_dict()))["games"][0]["seed"] == 1_000_000


def test_the_builtin_yardstick_plays_the_very_games_of_the_split():
    seated = evaluate(BUILTIN, "Labyrinth/Minotaur-Tiny-Random-v1", "test", 3)
    played = evaluate(RandomPolicy(), "Labyrinth/Minotaur-Tiny-Random-v1", "test", 3)
    assert [e.game_seed for e in seated.episodes] == [e.game_seed for e in played.episodes]
    assert seated.policy == "builtin" and seated.summary()["win"]["value"] == 1.0  # it catches a random walker
    assert all(e.turns < 400 and e.outcome == "DEATH" and e.reward > 9 for e in seated.episodes)


def test_a_report_of_no_spread_gives_a_mean_without_an_interval():
    games = [Episode(s, s, "DEATH", -10.0, 5, 0, {"first_stone": 0}, 0.0) for s in range(3)]
    report = Report(TINY, "eval", "x", games)
    assert report.mean(lambda e: e.turns).low is None and report.rate("DEATH").value == 1.0
    assert report.rate("DEATH").low < 1.0  # three games are not all games


@pytest.mark.parametrize("truth", [0.01, 0.05, 0.2, 0.5])
def test_a_rates_interval_covers_the_truth_nineteen_times_in_twenty(truth):
    """Coverage, simulated: 2,000 evaluations of 200 games at each true rate."""
    rng = np.random.default_rng(42)
    covered = sum(r.low <= truth <= r.high for r in (rate(int(k), 200) for k in rng.binomial(200, truth, 2_000)))
    assert covered / 2_000 >= 0.93
