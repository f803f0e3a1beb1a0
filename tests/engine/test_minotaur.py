"""The Minotaur: senses, CHASE, PATHFIND, WAIT, JUMP, paralysis and death (docs/rules.md sections 7-8)."""

import pytest

from labyrinth.engine.cells import MINOTAUR_OPEN
from labyrinth.engine.pathfinding import find_path

from ..scenes import CHASE, LOOK, WAIT, corridor, crawlway_entry, halt, move, scene

FAR = (176, 176, 98)
JUMP = {"action": "JUMP"}


def _kinds(result):
    return [e.kind for e in result.events]


@pytest.mark.parametrize("offset, proximity", [
    ((3, 0, 0), "VERY CLOSE"), ((4, 0, 0), "CLOSE"), ((8, 0, 0), "CLOSE"), ((9, 0, 0), "FAINT"),
    ((15, 0, 0), "FAINT"), ((16, 0, 0), "NONE"), ((0, 0, 1), "VERY CLOSE"), ((0, 0, 4), "CLOSE"),
    ((12, 0, 5), "NONE"),
])
def test_proximity_follows_3d_distance_in_metres(offset, proximity):
    user = (200, 200, 100)
    game = scene(user=user, minotaur=tuple(u + o for u, o in zip(user, offset)))
    assert game.view()[0].minotaur_cue.proximity == proximity


@pytest.mark.parametrize("offset, direction", [
    ((0, 4, 0), "NORTH"), ((4, 4, 0), "NORTH-EAST"), ((-6, -2, 0), "WEST"), ((-3, -5, 0), "SOUTH-WEST"),
    ((0, 0, 2), "ABOVE"), ((0, 0, -1), "BELOW"), ((2, 0, 1), "EAST"), ((20, 0, 0), None),
])
def test_audio_direction_is_a_compass_word_or_above_below(offset, direction):
    user = (200, 200, 100)
    game = scene(user=user, minotaur=tuple(u + o for u, o in zip(user, offset)))
    assert game.view()[0].minotaur_cue.audio_direction == direction


def test_it_hears_running_far_and_walking_only_near():
    start = corridor(scene(), "EAST", 4)
    near = (start[0], start[1], 101)
    heard = scene(user=start, minotaur=(start[0] + 20, start[1], 100)).step(move("EAST", 1, 2), WAIT)
    assert "UserHeard" in _kinds(heard)
    assert heard.observation.last_heard.loudness == "HIGH" and heard.observation.noises_heard == 1
    unheard = scene(user=start, minotaur=(start[0] + 20, start[1], 100)).step(move("EAST", 1, 1), WAIT)
    assert unheard.observation.last_heard is None
    close = scene(user=start, minotaur=near).step(move("EAST", 1, 1), WAIT)
    assert close.observation.last_heard.position.x == start[0] + 1
    silent = scene(user=start, minotaur=near).step(halt(3), WAIT)
    assert silent.observation.last_heard is None


def test_infrared_sight_reaches_six_steps_in_line_of_sight():
    start = corridor(scene(), "NORTH", 7)
    six = scene(user=start, minotaur=(start[0], start[1] + 6, 100)).step(LOOK, WAIT).observation
    assert six.sees_user and six.user_position.y == start[1]
    seven = scene(user=start, minotaur=(start[0], start[1] + 7, 100)).step(LOOK, WAIT).observation
    assert not seven.sees_user and seven.user_position is None


