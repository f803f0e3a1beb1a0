"""The intervals the published figures carry (agents/compete/intervals.py): their values worked by
hand, and their coverage simulated where the figures land (few seeds, rare wins, draws)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from labyrinth.agents.compete.intervals import Z_95, paired_proportions, paired_scores

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
    """2,000 simulated tournaments of ``seeds`` seeds, one pair a seed. The t interval it replaces
    covers 0.05 against 0 on 5 seeds about 2 times in 10: it is a point whenever neither side won."""
    rng = random.Random(f"{first}{second}{seeds}")
    truth = first[0] + first[1] / 2 - second[0] - second[1] / 2
    runs = [[_score(rng, first) - _score(rng, second) for _ in range(seeds)] for _ in range(2_000)]
    covered = sum(low <= truth <= high for low, high in map(paired_scores, runs))
    assert covered / len(runs) >= 0.93
    if first == (0.05, 0.0) and seeds == 5:
        assert sum(low <= truth <= high for low, high in map(_t_interval, runs)) / len(runs) < 0.5


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
