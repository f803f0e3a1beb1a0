"""Same seed + same inputs = byte-identical output, in and across processes.

The golden hashes pin the rules' behaviour: a change to them is a change to
the game, to be made on purpose (update the table and say why).
"""

import hashlib
import json
import subprocess
import sys

import pytest

from labyrinth.agents.builtin.rule_agents import RULE_AGENTS
from labyrinth.agents.match.runner import Match
from labyrinth.engine import Game
from labyrinth.engine.wsap.perception import UserPerception

pytestmark = pytest.mark.slow

SCRIPT = [
    ({"command": "LOOK"}, {"action": "CHASE"}),
    ({"command": "MOVE", "direction": "NORTH", "steps": 12, "speed": 2}, {"action": "CHASE"}),
    ({"command": "MOVE", "direction": "EAST", "steps": 30}, {"action": "JUMP"}),
    ({"command": "HALT", "steps": 9}, {"action": "CHASE"}),
    ({"command": "MOVE", "direction": "WEST", "steps": 100, "speed": 2},
     {"action": "PATHFIND", "target_coords": {"x": 200, "y": 200, "z": 100}}),
    ({"command": "MOVE", "direction": "SOUTH", "steps": 100}, {"action": "CHASE"}),
    ({"command": "LOOK"}, {"action": "WAIT"}),
] * 3
# The same script with the counts left out: runs that stop at junctions, ramps, items and hoofbeats.
RUNS = [({k: v for k, v in user.items() if k != "steps" or user["command"] != "MOVE"}, minotaur)
        for user, minotaur in SCRIPT]

# Exact counts play as they did before runs existed: these hashes predate them.
GOLDEN = {
    ("tiny", 1): "9543e4c40842af52",
    ("standard", 1): "7ba434b6dc84d79e",
    ("standard", 2): "c55d5ccd30d7d1d1",
    ("large", 3): "56e1885dd114a56e",
}

# Runs follow corridors round their bends (docs/rules.md, decision 16): standard-1's hash changed with
# that rule (it was 936e3e2aa937dda3 when a bend stopped a run); the others meet no bend they would turn.
RUNS_GOLDEN = {
    ("tiny", 1): "8125bcdbcd927d19",
    ("standard", 1): "9ac53e2b883e78cb",
    ("large", 3): "ff487602f2962fb3",
}


# Every word both sides are told, pinned apart from the state (issue 29: the words are built only when read, and
# must read the same): the scripts' responses and observations as JSON, and matches of the built-in agents with
# every turn's responses, observations and both seats' WSAP observations as text and as structured data.
# Issue 41 added the user's line on leaving and re-entering the hunting ground (UserLeftGround,
# UserReenteredGround) and said the end in words ("You die.", "You have escaped!", not DEATH and ESCAPED): the
# words changed with them, and only by them (with those lines as before they hashed as before: tiny-1
# 10a19a7b9071cce6, standard-1 27bae78182422f37, large-3 a50b0766a61db277; the matches 2a354c34fa6bffbe,
# 3982c067ab88b9dc, ac30d0275cdc4c33, 5ebf2d8912f47085, 0d173acb128a05a2; gsm 4f001b9571a830ce and
# bccc60ff2a515122); the state hashes are the same.
WORDS_GOLDEN = {
    ("tiny", 1): "b90c38bcaafdc4a4",
    ("standard", 1): "c17550146fe13d2e",
    ("large", 3): "de1f19262bf8f5c0",
}
MATCH_WORDS_GOLDEN = {
    ("small", 5, "normal"): "6bce6602f2771878",
    ("small", 8, "normal"): "eb007be5ed1a15f6",
    ("standard", 6, "hard"): "f99c0f6c4a708669",
    ("standard", 10, "normal"): "154347c721e774a6",
    ("tiny", 9, "hard"): "fdc3c004b77dcc42",
}


def _play(preset: str, seed: int, script=SCRIPT) -> str:
    game = Game.new(seed, preset)
    for user, minotaur in script:
        game.step(user, minotaur)
    return game.state.digest(1)  # the pinned hashes are of state version 1 (the lantern's timer a field of its own)


