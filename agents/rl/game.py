"""One game as the reinforcement-learning environments play it: a Match (the one turn
loop) whose learning roles are Outside seats, and what their steps report.

Every step is one turn: a command the game refuses is played by the seat's stand-in (one
second of standing still, commands.STAND_IN) and ``info["refused"]`` says why, so no
sequence of actions keeps an episode from reaching ``max_turns``. The info a trainer needs
comes with every step (the action mask, the turn, the stones the user holds) and, at the
end, the outcome, the role's achievements by their stable ids and the user's progression,
so that an escape rate can be read through a vector env.

A game is its seed and its inputs (the engine's design): ``replay`` plays recorded inputs
into a new game, which is how the envs pickle and copy themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from labyrinth.engine import MinotaurDecision, UserInput
from labyrinth.engine.constants import MAX_STEPS, TICKS_PER_SECOND
from labyrinth.engine.game import initial_state
from labyrinth.engine.items import STONES, stones_held
from labyrinth.engine.rng import DRAWN_SEEDS
from labyrinth.engine.state import GameState
from labyrinth.engine.turn import TurnResult
from labyrinth.engine.world import World
from labyrinth.engine.wsap.roles import ROLES

from ..base import Agent
from ..match.runner import Match, Outside
from .commands import action_mask, command
from .spaces import View, observe, seat, view

Played = list[tuple[UserInput, MinotaurDecision]]
NOT_STARTED = "call reset() before step() or action_masks()"


def checked_max_turns(max_turns: Any) -> int:
    """The turn limit of an RL episode: an integer of at least 1 (an episode must end)."""
    if isinstance(max_turns, bool | np.bool_) or not isinstance(max_turns, int | np.integer) or max_turns < 1:
        raise ValueError(f"max_turns must be an integer of at least 1, not {max_turns!r}")
    return int(max_turns)


def draw_game_seed(generator: np.random.Generator) -> int:
    """The seed of an env's next game, drawn from its generator (which ``reset(seed=...)`` seeds)."""
    return int(generator.integers(DRAWN_SEEDS))


def frozen_start(max_turns: int) -> Callable[[GameState], None]:
    """A game's start with the Minotaur frozen for the whole game: the lantern's paralysis set for longer
    than ``max_turns`` turns can last (a turn lasts at most MAX_STEPS seconds: a hundred steps walked, a
    hundred seconds halted). Frozen, it neither moves, sees nor kills, and blocks its cell (the rules'
    PARALYZED); a lantern used meanwhile does not shorten it (engine/item_rules.freeze_minotaur)."""
    ticks = max_turns * MAX_STEPS * TICKS_PER_SECOND + 1

    def freeze(state: GameState) -> None:
        state.paralysis = ticks
    return freeze


def ending(match: Match, role: str, unlocked: set[str]) -> dict[str, Any]:
    """The last step's info of a finished game, for ``role``: the outcome, the role's achievements (every
    id, 1 when earned, as Crafter counts them) and the user's progression."""
    return {"outcome": match.outcome,
            "achievements": {name: int(name in unlocked) for name in ROLES[role].achievements},
            "progression": progression(match.last)}


def progression(result: TurnResult) -> float:
    """How far the user got, in [0, 1]: a quarter for each stone held, the last quarter for escaping."""
    state = result.state
    return (stones_held(state.inventory) + (state.outcome == "ESCAPED")) / (len(STONES) + 1)


def new_match(seats: Mapping[str, Agent | Outside], *, seed: int, preset: str, difficulty: str, max_turns: int,
              frozen: bool = False) -> Match:
    """A game as the RL envs and their evaluation seat it (``frozen``: the Minotaur frozen all game)."""
    return Match(seats["user"], seats["minotaur"], seed=seed, preset=preset, difficulty=difficulty,
                 max_turns=max_turns, start=frozen_start(max_turns) if frozen else None)


def first_state(seed: int, *, preset: str, difficulty: str, max_turns: int, frozen: bool, world: World) -> GameState:
    """The state new_match's game starts from (Game.new's, frozen as new_match freezes it), made without a Match:
    what the vector env's kernel starts a row from. ``world``: the seed's, as initial_state takes it."""
    state = initial_state(seed, preset, difficulty, world)
    if frozen:
        frozen_start(max_turns)(state)
    return state


