"""Movement, time, stamina, noise and the stop reasons (RULES.md sections 3-4)."""

import pytest

from labyrinth.engine.cells import CRAWLWAY, RAMP_DOWN, RAMP_UP

from .scenes import CHASE, WAIT, corridor, crawlway_entry, find_cell, halt, move, scene

FAR = (176, 176, 98)  # a corner of the standard ground, out of everyone's senses


def test_collision_at_step_k_leaves_the_user_at_k_minus_1():
    game = scene(minotaur=FAR)
    start = corridor(game, "NORTH", 3)
    game = scene(user=start, minotaur=FAR)
    r = game.step(move("NORTH", 100), WAIT).response
    assert r.status == "SUCCESS"
    assert r.environment.stop_reason == "COLLISION"
    assert r.environment.steps_moved == 3
    assert (r.user_state.position.x, r.user_state.position.y) == (start[0], start[1] + 3)
    assert r.environment.time_taken == 3.0
    assert "a wall" in r.raw_text_output


def test_walking_takes_a_second_a_step_running_half():
    start = corridor(scene(), "EAST", 6)
    walk = scene(user=start, minotaur=FAR).step(move("EAST", 4, 1), WAIT).response
    run = scene(user=start, minotaur=FAR).step(move("EAST", 4, 2), WAIT).response
    assert walk.environment.stop_reason == run.environment.stop_reason == "SUCCESS"
    assert (walk.environment.time_taken, run.environment.time_taken) == (4.0, 2.0)
    assert (walk.environment.ambient_noise, run.environment.ambient_noise) == ("LOW", "HIGH")
    assert walk.environment.game_time == 4.0 and run.environment.game_time == 2.0


def test_a_move_that_goes_nowhere_takes_one_second():
    start = corridor(scene(), "EAST", 2)
    game = scene(user=(start[0] + 2, start[1], start[2]), minotaur=FAR)
    r = game.step(move("EAST"), WAIT).response
    assert r.environment.steps_moved == 0 and r.environment.time_taken == 1.0
    assert r.environment.stop_reason == "COLLISION"


def test_stamina_running_costs_walking_and_standing_restore():
    start = corridor(scene(), "EAST", 6)
    game = scene(user=start, minotaur=FAR, stamina=50)
    assert game.step(move("EAST", 5, 2), WAIT).response.user_state.stamina_pct == 0.40
    assert game.step(move("WEST", 5, 1), WAIT).response.user_state.stamina_pct == 0.45
    assert game.step(halt(10), WAIT).response.user_state.stamina_pct == 0.65
    assert game.step({"command": "LOOK"}, WAIT).response.user_state.stamina_pct == 0.67
    full = scene(user=start, minotaur=FAR)
    assert full.step(halt(5), WAIT).response.user_state.stamina_pct == 1.0


def test_exhausted_runner_walks_the_rest_of_the_move():
    start = corridor(scene(), "EAST", 6)
    game = scene(user=start, minotaur=FAR, stamina=4)
    result = game.step(move("EAST", 5, 2), WAIT)
    r = result.response
    assert r.environment.steps_moved == 5
    assert r.environment.time_taken == 2 * 0.5 + 3 * 1.0
    assert r.environment.ambient_noise == "HIGH"
    assert "out of breath" in r.raw_text_output
    assert "StaminaExhausted" in [e.kind for e in result.events]


def test_halt_waits_its_seconds_and_defaults_to_one():
    game = scene(minotaur=FAR)
    assert game.step(halt(7), WAIT).response.environment.time_taken == 7.0
    assert game.step({"command": "HALT"}, WAIT).response.environment.time_taken == 1.0
    assert game.state.tick == 16


def test_crawlways_are_walked_never_run():
    game = scene()
    entry, direction = crawlway_entry(game)
    run = scene(user=entry, minotaur=FAR).step(move(direction, 1, 2), WAIT).response
    assert run.environment.stop_reason == "COLLISION" and run.environment.steps_moved == 0
    assert "crawlway" in run.raw_text_output
    walk = scene(user=entry, minotaur=FAR).step(move(direction, 1, 1), WAIT).response
    assert walk.environment.steps_moved == 1
    assert scene().world.cell(walk.user_state.position.x, walk.user_state.position.y, 100) == CRAWLWAY


