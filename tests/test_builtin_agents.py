"""The built-in agents, judged by what they do: seeded play, real wins over
naive opponents, and the rules' limits respected."""

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

from labyrinth.agents.registry import make_agent
from labyrinth.agents.runner import Match

SEEDS = range(20)


def _outcomes(user: str, minotaur: str, preset: str = "small") -> Counter:
    return Counter(Match(make_agent("user", user, s), make_agent("minotaur", minotaur, s), seed=s, preset=preset,
                         max_turns=300).play().outcome for s in SEEDS)


def test_same_seed_same_play():
    def play(seed):
        match = Match(make_agent("user", "builtin", seed), make_agent("minotaur", "builtin", seed), seed=seed,
                      preset="small", max_turns=120)
        return [match.play_turn().record.to_dict() for _ in range(60) if match.outcome is None]

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_the_builtin_user_escapes_where_a_random_walker_does_not():
    builtin, random_walk = _outcomes("builtin", "wait"), _outcomes("random", "wait")
    assert builtin["ESCAPED"] >= 12
    assert random_walk["ESCAPED"] <= builtin["ESCAPED"] // 3


def test_the_builtin_minotaur_catches_where_a_waiting_one_does_not():
    hunted, waited = _outcomes("builtin", "builtin"), _outcomes("builtin", "wait")
    assert waited["DEATH"] == 0
    assert hunted["DEATH"] >= 4


def test_builtin_agents_never_need_a_fallback():
    for seed in range(6):
        result = Match(make_agent("user", "builtin", seed), make_agent("minotaur", "builtin", seed), seed=seed,
                       preset="standard").play()
        for side in (result.user, result.minotaur):
            assert (side.fallbacks, side.invalid, side.exceptions) == (0, 0, 0)
        assert result.user.errors <= 1


# The built-in user's commands on these matches, pinned: a change to how it decides is made on
# purpose (update the digest and say why); a refactoring leaves it as it is.
PLAY_DIGEST = {("small", "builtin"): "1ef42f5395b21043", ("standard", "builtin"): "9a488e06acb712e1",
               ("small", "wait"): "280cb010131a5d8f"}


def _play_digest(preset: str, minotaur: str) -> str:
    commands = []
    for seed in range(1, 9):
        match = Match(make_agent("user", "builtin", seed), make_agent("minotaur", minotaur, seed), seed=seed,
                      preset=preset, max_turns=150)
        while match.outcome is None:
            record = match.play_turn().record.to_dict()
            commands.append([record["user"], record["status"]])
    return hashlib.sha256(json.dumps(commands, sort_keys=True).encode()).hexdigest()[:16]


def test_the_builtin_users_play_is_pinned():
    assert {key: _play_digest(*key) for key in PLAY_DIGEST} == PLAY_DIGEST


# The difficulty ordering against a person-like user (bench/person.py: long walks, FAINT cues
# ignored) in hard games, on fixed seeds for the first EARLY_S of game time: the hard Minotaur
# is heard or seen early, and catches clearly more often than the same Minotaur keeping its
# normal habits (the game is the same, so the difference is the Minotaur's alone).
# bench/threat_bench.py measures this, and normal games, on 200 seeds.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from person import PersonLikeUser
from threat_bench import EARLY_S, Habitual, first_cue

THREAT_SEEDS = range(1, 11)


def _hunt(minotaur, seed: int) -> tuple[float | None, bool]:
    """A hard game until EARLY_S: when the person first heard or saw the Minotaur, and whether it was caught."""
    match = Match(PersonLikeUser(seed), minotaur, seed=seed, preset="standard", difficulty="hard")
    cue = None
    while match.outcome is None and match.game.state.tick / 2 < EARLY_S:
        match.play_turn()
        if cue is None and first_cue(match.seats["user"].observation):
            cue = match.game.state.tick / 2
    return cue, match.outcome == "DEATH"


def test_the_hard_minotaur_frightens_a_person_more_than_the_normal_one():
    hard = [_hunt(make_agent("minotaur", "builtin", s), s) for s in THREAT_SEEDS]  # told "hard" by its seat
    habitual = [_hunt(Habitual(s, "normal"), s) for s in THREAT_SEEDS]
    assert sum(cue is not None and cue <= 60 for cue, _ in hard) >= 8
    assert sum(caught for _, caught in hard) >= sum(caught for _, caught in habitual) + 2
