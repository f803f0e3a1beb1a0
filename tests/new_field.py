"""A torch-like change of the game state, for the tests that show it keeps older files working: a state with
one field more (the torch's light) and its row in the migrations table, and the engine of a release that has
it (every new game's state of that kind)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from labyrinth.engine import GameState
from labyrinth.engine import game as engine_game
from labyrinth.engine.state import STATE_VERSION
from labyrinth.engine.state_migrations import VERSIONS, StateVersion

TORCH = StateVersion(STATE_VERSION + 1, "a torch", "torch_light: the torch's light left, in ticks",
                     added={"torch_light": 0})


@dataclass(eq=True)
class TorchState(GameState):
    """The state as a release with a torch would have it: one field more, and its row."""

    VERSIONS = (*VERSIONS, TORCH)
    torch_light: int  # no default: from_dict must give it its row's


@dataclass(eq=True)
class RowlessTorchState(GameState):
    """The same field added without its row in the table."""

    torch_light: int


@pytest.fixture
def torch_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine as the torch's release would have it: a new game's state is a TorchState, its torch
    unlit (every game, a match's, a replay's check, a save's, starts in engine/game.py's initial_state)."""
    plain = engine_game.initial_state

    def with_a_torch(*args: Any, **options: Any) -> TorchState:
        return TorchState(**vars(plain(*args, **options)), torch_light=0)

    monkeypatch.setattr(engine_game, "initial_state", with_a_torch)
