"""The deterministic Game State Manager: world, rules, schemas; pure, no I/O."""

from .commands import BadInput, parse
from .game import WAIT, Game, initial_state
from .presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET, DIFFICULTIES, PRESETS, Bounds
from .schemas import GameStateResponse, MinotaurDecision, MinotaurObservation, UserInput
from .state import GameState
from .turn import TurnResult, advance
from .world import World

__all__ = [
    "DEFAULT_DIFFICULTY",
    "DEFAULT_PRESET",
    "DIFFICULTIES",
    "PRESETS",
    "WAIT",
    "BadInput",
    "Bounds",
    "Game",
    "GameState",
    "GameStateResponse",
    "MinotaurDecision",
    "MinotaurObservation",
    "TurnResult",
    "UserInput",
    "World",
    "advance",
    "initial_state",
    "parse",
]
