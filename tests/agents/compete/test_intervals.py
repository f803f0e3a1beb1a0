"""The intervals and tests the published figures carry (agents/compete/intervals.py): their values
worked by hand or read from tables, and their coverage simulated where the figures land (few seeds,
rare wins, draws); the paired difference's coverage and power over tournaments are in
test_paired_power.py."""

from __future__ import annotations

import math
import random
import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from labyrinth.agents.compete.intervals import (
    ALL_EQUAL,
    BONETT_PRICE,
    ONE_SEED,
    T_TEST,
    Z_95,
    all_equal_interval,
    holm,
    mcnemar_exact,
    mean_interval,
    paired_over_seeds,
    paired_proportions,
    paired_scores,
    t_cdf,
    t_quantile,
    t_two_sided,
)

# Each side's chances of a win and of a draw in one game: rare wins first, then even, and draws.
TRUTHS = [((0.05, 0.0), (0.0, 0.0)), ((0.10, 0.0), (0.02, 0.0)), ((0.30, 0.10), (0.10, 0.10)),
          ((0.50, 0.0), (0.50, 0.0)), ((0.20, 0.30), (0.10, 0.50)), ((0.02, 0.0), (0.0, 0.0))]


def _score(rng: random.Random, chances: tuple[float, float]) -> float:
    u = rng.random()
    return 1.0 if u < chances[0] else 0.5 if u < chances[0] + chances[1] else 0.0


def _t_interval(values: list[float]) -> tuple[float, float]:
    """The paired t interval the tournament gave before (t to 19 degrees of freedom, as used here)."""
    t = {4: 2.776, 9: 2.262, 19: 2.093}[len(values) - 1]
    half = t * statistics.stdev(values) / math.sqrt(len(values))
    mean = statistics.fmean(values)
    return mean - half, mean + half


@pytest.mark.parametrize("seeds", [5, 10, 20])
@pytest.mark.parametrize(("first", "second"), TRUTHS)
def test_the_paired_score_interval_covers_the_truth_nineteen_times_in_twenty(first, second, seeds):
    """2,000 simulated tournaments of ``seeds`` seeds, one pair a seed. A bare t interval covers 0.05
    against 0 on 5 seeds about 2 times in 10: it is a point whenever neither side won (which is why
    paired_over_seeds never gives one)."""
    rng = random.Random(f"{first}{second}{seeds}")
    truth = first[0] + first[1] / 2 - second[0] - second[1] / 2
    runs = [[_score(rng, first) - _score(rng, second) for _ in range(seeds)] for _ in range(2_000)]
    covered = sum(low <= truth <= high for low, high in map(paired_scores, runs))
    assert covered / len(runs) >= 0.93
    if first == (0.05, 0.0) and seeds == 5:
        assert sum(low <= truth <= high for low, high in map(_t_interval, runs)) / len(runs) < 0.5


# The chances of finding 0, 1, 2 and 3 stones in a game, a learnt user's and random play's, as the ladder's baseline
# table pairs them over 200 test games (bench/rl/baseline_table.py): as the runs kept found them, then stones rare
# on both sides, a few games apart, and no difference at all.
STONE_TRUTHS = [((0.60, 0.20, 0.12, 0.08), (0.88, 0.12, 0.0, 0.0)), ((0.70, 0.20, 0.10, 0.0), (0.88, 0.12, 0.0, 0.0)),
                ((0.95, 0.05, 0.0, 0.0), (0.93, 0.07, 0.0, 0.0)), ((0.97, 0.03, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)),
                ((0.99, 0.01, 0.0, 0.0), (0.985, 0.015, 0.0, 0.0)), ((0.90, 0.10, 0.0, 0.0), (0.90, 0.10, 0.0, 0.0))]


