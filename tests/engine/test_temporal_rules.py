"""Rules the audit of issue 11 found loose: a MOVE cut short by death, what the
user may know of a jump, a lantern raised during a jump, and where the
Minotaur's sound has a direction."""

import re

import pytest

from ..scenes import CHASE, LOOK, WAIT, corridor, halt, move, scene

FAR = (176, 176, 98)
JUMP = {"action": "JUMP"}
USE = {"command": "USE", "target": "LANTERN"}


@pytest.mark.parametrize("speed", [1, 2])
def test_a_move_cut_short_by_death_stops_with_encounter(speed):
    start = corridor(scene(), "NORTH", 4)
    # In sight from the start, so the move does not stop for it: it walks into it.
    game = scene(user=start, minotaur=(start[0], start[1] + 2, 100))
    r = game.step(move("NORTH", 4, speed), WAIT).response
    assert r.status == "DEATH" and r.environment.steps_moved < 4
    assert r.environment.stop_reason == "ENCOUNTER"


def test_a_move_that_collides_then_dies_standing_keeps_collision():
    start = corridor(scene(), "EAST", 4)
    game = scene(user=(start[0] + 4, start[1], 100), minotaur=(start[0] + 3, start[1], 100), stride=3)
    r = game.step(move("EAST", 2), CHASE).response
    assert r.status == "DEATH" and r.environment.steps_moved == 0
    assert r.environment.stop_reason == "COLLISION"


def test_the_user_is_not_told_when_a_jump_ends():
    game = scene(user=FAR, minotaur=(206, 200, 100))
    texts = [game.step(halt(1), JUMP).response.raw_text_output]
    while game.state.jump_left:
        texts.append(game.step(halt(1), WAIT).response.raw_text_output)
    assert len(texts) >= 5
    told = [line for text in texts for line in text.splitlines() if "Minotaur" in line]
    assert any("out of time" in line for line in told)
    assert not [line for line in told if re.search(r"\d s\b", line)]


def test_a_lantern_raised_during_a_jump_leaves_the_jump_running():
    minotaur = (206, 200, 100)
    game = scene(user=FAR, minotaur=minotaur, inventory=("LANTERN",))
    duration = game.step(halt(1), JUMP).events[0].duration_ticks
    used = game.step(USE, WAIT)
    assert used.response.minotaur_cue.temporal_status == "PARALYZED"
    assert game.state.jump_left == duration - 4 and game.state.paralysis > 0
    events, texts = [], []
    while game.state.jump_left:
        result = game.step(LOOK, CHASE)
        events += result.events
        texts.append(result.response.raw_text_output)
        assert result.response.minotaur_cue.temporal_status == "PARALYZED"
    kinds = [e.kind for e in events]
    assert "MinotaurReentered" in kinds and [e.phase for e in events if e.kind == "WhineHeard"] == ["RE_ENTRY_ALERT"]
    assert any("materializes" in t for t in texts)
    assert game.state.minotaur == minotaur and game.state.outcome is None


def test_a_paralyzed_minotaur_re_entering_on_the_users_cell_does_not_kill():
    minotaur = (206, 200, 100)
    game = scene(user=minotaur, minotaur=minotaur, inventory=("LANTERN",), jump_left=10, jump_cooldown=1000,
                 jumps=1)
    game.step(USE, WAIT)
    result = game.step(halt(6), WAIT)
    assert "MinotaurReentered" in [e.kind for e in result.events]
    assert result.response.status == "SUCCESS" and result.response.minotaur_cue.temporal_status == "PARALYZED"


@pytest.mark.parametrize("state", [{"paralysis": 100}, {"jump_left": 12, "jump_cooldown": 1000, "jumps": 1}])
@pytest.mark.parametrize("offset, direction", [((15, 0, 0), "EAST"), ((16, 0, 0), None), ((0, 60, 0), None),
                                               ((0, 0, 7), "ABOVE"), ((0, 0, 8), None)])
def test_a_frozen_or_vanished_minotaur_has_a_direction_only_within_37_5_m(state, offset, direction):
    user = (200, 200, 100)
    game = scene(user=user, minotaur=tuple(u + o for u, o in zip(user, offset)), **state)
    cue = game.view()[0].minotaur_cue
    assert cue.proximity in ("PARALYZED", "VANISHED") and cue.audio_direction == direction


@pytest.mark.parametrize("heard_tick, seen_tick, goal", [(10, 20, "seen"), (20, 10, "heard")])
def test_chase_goes_to_the_newer_clue_whichever_sense_gave_it(heard_tick, seen_tick, goal):
    clues = {"heard": (210, 204, 100), "seen": (190, 196, 100)}
    game = scene(user=FAR, minotaur=(200, 200, 100), tick=30,
                 last_heard=(clues["heard"], heard_tick, "LOW"), last_seen=(clues["seen"], seen_tick))
    game.step(halt(2), CHASE)
    assert game.state.goal == clues[goal]
