"""A game: one seed's world and the current state, advanced one turn at a time."""

from __future__ import annotations

import json
from typing import Any

from .commands import BadInput, parse
from .placement import minotaur_start, place_items, user_start
from .presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET, PRESETS, unknown_setting
from .report import initial_report
from .schemas import GameStateResponse, MinotaurDecision, MinotaurObservation, UserInput
from .senses import items_in_sight
from .state import GameState
from .turn import TurnResult, advance, reject
from .world import World

WAIT = MinotaurDecision(action="WAIT")


def initial_state(seed: int, preset: str = DEFAULT_PRESET, difficulty: str = DEFAULT_DIFFICULTY,
                  world: World | None = None) -> GameState:
    """The state at the start of a game; raises ValueError for an unknown preset or difficulty.
    ``world`` (the seed's) is only looked at, to know which items the user sees at once."""
    problem = unknown_setting(preset, difficulty)
    if problem:
        raise ValueError(problem)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed must be an integer, not {seed!r}")  # noqa: TRY004 - callers take ValueError
    bounds = PRESETS[preset]
    user = user_start()
    minotaur = minotaur_start(seed, bounds, user)
    items = place_items(seed, bounds, user, minotaur)
    state = GameState(seed=seed, preset=preset, difficulty=difficulty, user=user, minotaur=minotaur, items=items)
    state.seen_items = tuple(sorted(items_in_sight(world or World(seed), state)))
    return state


class Game:
    """One game. ``step`` takes the user's command and the Minotaur's decision
    (models, dicts or JSON text) and returns the turn's result; bad input gives
    an ERROR result and changes nothing."""

    def __init__(self, state: GameState, world: World | None = None) -> None:
        self.world = world if world is not None else World(state.seed)
        self.state = state

    @classmethod
    def new(cls, seed: int, preset: str = DEFAULT_PRESET, difficulty: str = DEFAULT_DIFFICULTY) -> Game:
        world = World(seed)
        return cls(initial_state(seed, preset, difficulty, world), world)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Restore a game from ``to_json()``; ValueError with a clear message otherwise."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not a saved game: {exc}") from None
        game = cls(GameState.from_dict(data))
        if not game.world.is_open(game.state.user) or not game.world.is_open(game.state.minotaur):
            raise ValueError("broken game state: someone stands inside rock")
        return game

    def to_json(self) -> str:
        return self.state.to_json()

    def view(self) -> tuple[GameStateResponse, MinotaurObservation]:
        """Both sides' view of the current state, as at the start of a game."""
        opening = self.opening()
        return opening.response, opening.observation

    def opening(self) -> TurnResult:
        """The current state as a turn with no events: what each side sees at the start."""
        return TurnResult(self.state, initial_report(self.world, self.state), ())

    def step(self, command: UserInput | dict[str, Any] | str, decision: MinotaurDecision | dict[str, Any] | str = WAIT
             ) -> TurnResult:
        try:
            cmd = parse(UserInput, command)
        except BadInput as exc:
            return reject(self.world, self.state, str(exc))
        try:
            dec = parse(MinotaurDecision, decision)
        except BadInput as exc:
            return reject(self.world, self.state, "The turn was rejected: the Minotaur's decision is invalid.",
                          f"Your decision was rejected: {exc}")
        result = advance(self.world, self.state, cmd, dec)
        self.state = result.state
        return result
