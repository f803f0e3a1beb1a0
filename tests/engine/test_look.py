"""LOOK, stone resonance, the opening state and the words of the game."""

import dataclasses
import json

from labyrinth.engine import Game, initial_state
from labyrinth.engine.items import ITEM, ITEM_ORDER, STONES

from ..scenes import LOOK, WAIT


def test_look_tells_each_missing_stone_s_direction_and_level():
    game = Game.new(21)
    result = game.step(LOOK, WAIT)
    r = result.response
    hummed = next(e for e in result.events if e.kind == "StonesHummed")
    assert [name for name, _, _ in hummed.hums] == list(STONES)
    hums = [line for line in r.raw_text_output.splitlines() if "hums" in line]
    assert len(hums) == len(STONES)
    for name, (x, y, z) in game.state.items:
        if not ITEM[name].needed:
            continue
        line = next(h for h in hums if name in h)
        dz = z - 100
        assert ("on this level" in line) == (dz == 0)
        assert ("above" in line) == (dz > 0) and ("below" in line) == (dz < 0)
        if y > 200:
            assert "NORTH" in line
        if x < 200:
            assert "WEST" in line


def test_hard_difficulty_silences_the_stones():
    state = dataclasses.replace(initial_state(21, "standard", "hard"))
    r = Game(state).step(LOOK, WAIT).response
    assert "hums" not in r.raw_text_output and "silent" in r.raw_text_output
    assert not [e for e in Game(state).step(LOOK, WAIT).events if e.kind == "StonesHummed"]


def test_the_opening_state_is_a_full_valid_response():
    game = Game.new(4, "small")
    r, obs = game.view()
    assert r.status == "SUCCESS" and r.environment.turn == 0 and r.environment.game_time == 0
    assert r.user_state.stamina_pct == 1.0 and r.user_state.inventory == []
    assert r.minotaur_cue.temporal_status == "CHASING_3D" and r.minotaur_cue.cooldown_time == 0
    assert "RED, BLUE and YELLOW" in r.raw_text_output
    assert r.environment.message == "Current Z-Level: 100"
    assert obs.hunting_ground.width == 32 and len(obs.items) == len(ITEM_ORDER)


def test_events_are_past_tense_values_that_serialise():
    game = Game.new(9, "tiny")
    result = game.step({"command": "MOVE", "direction": "NORTH", "speed": 2}, {"action": "JUMP"})
    for event in result.events:
        assert event.kind.endswith(("ed", "Heard"))
        json.dumps(event.to_dict())
    assert "MinotaurJumped" in [e.kind for e in result.events]
