"""The game as a WSAP v0.1 environment, kept apart from the rules: the protocol's types (``types``, and
its optional extensions and avatars in ``extensions``), each role's actions and the models' schema
(``actions``, ``action_schema``), what each role perceives (``perception``), its rewards (``rewards``)
and achievements (``achievements``).

The extensions' names are offered here too, their module loaded when one is first named: the turn
loop and its agents never use them, and every start would define them (start-up)."""

from typing import TYPE_CHECKING, Any

from .types import (
    Achievement,
    Action,
    ActionDef,
    ActionResult,
    ActionSpace,
    Effect,
    Entity,
    Event,
    GameAdapter,
    Goal,
    Location,
    Observation,
    ParamDef,
    Terrain,
    to_plain,
)

if TYPE_CHECKING:
    from .extensions import (
        AgentMessage,
        Avatar,
        AvatarGameAdapter,
        AvatarRoster,
        AvatarSpec,
        AvatarState,
        DeathEvent,
        EmbodiedObservation,
        HistoryEntry,
        JackInResult,
        JackOutResult,
        Memory,
        RespawnOption,
        Tool,
    )

_EXTENSIONS = {"HistoryEntry", "Memory", "AgentMessage", "Tool", "AvatarState", "Avatar", "AvatarSpec",
               "JackInResult", "JackOutResult", "RespawnOption", "DeathEvent", "AvatarRoster",
               "EmbodiedObservation", "AvatarGameAdapter"}


def __getattr__(name: str) -> Any:
    """An extension's name, from its module (imported now, once: it then holds the name)."""
    if name in _EXTENSIONS:
        from . import extensions

        return getattr(extensions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Achievement",
    "Action",
    "ActionDef",
    "ActionResult",
    "ActionSpace",
    "AgentMessage",
    "Avatar",
    "AvatarGameAdapter",
    "AvatarRoster",
    "AvatarSpec",
    "AvatarState",
    "DeathEvent",
    "Effect",
    "EmbodiedObservation",
    "Entity",
    "Event",
    "GameAdapter",
    "Goal",
    "HistoryEntry",
    "JackInResult",
    "JackOutResult",
    "Location",
    "Memory",
    "Observation",
    "ParamDef",
    "RespawnOption",
    "Terrain",
    "Tool",
    "to_plain",
]
