"""What a match leaves behind: each turn as played, the result, and the shape of
a recorder (a replay file) that keeps them as they happen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from labyrinth.engine import MinotaurDecision, UserInput
from labyrinth.engine.schemas import Outcome
from labyrinth.engine.turn import TurnResult
from labyrinth.saves.results_terms import fingerprint

from .side import SideStats

if TYPE_CHECKING:  # the experience log's model is built only when lessons are (start-up)
    from labyrinth.saves.experience import Reflection


DIGEST_CHARS = 16  # a game's digest: 64 bits, as a state's hash


@dataclass
class TurnRecord:
    """One turn as played: what each side sent, why a fallback replaced it, the outcome."""

    turn: int
    user: UserInput
    minotaur: MinotaurDecision
    user_fallback: str | None
    minotaur_fallback: str | None
    result: TurnResult
    # Each LLM side's calls: prompt, reply, tokens...
    exchanges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # the user's commands refused before it (asked again, or played by a stand-in)
    refused: list[dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, **({"exchanges": self.exchanges} if self.exchanges else {}),
                **({"refused": self.refused} if self.refused else {}),
                "user": self.user.model_dump(exclude_none=True),
                "minotaur": self.minotaur.model_dump(exclude_none=True),
                "fallback": {"user": self.user_fallback, "minotaur": self.minotaur_fallback},
                "status": self.result.response.status,
                "hash": self.result.state.digest()}


@dataclass
class MatchResult:
    seed: int
    preset: str
    difficulty: str
    user_agent: str
    minotaur_agent: str
    outcome: Outcome
    turns: int
    game_time: float
    user: SideStats = field(default_factory=SideStats)
    minotaur: SideStats = field(default_factory=SideStats)
    recording_error: str | None = None  # why the replay stopped early, if it did
    reflections: list[Reflection] = field(default_factory=list)  # the lessons drawn, when memory is on
    digest: str = ""  # the game as played (game_digest): two matches with one digest are copies of one game

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "reflections": [r.model_dump(mode="json") for r in self.reflections]}


def game_digest(seed: int, preset: str, difficulty: str, played: Sequence[tuple[UserInput, MinotaurDecision]],
                final: str) -> str:
    """What tells one game from another: its ground, every turn's two inputs and the final state's
    hash. The engine is deterministic, so two matches with one digest played the very same game
    (a rule agent's repeat on a seed is a copy, not another sample); a model's sampled answers that
    differ anywhere give another."""
    return fingerprint([seed, preset, difficulty, final, [(user.model_dump(exclude_none=True),
                                                           minotaur.model_dump(exclude_none=True))
                                                          for user, minotaur in played]], DIGEST_CHARS)


class Recorder(Protocol):
    """Something that keeps a match as it is played (a replay file)."""

    def start(self, match: Any) -> None: ...
    def turn(self, record: TurnRecord) -> None: ...
    def finish(self, result: MatchResult) -> None: ...
    def close(self) -> None: ...
