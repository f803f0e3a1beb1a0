"""A new field of the game state, for the tests that show it keeps older files working: a state with one field
more (the user's wounds: a new counter of the user; an item's timer would need none, it goes in the state's map
of timers) and its row in the migrations table, and the engine of a release that has it (every new game's state
of that kind)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from labyrinth.engine import GameState
from labyrinth.engine import game as engine_game
from labyrinth.engine.state import STATE_VERSION
from labyrinth.engine.state_migrations import VERSIONS, StateVersion

WOUNDS = StateVersion(STATE_VERSION + 1, "wounds", "wounds: the blows the user has taken", added={"wounds": 0})


@dataclass(eq=True)
class WoundsState(GameState):
    """The state as a release with wounds would have it: one field more, and its row."""

    VERSIONS = (*VERSIONS, WOUNDS)
    wounds: int  # no default: from_dict must give it its row's


@dataclass(eq=True)
class RowlessWoundsState(GameState):
    """The same field added without its row in the table."""

    wounds: int


@pytest.fixture
def wounds_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine as the wounds' release would have it: a new game's state is a WoundsState, unhurt
    (every game, a match's, a replay's check, a save's, starts in engine/game.py's initial_state)."""
    plain = engine_game.initial_state

    def with_wounds(*args: Any, **options: Any) -> WoundsState:
        return WoundsState(**vars(plain(*args, **options)), wounds=0)

    monkeypatch.setattr(engine_game, "initial_state", with_wounds)
