"""Bad input of any kind gets a clear message and changes nothing (docs/rules.md sections 5 and 10)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine import BadInput, Game, MinotaurDecision, UserInput, parse
from labyrinth.engine.commands import duplicate_key
from labyrinth.engine.items import ITEM_ORDER

from ..scenes import WAIT


@pytest.mark.parametrize("raw, words", [
    ("", ["Not valid JSON"]),
    ("{'command': 'LOOK'}", ["Not valid JSON"]),
    ("[]", ["JSON object"]),
    ('{"command": "DANCE"}', ["command must be MOVE, HALT, LOOK, GRAB or USE (got \"DANCE\")"]),
    ('{"command": "MOVE"}', ["MOVE needs a direction", "UP RAMP"]),
    ('{"command": "MOVE", "direction": "NORTH", "steps": 0}', ["steps must be 1 to 100 (got 0)"]),
    ('{"command": "MOVE", "direction": "NORTH", "steps": 101}', ["steps must be 1 to 100 (got 101)"]),
    ('{"command": "MOVE", "direction": "NORTH", "speed": 3}', ["speed must be 1 or 2 (got 3)"]),
    ('{"command": "GRAB", "target": "SWORD"}', [f"target must be {', '.join(ITEM_ORDER[:-1])} or {ITEM_ORDER[-1]}"]),
    ('{"command": "LOOK", "please": true}', ["please is not a known field"]),
])
def test_bad_commands_are_errors_that_name_the_problem(raw, words):
    game = Game.new(1, "tiny")
    before = game.state
    r = game.step(raw, WAIT).response
    assert r.status == "ERROR"
    for word in words:
        assert word in r.environment.message
    assert game.state is before and r.environment.turn == 0 and r.environment.time_taken == 0


def test_bad_minotaur_decisions_are_errors_too():
    game = Game.new(1, "tiny")
    before = game.state
    result = game.step({"command": "LOOK"}, {"action": "FLY"})
    assert result.response.status == "ERROR" and "Minotaur's decision" in result.response.environment.message
    assert result.observation.status == "ERROR" and "FLY" in result.observation.message and game.state is before


def test_the_users_mistakes_tell_the_minotaur_nothing():
    game = Game.new(1, "tiny")
    for bad in ({"command": "GRAB"}, {"command": "USE"}, '{"command": "MOVE", "direction": "NORTH", "steps": 0}'):
        obs = game.step(bad, WAIT).observation
        assert obs.status == "ERROR" and obs.message == obs.raw_text_output
        assert "GRAB" not in obs.message and "LANTERN" not in obs.message and "steps" not in obs.message


def test_words_are_forgiven_their_case_and_underscores():
    assert UserInput.model_validate({"command": "move", "direction": "up_ramp"}).direction == "UP RAMP"
    assert UserInput.model_validate({"command": "grab", "target": "red  stone"}).target == "RED STONE"
    assert MinotaurDecision.model_validate({"action": "chase"}).action == "CHASE"


def test_a_corrupt_saved_game_is_refused_with_a_reason():
    game = Game.new(2, "tiny")
    good = game.to_json()
    for broken, reason in [("{", "not a saved game"), ('{"version": 99}', "version"),
                           (good.replace('"stamina":100', '"stamina":"lots"'), "stamina"),
                           (good.replace('"stamina":100', '"stamina":250'), "stamina"),
                           (good.replace('"preset":"tiny"', '"preset":"vast"'), "preset"),
                           (good.replace('"outcome":null', '"outcome":"WON"'), "outcome"),
                           (good.replace('"user":[200,200,100]', '"user":[201,201,100]'), "rock")]:
        with pytest.raises(ValueError, match=reason):
            Game.from_json(broken)
    assert Game.from_json(good).state == game.state


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("raw, shown", [
    ('{"command": "MOVE", "direction": "' + "x" * 100_000 + '"}', '"XXXXXXXXXX'),
    ('{"command": "HALT", "steps": "' + "7" * 100_000 + '"}', '"7777777777'),
    ('{"' + "k" * 100_000 + '": 1, "command": "LOOK"}', "kkkkkkkkkk"),
    ('{"command": "LOOK", ' + ", ".join(f'"extra{n}": {n}' for n in range(5_000)) + "}", "extra0 is not a known field"),
    ('{"command": "LOOK", "\\u001b[31m\\u202e": 1}', "\\u001b[31m\\u202e is not a known field"),
    ({"command": _nested(100_000)}, "nested too deeply"),
    ({"command": "HALT", "steps": 10 ** 5000}, "number too long to show"),
], ids=["long value", "long string for a number", "long key", "many keys", "escapes in a key", "deep", "huge int"])
def test_an_error_echoes_only_a_short_excerpt_of_what_was_sent(raw, shown):
    message = Game.new(1, "tiny").step(raw, WAIT).response.environment.message
    assert shown in message and len(message) < 400 and message.isprintable(), message[:500]


_KEYS = {"command": st.sampled_from(['"MOVE"', '"halt"', '"LOOK"', '"a:b"']),
         "direction": st.sampled_from(['"NORTH"', '"up_ramp"', '"EAST"']), "steps": st.sampled_from(["1", "3"]),
         "speed": st.sampled_from(["1", "2"]), "target": st.sampled_from(['"RED STONE"', '"LANTERN"']),
         "action": st.sampled_from(['"WAIT"', '"PATHFIND"', '"chase"']),
         "target_coords": st.sampled_from(['{"x": 1, "y": 2, "z": 3}', '{"x": 1, "x": 2, "y": 2, "z": 3}',
                                           '{"x":1,"y":2,"z":3,"z":3}'])}


@settings(max_examples=300, deadline=None)
@given(pairs=st.lists(st.sampled_from(sorted(_KEYS)).flatmap(
           lambda key: st.tuples(st.sampled_from([f'"{key}"', '"comm\\u0061nd"' if key == "command" else f'"{key}"']),
                                 _KEYS[key])), min_size=1, max_size=5),
       model=st.sampled_from([UserInput, MinotaurDecision]), as_bytes=st.booleans())
def test_a_field_given_twice_is_refused_whatever_the_shortcut_that_spares_the_second_read(pairs, model, as_bytes):
    """parse skips the second read when the text has no more colons than the model has keys set (keys_set):
    on any object of the models' keys (escaped names, colons in strings, nested twice-given keys too), the
    answer is what the standard library's reader of every key says."""
    text = "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    raw = text.encode() if as_bytes else text
    try:
        parse(model, raw)
    except BadInput as exc:
        refused = "is given twice" in str(exc)
    else:
        refused = False
    valid = True
    try:
        model.model_validate_json(raw)
    except ValueError:
        valid = False
    assert refused == (valid and duplicate_key(raw) is not None)
