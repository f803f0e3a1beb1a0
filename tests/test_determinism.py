"""Same seed + same inputs = byte-identical output, in and across processes.

The golden hashes pin the rules' behaviour: a change to them is a change to
the game, to be made on purpose (update the table and say why).
"""

import json
import subprocess
import sys

import pytest

from labyrinth.engine import Game

pytestmark = pytest.mark.slow

SCRIPT = [
    ({"command": "LOOK"}, {"action": "CHASE"}),
    ({"command": "MOVE", "direction": "NORTH", "steps": 12, "speed": 2}, {"action": "CHASE"}),
    ({"command": "MOVE", "direction": "EAST", "steps": 30}, {"action": "JUMP"}),
    ({"command": "HALT", "steps": 9}, {"action": "CHASE"}),
    ({"command": "MOVE", "direction": "WEST", "steps": 100, "speed": 2}, {"action": "PATHFIND", "target_coords": {"x": 200, "y": 200, "z": 100}}),
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


def _play(preset: str, seed: int, script=SCRIPT) -> str:
    game = Game.new(seed, preset)
    for user, minotaur in script:
        game.step(user, minotaur)
    return game.state.digest()


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