def test_ramps_move_one_level_and_stop_at_their_end():
    game = scene()
    up = find_cell(game, RAMP_UP, 100)
    r = scene(user=up, minotaur=FAR).step(move("UP RAMP", 100), WAIT).response
    assert r.user_state.position.z == 101 and r.environment.steps_moved == 1
    assert r.environment.stop_reason == "COLLISION" and r.environment.time_taken == 1.0
    r = scene(user=up, minotaur=FAR).step(move("UP RAMP"), WAIT).response  # no count: it arrives
    assert r.user_state.position.z == 101 and r.environment.stop_reason == "ARRIVED"
    down = find_cell(game, RAMP_DOWN, 100)
    r = scene(user=down, minotaur=FAR).step(move("DOWN RAMP", 1, 2), WAIT).response
    assert r.user_state.position.z == 99 and r.environment.stop_reason == "SUCCESS"
    assert r.environment.time_taken == 0.5
    assert "UP RAMP" in r.environment.visible_paths


def test_a_ramp_move_off_a_ramp_is_an_immediate_collision():
    start = corridor(scene(), "EAST", 3)
    r = scene(user=start, minotaur=FAR).step(move("UP RAMP"), WAIT).response
    assert r.environment.stop_reason == "COLLISION" and r.environment.steps_moved == 0
    assert r.user_state.position.z == 100 and r.environment.time_taken == 1.0


def test_an_item_coming_into_sight_stops_the_move():
    start = corridor(scene(), "NORTH", 8)
    stone = (start[0], start[1] + 6, 100)
    game = scene(user=start, minotaur=FAR, items=(("BLUE STONE", stone),))
    result = game.step(move("NORTH", 100), WAIT)
    r = result.response
    assert r.environment.stop_reason == "ITEM_SIGHTED"
    assert r.environment.steps_moved == 4 and r.environment.visible_items == ["BLUE STONE"]
    assert "BLUE STONE 2 steps to the NORTH" in r.raw_text_output
    # Seen once, it no longer stops anything.
    r = game.step(move("NORTH", 100), WAIT).response
    assert r.environment.stop_reason == "COLLISION" and r.environment.steps_moved == 4


def test_a_chasing_minotaur_coming_into_sight_stops_even_a_walk():
    start = corridor(scene(), "NORTH", 8)
    minotaur = (start[0], start[1] + 8, 100)
    result = scene(user=start, minotaur=minotaur).step(move("NORTH", 100), WAIT)
    r = result.response
    assert r.environment.stop_reason == "ENCOUNTER" and r.environment.steps_moved == 6
    assert r.minotaur_cue.proximity == "VERY CLOSE" and r.minotaur_cue.audio_direction == "NORTH"
    assert "MinotaurSighted" in [e.kind for e in result.events]
    # Already in sight, it does not stop a retreat.
    r = scene(user=(start[0], start[1] + 6, 100), minotaur=minotaur).step(move("SOUTH", 3), WAIT).response
    assert r.environment.stop_reason == "SUCCESS"


def test_walking_into_the_minotaur_is_death_not_a_collision():
    start = corridor(scene(), "NORTH", 4)
    game = scene(user=start, minotaur=(start[0], start[1] + 1, 100))
    r = game.step(move("NORTH", 1), WAIT).response
    assert r.status == "DEATH"


def test_visible_paths_list_the_ways_out():
    game = scene(minotaur=FAR)
    r, _ = game.view()
    assert r.environment.visible_paths == game.world.user_exits(game.state.user)
    assert set(r.environment.visible_paths) <= {"NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP"}


@pytest.mark.parametrize("speed", [1, 2])
def test_steps_moved_never_exceeds_the_request(speed):
    start = corridor(scene(), "EAST", 6)
    r = scene(user=start, minotaur=FAR).step(move("EAST", 3, speed), CHASE).response
    assert r.environment.steps_moved == 3
