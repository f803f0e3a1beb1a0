"""Movement, time, stamina, noise and the stop reasons (docs/rules.md sections 4-5)."""

import pytest

from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.geometry import HORIZONTAL

from ..scenes import CHASE, WAIT, corridor, crawlway_entry, find_cell, halt, move, scene

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


def _first_side_opening(game, start, direction):
    """Steps until the first cell with a passage across ``direction`` its predecessor lacked (by hand)."""
    dx, dy = HORIZONTAL[direction]
    across = [(dy, dx), (-dy, -dx)]
    cell = game.world.cell
    x, y, z = start
    for k in range(1, 101):
        open_before = [cell(x + (k - 1) * dx + sx, y + (k - 1) * dy + sy, z) != ROCK for sx, sy in across]
        here = (x + k * dx, y + k * dy, z)
        if cell(*here) == ROCK:
            return k - 1
        open_now = [cell(here[0] + sx, here[1] + sy, z) != ROCK for sx, sy in across]
        if cell(*here) in (RAMP_UP, RAMP_DOWN) or any(now and not was for now, was in zip(open_now, open_before)):
            return k
    return 100


@pytest.mark.parametrize("direction", ["NORTH", "EAST"])
def test_a_move_without_a_count_stops_at_the_first_junction(direction):
    start = corridor(scene(), direction, 3)  # a corridor's start, rock 4 steps ahead
    start = (start[0], start[1], 100)
    game = scene(user=start, minotaur=FAR)
    expected = _first_side_opening(game, start, direction)
    r = game.step(move(direction), WAIT).response
    assert r.environment.steps_moved == expected
    if r.environment.stop_reason == "ARRIVED":
        assert "and stop where" in r.raw_text_output or "and stop on a ramp" in r.raw_text_output
    exact = scene(user=start, minotaur=FAR).step(move(direction, 100), WAIT).response
    assert exact.environment.steps_moved >= expected  # an exact count goes on past it


def _quiet_corridor(length: int) -> tuple:
    """A start from which ``length`` floor cells lie NORTH with no side passage (by hand)."""
    game = scene()
    cell = game.world.cell
    for y in range(176, 224):
        for x in range(176, 224):
            line = [(x, y + k, 100) for k in range(length + 1)]
            if all(cell(*c) == FLOOR and cell(c[0] - 1, c[1], 100) == cell(c[0] + 1, c[1], 100) == ROCK
                   for c in line):
                return line[0]
    raise LookupError("no quiet corridor")


def test_a_run_stops_when_a_seen_item_comes_within_reach():
    start = _quiet_corridor(5)
    stone = (start[0], start[1] + 5, 100)
    seen = (("BLUE STONE", stone),)  # seen before: its coming into sight stops nothing
    r = scene(user=start, minotaur=FAR, items=seen, seen_items=seen).step(move("NORTH"), WAIT).response
    assert (r.environment.stop_reason, r.environment.steps_moved) == ("ITEM_SIGHTED", 4)
    exact = scene(user=start, minotaur=FAR, items=seen, seen_items=seen).step(move("NORTH", 5), WAIT).response
    assert exact.environment.steps_moved == 5  # an exact count walks on past it


def test_an_uneventful_single_step_is_one_short_line():
    start = _quiet_corridor(5)
    game = scene(user=start, minotaur=FAR)
    assert [game.step(move("NORTH", 1), WAIT).response.raw_text_output for _ in range(3)] == ["You step north."] * 3
    heard = scene(user=start, minotaur=(start[0] + 10, start[1], 100))
    text = heard.step(move("NORTH", 1), WAIT).response.raw_text_output
    assert "\n" not in text and text.startswith("You step north.")


def test_stepping_out_of_the_hunting_ground_and_back_is_told_to_the_user_alone():
    """The maze goes on beyond the ground (rules.md, section 1): the user's words say when a move crosses
    its edge, each way; the Minotaur's say nothing of it."""
    from labyrinth.engine import events as ev
    from labyrinth.engine.presets import PRESETS

    b, probe = PRESETS["standard"], scene()
    y = next(y for y in range(b.y0, b.y0 + b.height)
             if probe.world.cell(b.x0, y, 100) == FLOOR and probe.world.cell(b.x0 - 1, y, 100) == FLOOR)
    game = scene(user=(b.x0, y, 100), minotaur=FAR)
    out = game.step(move("WEST", 1), WAIT)
    back = game.step(move("EAST", 1), WAIT)
    assert [e.position for e in out.events if isinstance(e, ev.UserLeftGround)] == [(b.x0 - 1, y, 100)]
    assert [e.position for e in back.events if isinstance(e, ev.UserReenteredGround)] == [(b.x0, y, 100)]
    assert "You leave the hunting ground" in out.response.raw_text_output
    assert "You are back in the hunting ground." in back.response.raw_text_output
    assert "hunting ground" not in out.observation.raw_text_output + back.observation.raw_text_output
    inside = scene(user=(b.x0, y, 100), minotaur=FAR).step(move("EAST", 1), WAIT)
    assert not [e for e in inside.events if isinstance(e, ev.UserLeftGround | ev.UserReenteredGround)]
