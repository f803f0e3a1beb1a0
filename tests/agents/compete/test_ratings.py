"""The ratings' numbers: one Bradley-Terry fit that does not depend on the matches' order, a
contestant that always wins rated high but finite, intervals that narrow with more matches,
each role anchored on its built-in agent with the offset between the roles, histories in play
order, contestants told apart by setup, void matches never rated, a game played again counted
once, rank bounds from the intervals, the bootstrap over seeds covering where seeds matter, and
the paired differences on examples worked by hand."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.compete import ratings
from labyrinth.agents.compete.bradley_terry import SCALE, bootstrap, fit, games_of, points, references
from labyrinth.agents.compete.ratings import HISTORY_POINTS, Contestant, Standings, contestant, rate
from labyrinth.saves.results_db import MatchRow

from .tournament_model import League


def match(user: str, minotaur: str, seed: int, outcome: str, **more) -> MatchRow:
    return MatchRow(user, minotaur, seed, "tiny", "normal", 20, outcome, 9, 12.0, **more)


def flat(value) -> list:
    """Every figure of a value, in order: dataclasses and containers opened, floats as they are."""
    if isinstance(value, dict):
        return [*value.keys(), *(f for v in value.values() for f in flat(v))]
    if isinstance(value, (list, tuple)):
        return [f for v in value for f in flat(v)]
    return [value]


def same(a: Standings, b: Standings) -> bool:
    left, right = flat(a.to_dict()), flat(b.to_dict())
    return len(left) == len(right) and all(
        math.isclose(x, y, abs_tol=1e-9) if isinstance(x, float) and isinstance(y, float) else x == y
        for x, y in zip(left, right, strict=True))


rows = st.lists(st.builds(
    match, st.sampled_from(["builtin", "random", "llama"]), st.sampled_from(["builtin", "wait", "llama"]),
    st.integers(1, 4), st.sampled_from(["ESCAPED", "DEATH", "TIMEOUT"]),
    repeat=st.integers(0, 1), user_setup=st.sampled_from(["", "3f2a9c0b1d2e", "3f2a9c77aa00"]),
    run_began=st.sampled_from(["", "2026-01-01T00:00:00.000000Z"]), void=st.sampled_from([None, None, "void: x"]),
    digest=st.sampled_from(["", "d1", "d2"])),
    max_size=30)


@settings(max_examples=30)
@given(rows, st.randoms(use_true_random=False))
def test_the_standings_do_not_depend_on_the_order_of_the_matches(found, shuffler):
    shuffled = list(found)
    shuffler.shuffle(shuffled)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ratings, "RESAMPLES", 20)  # the same draws in both, only fewer: the property is the order
        assert same(rate(shuffled), rate(found))


def test_a_contestant_that_always_wins_is_rated_high_and_finite():
    found = [match("ace", minotaur, seed, "ESCAPED") for minotaur in ("builtin", "wait") for seed in range(1, 9)]
    found += [match("random", minotaur, seed, outcome) for minotaur in ("builtin", "wait")
              for seed, outcome in zip(range(1, 9), ["DEATH", "TIMEOUT", "ESCAPED", "DEATH"] * 2, strict=True)]
    ace, other = rate(found).ratings["user"]
    assert ace.name == "ace" and (ace.wins, ace.draws, ace.losses) == (16, 0, 0)
    assert all(math.isfinite(v) for v in (ace.rating, ace.low, ace.high))
    assert ace.rating > other.rating + 200 and ace.low > other.rating
    assert ace.low <= ace.rating <= ace.high


def test_intervals_narrow_with_more_matches():
    outcomes = ["ESCAPED", "DEATH", "TIMEOUT", "ESCAPED", "DEATH", "DEATH"]

    def tournament(seeds: int) -> Standings:
        return rate(match(user, minotaur, seed, outcomes[(seed + i) % len(outcomes)])
                    for seed in range(seeds) for i, (user, minotaur) in
                    enumerate([("a", "x"), ("a", "y"), ("b", "x"), ("b", "y")]))

    few, many = tournament(12), tournament(96)
    for role in ("user", "minotaur"):
        for small, large in zip(few.ratings[role], many.ratings[role], strict=True):
            assert large.high - large.low < 0.6 * (small.high - small.low)


def test_users_and_minotaurs_are_one_model_each_role_on_its_scale_with_the_offset_between():
    """75% escapes (no draws) in 400 matches, neither role's reference playing: each role's one
    contestant is its mean, 1500, and the offset D says the user is 400 log10(3) = 191 points the
    stronger, the gap that predicts 75%."""
    found = [match("u", "m", seed, "ESCAPED" if seed % 4 else "DEATH") for seed in range(400)]
    standings = rate(found, detail=False)
    (user,), (minotaur,) = standings.ratings["user"], standings.ratings["minotaur"]
    assert user.rating == minotaur.rating == 1500
    assert standings.offset == pytest.approx(-400 * math.log10(3), abs=3)
    assert standings.expected(user.rating, minotaur.rating) == pytest.approx(0.75, abs=0.005)
    assert [a.describe() for a in standings.anchors.values()] == ["the mean of its contestants = 1500"] * 2


def test_the_history_follows_play_order_and_ends_at_the_rating():
    """u against the built-in user (the anchor, which draws every match): caught five times first, then escaped."""
    early = [replace(match(user, "m", seed, "DEATH" if user == "u" else "TIMEOUT"),
                     run_began="2026-01-01T00:00:00.000000Z") for seed in range(5) for user in ("builtin", "u")]
    late = [replace(match(user, "m", seed, "ESCAPED" if user == "u" else "TIMEOUT"),
                    run_began="2026-02-01T00:00:00.000000Z") for seed in range(5) for user in ("builtin", "u")]
    builtin, user = sorted(rate([*late, *early]).ratings["user"], key=lambda r: r.name)
    assert len(user.history) == 10 and user.history_at == tuple(range(1, 11))
    assert user.history[4] < 1450 < user.history[-1] == user.rating
    assert set(builtin.history) == {1500}
    many = [match(f"u{seed % 3}", "m", seed, random.Random(seed).choice(["ESCAPED", "DEATH"])) for seed in range(600)]
    for rating in rate(many).ratings["user"]:
        assert len(rating.history) <= HISTORY_POINTS and rating.history[-1] == rating.rating
        assert list(rating.history_at) == sorted(set(rating.history_at)) and rating.history_at[-1] == 200


def test_one_name_with_two_setups_is_two_contestants_shown_apart():
    found = [match("llama", "wait", 1, "ESCAPED", user_setup="3f2a9c0b1d2e"),
             match("llama", "wait", 1, "DEATH", user_setup="9b1d2e000000"),
             match("llama", "wait", 2, "DEATH", user_setup="9b1d2e111111"),
             match("builtin", "wait", 1, "TIMEOUT")]
    standings = rate(found)
    labels = sorted(r.label for r in standings.ratings["user"])
    assert labels == ["builtin", "llama (3f2a9c0)", "llama (9b1d2e0)", "llama (9b1d2e1)"]  # as much as tells them apart
    assert standings.label(found[1], "user") == "llama (9b1d2e0)" and standings.label(found[1], "minotaur") == "wait"
    assert {h.user for h in standings.head_to_head} == set(labels)
    short = rate(match("llama", "wait", 1, "DEATH", user_setup=setup) for setup in ("", "abc", "unrecorded"))
    assert sorted(r.label for r in short.ratings["user"]) == ["llama (abc)", "llama (no setup)", "llama (unrecorded)"]


def test_void_matches_are_never_rated():
    valid = [match("a", "x", seed, "ESCAPED") for seed in range(3)]
    void = [match("b", "x", seed, "DEATH", void="void: the user's model was replaced") for seed in range(3)]
    assert rate(valid + void) == rate(valid)
    assert [r.name for r in rate(valid + void).ratings["user"]] == ["a"]


def test_without_detail_the_ratings_are_the_same_and_nothing_else_is_drawn():
    found = [match(u, m, seed, ["ESCAPED", "DEATH", "TIMEOUT"][(seed + len(u + m)) % 3])
             for u in ("a", "b") for m in ("x", "y") for seed in range(6)]
    full, quick = rate(found), rate(found, detail=False)
    for role in ("user", "minotaur"):
        assert [(r.label, r.rating, r.wins) for r in quick.ratings[role]] == \
            [(r.label, r.rating, r.wins) for r in full.ratings[role]]
        assert all(r.low is None and r.history == () for r in quick.ratings[role])
        assert quick.paired[role] == () and full.paired[role]
    assert quick.head_to_head == full.head_to_head


def test_the_paired_difference_on_an_example_worked_by_hand():
    """Per seed, a's score minus b's against the same Minotaur, averaged over the Minotaurs:
    seed 1: (1 - 0.5 + 0 - 0) / 2 = 0.25 (a's two games against n there, repeats 0 and 1, both
    caught: its score there their mean, 0); seed 2: (0.5 - 0 + 1 - 1) / 2 = 0.25; seed 3:
    (0 - 1 + 1 - 0) / 2 = 0; seed 4: 1 - 0 against m alone (each side's repeat there is a sample of
    the same meeting). The void match is no pair. The mean 0.5 / 4 + 0.25 = 0.375, with draws and
    two opponents a seed: Student's t over the four seeds, t(0.975, 3) = 3.182446 times the
    standard error sqrt(0.1875 / 4) (the per-seed differences' variance 0.5625 / 3), and the
    two-sided p-value of t = 0.375 / 0.2165 = 1.732 on 3 degrees of freedom, 0.1817."""
    played = {("a", "m", 1): "ESCAPED", ("b", "m", 1): "TIMEOUT", ("a", "n", 1): "DEATH", ("b", "n", 1): "DEATH",
              ("a", "m", 2): "TIMEOUT", ("b", "m", 2): "DEATH", ("a", "n", 2): "ESCAPED", ("b", "n", 2): "ESCAPED",
              ("a", "m", 3): "DEATH", ("b", "m", 3): "ESCAPED", ("a", "n", 3): "ESCAPED", ("b", "n", 3): "DEATH"}
    found = [match(user, minotaur, seed, outcome) for (user, minotaur, seed), outcome in played.items()]
    found += [match("a", "m", 4, "ESCAPED"), match("b", "m", 4, "DEATH", repeat=1),
              match("b", "n", 1, "ESCAPED", repeat=1, void="void: replaced"), match("a", "n", 1, "DEATH", repeat=1)]
    standings = rate(found)
    (users,), (minotaurs,) = standings.paired["user"], standings.paired["minotaur"]
    half = 3.182446 * math.sqrt(0.1875 / 4)
    assert (users.first, users.second, users.pairs, users.seeds, users.method) == ("a", "b", 7, 4, "t")
    assert users.mean == pytest.approx(0.375) and users.low == pytest.approx(0.375 - half, abs=1e-6)
    assert users.high == 1.0  # 0.375 + 0.689: a difference is at most 1
    assert users.p == pytest.approx(0.1817, abs=1e-4)
    assert minotaurs.p > users.p and users.p_holm == 2 * users.p  # Holm over both roles' pairs: the smaller doubled
    assert minotaurs.p_holm == max(minotaurs.p, users.p_holm)


def test_one_seed_gives_a_difference_but_no_interval():
    (users,) = rate([match("a", "m", 1, "ESCAPED"), match("b", "m", 1, "DEATH")]).paired["user"]
    assert (users.mean, users.pairs, users.seeds, users.low, users.high) == (1.0, 1, 1, None, None)



def test_a_game_played_again_counts_once_and_narrows_nothing():
    """Rule agents repeated three times on each seed play the same game each time (one digest): the
    standings are those of one play, the copies counted and warned of. A model's repeats (other
    digests), a row without a digest and the same digest for other contestants all count."""
    once = [match(u, m, seed, ["ESCAPED", "DEATH", "TIMEOUT"][(seed + len(u) * len(m)) % 3], digest=f"g{seed}{u}{m}")
            for u in ("builtin", "random") for m in ("builtin", "wait") for seed in range(1, 7)]
    thrice = [replace(row, repeat=k) for row in once for k in range(3)]
    one, three = rate(once), rate(reversed(thrice))
    assert (one.copies, three.copies, one.copies_warning) == (0, 48, None)
    assert replace(three, copies=0) == one  # every figure: ratings, intervals, records, head to head, paired
    assert three.copies_warning == ("48 matches were copies of another game (same contestants, seed and moves) and "
                                    "count once: a repeat or a rerun of contestants that do not sample adds no "
                                    "information")
    sampled = [replace(row, repeat=1, digest=row.digest + "'") for row in once]  # another game on the same seed
    unknown = [replace(row, repeat=1, digest="") for row in once]
    assert rate(once + sampled).copies == 0 and rate(once + unknown).copies == 0
    assert rate(once + sampled).ratings != one.ratings
    other = [replace(row, user_setup="3f2a9c0b1d2e") for row in once]
    assert rate(once + other).copies == 0
    first = replace(once[0], repeat=1, outcome="DEATH")  # a copy's outcome never differs; if it did, the first counts
    assert rate([first, *once]).copies == 1 and rate([first, *once]).ratings == one.ratings


def test_each_role_is_anchored_on_its_builtin_agent_with_the_offset_the_fit_implies():
    """builtin = 1500 in each role, its interval that point; the offset D such that a user rated R against
    a Minotaur rated M is expected to score 1 / (1 + 10^((M - R + D) / 400)), checked against the fitted
    model's own probabilities, 1 / (1 + e^(s_M - s_R)) for every user and Minotaur."""
    outcomes = ["ESCAPED", "DEATH", "TIMEOUT", "DEATH", "DEATH", "ESCAPED", "TIMEOUT"]
    found = [match(u, m, seed, outcomes[(seed * 3 + len(u) + 2 * len(m)) % 7]) for u in ("builtin", "random", "ace")
             for m in ("builtin", "wait") for seed in range(1, 13)]
    found += [match("ace", m, seed, "ESCAPED") for m in ("builtin", "wait") for seed in range(13, 19)]
    standings = rate(found)
    for role in ("user", "minotaur"):
        (anchor,) = [r for r in standings.ratings[role] if r.anchor]
        assert (anchor.name, anchor.rating, anchor.low, anchor.high) == ("builtin", 1500, 1500, 1500)
        assert all(not r.anchor and r.low < r.high for r in standings.ratings[role] if r.name != "builtin")
        assert standings.anchors[role].describe() == "builtin = 1500"
    everyone = sorted({contestant(row, role) for row in found for role in ("user", "minotaur")})
    index = {c: i for i, c in enumerate(everyone)}
    strengths = fit(len(everyone), games_of(Counter((index[contestant(r, "user")], index[contestant(r, "minotaur")],
                                                     ratings.score(r, "user")) for r in found)))
    for user in standings.ratings["user"]:
        for minotaur in standings.ratings["minotaur"]:
            gap = strengths[index[Contestant("minotaur", minotaur.name)]] - \
                strengths[index[Contestant("user", user.name)]]
            assert standings.expected(user.rating, minotaur.rating) == pytest.approx(1 / (1 + math.exp(gap)))
    assert standings.offset_low < standings.offset < standings.offset_high
    method = " ".join(ratings.method_text(standings))
    assert "user ratings on builtin = 1500; Minotaur ratings on builtin = 1500" in method
    assert f"D = {standings.offset:+.0f}" in method


