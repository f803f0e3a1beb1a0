"""Properties over random seeds and command sequences (docs/rules.md throughout)."""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine import Game
from labyrinth.engine.cells import RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.constants import MAX_STEPS
from labyrinth.engine.turn import run_on

from ..strategies import DIRECTIONS, decisions, turns

seeds = st.integers(0, 2**31 - 1)
presets = st.sampled_from(["tiny", "small", "standard"])
TIMERS = ("jump_left", "jump_cooldown", "paralysis", "stamina")


def _lanterns(state) -> int:
    return sum(n == "LANTERN" for n, _ in state.items) + ("LANTERN" in state.inventory)


@settings(max_examples=60)
@given(seed=seeds, preset=presets, plays=turns)
def test_invariants_hold_whatever_is_played(seed, preset, plays):
    game = Game.new(seed, preset)
    for user, minotaur in plays:
        before = game.state
        result = game.step(user, minotaur)
        s, r = game.state, result.response
        if r.status == "ERROR" or before.outcome:
            assert s is before, "an ERROR or a finished game changed the state"
            assert r.environment.time_taken == 0
            continue
        assert game.world.cell(*s.user) != ROCK, "the user is inside rock"
        assert game.world.cell(*s.minotaur) not in (ROCK,), "the Minotaur is inside rock"
        assert s.tick > before.tick and s.turn == before.turn + 1
        assert r.environment.time_taken == (s.tick - before.tick) / 2
        assert all(getattr(s, t) >= 0 for t in TIMERS) and all(left > 0 for left in s.timers.values())
        respawn = s.timers.get("LANTERN", 0)
        assert s.jump_cooldown <= 1200 and s.paralysis <= 240 and respawn <= 1440
        assert _lanterns(s) <= 1
        assert _lanterns(s) == 1 or respawn > 0
        assert 0 <= r.user_state.stamina_pct <= 1
        assert r.environment.steps_moved <= (user.get("steps") or 100 if isinstance(user, dict) else 100)
        if isinstance(user, dict) and user.get("steps"):
            assert r.environment.stop_reason != "ARRIVED", "an exact count stopped at a junction"
        assert [e.tick for e in result.events] == sorted(e.tick for e in result.events)
        assert all(before.tick <= e.tick <= s.tick for e in result.events)


@settings(max_examples=30)
@given(seed=seeds, preset=presets, plays=turns, cut=st.integers(0, 25))
def test_a_game_restored_from_json_mid_way_continues_identically(seed, preset, plays, cut):
    game = Game.new(seed, preset)
    for user, minotaur in plays[:cut]:
        game.step(user, minotaur)
    restored = Game.from_json(game.to_json())
    assert restored.state == game.state
    for user, minotaur in plays[cut:]:
        a, b = game.step(user, minotaur), restored.step(user, minotaur)
        assert a.response.model_dump_json() == b.response.model_dump_json()
        assert a.observation.model_dump_json() == b.observation.model_dump_json()
    assert restored.to_json() == game.to_json()


@settings(max_examples=30)
@given(seed=seeds, preset=presets, plays=turns)
def test_two_rollouts_with_the_same_seed_agree_step_by_step(seed, preset, plays):
    one, two = Game.new(seed, preset), Game.new(seed, preset)
    assert one.view()[0] == two.view()[0]
    for user, minotaur in plays:
        a, b = one.step(user, minotaur), two.step(user, minotaur)
        assert a.response.model_dump_json() == b.response.model_dump_json()
        assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
        assert one.state.digest() == two.state.digest()



def _reachable(state, pos) -> set:
    """The lying items GRAB could take standing on ``pos`` (docs/rules.md section 5, GRAB: this level, 1 step or
    less)."""
    return {(n, p) for n, p in state.items if p[2] == pos[2] and abs(p[0] - pos[0]) + abs(p[1] - pos[1]) <= 1}


@settings(max_examples=80)
@given(seed=seeds, preset=presets, prelude=turns, direction=st.sampled_from(DIRECTIONS),
       speed=st.sampled_from([1, 2]), minotaur=decisions)
def test_a_run_follows_the_corridor_to_the_first_junction_ramp_or_item_and_an_exact_count_agrees(
        seed, preset, prelude, direction, speed, minotaur):
    game = Game.new(seed, preset)
    for user, decision in prelude:
        game.step(user, decision)
    before = game.state
    result = game.step({"command": "MOVE", "direction": direction, "speed": speed}, minotaur)
    if before.outcome:
        return
    moved = [e for e in result.events if e.kind == "UserMoved"]
    path = moved[0].path if moved else ()
    assert len(path) <= MAX_STEPS
    cells = (before.user, *path)
    headings = [_heading(a, b) for a, b in pairwise(cells)]  # each step's way, a ramp's as its direction
    if headings:
        assert headings[0] == direction or direction.endswith("RAMP")
    for k, (frm, at) in enumerate(pairwise(cells[:-1])):  # every cell the run went on from
        assert game.world.cell(*at) not in (RAMP_UP, RAMP_DOWN), f"the run passed a ramp at {at}"
        came = headings[k - 1] if k else headings[0]
        onward = run_on(game.world, frm, at, headings[k], came)
        assert onward is not None, f"the run passed a junction at {at}"
        assert onward == headings[k + 1], f"the run left the corridor at {at}"
        assert _reachable(before, at) <= _reachable(before, frm), f"the run passed an item at {at}"
    if path and len(set(headings)) == 1 and not result.state.outcome:  # straight: an exact count leaves the same
        exact = Game(before, game.world).step(
            {"command": "MOVE", "direction": direction, "speed": speed, "steps": len(path)}, minotaur)
        assert exact.state == result.state
        assert exact.response.environment.steps_moved == len(path)


def _heading(frm, to) -> str:
    dx, dy, dz = (b - a for a, b in zip(frm, to, strict=True))
    if dz:
        return "UP RAMP" if dz > 0 else "DOWN RAMP"
    return {(0, 1): "NORTH", (0, -1): "SOUTH", (1, 0): "EAST", (-1, 0): "WEST"}[(dx, dy)]
