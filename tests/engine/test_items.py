"""Stones, the lantern, GRAB and USE, escape, and the end of the game (docs/rules.md sections 3, 5 and 9)."""

from labyrinth.engine import Game
from labyrinth.engine.items import ITEM, STONES
from labyrinth.engine.senses import items_in_sight

from ..scenes import LOOK, WAIT, corridor, halt, move, scene
from ..tui.test_gsm import error_table

FAR = (176, 176, 98)


def _lanterns(game: Game) -> int:
    s = game.state
    return sum(n == "LANTERN" for n, _ in s.items) + ("LANTERN" in s.inventory)


def test_grab_takes_an_item_on_or_next_to_the_users_cell():
    start = corridor(scene(), "EAST", 4)
    beside = (start[0] + 1, start[1], 100)
    game = scene(user=start, minotaur=FAR, items=(("RED STONE", beside),))
    result = game.step({"command": "GRAB", "target": "RED STONE"}, WAIT)
    r = result.response
    assert r.status == "SUCCESS" and r.user_state.inventory == ["RED STONE"]
    assert r.environment.time_taken == 1.0 and game.state.items == ()
    assert [e.kind for e in result.events][:1] == ["StoneGrabbed"]
    assert "1/3 stones" in r.raw_text_output


def test_grab_without_target_takes_what_is_in_reach():
    start = corridor(scene(), "EAST", 4)
    game = scene(user=start, minotaur=FAR, items=(("LANTERN", start),))
    assert game.step({"command": "GRAB"}, WAIT).response.user_state.inventory == ["LANTERN"]


def test_grab_out_of_reach_is_an_error_that_changes_nothing():
    start = corridor(scene(), "EAST", 4)
    game = scene(user=start, minotaur=FAR, items=(("RED STONE", (start[0] + 2, start[1], 100)),))
    before = game.state
    r = game.step({"command": "GRAB", "target": "RED STONE"}, WAIT).response
    assert r.status == "ERROR" and "the RED STONE is not within reach" in r.environment.message
    assert game.state is before and r.environment.time_taken == 0
    r = game.step({"command": "GRAB"}, WAIT).response
    assert r.environment.message.startswith("GRAB failed: nothing is within reach.")


def test_grab_names_what_is_within_reach_when_the_item_named_is_not():
    """The one row of rules.md's error table that needs a place (test_gsm.py holds the others to the page)."""
    start = corridor(scene(), "EAST", 4)
    game = scene(user=start, minotaur=FAR, items=(("RED STONE", (start[0] + 1, start[1], 100)),))
    r = game.step({"command": "GRAB", "target": "LANTERN"}, WAIT).response
    assert r.status == "ERROR" and game.state.items == (("RED STONE", (start[0] + 1, start[1], 100)),)
    assert r.environment.message == error_table()["GRAB, named item not in reach while others are"]


def test_three_stones_escape_and_then_nothing_changes():
    start = corridor(scene(), "EAST", 4)
    here = start
    game = scene(user=start, minotaur=FAR, inventory=("RED STONE", "BLUE STONE"), items=(("YELLOW STONE", here),),
                 jump_cooldown=100)
    result = game.step({"command": "GRAB", "target": "YELLOW STONE"}, WAIT)
    assert result.response.status == "ESCAPED" and result.response.environment.time_taken == 1.0
    assert result.response.minotaur_cue.cooldown_time == 49.0  # every timer ran through that second
    assert result.response.user_state.inventory == ["RED STONE", "BLUE STONE", "YELLOW STONE"]
    assert "UserEscaped" in [e.kind for e in result.events]
    final = game.state
    for cmd in (LOOK, move("WEST"), {"command": "USE"}, "not json"):
        after = game.step(cmd, WAIT)
        assert after.response.status == "ESCAPED" and after.events == ()
        assert game.state is final


def test_use_lantern_paralyzes_for_120_s_then_it_respawns_after_720_s():
    start = corridor(scene(), "EAST", 4)
    minotaur = (start[0] + 4, start[1], 100)
    game = scene(user=start, minotaur=minotaur, inventory=("LANTERN",))
    r = game.step({"command": "USE", "target": "LANTERN"}, {"action": "CHASE"}).response
    assert r.minotaur_cue.proximity == "PARALYZED" and r.minotaur_cue.temporal_status == "PARALYZED"
    assert r.user_state.inventory == [] and r.user_state.lantern_cooldown == 719.0
    assert _lanterns(game) == 0
    # A paralyzed Minotaur does not move, and blocks its cell.
    r = game.step(move("EAST", 100), {"action": "CHASE"}).response
    assert r.environment.stop_reason == "COLLISION" and r.environment.steps_moved == 3
    assert "paralyzed Minotaur" in r.raw_text_output and game.state.minotaur == minotaur
    game.step(halt(100), {"action": "CHASE"})
    assert game.state.paralysis == 2 * (120 - 1 - 3 - 100)
    result = game.step(halt(20), {"action": "WAIT"})
    assert "ParalysisEnded" in [e.kind for e in result.events]
    assert result.response.minotaur_cue.temporal_status == "CHASING_3D"
    while game.state.tick < 2 * 720:
        assert _lanterns(game) == 0
        game.step(halt(100), WAIT)
    assert _lanterns(game) == 1 and game.state.timers == {} and game.state.respawns == {"LANTERN": 1}


def test_a_respawned_lantern_appears_out_of_the_users_sight():
    for seed in range(20):
        start = (200, 200, 100)
        game = scene(seed=seed, user=start, minotaur=FAR, inventory=("LANTERN",))
        game.step({"command": "USE"}, WAIT)
        while game.state.timers:
            game.step(halt(100), WAIT)
        assert _lanterns(game) == 1
        assert not items_in_sight(game.world, game.state)


def test_use_without_a_lantern_or_on_a_stone_is_an_error():
    game = scene(minotaur=FAR, inventory=("RED STONE",))
    before = game.state
    r = game.step({"command": "USE"}, WAIT).response
    assert r.status == "ERROR" and "no LANTERN" in r.environment.message
    r = game.step({"command": "USE", "target": "RED STONE"}, WAIT).response
    assert r.status == "ERROR" and "cannot be used" in r.environment.message
    assert game.state is before


def test_a_new_game_has_three_stones_on_different_levels_and_one_lantern():
    for seed in range(30):
        game = Game.new(seed)
        stones = [p for n, p in game.state.items if ITEM[n].needed]
        assert len(stones) == len(STONES) and len({p[2] for p in stones}) == len(STONES)
        assert _lanterns(game) == 1
        cells = [p for _, p in game.state.items] + [game.state.user, game.state.minotaur]
        assert len(set(cells)) == len(cells), "two things on one cell"
