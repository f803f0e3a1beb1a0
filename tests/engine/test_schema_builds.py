"""The wire models build their validators when first used (schemas._MODEL), not at import: a new game's
start builds only the opening response's, and the first turn's are built by first_turn_ahead (the TUI runs
it while the opening is read). Run in a fresh interpreter: in this one, other tests have built them all."""

import json
import subprocess
import sys

from labyrinth.engine import WAIT, MinotaurDecision

PROBE = """
import json
from pydantic import BaseModel
from labyrinth.engine import schemas
from labyrinth.engine.game import Game

def built():
    return sorted(name for name, value in vars(schemas).items()
                  if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel
                  and value.__pydantic_complete__)

seen = {"imported": built()}
Game.new(7, "tiny").opening().response  # what a front shows first
seen["opened"] = built()
ahead = [model.__name__ for model in schemas.first_turn_ahead()]
seen["ahead"] = ahead
seen["after"] = built()
print(json.dumps(seen))
"""


def test_a_start_builds_the_openings_validator_only_and_the_first_turns_are_built_ahead():
    seen = json.loads(subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                                     check=True).stdout)
    assert seen["imported"] == []
    assert seen["opened"] == ["Coords", "GameStateResponse", "MinotaurCue"]  # pydantic completes two it holds
    assert seen["ahead"] == ["UserInput", "MinotaurDecision"]
    assert seen["after"] == ["Coords", "GameStateResponse", "MinotaurCue", "MinotaurDecision", "UserInput"]


def test_the_engines_wait_made_without_validation_is_the_validated_wait():
    validated = MinotaurDecision(action="WAIT")
    assert WAIT == validated and WAIT.model_fields_set == validated.model_fields_set
    assert WAIT.model_dump_json() == validated.model_dump_json()
