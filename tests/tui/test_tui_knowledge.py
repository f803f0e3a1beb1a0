"""The game screen's pure parts, without a screen: the known way of a travel, the log's folding, the
danger that drops keys, the Minotaur's guess, look mode's words, the typed travel, the map's size,
the agent panel's words."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from labyrinth.engine import Game
from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.presets import PRESETS
from labyrinth.tui.command_parser import NotACommand, Travel, parse_travel
from labyrinth.tui.folding import Told, folded
from labyrinth.tui.knowledge import Bearings, Sighting, alarm, guessed
from labyrinth.tui.look import describe
from labyrinth.tui.travel import Leg, nearest, route
from labyrinth.tui.widgets.agent_panel import action_words
from labyrinth.tui.widgets.map_frame import MapView, frame

pytestmark = pytest.mark.slow

# A known corner of level 100: a passage east, a crawlway north, a ramp up at its end to level 101.
CELLS = {(0, 0, 100): FLOOR, (1, 0, 100): FLOOR, (2, 0, 100): FLOOR, (2, 1, 100): CRAWLWAY, (2, 2, 100): RAMP_UP,
         (3, 0, 100): ROCK, (2, 2, 101): RAMP_DOWN, (3, 2, 101): FLOOR, (9, 9, 100): FLOOR}


def test_a_route_is_the_known_way_in_legs_a_ramp_a_leg_of_its_own():
    assert route(CELLS, (0, 0, 100), (3, 2, 101)) == [Leg("EAST", 2), Leg("NORTH", 2), Leg("UP RAMP", 1),
                                                      Leg("EAST", 1)]
    assert route(CELLS, (0, 0, 100), (0, 0, 100)) == []
    assert route(CELLS, (0, 0, 100), (9, 9, 100)) is None  # seen, but no known way leads there
    assert route(CELLS, (0, 0, 100), (3, 0, 100)) is None  # rock
    assert route(CELLS, (0, 0, 100), (5, 5, 100)) is None  # never seen
    assert nearest(CELLS, (0, 0, 100), RAMP_UP) == (2, 2, 100) and nearest(CELLS, (0, 0, 100), RAMP_DOWN) == (2, 2, 101)
    assert Leg("EAST", 2).command.model_dump(exclude_none=True) == {"command": "MOVE", "direction": "EAST",
                                                                    "steps": 2, "speed": 1}


def test_the_log_folds_what_it_told_at_this_place_and_an_unchanged_sound():
    game, told = Game.new(7, "tiny"), Told()
    at = (200, 200, 100)
    opening = folded(game.view()[0].raw_text_output, at, told)
    assert "  NORTH: the passage goes on into the dark." in opening and opening[-1].startswith("Faint hoofbeats")
    look = game.step({"command": "LOOK"}, {"action": "WAIT"}).response.raw_text_output
    assert folded(look, at, told) == ["You stop and look around.", *look.splitlines()[1:4]]  # the hums alone
    east = game.step({"command": "MOVE", "direction": "EAST", "steps": 2}, {"action": "WAIT"}).response
    assert any(line.startswith("Level 100.") for line in folded(east.raw_text_output, (202, 200, 100), told))
    text = "You stop.\nThe RED STONE hums here.\nLevel 100. Paths: NORTH.\nHeavy hoofbeats sound CLOSE."
    assert folded(text, (1, 1, 1), Told()) == ["You stop.", "Level 100. Paths: NORTH.", "The RED STONE hums here.",
                                                "Heavy hoofbeats sound CLOSE."]  # a new sound stays last


def _response(proximity="FAINT", status="SUCCESS", stop="SUCCESS", temporal="CHASING_3D"):
    cue = SimpleNamespace(proximity=proximity, temporal_status=temporal)
    return SimpleNamespace(status=status, minotaur_cue=cue, environment=SimpleNamespace(stop_reason=stop))


@pytest.mark.parametrize("before, after, saw, sees, why", [
    (_response(), _response("CLOSE"), False, False, "the Minotaur sounds close"),
    (_response("CLOSE"), _response("VERY CLOSE"), False, False, "the Minotaur sounds VERY CLOSE"),
    (_response("CLOSE"), _response("CLOSE"), False, False, None),  # no rise
    (_response("NONE"), _response("FAINT"), False, False, None),  # a rise, but not near
    (_response(), _response(), False, True, "the Minotaur is in sight"),
    (_response(), _response(), True, True, None),  # already in sight
    (_response(), _response(temporal="PARALYZED"), False, True, None),  # a frozen one, seen
    (_response(), _response(stop="ENCOUNTER"), False, False, "the hoofbeats grew nearer"),
    (_response(), _response(status="DEATH"), False, False, "the game is over"),
    (_response(), _response("VERY CLOSE", status="ERROR"), False, False, None),
])
def test_what_counts_as_danger(before, after, saw, sees, why):
    assert alarm(before, after, saw, sees) == why


def _heard(proximity, direction):
    return SimpleNamespace(details={"minotaur_in_sight": None},
                           status={"minotaur_proximity": proximity, "minotaur_direction": direction})


def test_the_minotaurs_guess_stays_inside_the_ground_on_the_level_it_was_heard_from():
    ground = PRESETS["tiny"]  # x and y 192..207, levels 99..100
    assert guessed(_heard("FAINT", "WEST"), (200, 200, 100), ground) == ((192, 200, 100), False)  # 189, held in
    assert guessed(_heard("CLOSE", "NORTH-EAST"), (200, 200, 99), ground) == ((205, 205, 99), False)
    assert guessed(_heard("VERY CLOSE", "BELOW"), (200, 200, 100), ground) == ((200, 200, 99), False)
    assert guessed(_heard("VERY CLOSE", "ABOVE"), (200, 200, 100), ground) == (None, False)  # no level 101 here
    assert guessed(_heard("NONE", None), (200, 200, 100), ground) == (None, False)
    seen = SimpleNamespace(details={"minotaur_in_sight": {"x": 1, "y": 2, "z": 3}}, status={})
    assert guessed(seen, (0, 0, 0), ground) == ((1, 2, 3), True)


def test_look_mode_says_what_is_known_of_a_cell():
    known = {"cells": CELLS, "walked": {(0, 0, 100)}, "items": {"RED STONE": (1, 0, 100)}, "user": (0, 0, 100),
             "sighting": Sighting((2, 0, 100), False, 45.0, 3), "bearings": Bearings((), 12.0, 1, (0, 0, 100)),
             "ground": None, "turn": 5}
    assert describe((0, 0, 100), **known) == ("x 0 y 0 level 100: you are here; passage, your trail; the stones "
                                              "were heard from here at 0:12 (4 turns ago)")
    assert describe((1, 0, 100), **known) == "x 1 y 0 level 100: passage; the RED STONE was seen lying here"
    assert describe((2, 0, 100), **known).endswith("the Minotaur guessed from its hoofbeats here at 0:45 "
                                                   "(2 turns ago)")
    assert describe((2, 2, 100), **known) == "x 2 y 2 level 100: ramp up"
    assert describe((7, 7, 100), **known) == "x 7 y 7 level 100: unknown: not seen yet"


def test_a_typed_travel():
    assert parse_travel("travel <") == Travel(ramp="<") and parse_travel("Travel down") == Travel(ramp=">")
    assert parse_travel("travel 203, 198") == Travel(cell=(203, 198, None))
    assert parse_travel("travel 203 198 99") == Travel(cell=(203, 198, 99))
    assert parse_travel("look") is None and parse_travel("") is None
    for line in ("travel", "travel home", "travel 1 2 3 4", "travel 99999999 1"):
        with pytest.raises(NotACommand, match="Travel where"):
            parse_travel(line)


@pytest.mark.parametrize("preset, size, scale, tall", [
    ("tiny", (130, 52), 4, 2),  # the map's room at 200x60: a small level drawn big
    ("tiny", (64, 29), 2, 1),  # at 120x40
    ("standard", (40, 15), 2, 1),  # at 80x24: too large to fit, followed at two columns a cell
])
def test_a_level_is_drawn_as_large_as_it_fits(preset, size, scale, tall):
    ground = PRESETS[preset]
    view = MapView({}, (200, 200, 100), {}, None, False, (), ground)
    f = frame(view, 100, *size)
    assert (f.scale, f.tall) == (scale, tall)
    assert f.columns * f.scale <= size[0] and f.rows * f.tall <= size[1]


def test_the_agent_panel_says_actions_in_words():
    assert (action_words("PATHFIND", {"target_coords": {"x": 200, "y": 206, "z": 99}})
            == "pathfind to (200, 206) level 99")
    assert action_words("MOVE", {"direction": "SOUTH", "steps": 8, "speed": 1}) == "move south 8"
    assert action_words("MOVE", {"direction": "EAST", "speed": 2}) == "move east run"
    assert action_words("GRAB", {"target": "RED STONE"}) == "grab red stone" and action_words("WAIT", {}) == "wait"