class RLGame:
    """A Match played from outside by the ``learners`` (roles), the others seated by ``opponents``."""

    def __init__(self, learners: Sequence[str], opponents: Mapping[str, Agent], *, seed: int, preset: str,
                 difficulty: str, max_turns: int, text: bool, frozen: bool = False) -> None:
        seats = {role: opponents[role] if role in opponents else seat(role, text) for role in ROLES}
        self.match = new_match(seats, seed=seed, preset=preset, difficulty=difficulty, max_turns=max_turns,
                               frozen=frozen)
        self.learners, self.text = tuple(learners), text
        self.views: dict[str, View] = {role: view(self.match, role, max_turns) for role in self.learners}
        self.unlocked: dict[str, set[str]] = {role: set() for role in self.learners}
        self.refused: str | None = None  # why the user's last command was refused, when it was
        self._masks: dict[str, np.ndarray] = {}  # the masks of turn ``_masks_turn``, by role
        self._masks_turn = -1

    @property
    def over(self) -> bool:
        return self.match.outcome is not None

    @property
    def terminated(self) -> bool:
        """An escape or a death: the game itself ended."""
        return self.match.game.state.outcome is not None

    @property
    def truncated(self) -> bool:
        """The turn limit, reached before the game ended."""
        return self.match.outcome == "TIMEOUT"

    def step(self, actions: Mapping[str, Any]) -> dict[str, float]:
        """One turn with each learner's action (a command's number); each learner's reward."""
        match = self.match
        if self.over:
            raise RuntimeError("the episode is over: call reset()")
        turn = match.play_turn(**{role: command(role, action).make(match) for role, action in actions.items()})
        self.refused = turn.refused[-1]["why"] if turn.refused else None
        result = turn.result
        assert result is not None, "play_turn returns a finished turn"
        self._after(result)
        return {role: float(ROLES[role].reward(result)) for role in self.learners}

    def replay(self, played: Played) -> None:
        """Recorded turns played into this new game (seats and views re-live them)."""
        for user, minotaur in played:
            self._after(self.match.replay_turn(user, minotaur))

    def _after(self, result: TurnResult) -> None:
        for role in self.learners:
            self.views[role].update(result)
            self.unlocked[role] |= ROLES[role].unlocked(result)

    def observation(self, role: str) -> dict[str, Any]:
        return observe(self.match, role, self.views[role], self.text)

    def mask(self, role: str) -> np.ndarray:
        """The role's action mask now: worked out once a turn (a trainer reads it from info and from
        ``action_masks`` both), each caller given a copy of its own."""
        if self._masks_turn != self.match.turns:
            self._masks, self._masks_turn = {}, self.match.turns
        mask = self._masks.get(role)
        if mask is None:
            mask = self._masks[role] = action_mask(self.match, role)
        return mask.copy()

    def info(self, role: str) -> dict[str, Any]:
        """What a trainer needs of this step: the mask, the turn, the stones the user holds, why the
        user's command was refused; at the end, the outcome, the role's achievements (every id, 1
        when earned, as Crafter counts them) and the user's progression."""
        state = self.match.game.state
        info: dict[str, Any] = {"action_mask": self.mask(role), "turn": self.match.turns,
                                "stones": stones_held(state.inventory)}
        if role == "user" and self.refused is not None:
            info["refused"] = self.refused
        if self.over:
            info.update(ending(self.match, role, self.unlocked[role]))
        return info


class PicklesAsReplay:
    """What an env holding ``game`` (an RLGame, or None before reset) and ``_new_game(seed)`` pickles
    and copies as: its settings and generator, and the game as its seed and inputs, replayed into
    a new game on loading (a game holds closures that do not pickle). A copy plays on identically."""

    game: RLGame | None
    _new_game: Callable[[int], RLGame]  # the env's own: a new game of this seed, seated as the env seats it

    def _started(self) -> RLGame:
        """The game under way; before reset(), the same clear error for every call that needs one."""
        if self.game is None:
            raise RuntimeError(NOT_STARTED)
        return self.game

    def __getstate__(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k != "game"}
        state["played"] = None if self.game is None else (self.game.match.seed, list(self.game.match.played))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        played = state.pop("played")
        self.__dict__.update(state)
        self.game = None
        if played is not None:
            self.game = self._new_game(played[0])
            self.game.replay(played[1])
