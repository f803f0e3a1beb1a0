"""The coverage and power of the tournament's intervals on simulated tournaments, at larger
counts than the suite's tests (tests/agents/compete/test_paired_power.py, test_ratings.py), from the
same model (tests/agents/compete/tournament_model.py: seeds with a shared difficulty and a fit to each
contestant's style, strengths, wins, draws and losses from an ordered logit).

The paired difference (intervals.paired_over_seeds, as rate() uses it) at 10 seeds against 1, 3
and 6 opponents, with draws and without: its coverage of the true difference when the two are
equal (truth 0) and when the first is better by +0.25, and its power (the share of tournaments
whose interval leaves out 0), beside the plain t interval over seeds and the interval it replaced
(Bonett and Price's pseudo-differences added to per-seed means); then the rare-win corner; then
single win/loss pairs, where Bonett and Price's interval is kept: t fails there at some truths.

The ratings' intervals (ratings.bootstrap_intervals, as rate() uses it: the bootstrap over seeds,
stretched for few seeds): coverage of each non-anchor rating and of the offset D between the roles,
beside the bootstrap over single matches it replaced, with anchored scales, for weak and strong
seed effects. Target: 0.93-0.97 for every interval (0.95 nominal).

    .venv/bin/python bench/tournament/interval_coverage.py [--runs 10000] [--rating-runs 400] [--quick]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.agents.compete.tournament_model

from labyrinth.agents.compete import ratings
from labyrinth.agents.compete.bradley_terry import SCALE, bootstrap, fit, games_of, middle_95, points, references
from labyrinth.agents.compete.intervals import paired_over_seeds
from tests.agents.compete.tournament_model import Field, League, simulate, with_gap

SEEDS = 10
OPPONENTS = {1: (0.0,), 3: (-0.5, 0.0, 0.5), 6: (-1.0, -0.6, -0.2, 0.2, 0.6, 1.0)}
RATING_CASES = ((0.0, 0.0, 12, 3, 3, 1), (2.0, 0.0, 12, 3, 3, 1), (0.0, 1.5, 12, 3, 3, 1), (1.0, 1.0, 20, 3, 3, 1),
                (1.5, 1.5, 12, 2, 4, 1), (1.5, 1.0, 30, 4, 2, 1),
                (2.5, 0.5, 12, 2, 2, 3))  # seed sd, style sd, seeds, users, Minotaurs, games a pairing and seed


def paired_case(field: Field, runs: int, purpose: str) -> dict[str, tuple[float, float]]:
    return simulate(field, SEEDS, runs, f"interval-coverage:{purpose}")


def paired_tables(runs: int) -> None:
    print(f"Paired difference, {SEEDS} seeds, {runs} tournaments a row: coverage / power (leaves out 0)")
    print(f"{'case':<34}{'truth':>7}  {'ours':>13}  {'plain t':>13}  {'old (B-P)':>13}")
    for draws, cut in (("draws", 0.6), ("no draws", 0.0)):
        for opponents, strengths in OPPONENTS.items():
            for target in (0.0, 0.25):
                field = with_gap(strengths, target, cut=cut) if target else Field(0.0, 0.0, strengths, cut=cut)
                found = paired_case(field, runs, f"{draws}:{opponents}:{target}")
                cells = "  ".join(f"{c:.3f} / {p:.3f}" for c, p in found.values())
                print(f"{f'{opponents} opponent(s), {draws}':<34}{field.truth():>7.3f}  {cells}")
    print("\nRare wins (both lose nearly always: first wins about 1 in 12, second 1 in 50): coverage / power")
    for opponents, cut in ((1, 0.0), (1, 0.3), (3, 0.0), (3, 0.3), (6, 0.0), (6, 0.3)):
        for first, second in ((-3.0, -4.5), (-3.5, -3.5)):
            field = Field(first, second, OPPONENTS[opponents], seed_sd=0.5, style_sd=0.3, cut=cut)
            found = paired_case(field, runs, f"rare:{opponents}:{cut}:{first}:{second}")
            cells = "  ".join(f"{c:.3f} / {p:.3f}" for c, p in found.values())
            print(f"{f'{opponents} opponent(s), cut {cut}':<34}{field.truth():>7.3f}  {cells}")


def binary_table(runs: int) -> None:
    """Single win/loss pairs (each seed +1, 0 or -1) drawn directly: Bonett and Price's interval, kept
    for this case, against t over the seeds (with the exact bound when every seed agrees)."""
    print(f"\nSingle win/loss pairs, {SEEDS} seeds, {runs} tournaments a row: coverage, Bonett-Price / t")
    for first_only, second_only in ((0.35, 0.0), (0.3, 0.0), (0.25, 0.0), (0.1, 0.0), (0.45, 0.05), (0.2, 0.2)):
        rng, truth = random.Random(f"interval-coverage:binary:{first_only}:{second_only}"), first_only - second_only
        covered = {True: 0, False: 0}
        for _ in range(runs):
            draws = [rng.random() for _ in range(SEEDS)]
            differences = [1.0 if u < first_only else -1.0 if u < first_only + second_only else 0.0 for u in draws]
            for binary in covered:
                tested = paired_over_seeds(differences, binary)
                assert tested.low is not None and tested.high is not None
                covered[binary] += tested.low <= truth <= tested.high
        print(f"  first alone wins {first_only:.2f}, second alone {second_only:.2f}: "
              f"{covered[True] / runs:.3f} / {covered[False] / runs:.3f}")


def offset(strengths: list[float], groups: list[tuple[list[int], int]]) -> float:
    user, minotaur = references(strengths, groups)
    return SCALE * (minotaur - user)


def match_bootstrap(league: League, played: list[tuple[int, int, float]], centre: list[float]
                    ) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """The interval it replaced: every match resampled on its own (the percentile interval), anchored alike."""
    groups = league.groups()
    fitted = bootstrap(league.size, [Counter([cell]) for cell in played], centre, ratings.RESAMPLES,
                       ratings.BOOTSTRAP_SEED, [0, len(league.users)])
    rated = [points(drawn, groups) for drawn in fitted]
    return ([middle_95([r[i] for r in rated]) for i in range(league.size)],
            middle_95([offset(drawn, groups) for drawn in fitted]))


def rating_case(league: League, seeds: int, runs: int, purpose: str) -> dict[str, list[float]]:
    """Each method's coverage of each non-anchor rating and of D (in that order)."""
    groups = league.groups()
    truth_fit = fit(league.size, {pair: (1e6 * p, 10 ** 6) for pair, p in league.expected().items()})
    truth = [*points(truth_fit, groups), offset(truth_fit, groups)]
    shown = [i for i in range(league.size) if i not in (0, len(league.users))] + [league.size]
    rng = random.Random(f"interval-coverage:ratings:{purpose}")
    covered = {"seeds": [0] * len(shown), "matches": [0] * len(shown)}
    for _ in range(runs):
        on_seed = [league.seed(rng) for _ in range(seeds)]
        played = [cell for cells in on_seed for cell in cells]
        where = [(s, "", "", 0, "") for s, cells in enumerate(on_seed) for _ in cells]
        centre = fit(league.size, games_of(Counter(played)))
        for name, (spans, span) in (("seeds", ratings.bootstrap_intervals(played, where, centre, groups)),
                                    ("matches", match_bootstrap(league, played, centre))):
            every = [*spans, span]
            for k, i in enumerate(shown):
                covered[name][k] += every[i][0] - 1e-9 <= truth[i] <= every[i][1] + 1e-9
    return {name: [c / runs for c in counts] for name, counts in covered.items()}