def test_walls_block_sight():
    game = scene()
    start = corridor(game, "EAST", 2)
    cell = game.world.cell
    behind = next((start[0], start[1] + dy, 100) for dy in (2, -2) if cell(start[0], start[1] + dy // 2, 100) == 0)
    assert not scene(user=start, minotaur=behind).step(LOOK, WAIT).observation.sees_user


def test_chase_walks_one_step_a_second_unseen_and_runs_two_when_it_sees():
    game = scene(user=(200, 200, 100), minotaur=FAR)
    before = game.state.minotaur
    result = game.step(halt(10), CHASE)
    moved = next(e for e in result.events if e.kind == "MinotaurMoved")
    assert moved.steps == 10 and moved.start == before
    start = corridor(scene(), "NORTH", 7)
    game = scene(user=start, minotaur=(start[0], start[1] + 6, 100))
    result = game.step(halt(1), CHASE)
    assert game.state.minotaur == (start[0], start[1] + 4, 100)


def test_chase_catches_a_user_it_sees_standing_still():
    start = corridor(scene(), "NORTH", 7)
    game = scene(user=start, minotaur=(start[0], start[1] + 6, 100))
    r = game.step(halt(10), CHASE).response
    assert r.status == "DEATH" and "catches you" in r.raw_text_output
    assert r.environment.game_time == 3.0  # six steps at two a second
    assert game.state.user == game.state.minotaur


def test_unseen_and_unheard_it_does_not_know_where_the_user_is():
    start = corridor(scene(), "NORTH", 7)
    game = scene(user=start, minotaur=(start[0], start[1] + 7, 100))
    result = game.step(halt(4), CHASE)
    assert result.observation.last_seen is None and not result.observation.sees_user
    assert game.state.goal == (200, 200, 100)  # patrolling to the ground's centre


def test_a_swap_of_neighbouring_cells_is_death():
    start = corridor(scene(), "NORTH", 4)
    game = scene(user=start, minotaur=(start[0], start[1] + 2, 100), stride=1)
    r = game.step(move("NORTH", 1, 2), CHASE)
    assert r.response.status == "DEATH"


def test_chase_goes_to_the_noise_it_heard():
    start = corridor(scene(), "EAST", 4)
    game = scene(user=start, minotaur=(start[0] + 12, start[1] + 8, 100))
    game.step(move("EAST", 1, 2), WAIT)
    heard = game.state.last_heard[0]
    game.step(LOOK, CHASE)
    assert game.state.goal == heard


def test_pathfind_follows_a_shortest_path_and_stops_there():
    game = scene(user=FAR, minotaur=(200, 200, 100))
    target = (210, 206, 101)
    path = find_path(game.world, game.state.minotaur, target)
    result = game.step(halt(len(path) * 2 + 4), {"action": "PATHFIND", "target_coords": dict(zip("xyz", target))})
    assert game.state.minotaur == target
    assert next(e for e in result.events if e.kind == "MinotaurMoved").steps == len(path)


@pytest.mark.parametrize("target, why", [
    (None, "needs target_coords"), ({"x": 201, "y": 201, "z": 100}, "solid rock"),
    ({"x": -5, "y": 0, "z": 0}, "outside the cube"),
])
def test_an_impossible_pathfind_is_a_wait_with_a_reason(target, why):
    game = scene(user=FAR, minotaur=(200, 200, 100))
    result = game.step(halt(3), {"action": "PATHFIND", "target_coords": target})
    assert game.state.minotaur == (200, 200, 100)
    assert why in result.observation.message and "DecisionRefused" in _kinds(result)


def test_the_minotaur_never_enters_a_crawlway():
    game = scene()
    entry, direction = crawlway_entry(game)
    from labyrinth.engine.geometry import HORIZONTAL

    dx, dy = HORIZONTAL[direction]
    inside = (entry[0] + dx, entry[1] + dy, 100)
    refused = scene(user=FAR, minotaur=entry).step(halt(2), {"action": "PATHFIND",
                                                             "target_coords": dict(zip("xyz", inside, strict=True))})
    assert "crawlway" in refused.observation.message
    # A user hiding in the crawlway is safe from a chase, however long.
    game = scene(user=inside, minotaur=entry)
    r = game.step(halt(30), CHASE).response
    assert r.status == "SUCCESS" and game.world.cell(*game.state.minotaur) in MINOTAUR_OPEN


def test_jump_vanishes_for_5_to_10_s_and_reenters_at_the_same_cell():
    minotaur = (206, 200, 100)
    game = scene(user=FAR, minotaur=minotaur)
    first = game.step(halt(1), JUMP)
    r = first.response
    assert r.minotaur_cue.temporal_status == "VANISHING" and r.minotaur_cue.proximity == "VANISHED"
    assert r.minotaur_cue.cooldown_time == 599.0
    assert _kinds(first)[:2] == ["MinotaurJumped", "WhineHeard"]
    duration = first.events[0].duration_ticks
    assert 10 <= duration <= 20
    statuses, events, texts = [], [], []
    for _ in range(12):
        result = game.step(LOOK, CHASE)
        statuses.append(result.response.minotaur_cue.temporal_status)
        events += result.events
        texts.append(result.response.raw_text_output)
    assert statuses[0] in ("VANISHED", "RE_ENTRY_ALERT") and "RE_ENTRY_ALERT" in statuses
    assert statuses[-1] == "CHASING_3D"
    whines = [e for e in events if e.kind == "WhineHeard"]
    reentry = next(e for e in events if e.kind == "MinotaurReentered")
    assert [w.phase for w in whines] == ["RE_ENTRY_ALERT"] and whines[0].tick == reentry.tick - 4
    assert reentry.position == minotaur and reentry.tick == duration
    assert any("materializes at its fixed re-entry position" in t for t in texts)


def test_jump_is_refused_during_the_cooldown_and_while_paralyzed():
    game = scene(user=FAR, minotaur=(206, 200, 100))
    game.step(LOOK, JUMP)
    game.step(halt(20), WAIT)
    refused = game.step(LOOK, JUMP)
    assert "cooldown" in refused.observation.message and refused.response.minotaur_cue.temporal_status == "CHASING_3D"
    while game.state.jump_cooldown:
        game.step(halt(100), WAIT)
    assert game.state.tick >= 1200
    assert game.step(LOOK, JUMP).response.minotaur_cue.temporal_status == "VANISHING"
    paralyzed = scene(user=FAR, minotaur=(206, 200, 100), inventory=("LANTERN",))
    result = paralyzed.step({"command": "USE"}, JUMP)
    assert result.response.minotaur_cue.temporal_status == "PARALYZED" and paralyzed.state.jumps == 0
    assert "paralyzed" in result.observation.message


def test_a_vanished_minotaur_neither_blocks_nor_kills_but_reentry_on_you_does():
    start = corridor(scene(), "NORTH", 4)
    minotaur = (start[0], start[1] + 1, 100)
    game = scene(user=start, minotaur=minotaur)
    game.step(LOOK, JUMP)
    r = game.step(move("NORTH", 1), WAIT).response
    assert r.status == "SUCCESS" and game.state.user == minotaur
    r = game.step(halt(10), WAIT).response
    assert r.status == "DEATH" and "re-entered" in r.raw_text_output


def test_the_whine_has_a_direction_only_within_faint_range():
    near = scene(user=(200, 200, 100), minotaur=(206, 200, 100)).step(LOOK, JUMP)
    far = scene(user=(200, 200, 100), minotaur=(224, 200, 100)).step(LOOK, JUMP)
    assert next(e for e in near.events if e.kind == "WhineHeard").direction == "EAST"
    assert next(e for e in far.events if e.kind == "WhineHeard").direction is None
    assert "temporal whine" in far.response.raw_text_output


def test_wait_stands_still():
    game = scene(user=FAR, minotaur=(206, 200, 100))
    game.step(halt(30), WAIT)
    assert game.state.minotaur == (206, 200, 100)


def test_patrol_waypoints_stay_near_the_minotaur_even_in_the_full_cube():
    # Past its first waypoint (the centre, 40 levels off, which it would walk to).
    game = scene(preset="full", user=(200, 200, 100), minotaur=(120, 300, 60), patrols=1)
    for _ in range(5):
        game.step(halt(30), CHASE)
        wx, wy, wz = game.state.waypoint
        mx, my, mz = game.state.minotaur
        assert abs(wx - mx) <= 30 and abs(wy - my) <= 30 and abs(wz - mz) <= 1
    assert game.state.minotaur != (120, 300, 60)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pathfind_crosses_a_whole_large_ground(seed):
    game = scene(seed=seed, preset="large", user=FAR, minotaur=(152, 152, 96))
    path = find_path(game.world, (152, 152, 96), (246, 246, 104))
    assert path is not None and path[-1] == (246, 246, 104)
