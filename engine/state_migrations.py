"""The game state's versions, one row each, and how a state moves between them: the one migrations table.

A row says what its version changed in the state's fields: the fields it added, each with the value it
takes in a state of an older version (its default, as JSON holds it, or how it follows from the older
state's fields); the fields it removed, each with how the older version's value follows from the newer
state's fields; the fields it renamed.

Two things read the table. ``upgrade`` brings a state an older version wrote forward, row by row, for
GameState.from_dict to validate. ``downgrade`` takes a state back to an older version's fields, so that
its digest is the one that version computed (GameState.digest(version)): a replay or a save recorded by
an older version is checked by today's engine, hash for hash, on the fields its version knew. A removed
field therefore needs its value recomputed from the newer state; a field whose value cannot be
recomputed cannot be removed without giving up the hashes of every older recording.

The state's class carries its table (GameState.VERSIONS), so a change of the state is a new field in
GameState and a new row here; tests/engine/test_state_migrations.py holds the state's fields to the table.

Before this table, the state's JSON always said version 1, while jump_total came and went under it: the
table calls the state the first replays recorded version 0, and remembers that it wrote itself as 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .rng import jump_length

Fields = Mapping[str, Any]  # a state's fields by name, as to_dict gives them (without "version")


@dataclass(frozen=True)
class StateVersion:
    """One version of the game state: what it changed from the one before."""

    number: int
    since: str  # the first release (a commit of the project's history) whose states were of this version
    change: str  # what changed, and why
    added: Mapping[str, Any] = field(default_factory=dict)  # name -> its value in a state of an older version
    derived: Mapping[str, Callable[[Fields], Any]] = field(default_factory=dict)  # added, and its value there
    #                                                       follows from the older state's fields
    removed: Mapping[str, Callable[[Fields], Any]] = field(default_factory=dict)  # name -> its older value
    renamed: Mapping[str, str] = field(default_factory=dict)  # older name -> this version's
    fields: tuple[str, ...] = ()  # the first version's fields; a later version says only what it changed
    written_as: int | None = None  # the number its states wrote, where that is not ``number``

    @property
    def written(self) -> int:
        return self.number if self.written_as is None else self.written_as


def _last_jump_length(state: Fields) -> int:
    """jump_total, the length of the Minotaur's last jump: drawn from the seed by the jump's number, so the
    number of jumps gives it back (0 before the first)."""
    jumps = state["jumps"]
    return jump_length(state["seed"], jumps - 1) if jumps else 0


def _timers(state: Fields) -> dict[str, int]:
    """The lantern's respawn countdown, as the one timer of the items' map (none while a lantern lies there)."""
    left = state["lantern_respawn"]
    return {"LANTERN": left} if left else {}


def _respawns(state: Fields) -> dict[str, int]:
    """The lanterns spawned after the first, as the items' map of respawns counts them."""
    again = state["lanterns_spawned"] - 1
    return {"LANTERN": again} if again else {}


VERSIONS: tuple[StateVersion, ...] = (
    StateVersion(0, "5d2acc1", "the state as the first replays recorded it (from 7c35d4a, which added waypoint; "
                               "no file kept a state of the releases before it)",
                 fields=("seed", "preset", "difficulty", "tick", "turn", "outcome", "user", "stamina", "inventory",
                         "seen_items", "items", "lantern_respawn", "lanterns_spawned", "minotaur", "jump_left",
                         "jump_total", "jump_started_turn", "jump_cooldown", "jumps", "paralysis", "stride",
                         "last_seen", "last_heard", "searched_until", "patrols", "waypoint", "goal", "path"),
                 written_as=1),
    StateVersion(1, "4c09b2b", "jump_total removed: nothing read it, and the jump's number gives it back",
                 removed={"jump_total": _last_jump_length}),
    StateVersion(2, "507d638", "the items' timers in one map (timers, respawns) in place of the lantern's two fields: "
                           "a new timed item adds no field",
                 derived={"timers": _timers, "respawns": _respawns},
                 removed={"lantern_respawn": lambda state: state["timers"].get("LANTERN", 0),
                          "lanterns_spawned": lambda state: 1 + state["respawns"].get("LANTERN", 0)}),
)


def fields_at(number: int, versions: tuple[StateVersion, ...] = VERSIONS) -> frozenset[str]:
    """The fields a state of version ``number`` holds."""
    names = set(versions[0].fields)
    for row in versions[1:number + 1]:
        names -= set(row.removed) | set(row.renamed)
        names |= set(row.renamed.values()) | set(row.added) | set(row.derived)
    return frozenset(names)


def version_of(data: Fields, versions: tuple[StateVersion, ...] = VERSIONS) -> int:
    """The version that wrote ``data`` (a state's JSON object): the one of its number, or of two that wrote
    the same number, the one whose fields it holds; ValueError for a number no version wrote."""
    written = data.get("version")
    known = isinstance(written, int) and not isinstance(written, bool)
    found = [row.number for row in versions if known and row.written == written]
    if not found:
        raise ValueError(f"a game state of version {written!r:.20}; this Labyrinth reads versions "
                         f"{versions[0].written} to {versions[-1].written}")
    held = set(data) - {"version"}
    return next((number for number in found if fields_at(number, versions) == held), found[-1])


def upgrade(data: Fields, versions: tuple[StateVersion, ...] = VERSIONS) -> dict[str, Any]:
    """The fields of ``data``, a state's JSON object as any version wrote it, as the last version holds them:
    each later row's new fields take their default (or follow from the older fields), its removed ones are
    dropped, its renamed ones renamed."""
    fields = {name: value for name, value in data.items() if name != "version"}
    for row in versions[version_of(data, versions) + 1:]:
        for older, newer in row.renamed.items():
            if older in fields:
                fields[newer] = fields.pop(older)
        derived = _derive(row, fields)  # before the fields they follow from are dropped
        for name in row.removed:
            fields.pop(name, None)
        for name, default in row.added.items():
            fields.setdefault(name, default)
        fields.update(derived)
    return fields


def _derive(row: StateVersion, fields: Fields) -> dict[str, Any]:
    """The fields ``row`` adds whose value follows from the older state's; ValueError naming what is amiss."""
    try:
        return {name: derive(fields) for name, derive in row.derived.items() if name not in fields}
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]} is required") from None
    except (TypeError, AttributeError):
        raise ValueError(f"{', '.join(row.derived)} cannot follow from this state's fields") from None


def downgrade(data: Fields, number: int, versions: tuple[StateVersion, ...] = VERSIONS) -> dict[str, Any]:
    """``data``, a state of the last version as to_dict gives it, as version ``number`` wrote it: the fields
    added since taken off, the removed ones recomputed, the renamed ones named as they were."""
    if not 0 <= number < len(versions):
        raise ValueError(f"no game state version {number}; this Labyrinth knows 0 to {len(versions) - 1}")
    fields = {name: value for name, value in data.items() if name != "version"}
    for row in reversed(versions[number + 1:]):
        older = {name: recompute(fields) for name, recompute in row.removed.items()}  # from the newer fields
        for name in (*row.added, *row.derived):
            del fields[name]
        fields.update(older)
        for name, newer in row.renamed.items():
            fields[name] = fields.pop(newer)
    return {"version": versions[number].written, **fields}