def rating_tables(runs: int) -> None:
    print(f"\nRatings, {runs} tournaments a row ({ratings.RESAMPLES} resamples): coverage of each non-anchor "
          "rating (users, then Minotaurs) and of the offset D")
    for seed_sd, style_sd, seeds, users, minotaurs, games in RATING_CASES:
        league = League((0.0, 0.5, -0.5, 0.2)[:users], (0.0, 0.8, -0.4, 0.3)[:minotaurs], seed_sd, style_sd,
                        games=games)
        started = time.perf_counter()
        found = rating_case(league, seeds, runs, f"{seed_sd}:{style_sd}:{seeds}:{users}:{minotaurs}:{games}")
        print(f"seed sd {seed_sd}, style sd {style_sd}, {seeds} seeds, {users} users x {minotaurs} Minotaurs, "
              f"{games} game(s) a pairing and seed ({time.perf_counter() - started:.0f} s)")
        for name, values in found.items():
            shown = " ".join(f"{v:.3f}" for v in values)
            print(f"  by {name:<8} {shown}   mean {sum(values) / len(values):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10_000, help="simulated tournaments a paired row")
    parser.add_argument("--rating-runs", type=int, default=400, help="simulated tournaments a ratings row")
    parser.add_argument("--quick", action="store_true", help="2,000 and 100")
    args = parser.parse_args()
    runs, rating_runs = (2_000, 100) if args.quick else (args.runs, args.rating_runs)
    paired_tables(runs)
    binary_table(runs)
    rating_tables(rating_runs)


if __name__ == "__main__":
    main()
