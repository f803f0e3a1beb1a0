"""The Minotaur's routes found ahead of need (minotaur.routes_ahead, run by the TUI while the opening is
read) fill caches only: the games played after them are the games played without them."""

from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine import Game
from labyrinth.engine.items import ITEM
from labyrinth.engine.minotaur import routes_ahead
from labyrinth.engine.pathfinding import find_path

USER = [{"command": "WAIT"}, {"command": "LOOK"}, *({"command": "MOVE", "direction": d, "distance": 3}
                                                   for d in ("NORTH", "EAST", "SOUTH", "WEST"))]


def test_it_finds_the_route_to_each_stone_lying_and_to_the_first_patrol():
    game = Game.new(7, "full")
    goals = list(routes_ahead(game.world, game.state))
    stones = [where for name, where in game.state.items if ITEM[name].needed]
    assert goals[:3] == stones and len(goals) == 4  # and the ground's centre, where CHASE patrols first
    fresh = Game.new(7, "full")
    for goal in goals:  # kept, and the very route a search from nothing finds
        assert game.world.routes[game.state.minotaur, goal] == find_path(fresh.world, fresh.state.minotaur, goal)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), preset=st.sampled_from(["tiny", "small"]),
       turns=st.lists(st.tuples(st.sampled_from(USER), st.integers(0, 4)), min_size=1, max_size=8))
def test_a_game_after_the_routes_ahead_is_the_game_without_them(seed, preset, turns):
    warmed, plain = Game.new(seed, preset), Game.new(seed, preset)
    for _ in routes_ahead(warmed.world, warmed.state):
        pass
    goals = [where for _, where in plain.state.items] + [plain.state.user]
    for command, aim in turns:
        target = goals[aim % len(goals)]
        decision = {"action": "PATHFIND", "target_coords": dict(zip("xyz", target, strict=True))} if aim < 4 \
            else {"action": "CHASE"}
        a, b = warmed.step(command, decision), plain.step(command, decision)
        assert a.response.model_dump_json() == b.response.model_dump_json()
        assert warmed.to_json() == plain.to_json()
