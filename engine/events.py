"""What happened in a turn, as past-tense values.

The log, the cue panel, replays and reflections read these; nobody diffs two
states to guess. Every event carries the tick (0.5 s) at which it happened.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .geometry import Pos, cell_of


@dataclass(frozen=True, slots=True)
class Event:
    tick: int

    @property
    def kind(self) -> str:
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"kind": ..., "tick": ..., ...}``, positions as ``{x, y, z}``."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "path":
                value = [list(p) for p in value]
            elif isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) for v in value):
                value = cell_of(value)
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class UserMoved(Event):
    start: Pos
    end: Pos
    steps: int
    ran: int  # how many of the steps were run
    path: tuple[Pos, ...]  # every cell entered, in order


@dataclass(frozen=True, slots=True)
class UserLeftGround(Event):
    """The user's move took it out of the hunting ground, into the maze that goes on beyond it."""

    position: Pos  # the first cell outside


@dataclass(frozen=True, slots=True)
class UserReenteredGround(Event):
    """The user's move took it back into the hunting ground."""

    position: Pos  # the first cell inside again


@dataclass(frozen=True, slots=True)
class UserCollided(Event):
    position: Pos
    reason: str


@dataclass(frozen=True, slots=True)
class StaminaExhausted(Event):
    position: Pos


@dataclass(frozen=True, slots=True)
class ItemSighted(Event):
    item: str
    position: Pos


@dataclass(frozen=True, slots=True)
class StonesHummed(Event):
    """LOOK on normal difficulty: each missing stone's compass direction (None
    when straight above or below) and how many levels above (+) or below (-)."""

    hums: tuple[tuple[str, str | None, int], ...]


@dataclass(frozen=True, slots=True)
class MinotaurSighted(Event):
    """The user saw the chasing Minotaur come into sight."""

    position: Pos


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """What the user's GRAB or USE did: the user's words for it are the narrative's line for the command."""


@dataclass(frozen=True, slots=True)
class ItemGrabbed(Acted):
    """GRAB of an item whose row names no event of its own (item_rules.take_item)."""

    item: str
    position: Pos


@dataclass(frozen=True, slots=True)
class StoneGrabbed(Acted):
    stone: str
    position: Pos


@dataclass(frozen=True, slots=True)
class LanternGrabbed(Acted):
    position: Pos


@dataclass(frozen=True, slots=True)
class LanternUsed(Acted):
    position: Pos  # the user's cell


@dataclass(frozen=True, slots=True)
class ItemUsed(Acted):
    """USE of an item whose rules tell no event of their own: told in its row's words for what it does."""

    item: str
    position: Pos  # the user's cell


@dataclass(frozen=True, slots=True)
class EffectEnded(Event):
    """An item's effect has run out (its countdown's last tick), for an item whose rules tell no event of their
    own."""

    item: str


@dataclass(frozen=True, slots=True)
class LanternSpawned(Event):
    position: Pos


@dataclass(frozen=True, slots=True)
class ParalysisEnded(Event):
    position: Pos


@dataclass(frozen=True, slots=True)
class MinotaurJumped(Event):
    position: Pos
    duration_ticks: int


@dataclass(frozen=True, slots=True)
class WhineHeard(Event):
    """The Temporal Whine: at VANISHING and at RE_ENTRY_ALERT, heard anywhere."""

    phase: str
    direction: str | None
    near: bool  # within VERY CLOSE range (VERY_CLOSE_SQ) when it sounded


@dataclass(frozen=True, slots=True)
class MinotaurReentered(Event):
    position: Pos


@dataclass(frozen=True, slots=True)
class MinotaurMoved(Event):
    start: Pos
    end: Pos
    steps: int


@dataclass(frozen=True, slots=True)
class UserSpotted(Event):
    """The Minotaur's infrared sight caught the user."""

    position: Pos


@dataclass(frozen=True, slots=True)
class UserHeard(Event):
    """The Minotaur heard the user's steps this turn (the last one heard)."""

    position: Pos
    loudness: str
    count: int


@dataclass(frozen=True, slots=True)
class DecisionRefused(Event):
    """A Minotaur decision the rules did not allow; it waited instead."""

    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class UserCaught(Event):
    """The Minotaur reached the user's cell; ``how`` is told, ``at_reentry`` is what rules read."""

    position: Pos
    how: str
    at_reentry: bool = False  # it came back into time on the user's cell (not walked or ran onto it)


@dataclass(frozen=True, slots=True)
class UserEscaped(Event):
    position: Pos


# Every kind of event a turn can tell, written out because a type checker reads a union only as written: each
# role's word table (event_words.py) matches on it and the type checker sees a missing case;
# tests/engine/test_event_words.py keeps it equal to the event classes.
AnyEvent = (UserMoved | UserLeftGround | UserReenteredGround | UserCollided | StaminaExhausted | ItemSighted
            | StonesHummed | MinotaurSighted | ItemGrabbed | StoneGrabbed | LanternGrabbed | ItemUsed | EffectEnded
            | LanternUsed | LanternSpawned | ParalysisEnded | MinotaurJumped | WhineHeard | MinotaurReentered
            | MinotaurMoved | UserSpotted | UserHeard | DecisionRefused | UserCaught | UserEscaped)
