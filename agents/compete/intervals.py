"""The 95 % intervals the published figures carry (the arena's and the tournament's tables, the
leaderboard, the benches), in one place: a rate's, the difference of two players' rates on the
same games, and the mean of paired score differences over seeds.

Each is chosen for where these figures land: rates at or near 0 or 1, and differences from few
seeds or rare wins. There the textbook normal and t intervals shrink to a point (two players who
both lost every game "differ by 0.000 (0.000..0.000)", as if a few games could prove them equal)
or miss the truth far more often than one time in twenty. tests/agents/test_intervals.py
simulates each one's coverage on such cases.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile


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
    """The 95 % interval of the mean of paired score differences, each in [-1, 1] (one seed's: a win
    scores 1, a draw 0.5, a loss 0): Bonett and Price's adjusted Wald interval for paired data, which
    counts one difference of +1 and one of -1 more before it takes the mean and the spread. For
    wins and losses alone it is theirs exactly; with draws, the same over scores. It is never a point
    (equal scores on every seed are evidence, not proof, of equal players), and it holds its
    coverage where a t interval over few seeds or rare wins does not."""
    n = len(differences) + 2
    mean = sum(differences) / n
    spread = (sum(d * d for d in differences) + 2) / n - mean * mean
    half = Z_95 * math.sqrt(spread / n)
    return max(-1.0, mean - half), min(1.0, mean + half)
