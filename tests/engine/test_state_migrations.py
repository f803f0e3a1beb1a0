"""The game state's versions (engine/state_migrations.py): the state's fields are what the migrations table
accounts for; a state goes back to an older version, hash for hash, and an older one comes forward; a new
field with its row (the user's wounds, as a subclass here) keeps yesterday's state loading."""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine import Game, GameState
from labyrinth.engine.events import MinotaurJumped
from labyrinth.engine.state import STATE_VERSION
from labyrinth.engine.state_migrations import VERSIONS, downgrade, fields_at, version_of

from ..new_field import RowlessWoundsState, WoundsState
from ..strategies import turns


def table_problems(kind: type[GameState]) -> list[str]:
    """What is wrong with ``kind``'s table: rows out of order, changes of fields that were not there, or
    fields of the state's class that its last version does not account for."""
    rows, problems = kind.VERSIONS, []
    if [row.number for row in rows] != list(range(len(rows))):
        problems.append(f"rows numbered {[row.number for row in rows]}")
    for row in rows[1:]:
        before = fields_at(row.number - 1, rows)
        problems += [f"version {row.number} adds {name}, which is there" for name in set(row.added) & before]
        problems += [f"version {row.number} changes {name}, which is not there"
                     for name in (set(row.removed) | set(row.renamed)) - before]
    held = {f.name for f in fields(kind)}
    if fields_at(len(rows) - 1, rows) != held:
        problems.append(f"the table accounts for {sorted(fields_at(len(rows) - 1, rows) ^ held)} differently "
                        f"from {kind.__name__}'s fields")
    return problems


def test_the_state_s_fields_are_what_the_migrations_table_accounts_for():
    assert table_problems(GameState) == []
    assert STATE_VERSION == VERSIONS[-1].number == Game.new(1, "tiny").state.version
    assert table_problems(WoundsState) == []
    assert table_problems(RowlessWoundsState) == [
        "the table accounts for ['wounds'] differently from RowlessWoundsState's fields"]


def test_a_new_game_s_state_is_its_fields_defaults_but_who_where_and_what():
    """A field is declared once: its default is its value in a new game, which names only its seed, its ground,
    and where the user, the Minotaur and the items start (and what the user sees from there)."""
    state = Game.new(1, "tiny").state
    named = {"seed", "preset", "difficulty", "user", "minotaur", "items", "seen_items"}
    for field in fields(GameState):
        if field.name not in named:
            default = field.default_factory() if field.default_factory is not MISSING else field.default
            assert default is not MISSING and getattr(state, field.name) == default, field.name


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), plays=turns)
def test_a_state_goes_back_to_version_0_with_its_last_jump_s_length_and_comes_forward_unchanged(seed, plays):
    game, jumped = Game.new(seed, "tiny"), 0
    for user, minotaur in [*plays, ({"command": "HALT", "steps": 30}, {"action": "JUMP"})]:
        events = game.step(user, minotaur).events
        jumped = next((e.duration_ticks for e in events if isinstance(e, MinotaurJumped)), jumped)
        old = downgrade(game.state.to_dict(), 0)
        assert old["version"] == 1 and old["jump_total"] == jumped  # as version 0 wrote it, and called it 1
        assert set(old) - {"version"} == fields_at(0) and version_of(old) == 0
        assert GameState.from_dict(old) == game.state
        assert game.state.digest(0) != game.state.digest() == game.state.digest(STATE_VERSION)


def test_a_state_of_an_unknown_version_or_none_is_refused_in_one_line():
    good = Game.new(2, "tiny").state.to_dict()
    known = f"versions {VERSIONS[0].written} to {VERSIONS[-1].written}"  # as the table says: a new row adds one
    for data, reason in [({**good, "version": 99}, f"version 99; this Labyrinth reads {known}"),
                         ({k: v for k, v in good.items() if k != "version"}, "version None"),
                         ({**good, "version": True}, "version True")]:
        with pytest.raises(ValueError, match=reason):
            GameState.from_dict(data)
    with pytest.raises(ValueError, match=f"no game state version {len(VERSIONS)}"):
        Game.new(2, "tiny").state.digest(len(VERSIONS))