def test_rank_bounds_come_from_the_intervals_and_ties_share_places():
    """Two users that cannot be told apart share places 1-2; one clearly worse is third. Without
    intervals the bounds are the places."""
    outcomes = {"ace": "ESCAPED", "good": "ESCAPED", "poor": "DEATH"}
    found = [match(u, m, seed, outcomes[u] if (seed + len(m)) % 4 else "TIMEOUT") for u in outcomes
             for m in ("builtin", "wait") for seed in range(1, 11)]
    found[0] = replace(found[0], outcome="DEATH")  # ace and good differ by one game
    standings = rate(found)
    assert [(r.name, r.rank_best, r.rank_worst) for r in standings.ratings["user"]] == \
        [("good", 1, 2), ("ace", 1, 2), ("poor", 3, 3)]
    quick = rate(found, detail=False)
    assert [(r.rank_best, r.rank_worst) for r in quick.ratings["user"]] == [(1, 1), (2, 2), (3, 3)]
    (alone,) = rate([match("a", "m", 1, "ESCAPED")]).ratings["user"]  # one seed: no interval, its place
    assert (alone.low, alone.rank_best, alone.rank_worst) == (None, 1, 1)


def test_the_bootstrap_over_seeds_covers_where_seeds_matter():
    """A seed's difficulty shared by all its matches (spread 2.5 on the logit scale) and each pairing
    played three times a seed: 60 simulated tournaments of 12 seeds (two users and two Minotaurs,
    the built-in agents the anchors). The bootstrap over seeds covers each rating at least 85 % of the
    time and the offset D 88 % (here 0.88, 0.90 and 0.90; 0.94, 0.92 and 0.94 at 400 tournaments of
    200 resamples in bench/tournament/interval_coverage.py: here 40 resamples narrow it a little, and 60
    tournaments leave a standard error of 0.03); resampling single matches, as it replaced, takes a
    seed's difficulty for twelve independent games and covers D less than 80 % of the time (0.73
    here, 0.70 in the bench)."""
    league = League((0.0, 0.5), (0.0, 0.8), seed_sd=2.5, style_sd=0.5, games=3)
    groups = league.groups()
    exact = fit(league.size, {pair: (1e6 * p, 10 ** 6) for pair, p in league.expected().items()})
    user, minotaur = references(exact, groups)
    truth = [*points(exact, groups), SCALE * (minotaur - user)]
    rng, covered, runs = random.Random("ratings:seed-effects"), {"seeds": [0] * 5, "matches": [0] * 5}, 60
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ratings, "RESAMPLES", 40)
        for _ in range(runs):
            on_seed = [league.seed(rng) for _ in range(12)]
            played = [cell for cells in on_seed for cell in cells]
            centre = fit(league.size, games_of(Counter(played)))
            for name, where in (("seeds", [(s, "", "", 0, "") for s, cells in enumerate(on_seed) for _ in cells]),
                                ("matches", [(k, "", "", 0, "") for k in range(len(played))])):
                spans, offset = ratings.bootstrap_intervals(played, where, centre, groups)
                for k, (low, high) in enumerate([*spans, offset]):
                    covered[name][k] += low - 1e-9 <= truth[k] <= high + 1e-9
    share = {name: [c / runs for c in counts] for name, counts in covered.items()}
    assert share["seeds"][0] == share["seeds"][2] == 1  # the anchors: points, at their truth
    assert min(share["seeds"]) >= 0.85 and share["seeds"][4] >= 0.88, share
    assert share["matches"][4] < 0.8, share


