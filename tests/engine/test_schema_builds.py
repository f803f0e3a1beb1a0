"""The wire models' validators: the inputs' built at import (an agent's answer is validated in its call's
thread, and pydantic's build of a deferred model is not thread-safe), the outputs' when first used
(schemas._MODEL), so that a new game's start builds only the opening response's. Run in a fresh interpreter:
in this one, other tests have built them all."""

import json
import subprocess
import sys

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
print(json.dumps(seen))
"""


def test_the_inputs_are_built_at_import_and_a_start_builds_the_openings_validator_only():
    seen = json.loads(subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                                     check=True).stdout)
    assert seen["imported"] == ["MinotaurDecision", "UserInput"]
    assert seen["opened"] == ["Coords", "GameStateResponse", "MinotaurCue", "MinotaurDecision", "UserInput"]