def test_a_new_field_with_its_row_keeps_yesterday_s_state_loading_and_its_hashes_checkable():
    game = Game.new(3, "small")
    for _ in range(4):
        game.step({"command": "MOVE", "direction": "NORTH", "steps": 3}, {"action": "CHASE"})
    yesterday = game.state.to_dict()
    with pytest.raises(ValueError, match="wounds"):  # the field without its row: the failure
        RowlessWoundsState.from_dict(yesterday)
    today = WoundsState.from_dict(yesterday)
    assert today.wounds == 0 and today.version == STATE_VERSION + 1
    assert today.digest(STATE_VERSION) == game.state.digest() != today.digest()
    assert today.to_dict() == {**yesterday, "version": STATE_VERSION + 1, "wounds": 0}
    on = Game(today).step({"command": "HALT", "steps": 2}, {"action": "WAIT"}).state
    assert isinstance(on, WoundsState) and on.wounds == 0  # a turn keeps the state's kind and its field
    assert WoundsState.from_dict(on.to_dict()) == on


@settings(max_examples=30, deadline=None)
@given(left=st.integers(0, 1440), again=st.integers(0, 5))
def test_the_lantern_s_two_fields_of_version_1_are_the_items_timer_maps_of_version_2(left, again):
    """Version 2 keeps every item's timer in one map: the lantern's respawn countdown and the lanterns drawn
    after the first come forward from version 1's two fields and go back to them, hash for hash."""
    state = dataclasses.replace(Game.new(5, "tiny").state, timers={"LANTERN": left} if left else {},
                                respawns={"LANTERN": again} if again else {})
    old = downgrade(state.to_dict(), 1)
    assert (old["lantern_respawn"], old["lanterns_spawned"]) == (left, 1 + again)
    assert "timers" not in old and "respawns" not in old and version_of(old) == 1
    assert GameState.from_dict(old) == state  # an empty map comes back empty, not holding a 0
    assert state.digest(1) == GameState.from_dict(old).digest(1)


def test_a_broken_version_1_state_or_a_timer_map_holding_nonsense_is_refused_in_one_line():
    old = downgrade(Game.new(5, "tiny").state.to_dict(), 1)
    for broken, reason in [({k: v for k, v in old.items() if k != "lantern_respawn"}, "lantern_respawn is required"),
                           ({**old, "lanterns_spawned": "many"}, "cannot follow from this state's fields")]:
        with pytest.raises(ValueError, match=f"not a game state this Labyrinth reads: .*{reason}"):
            GameState.from_dict(broken)
    now = Game.new(5, "tiny").state.to_dict()
    for timers, reason in [({"LANTERN": 0}, "timers holds LANTERN: 0"), ({"TORCH": 4}, "timers holds TORCH: 4")]:
        with pytest.raises(ValueError, match=f"broken game state: {reason}"):
            GameState.from_dict({**now, "timers": timers})


def test_a_state_whose_outcome_is_no_end_of_the_engine_s_is_refused_in_one_line():
    """A state's outcome is one of the engine's two ends (schemas.Ending): a save saying TIMEOUT (a match's,
    not the engine's) or a word of its own is refused, not loaded as an over game no one can name."""
    now = Game.new(5, "tiny").state.to_dict()
    for outcome in ("TIMEOUT", "WON", "death"):
        refusal = f'broken game state: outcome must be ESCAPED or DEATH \\(got "{outcome}"\\)'
        with pytest.raises(ValueError, match=refusal):
            GameState.from_dict({**now, "outcome": outcome})
    assert GameState.from_dict({**now, "outcome": "ESCAPED"}).outcome == "ESCAPED"
