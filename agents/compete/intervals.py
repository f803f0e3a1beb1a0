"""The 95 % intervals and p-values the published figures carry (the arena's and the tournament's
tables, the leaderboard, the benches), in one place: a rate's, the difference of two players' rates
on the same games, and the mean over seeds of two contestants' paired score differences.

Each is chosen for where these figures land: rates at or near 0 or 1, differences from few seeds
or rare wins. The paired mean over seeds (paired_over_seeds) takes the test that was derived for
what it is handed. For anything but single win/loss pairs (several opponents a seed, draws),
Student's t over the per-seed means: simulated at 10 seeds against 1, 3 and 6 opponents it covers
0.95-0.96 and finds a true +0.25 in 25, 57 and 82 % of tournaments, where Bonett and Price's
pseudo-differences added to means covered 0.98-1.00 and found it in 15-18 %. When every seed gave
the same difference a t interval would be a point; the bound used instead is exact
(all_equal_interval), and keeps the rare-win corner at 0.94 or more where a bare t covers as little
as 0.49.
For one pair of win/loss scores a seed, Bonett and Price's adjusted interval with the exact McNemar
test, which were derived for it: t fails there at some truths (0.89 where one side alone wins a
third of the seeds), theirs stays at 0.94 or more in every case simulated, at the price of caution
(0.97-0.98 and about half t's power in the model of test_paired_power.py). tests/agents/compete/test_intervals.py and
test_paired_power.py simulate coverage and power; bench/tournament/interval_coverage.py prints them at larger
counts.

Student's t distribution is computed here (no SciPy): its CDF from the regularized incomplete
beta function (a continued fraction, as in Numerical Recipes' betacf), its quantile by bisection.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile
ALPHA = 0.05  # one minus the intervals' level
T_TEST, BONETT_PRICE, ALL_EQUAL, ONE_SEED = "t", "bonett-price", "all-equal", "one-seed"  # PairedTest.method
SAME = 1e-9  # per-seed differences closer than this are equal (sums in another order differ in the last bits)


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a success rate: unlike the normal
    approximation it stays inside [0, 1] and is honest at 0 or all successes,
    which is where the naive yardsticks land."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_proportions(pairs: Sequence[tuple[bool, bool]]) -> tuple[float, float, float]:
    """The difference of two success rates over the same trials (first's minus second's), with
    Newcombe's 95 % interval for paired proportions (his method 10: from each rate's Wilson interval
    and the correlation of the pairs): (difference, low, high). A paired t interval says too much
    when successes are rare (four against none 'exclude zero' by t, where a sign test gives p =
    0.125); this one needs about six, and it is never a point when both did the same."""
    n = len(pairs)
    both = sum(1 for a, b in pairs if a and b)
    only_first = sum(1 for a, b in pairs if a and not b)
    only_second = sum(1 for a, b in pairs if b and not a)
    neither = n - both - only_first - only_second
    p1, p2 = (both + only_first) / n, (both + only_second) / n
    (l1, u1), (l2, u2) = wilson_interval(both + only_first, n), wilson_interval(both + only_second, n)
    spread = (both + only_first) * (only_second + neither) * (both + only_second) * (only_first + neither)
    cross = both * neither - only_first * only_second
    phi = 0.0 if spread == 0 else (max(cross - n / 2, 0.0) if cross > 0 else cross) / math.sqrt(spread)
    below = math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    above = math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
    return p1 - p2, p1 - p2 - below, p1 - p2 + above


def paired_scores(differences: Sequence[float]) -> tuple[float, float]:
    """Bonett and Price's adjusted Wald interval (95 %) for the difference of two paired proportions,
    from the pairs' differences, each -1, 0 or +1 (one trial's success minus the other's): it counts
    one difference of +1 and one of -1 more before it takes the mean and the spread, which is their
    (n12 + 1) / (n + 2) and (n21 + 1) / (n + 2). It is never a point, and it holds its coverage with
    few pairs or rare successes. It was derived for single binary pairs and is used only there: on
    means of several games (several opponents a seed) its pseudo-differences of ±1 are far larger
    than the data's spread, and it misses real differences a t interval finds (paired_over_seeds)."""
    n = len(differences) + 2
    mean = sum(differences) / n
    spread = (sum(d * d for d in differences) + 2) / n - mean * mean
    half = Z_95 * math.sqrt(spread / n)
    return max(-1.0, mean - half), min(1.0, mean + half)


@dataclass(frozen=True)
class PairedTest:
    """A mean of paired differences over seeds, tested: its 95 % interval, the two-sided p-value of
    the same test against no difference, and which test it was (T_TEST, BONETT_PRICE, ALL_EQUAL,
    ONE_SEED: no interval and no p-value, the spread between seeds unseen)."""

    mean: float
    low: float | None
    high: float | None
    p: float | None
    method: str


