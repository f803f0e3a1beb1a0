"""Resuming a saved game: its turns played again into a new Match, through the one check
that a recording is the game it says (saves/replays.py first_mismatch)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from labyrinth.engine import MinotaurDecision, UserInput
from labyrinth.engine.turn import TurnResult
from labyrinth.saves.games import SavedGame, SaveError
from labyrinth.saves.replays import first_mismatch

from .runner import Match


def resume_into(match: Match, saved: SavedGame, played: Callable[[TurnResult], Any] | None = None) -> None:
    """Play ``saved``'s turns into ``match``, new and of the same world: its seats re-live them
    (Match.replay_turn), ``played`` is told each turn's result (a front's figures), and each
    turn is checked against what the save recorded, the hash after the last turn at least.
    SaveError naming the first turn that differs (the save was edited, or another engine): the
    match is then half-played and should be dropped."""
    if (match.seed, match.preset, match.difficulty) != (saved.seed, saved.preset, saved.difficulty):
        raise SaveError(f"{saved.path}: a game of seed {saved.seed}, {saved.preset}, {saved.difficulty}, "
                        f"not of seed {match.seed}, {match.preset}, {match.difficulty}")
    def step(user: UserInput, minotaur: MinotaurDecision) -> TurnResult:
        result = match.replay_turn(user, minotaur)
        if played is not None:
            played(result)
        return result

    mismatch = first_mismatch(saved.replay(), step, match.game.state)
    if mismatch is not None and mismatch.cannot_check:
        raise SaveError(f"{saved.path}: the saved game cannot be resumed here: {mismatch.detail}")
    if mismatch is not None:
        raise SaveError(f"{saved.path}: the saved game does not play again as saved: "
                        f"turn {mismatch.turn}: {mismatch.detail}")