@pytest.mark.parametrize(("learnt", "random_play"), STONE_TRUTHS)
def test_the_paired_score_interval_on_stone_shares_covers_the_truth_nineteen_times_in_twenty(learnt, random_play):
    """1,000 simulated tables of 200 paired games, each game's difference the share of the three stones found: the
    interval covers the true difference 0.94 or more (0.944 to 1.0 here), and where neither side finds more it says
    one did at most once in 40 (one tail; 0.7 % here). A t interval over the same differences covers 0.91 where
    stones are rare on both sides (1 and 1.5 % of the games) and says one side found more where neither did in 3 %
    of the tables."""
    rng = random.Random(f"{learnt}{random_play}")
    truth = sum(k * (a - b) for k, (a, b) in enumerate(zip(learnt, random_play, strict=True))) / 3
    runs = [[(rng.choices(range(4), learnt)[0] - rng.choices(range(4), random_play)[0]) / 3 for _ in range(200)]
            for _ in range(1_000)]
    intervals = list(map(paired_scores, runs))
    assert sum(low <= truth <= high for low, high in intervals) / len(runs) >= 0.93
    if truth == 0:
        assert sum(low > 0 for low, _ in intervals) / len(runs) <= 0.025
    if learnt[1] == 0.01:
        t = [mean_interval(run) for run in runs]
        assert sum(low is not None and low <= truth <= high for _, low, high in t) / len(runs) < 0.93


def test_the_paired_score_interval_worked_by_hand():
    """Bonett and Price's: one difference of +1 and one of -1 added, then a Wald interval over n + 2."""
    differences = [1.0, 0.5, 0.0, 0.0, -0.5, 1.0]
    n = len(differences) + 2
    centre = 2.0 / n
    spread = (1 + 0.25 + 0.25 + 1 + 2) / n - centre ** 2
    assert paired_scores(differences) == pytest.approx((centre - Z_95 * math.sqrt(spread / n),
                                                        centre + Z_95 * math.sqrt(spread / n)))


def test_equal_scores_on_every_seed_are_no_proof_of_equal_players():
    for score in (0.0, 0.5, 1.0):
        low, high = paired_scores([score - score] * 8)
        assert low < 0 < high
    low, high = paired_scores([1.0] * 3)  # won every seed: within [-1, 1], above zero only with more seeds
    assert -1 <= low and high == 1.0
    assert paired_scores([1.0] * 12)[0] > 0


def test_wins_and_losses_alone_give_bonett_and_prices_interval():
    """For differences of -1, 0 and 1 only, the interval from the 2x2 table of the pairs: (n12 + 1) / (n + 2)
    and (n21 + 1) / (n + 2) in place of the discordant shares."""
    n12, n21, concordant = 7, 2, 31
    differences = [1.0] * n12 + [-1.0] * n21 + [0.0] * concordant
    n = len(differences) + 2
    p12, p21 = (n12 + 1) / n, (n21 + 1) / n
    half = Z_95 * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / n)
    assert paired_scores(differences) == pytest.approx((p12 - p21 - half, p12 - p21 + half))


def test_paired_proportions_is_never_a_point_and_mirrors():
    none = [(False, False)] * 200
    mean, low, high = paired_proportions(none)
    assert mean == 0 and low < 0 < high
    six = [(True, False)] * 6 + none[6:]
    mean, low, high = paired_proportions(six)
    assert mean == pytest.approx(0.03) and low > 0
    assert paired_proportions([(b, a) for a, b in six]) == pytest.approx((-mean, -high, -low))


# A trained row's win rate on the ladder's baseline table: each training run's own rate (drawn from a Beta of this
# mean and spread, or the same for every run), measured over 200 test games, three runs a row. As the kept runs
# landed (Stones-Tiny's MaskablePPO 0.02 to 0.025, User-Tiny-Wait's 0 to 0.01, the Minotaur's 0.945 to 1.0), then
# runs further apart.
RUN_TRUTHS = [(0.023, 0.003), (0.005, 0.004), (0.005, 0.0), (0.95, 0.02), (0.95, 0.0), (0.5, 0.15), (0.2, 0.05)]