def paired_over_seeds(differences: Sequence[float], binary: bool = False) -> PairedTest:
    """The mean of per-seed differences (each in [-1, 1]: one seed's mean of first's score minus
    second's against the same opponents) with its interval and p-value. ``binary``: every seed holds
    one pair of win/loss scores (no draw, no mean of several games), so each difference is -1, 0 or
    +1: then Bonett and Price's interval (paired_scores) and the exact McNemar test (mcnemar_exact),
    both derived for that. Otherwise Student's t over the seeds (the per-seed differences are
    independent: the seeds are drawn independently, and all of a seed's matches are in its one
    mean), unless every seed gave the same difference (all_equal_interval)."""
    n = len(differences)
    mean = sum(differences) / n
    if n < 2:
        return PairedTest(mean, None, None, None, ONE_SEED)
    if binary:
        low, high = paired_scores(differences)
        return PairedTest(mean, low, high, mcnemar_exact(differences.count(1), differences.count(-1)), BONETT_PRICE)
    if max(differences) - min(differences) <= SAME:
        low, high, p = all_equal_interval(mean, n)
        return PairedTest(mean, low, high, p, ALL_EQUAL)
    error = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1) / n)
    half = t_quantile(1 - ALPHA / 2, n - 1) * error
    return PairedTest(mean, max(-1.0, mean - half), min(1.0, mean + half), t_two_sided(mean / error, n - 1), T_TEST)


def mean_interval(values: Sequence[float]) -> tuple[float, float | None, float | None]:
    """The mean of independent values (games, or training runs) with Student's t 95 % interval:
    (mean, low, high), low and high None below two values or when all are equal (no spread seen)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2 or max(values) - min(values) <= SAME:
        return mean, None, None
    half = t_quantile(1 - ALPHA / 2, n - 1) * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return mean, mean - half, mean + half


def all_equal_interval(difference: float, seeds: int) -> tuple[float, float, float]:
    """The 95 % interval and p-value of a mean difference when all ``seeds`` seeds gave the same
    ``difference`` d. A t interval would be a point (no spread seen), yet a few seeds that agreed
    prove little: two contestants that both lost every game may still differ when one wins now and
    then. What the seeds do show is how often a seed gives another value at most: if a share q of
    seeds did, the chance that n in a row gave d is (1 - q)^n, below ALPHA / 2 for q above
    q* = 1 - (ALPHA / 2)^(1 / n) (the exact Clopper-Pearson bound for n out of n). Every difference
    lies in [-1, 1], so with that share at most q* the mean lies in [d - q*(1 + d), d + q*(1 - d)]:
    an interval that narrows as seeds agree, and misses only when some value of share below
    (ALPHA / 2)^(1 / n) came up n times: at most ALPHA / 2 for each such value, ALPHA in all for four
    seeds or more whatever the seeds' distribution (two such values at most; with two or three seeds
    several could, and the bound is looser). Its p-value (the ALPHA at which the interval first
    leaves out 0) is 2 (1 + |d|)^-n: for d = ±1, the exact two-sided sign test."""
    bound = 1 - (ALPHA / 2) ** (1 / seeds)
    p = min(1.0, 2 * (1 + abs(difference)) ** -seeds)
    return difference - bound * (1 + difference), difference + bound * (1 - difference), p


def mcnemar_exact(first_only: int, second_only: int) -> float:
    """The exact McNemar test's two-sided p-value: of the pairs where only one side won, ``first_only``
    went to the first, ``second_only`` to the second; with no difference, each such pair is a fair coin
    (the binomial sign test on the discordant pairs, doubled, at most 1)."""
    discordant = first_only + second_only
    tail = sum(math.comb(discordant, k) for k in range(min(first_only, second_only) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2 ** discordant)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (in their order): the k-th smallest times the number
    not yet passed, never below the adjusted one before it, at most 1. Rejecting where the adjusted
    value is below ALPHA keeps the chance of any false difference among them all at ALPHA or less,
    whatever their dependence. Equal p-values get equal adjusted ones, so the order handed in does
    not matter."""
    order = sorted(range(len(p_values)), key=p_values.__getitem__)
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


# --- Student's t distribution ---------------------------------------------------------------------

def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = _beta_regularized(df / 2, 0.5, df / (df + t * t)) / 2  # P(T > |t|)
    return 1 - tail if t > 0 else tail


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|): the two-sided p-value of a t statistic (computed from the tail, exact far out)."""
    return _beta_regularized(df / 2, 0.5, df / (df + t * t))


@lru_cache(maxsize=256)
def t_quantile(probability: float, df: float) -> float:
    """The t with P(T <= t) = ``probability``, to about 1e-12 (bisection on t_cdf)."""
    if not 0 < probability < 1:
        raise ValueError(f"a quantile's probability is within (0, 1), not {probability}")
    if probability < 0.5:
        return -t_quantile(1 - probability, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < probability:
        low, high = high, 2 * high
    while high - low > 1e-13 * high:
        middle = (low + high) / 2
        low, high = (middle, high) if t_cdf(middle, df) < probability else (low, middle)
    return (low + high) / 2


def _beta_regularized(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction on the side of
    x where it converges fast (I_x(a, b) = 1 - I_{1-x}(b, a) on the other)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function, by the modified Lentz method."""
    tiny = 1e-300  # keeps a denominator off zero

    def kept(value: float) -> float:
        return value if abs(value) > tiny else tiny

    c, d = 1.0, 1 / kept(1 - (a + b) * x / (a + 1))
    fraction = d
    for m in range(1, 1000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 / kept(1 + numerator * d)
            c = kept(1 + numerator / c)
            fraction *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return fraction
