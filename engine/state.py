"""The whole state of one game: small, plain values that serialise to JSON and back.

The world's cells are not here: they follow from the seed. A turn never
mutates a state; it works on a ``clone()`` and returns it, so an invalid
command can return the very same object.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from .commands import describe_errors
from .geometry import Pos
from .items import ITEM_ORDER
from .presets import DIFFICULTIES, PRESETS

STATE_VERSION = 1


@dataclass(eq=True)
class GameState:
    seed: int
    preset: str
    difficulty: str
    tick: int  # 0.5 s each since the start
    turn: int
    outcome: str | None  # None while playing, then "DEATH" or "ESCAPED"
    # The user.
    user: Pos
    stamina: int  # hundredths
    inventory: tuple[str, ...]  # in ITEM_ORDER
    seen_items: tuple[tuple[str, Pos], ...]  # items the user has had in sight, sorted
    # Items lying in the labyrinth, in ITEM_ORDER; the lantern's respawn timer.
    items: tuple[tuple[str, Pos], ...]
    lantern_respawn: int  # ticks until a new lantern spawns; 0 when one exists
    lanterns_spawned: int
    # The Minotaur.
    minotaur: Pos
    jump_left: int  # ticks until re-entry; 0 when not jumping
    jump_started_turn: int  # the turn of the last jump, for VANISHING
    jump_cooldown: int  # ticks until JUMP is allowed
    jumps: int
    paralysis: int  # ticks of lantern paralysis left (the seed's lantern_active_timer)
    stride: int  # quarter steps taken towards the Minotaur's next step
    last_seen: tuple[Pos, int] | None  # (where, tick) it last saw the user
    last_heard: tuple[Pos, int, str] | None  # (where, tick, loudness) of the last noise heard
    searched_until: int  # knowledge up to this tick has been followed up and found empty
    patrols: int  # patrol waypoints drawn so far
    waypoint: Pos | None  # the patrol waypoint it is walking to
    goal: Pos | None  # where its current path leads
    path: tuple[Pos, ...]  # the cells still to walk to reach ``goal``

    def clone(self) -> GameState:
        """A copy to work on; every field holds an immutable value, so shallow is enough."""
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        return new

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": STATE_VERSION}
        for name in _FIELDS:
            out[name] = _plain(getattr(self, name))
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from ``to_dict()``; ValueError naming the problem on anything else."""
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise ValueError(f"not a version {STATE_VERSION} game state")
        fields_only = {k: v for k, v in data.items() if k != "version"}
        try:
            state = _adapter().validate_python(fields_only)
        except ValidationError as exc:
            raise ValueError(f"broken game state: {describe_errors(exc)}") from None
        problem = state.inconsistency()
        if problem:
            raise ValueError(f"broken game state: {problem}")
        return state

    def inconsistency(self) -> str | None:
        """What makes this state impossible under the rules, or None."""
        if self.preset not in PRESETS or self.difficulty not in DIFFICULTIES:
            return f"unknown preset {self.preset!r} or difficulty {self.difficulty!r}"
        if not 0 <= self.stamina <= 100:
            return f"stamina {self.stamina} is outside 0..100"
        counters = ("tick", "turn", "lantern_respawn", "jump_left", "jump_cooldown", "jumps",
                    "paralysis", "stride", "patrols", "lanterns_spawned")
        negative = [n for n in counters if getattr(self, n) < 0]
        if negative:
            return f"negative {', '.join(negative)}"
        names = [n for n, _ in self.items] + list(self.inventory)
        if any(n not in ITEM_ORDER for n in names) or len(set(names)) != len(names):
            return f"impossible items {names}"
        if self.outcome not in (None, "DEATH", "ESCAPED"):
            return f"unknown outcome {self.outcome!r}"
        return None

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        """A short, stable hash of the whole state, for replays and golden tests."""
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:16]


_FIELDS = tuple(f.name for f in fields(GameState))


@cache
def _adapter() -> TypeAdapter[GameState]:
    """The state's validator, built when a state is first read back (a saved game, a replay), not at every
    import of the engine (start-up)."""
    return TypeAdapter(GameState)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