def _rows(rng: np.random.Generator, runs: np.ndarray) -> tuple[list[tuple[float, float]], int]:
    """The intervals the table shows for simulated rows of training runs' rates (one row a line, each rate measured
    over 200 games), and how many rows there were (a row whose runs all gave the same rate shows none)."""
    intervals = [mean_interval(list(wins / 200)) for wins in rng.binomial(200, runs)]
    return [(low, high) for _, low, high in intervals if low is not None and high is not None], len(intervals)


def _beta_runs(rng: np.random.Generator, rate: float, spread: float) -> np.ndarray:
    if not spread:
        return np.full((4_000, 3), rate)
    a = rate * (rate * (1 - rate) / spread ** 2 - 1)
    return rng.beta(a, a * (1 - rate) / rate, size=(4_000, 3))


@pytest.mark.parametrize(("rate", "spread"), RUN_TRUTHS)
def test_the_interval_over_three_training_runs_covers_their_mean_rate_nineteen_times_in_twenty(rate, spread):
    """4,000 simulated rows: where the row shows an interval (its runs' rates differ: 0.87 to 0.90 of the rows
    where rates are rare, 0.98 or more elsewhere), Student's t over the three rates covers the mean rate of a run
    0.94 or more (0.94 to 1.0 here): the games' noise is part of the runs' spread, so the interval need not add
    it."""
    rng = np.random.default_rng(int(rate * 1000 + spread * 100_000))
    shown, rows = _rows(rng, _beta_runs(rng, rate, spread))
    assert len(shown) >= 0.85 * rows
    assert sum(low <= rate <= high for low, high in shown) / len(shown) >= 0.94


def test_three_training_runs_that_either_learn_or_not_leave_the_row_without_a_trustworthy_interval():
    """What three runs cannot show, as docs/rl.md says: rates skewed and far apart (a mean of 0.1, spread 0.08)
    are covered about 0.92 of the time; where each run learns (0.3) or does not (0) by a coin's toss, 0.13 of
    the rows show no interval (no run learnt) and the rest cover 0.87."""
    rng = np.random.default_rng(7)
    shown, _ = _rows(rng, _beta_runs(rng, 0.1, 0.08))
    assert sum(low <= 0.1 <= high for low, high in shown) / len(shown) < 0.93
    shown, rows = _rows(rng, np.where(rng.random((4_000, 3)) < 0.5, 0.3, 0.0))
    assert 0.1 < 1 - len(shown) / rows < 0.15
    assert sum(low <= 0.15 <= high for low, high in shown) / len(shown) < 0.9


def test_the_mean_interval_worked_by_hand_and_none_without_a_spread():
    mean, low, high = mean_interval([1.0, 2.0, 3.0])  # sd 1, t(0.975, 2) = 4.302653
    assert mean == 2.0 and (low, high) == pytest.approx((2 - 4.302653 / math.sqrt(3), 2 + 4.302653 / math.sqrt(3)))
    assert mean_interval([0.3, 0.3]) == (0.3, None, None) and mean_interval([5.0]) == (5.0, None, None)


# Student's t: quantiles from tables (to 1e-6), the CDF against closed forms (one and two degrees of freedom).
@pytest.mark.parametrize(("probability", "df", "t"), [
    (0.975, 9, 2.262157), (0.975, 1, 12.706205), (0.975, 29, 2.045230), (0.995, 4, 4.604095), (0.95, 2, 2.919986),
    (0.975, 3, 3.182446), (0.9, 120, 1.288646), (0.025, 9, -2.262157)])
def test_t_quantiles_match_the_tables(probability, df, t):
    assert t_quantile(probability, df) == pytest.approx(t, abs=1e-6)
    assert t_cdf(t, df) == pytest.approx(probability, abs=1e-6)