@pytest.mark.parametrize("preset, seed", sorted(GOLDEN))
def test_golden_state_hash(preset, seed):
    assert _play(preset, seed) == GOLDEN[(preset, seed)]


@pytest.mark.parametrize("preset, seed", sorted(RUNS_GOLDEN))
def test_golden_state_hash_of_runs(preset, seed):
    assert _play(preset, seed, RUNS) == RUNS_GOLDEN[(preset, seed)]


def test_gsm_output_is_byte_identical_across_processes():
    lines = "".join(json.dumps({"user": u, "minotaur": m}) + "\n" for u, m in SCRIPT)
    cmd = [sys.executable, "-m", "labyrinth", "gsm", "--seed", "4", "--preset", "small", "--minotaur", "external"]
    runs = [subprocess.run(cmd, input=lines, capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": str(h), "PATH": ""}).stdout for h in (1, 2)]
    assert runs[0] == runs[1] and runs[0].count("\n") == len(SCRIPT) + 1
    assert hashlib.sha256(runs[0].encode()).hexdigest()[:16] == "96c92fe424006034"  # the lines themselves


def test_gsm_lines_against_the_built_in_minotaur_are_pinned():
    lines = "".join(json.dumps(user) + "\n" for user, _ in SCRIPT)
    cmd = [sys.executable, "-m", "labyrinth", "gsm", "--seed", "4", "--preset", "small", "--minotaur", "builtin"]
    out = subprocess.run(cmd, input=lines, capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "1", "PATH": ""}).stdout
    assert hashlib.sha256(out.encode()).hexdigest()[:16] == "9cbb9bd706759fca"


def _words(preset: str, seed: int) -> str:
    digest, game = hashlib.sha256(), Game.new(seed, preset)
    for result in (game.opening(), *(game.step(u, m) for u, m in SCRIPT + RUNS)):
        digest.update(result.response.model_dump_json().encode())
        digest.update(result.observation.model_dump_json().encode())
    for bad in ("{", {"command": "GRAB"}):
        result = game.step(bad)
        digest.update(result.response.model_dump_json().encode() + result.observation.model_dump_json().encode())
    return digest.hexdigest()[:16]


def _match_words(preset: str, seed: int, difficulty: str) -> str:
    agents = {role: RULE_AGENTS[role]["builtin"](seed) for role in ("user", "minotaur")}
    match = Match(agents["user"], agents["minotaur"], seed=seed, preset=preset, difficulty=difficulty, max_turns=300)
    digest = hashlib.sha256()
    while match.outcome is None:
        result = match.play_turn().result
        digest.update(result.response.model_dump_json().encode() + result.observation.model_dump_json().encode())
        for seat in match.seats.values():
            digest.update(seat.observation.to_text().encode())
            digest.update(json.dumps(seat.observation.to_structured(), sort_keys=True).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("preset, seed", sorted(WORDS_GOLDEN))
def test_golden_words(preset, seed):
    assert _words(preset, seed) == WORDS_GOLDEN[(preset, seed)]


@pytest.mark.parametrize("preset, seed, difficulty", sorted(MATCH_WORDS_GOLDEN))
def test_golden_words_of_built_in_matches(preset, seed, difficulty):
    assert _match_words(preset, seed, difficulty) == MATCH_WORDS_GOLDEN[(preset, seed, difficulty)]


def test_golden_words_of_a_user_perception_told_refusals():
    """The user's WSAP observation after refused commands (its status line quotes the refusal) and after
    moves, as text and as data: pinned on the code before its numbers were read from the state."""
    out = []
    for seed in (1, 2, 3):
        game = Game.new(seed, "small")
        perception = UserPerception(game.world)
        perception.observe(game.opening())
        for command in ({"command": "GRAB"}, {"command": "USE"}, {"command": "MOVE", "direction": "NORTH", "steps": 3},
                        "{", {"command": "LOOK"}, {"command": "MOVE", "direction": "UP RAMP"}):
            observation = perception.observe(game.step(command, {"action": "CHASE"}))
            out += [observation.to_text(), json.dumps(observation.to_structured(), sort_keys=True)]
    assert hashlib.sha256("".join(out).encode()).hexdigest()[:16] == "c492de3a0c046f39"
