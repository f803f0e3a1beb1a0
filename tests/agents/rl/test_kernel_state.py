"""The kernel's state rows (agents/rl/kernel/state.py): a GameState written to a row and read back is the
same state (equal, the same JSON and digest), for states the engine reaches by random commands on tiny and
small, one row reused turn after turn (nothing of an earlier state lingers), and for whole games of the
built-in players (who grab and use items, which random commands seldom do); such states fit the arrays (no
row kept aside) and the arrays hold their values; a state with every field set comes back whole. A state the
rows cannot hold is kept whole, its row flagged, never cut. No numba here: the rows are numpy's."""

import dataclasses
from dataclasses import fields

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.agents.rl.kernel.region import around, region_of
from labyrinth.agents.rl.kernel.state import HELD, NONE, PATH_ROWS, SEEN_SLOTS, StateRows, rows_of
from labyrinth.engine import Game
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.state import GameState
from labyrinth.engine.world import World

from ...strategies import decisions, moves, others

seeds = st.integers(0, 2**31 - 1)
presets = st.sampled_from(["tiny", "small"])
difficulties = st.sampled_from(["normal", "hard"])
plays = st.lists(st.tuples(st.one_of(moves, moves, others), decisions), min_size=1, max_size=30)


def round_trip(rows: StateRows, row: int, state: GameState) -> GameState:
    rows.write(row, state)
    back = rows.state(row)
    assert back == state
    assert back.to_json() == state.to_json() and back.digest() == state.digest()
    assert back is not state
    return back


@settings(max_examples=40, deadline=None)
@given(seed=seeds, preset=presets, difficulty=difficulties, played=plays)
def test_states_reached_by_play_come_back_from_a_row_unchanged(seed, preset, difficulty, played):
    game = Game.new(seed, preset, difficulty)
    rows = StateRows(3, preset)
    row = seed % 3
    round_trip(rows, row, game.state)
    for user, minotaur in played:
        game.step(user, minotaur)
        state = game.state
        round_trip(rows, row, state)
        assert not rows.kept[row], rows.kept_why.get(row)  # the engine's states fit: none kept aside
        assert rows.user[row].tolist() == list(state.user) and rows.tick[row] == state.tick
        assert rows.path_length[row] == len(state.path)
        assert rows.path[row, :len(state.path)].tolist() == [list(p) for p in state.path]
    for name in ("path", "last_seen", "last_heard", "timers", "respawns", "inventory", "outcome", "waypoint"):
        event(f"{name} {'set' if getattr(game.state, name) else 'unset'} at the end")


@pytest.mark.parametrize(("seed", "preset"), [(1, "tiny"), (3, "tiny"), (2, "small")])
def test_states_of_whole_built_in_games_come_back_from_a_row_unchanged(seed, preset):
    """The built-in players grab the stones and use the lantern, which random commands seldom do."""
    match = Match(make_agent("user", "builtin", seed, preset=preset),
                  make_agent("minotaur", "builtin", seed, preset=preset), seed=seed, preset=preset, max_turns=300)
    rows, reached = StateRows(1, preset), set()
    while match.outcome is None:
        match.play_turn()
        round_trip(rows, 0, match.game.state)
        assert not rows.kept[0], rows.kept_why.get(0)
        reached |= {name for name in HELD if getattr(match.game.state, name)}
    if seed == 1:
        assert {"inventory", "timers", "paralysis", "path", "goal", "last_seen", "last_heard", "outcome"} <= reached


def every_field_set(seed: int = 7, preset: str = "small") -> GameState:
    """A state whose every field with a default differs from it, so that a field left out of the rows
    changes what comes back."""
    s = Game.new(seed, preset).state
    (_, a), (_, b), (_, c), (_, d) = s.items
    return dataclasses.replace(
        s, difficulty="hard", tick=321, turn=45, outcome="ESCAPED", stamina=37, inventory=("RED STONE", "LANTERN"),
        seen_items=(("BLUE STONE", b), ("LANTERN", d), ("LANTERN", a)), items=(("BLUE STONE", b), ("YELLOW STONE", c)),
        timers={"LANTERN": 12}, respawns={"LANTERN": 2}, jump_left=3, jump_started_turn=40, jump_cooldown=100,
        jumps=2, paralysis=5, stride=3, last_seen=(a, 299), last_heard=(b, 300, "HIGH"), searched_until=290,
        patrols=4, waypoint=c, goal=d, path=(a, b, c, d))


def test_every_field_of_the_state_is_held():
    state = every_field_set()
    defaults = {f.name: f.default if f.default is not dataclasses.MISSING else f.default_factory()
                for f in fields(GameState) if f.default is not dataclasses.MISSING
                or f.default_factory is not dataclasses.MISSING}
    assert all(getattr(state, name) != default for name, default in defaults.items())
    assert HELD == {f.name for f in fields(GameState)}
    rows = StateRows(2, "small")
    round_trip(rows, 1, state)
    assert not rows.kept[1]
    round_trip(rows, 1, Game.new(8, "small").state)  # a fresh game over it: nothing of the first is left


def test_a_row_holds_its_labyrinths_region():
    states = [Game.new(seed, "tiny").state for seed in (3, 4)]
    rows = rows_of(states)
    for row, state in enumerate(states):
        region = region_of(World(state.seed), around(PRESETS["tiny"]))
        assert np.array_equal(rows.kinds[row], region.kinds) and tuple(rows.origin[row]) == region.origin
        assert rows.state(row) == state


@pytest.mark.parametrize(("change", "why"), [
    (lambda s: {"path": (s.user,) * (PATH_ROWS + 1)}, "path of"),
    (lambda s: {"seen_items": (("LANTERN", s.user),) * (SEEN_SLOTS + 1)}, "seen"),
    (lambda s: {"inventory": ("LANTERN", "RED STONE")}, "not in ITEM_ORDER"),
    (lambda s: {"tick": 2**63}, "int64"),
    (lambda s: {"turn": True}, "int64"),
    (lambda s: {"timers": {"LANTERN": 0}}, "0 or less"),
    (lambda s: {"last_seen": (s.user, NONE)}, "tick"),
])
def test_a_state_past_the_rows_is_kept_whole_and_flagged(change, why):
    state = dataclasses.replace(Game.new(5, "tiny").state, **change(Game.new(5, "tiny").state))
    rows = StateRows(2, "tiny")
    rows.write(0, Game.new(6, "tiny").state)
    rows.write(1, state)
    assert rows.kept.tolist() == [False, True] and why in rows.kept_why[1]
    back = rows.state(1)
    assert back == state and back.to_json() == state.to_json() and back is not state
    rows.write(1, Game.new(5, "tiny").state)  # a state that fits again: the row is the arrays' once more
    assert not rows.kept[1] and 1 not in rows.kept_why


def test_rows_hold_one_finite_preset():
    with pytest.raises(ValueError, match="tiny or small"):
        StateRows(1, "standard")
    with pytest.raises(ValueError, match="tiny games"):
        StateRows(1, "tiny").write(0, Game.new(1, "small").state)


def test_items_and_maps_are_columns_in_item_order():
    state = every_field_set()
    rows = StateRows(1, "small")
    rows.write(0, state)
    assert rows.inventory[0].tolist() == [int(name in state.inventory) for name in ITEM_ORDER]
    assert rows.timers[0, ITEM_ORDER.index("LANTERN")] == 12 and rows.item_count[0] == 2
    assert rows.items[0, 2:].tolist() == [[NONE] * 4] * (len(ITEM_ORDER) - 2)