@pytest.mark.parametrize("t", [-30.0, -3.0, -1.0, -0.2, 0.0, 0.5, 1.0, 2.5, 12.706205, 100.0])
def test_the_t_cdf_matches_its_closed_forms(t):
    assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)  # Cauchy
    assert t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-12)
    assert t_two_sided(t, 1) == pytest.approx(1 - 2 * abs(math.atan(t)) / math.pi, rel=1e-9, abs=1e-15)


def test_the_t_cdf_approaches_the_normal_and_its_two_sided_tail():
    assert t_cdf(Z_95, 10 ** 7) == pytest.approx(0.975, abs=1e-6)
    assert t_two_sided(2.262157, 9) == pytest.approx(0.05, abs=1e-6)
    assert t_two_sided(0.0, 5) == 1.0


def test_holm_worked_by_hand():
    """Sorted 0.005, 0.01, 0.03, 0.04 of four: times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04, kept from
    falling (0.04 -> 0.06), at most 1."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.4]) == [0.8, 0.8] and holm([]) == []


@given(st.lists(st.floats(0, 1), max_size=12), st.randoms(use_true_random=False))
def test_holm_does_not_depend_on_the_order_and_never_lowers_a_p_value(p_values, shuffler):
    order = list(range(len(p_values)))
    shuffler.shuffle(order)
    adjusted = holm(p_values)
    assert holm([p_values[i] for i in order]) == [adjusted[i] for i in order]
    assert all(p <= a <= 1 for p, a in zip(p_values, adjusted, strict=True))


def test_the_exact_mcnemar_test():
    """Seven discordant pairs to two: 2 * P(Bin(9, 1/2) <= 2) = 2 * 46 / 512; five to none: 2 / 32."""
    assert mcnemar_exact(7, 2) == pytest.approx(2 * 46 / 512) == mcnemar_exact(2, 7)
    assert mcnemar_exact(5, 0) == 0.0625 and mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(3, 3) == 1.0


def test_every_seed_alike_is_an_exact_bound_not_a_point():
    """Ten seeds all 0: the share of seeds that give another value is at most 1 - 0.025^(1/10) = 0.3085,
    so the mean is within +-0.3085; all +1: within [1 - 2 * 0.3085, 1], p = 2 / 2^10 (the sign test)."""
    bound = 1 - 0.025 ** 0.1
    assert all_equal_interval(0.0, 10) == pytest.approx((-bound, bound, 1.0))
    assert all_equal_interval(1.0, 10) == pytest.approx((1 - 2 * bound, 1.0, 2 / 1024))
    low, high, p = all_equal_interval(-0.25, 10)
    assert (low, high) == pytest.approx((-0.25 - 0.75 * bound, -0.25 + 1.25 * bound)) and p == 2 * 1.25 ** -10
    assert all_equal_interval(0.0, 40)[1] < all_equal_interval(0.0, 10)[1]  # narrows as more seeds agree


def test_the_paired_test_is_the_one_derived_for_its_case():
    binary = [1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0]
    tested = paired_over_seeds(binary, binary=True)
    assert tested.method == BONETT_PRICE and (tested.low, tested.high) == paired_scores(binary)
    assert tested.p == mcnemar_exact(4, 1)
    means = [0.5, 1 / 3, 0.0, 0.25, -1 / 6, 0.5]
    tested = paired_over_seeds(means)
    n, mean = len(means), statistics.fmean(means)
    error = statistics.stdev(means) / math.sqrt(n)
    assert tested.method == T_TEST and tested.mean == pytest.approx(mean)
    assert (tested.low, tested.high) == pytest.approx((mean - 2.570582 * error, mean + 2.570582 * error))
    assert tested.p == pytest.approx(t_two_sided(mean / error, n - 1))
    assert paired_over_seeds([1 / 3] * 6).method == ALL_EQUAL == paired_over_seeds([0.1 + 0.2, 0.3] * 3).method
    alone = paired_over_seeds([0.5])
    assert (alone.mean, alone.low, alone.high, alone.p, alone.method) == (0.5, None, None, None, ONE_SEED)