def test_a_resample_without_the_anchor_is_drawn_again():
    """The anchor played on one seed of ten (and won all three games there): a resample without that
    seed would measure its role from nothing (the anchor at the prior's centre, 0), so it is drawn
    again; every resample holds the anchor's games."""
    clusters = [Counter({(1, 2, 1.0): 2, (1, 2, 0.0): 1}) for _ in range(9)] + [Counter({(0, 2, 1.0): 3})]
    fitted = bootstrap(3, clusters, [1.0, 0.2, -1.0], 100, "test", needed=[0])
    assert all(strengths[0] > 0.5 for strengths in fitted)
    assert any(abs(strengths[0]) < 1e-6 for strengths in bootstrap(3, clusters, [1.0, 0.2, -1.0], 100, "test"))


def test_seeds_that_all_agree_give_the_models_interval_not_a_point():
    """Rule agents on two seeds that played out alike: every resample of the seeds is the same, yet two
    seeds prove little. The intervals are the model's, every match independent (hundreds of points
    wide with eight matches), the anchors' still their point, and the offset's too."""
    outcomes = {("builtin", "builtin"): "TIMEOUT", ("builtin", "wait"): "TIMEOUT", ("random", "builtin"): "DEATH",
                ("random", "wait"): "TIMEOUT"}
    standings = rate(match(u, m, seed, outcome) for (u, m), outcome in outcomes.items() for seed in (1, 2))
    for role in ("user", "minotaur"):
        anchor, other = standings.ratings[role]
        assert anchor.low == anchor.high == 1500 and other.high - other.low > 500
        assert other.low < other.rating < other.high and (other.rank_best, other.rank_worst) == (1, 2)
    assert standings.offset_high - standings.offset_low > 500


def test_one_win_loss_game_each_a_seed_takes_bonett_and_price_and_anything_else_t():
    """Two users against one Minotaur, escaped or caught on each of six seeds: Bonett and Price's interval
    with the exact McNemar test (a escaped where b was caught on three seeds, never the reverse: p = 0.25).
    A draw anywhere, a second opponent, or a seed where one played twice (its score there a mean) is no
    longer that case: t over the seeds."""
    outcomes = {"a": "EEEDDE", "b": "DDDDDE"}
    found = [match(u, "m", seed, "ESCAPED" if said[seed] == "E" else "DEATH") for u, said in outcomes.items()
             for seed in range(6)]
    (pair,) = rate(found).paired["user"]
    assert (pair.first, pair.method, pair.p) == ("a", "bonett-price", 0.25)
    for more in ([match("a", "m", 0, "DEATH", repeat=1)], [match("a", "n", 0, "DEATH"), match("b", "n", 0, "DEATH")]):
        assert rate(found + more).paired["user"][0].method == "t"
    assert rate([replace(found[0], outcome="TIMEOUT"), *found[1:]]).paired["user"][0].method == "t"
