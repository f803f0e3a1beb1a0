"""An Observation built when it is read, for a perception that hands one out every turn.

Most turns nobody reads most of a role's Observation: the built-in Minotaur reads only
its ``details``, an RL environment without the text reads only a detail or two, a seat
whose agent is not asked reads nothing. Building the words and the map windows anyway
costs more than the turn itself. A ``Deferred`` observation holds builders, one for
``details``, one for each field a perception builds apart, and one for every other field,
and runs each when one of its fields is first read; it is then an Observation like any other.

A builder reads the perception's memory when it runs, so it must run before that memory
changes: the perception calls ``settle`` on the observation it last handed out, before
its next turn, when anyone still holds it (``Handed``). One nobody holds any more is
dropped unbuilt.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from .types import Observation

Build = Callable[[], dict[str, Any]]  # the fields it fills, by name
_FIELDS = frozenset(f.name for f in fields(Observation))
_BUILDING = threading.RLock()  # one build at a time: they are short, and rarely wanted by two threads


class Deferred(Observation):
    """An Observation whose ``details`` and other fields are built on first read."""

    __slots__ = ("__weakref__", "_apart", "_pending")

    def __init__(self, main: Build, details: Build, **apart: Build) -> None:
        """No field is set: each is built when first read. ``apart``: fields built by builders of
        their own, by name, for one that costs much and that some readers never read (the user's
        location draws its map; the built-in user reads its status, not its map)."""
        self._pending: dict[str | None, Build] = {"details": details}
        self._pending.update(apart)
        self._pending[None] = main
        self._apart = frozenset(("details", *apart))

    def __getattr__(self, name: str) -> Any:
        """Called only for a field not set yet (a slot still empty): build its group. Under a
        lock: an agent still answering in its thread may read it while the turn loop settles it."""
        if name not in _FIELDS:
            raise AttributeError(name)
        with _BUILDING:
            try:
                return object.__getattribute__(self, name)  # built meanwhile, in another thread
            except AttributeError:
                pass
            build = self._pending.pop(name if name in self._apart else None, None)
            if build is None:
                raise AttributeError(name)
            for field, value in build().items():
                setattr(self, field, value)
        return getattr(self, name)

    def settle(self) -> None:
        """Build what is still pending, from the memory as it is now."""
        for group in list(self._pending):
            getattr(self, group or "status")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _FIELDS)

    __hash__ = None  # type: ignore[assignment]  # as the dataclass's own: mutable, compared by value


class Handed:
    """The observation a perception handed out last, weakly held: settled before its memory
    changes only while someone still holds it."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: weakref.ref[Deferred] | None = None

    def settle(self) -> None:
        last = self._last() if self._last is not None else None
        if last is not None:
            last.settle()
        self._last = None

    def hand(self, observation: Deferred) -> Deferred:
        self._last = weakref.ref(observation)
        return observation
