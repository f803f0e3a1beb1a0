"""The whole state of one game: small, plain values that serialise to JSON and back.

The world's cells are not here: they follow from the seed. A turn never
mutates a state; it works on a ``clone()`` and returns it, so an invalid
command can return the very same object.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError

from .commands import describe_errors
from .constants import STAMINA_MAX
from .geometry import Pos
from .items import ITEM_ORDER
from .presets import PRESETS, Bounds, unknown_setting
from .schemas import Ending
from .state_migrations import VERSIONS, StateVersion, downgrade, upgrade

STATE_VERSION = VERSIONS[-1].number  # the state this engine plays; engine/state_migrations.py has its history


@dataclass(eq=True, kw_only=True)
class GameState:
    """The state of one game; each field's default is its value at the start of a game (engine/game.py's
    initial_state gives the rest), so a field is declared here once."""

    # Its versions, the last one this class's (state_migrations): a state with a new field has a new row.
    VERSIONS: ClassVar[tuple[StateVersion, ...]] = VERSIONS

    seed: int
    preset: str
    difficulty: str
    tick: int = 0  # 0.5 s each since the start
    turn: int = 0
    outcome: Ending | None = None  # None while playing
    # The user.
    user: Pos
    stamina: int = STAMINA_MAX  # hundredths
    inventory: tuple[str, ...] = ()  # in ITEM_ORDER
    seen_items: tuple[tuple[str, Pos], ...] = ()  # items the user has had in sight, sorted
    # Items lying in the labyrinth, in ITEM_ORDER, and the items' own timers, one map for every item: a new
    # timed item adds no field. Each map holds only what is not 0, and is replaced, never changed in place
    # (a clone shares it).
    items: tuple[tuple[str, Pos], ...] = ()
    timers: dict[str, int] = field(default_factory=dict)  # ticks left on an item's countdown (its rules say of what)
    respawns: dict[str, int] = field(default_factory=dict)  # how many times a new one of an item has appeared
    # The Minotaur.
    minotaur: Pos
    jump_left: int = 0  # ticks until re-entry; 0 when not jumping
    jump_started_turn: int = -1  # the turn of the last jump, for VANISHING
    jump_cooldown: int = 0  # ticks until JUMP is allowed
    jumps: int = 0
    paralysis: int = 0  # ticks of lantern paralysis left (the seed's lantern_active_timer)
    stride: int = 0  # quarter steps taken towards the Minotaur's next step
    last_seen: tuple[Pos, int] | None = None  # (where, tick) it last saw the user
    last_heard: tuple[Pos, int, str] | None = None  # (where, tick, loudness) of the last noise heard
    searched_until: int = -1  # knowledge up to this tick has been followed up and found empty
    patrols: int = 0  # patrol waypoints drawn so far
    waypoint: Pos | None = None  # the patrol waypoint it is walking to
    goal: Pos | None = None  # where its current path leads
    path: tuple[Pos, ...] = ()  # the cells still to walk to reach ``goal``

    @property
    def version(self) -> int:
        """The state version this state is of (its hashes are that version's)."""
        return self.VERSIONS[-1].number

    @property
    def bounds(self) -> Bounds:
        """The hunting ground of its preset."""
        return PRESETS[self.preset]

    def items_with(self, item: tuple[str, Pos]) -> tuple[tuple[str, Pos], ...]:
        """The lying items with ``item`` added, in ITEM_ORDER."""
        return tuple(sorted((*self.items, item), key=lambda lying: ITEM_ORDER.index(lying[0])))

    def clone(self) -> GameState:
        """A copy to work on; every field holds an immutable value, so shallow is enough."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.VERSIONS[-1].written}
        for name in _field_names(type(self)):
            out[name] = _plain(getattr(self, name))
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from ``to_dict()`` of this version or an older one (brought forward by the
        migrations table: each field added since takes its default); ValueError naming the problem otherwise."""
        if not isinstance(data, dict):
            raise ValueError("not a game state: not a JSON object")  # noqa: TRY004 - the documented error
        try:
            fields_only = upgrade(data, cls.VERSIONS)
        except ValueError as exc:
            raise ValueError(f"not a game state this Labyrinth reads: {exc}") from None
        missing = [name for name in _field_names(cls) if name not in fields_only]  # a default is a new game's
        if missing:
            raise ValueError(f"broken game state: {'; '.join(f'{name} is required' for name in missing)}")
        try:
            state = _adapter(cls).validate_python(fields_only)
        except ValidationError as exc:
            raise ValueError(f"broken game state: {describe_errors(exc)}") from None
        problem = state.inconsistency()
        if problem:
            raise ValueError(f"broken game state: {problem}")
        return state

    def inconsistency(self) -> str | None:
        """What makes this state impossible under the rules, or None."""
        unknown = unknown_setting(self.preset, self.difficulty)
        if unknown:
            return unknown
        if not 0 <= self.stamina <= STAMINA_MAX:
            return f"stamina {self.stamina} is outside 0..{STAMINA_MAX}"
        counters = ("tick", "turn", "jump_left", "jump_cooldown", "jumps", "paralysis", "stride", "patrols")
        negative = [n for n in counters if getattr(self, n) < 0]
        if negative:
            return f"negative {', '.join(negative)}"
        for name, counts in (("timers", self.timers), ("respawns", self.respawns)):
            odd = [f"{item}: {n}" for item, n in counts.items() if item not in ITEM_ORDER or n <= 0]
            if odd:
                return f"{name} holds {', '.join(odd)} (an item's count above 0, or nothing)"
        names = [n for n, _ in self.items] + list(self.inventory)
        if any(n not in ITEM_ORDER for n in names) or len(set(names)) != len(names):
            return f"impossible items {names}"
        return None

    def to_json(self) -> str:
        return _canonical(self.to_dict())

    def digest(self, version: int | None = None) -> str:
        """A short, stable hash of the whole state, for replays and golden tests. ``version``: the hash an
        older state version computed for it, from the fields that version held (state_migrations.downgrade),
        to check a recording of that version."""
        if version is None or version == self.version:
            return _hash(self.to_json())
        return _hash(_canonical(downgrade(self.to_dict(), version, self.VERSIONS)))


def _canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _field_names(kind: type[GameState]) -> tuple[str, ...]:
    """The fields of ``kind`` (GameState, or a test's state with one more), in order: read once per class."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind))
    return names


def _adapter(kind: type[GameState]) -> TypeAdapter[GameState]:
    """The state's validator, built when a state is first read back (a saved game, a replay), not at every
    import of the engine (start-up)."""
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    return adapter


# Dicts by class, not functools.cache: mypy takes a class whose instances have no __hash__ (eq=True) as unhashable.
_FIELD_NAMES: dict[type[GameState], tuple[str, ...]] = {}
_ADAPTERS: dict[type[GameState], TypeAdapter[GameState]] = {}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return dict(value)  # a copy: what a caller does with the JSON never reaches the state
    return value
