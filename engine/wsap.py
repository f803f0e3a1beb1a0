"""The data types of the Wild Spaces Agent Protocol v0.1 (seed 002), pure.

Field names are the seed's. One addition: ``Observation.details`` carries the
game's own structured data for programs (our built-in agents read it); LLM
prompts use ``to_text()``, which follows the seed's step-message layout.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(slots=True)
class Location:
    coordinates: tuple[float, ...]
    region: str | None
    description: str


@dataclass(slots=True)
class Entity:
    type: str
    name: str | None
    distance: float
    direction: str
    state: str | None
    interactable: bool
    description: str


@dataclass(slots=True)
class Terrain:
    type: str
    direction: str
    passable: bool


@dataclass(slots=True)
class Effect:
    name: str
    description: str
    remaining: float | None = None  # seconds, when it runs out


@dataclass(slots=True)
class Goal:
    id: str
    description: str
    type: str
    progress: str | None
    hints: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Event:
    type: str
    description: str
    step: int | None = None


@dataclass(slots=True)
class Achievement:
    name: str
    description: str
    rarity: str | None = None


@dataclass(slots=True)
class Observation:
    """Everything the agent needs to make a decision, and nothing it should not know."""

    status: dict[str, Any]
    inventory: dict[str, int]
    location: Location
    nearby_entities: list[Entity]
    nearby_terrain: list[Terrain]
    active_effects: list[Effect]
    current_goals: list[Goal]
    recent_events: list[Event]
    step: int
    time_of_day: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_text(self) -> str:
        """The seed's per-step user message, without the closing question."""
        def bullets(items: list[str]) -> str:
            return "\n".join(f"- {item}" for item in items) if items else "- none"

        nearby = [e.description for e in self.nearby_entities]
        nearby += [f"{t.type} to the {t.direction}" + ("" if t.passable else " (blocked)") for t in self.nearby_terrain]
        goals = [f"{g.description}" + (f" ({g.progress})" if g.progress else "")
                 + "".join(f"\n  hint: {h}" for h in g.hints) for g in self.current_goals]
        status = {**self.status, **({"effects": "; ".join(e.description for e in self.active_effects)}
                                    if self.active_effects else {})}
        return "\n\n".join([
            f"Step {self.step}",
            "STATUS:\n" + "\n".join(f"{k}: {v}" for k, v in status.items()),
            "INVENTORY:\n" + ("\n".join(f"{k}: {v}" for k, v in self.inventory.items()) or "empty"),
            "LOCATION:\n" + self.location.description,
            "NEARBY:\n" + bullets(nearby),
            "RECENT EVENTS:\n" + bullets([e.description for e in self.recent_events]),
            "CURRENT GOALS:\n" + bullets(goals),
        ])

    def to_structured(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class ParamDef:
    name: str
    type: str  # "string", "integer", "object"
    description: str = ""
    allowed: list[Any] | None = None  # the values it may take, when they are few
    optional: bool = False
    default: Any = None

    def to_text(self) -> str:
        text = f"{self.name} ({self.type}{', optional' if self.optional else ''})"
        if self.allowed:
            text += ": one of " + ", ".join(str(a) for a in self.allowed)
        if self.default is not None:
            text += f"; default {self.default}"
        return text + (f". {self.description}" if self.description else "")


@dataclass(slots=True)
class ActionDef:
    name: str
    description: str
    parameters: list[ParamDef]
    preconditions: list[str]
    category: str


@dataclass(slots=True)
class ActionSpace:
    actions: list[ActionDef]

    def names(self) -> list[str]:
        return [a.name for a in self.actions]

    def get(self, name: str) -> ActionDef | None:
        return next((a for a in self.actions if a.name == name), None)

    def to_text(self) -> str:
        lines = []
        for a in self.actions:
            lines.append(f"{a.name} [{a.category}]: {a.description}")
            lines += [f"  - {p.to_text()}" for p in a.parameters]
            lines += [f"  requires: {c}" for c in a.preconditions]
        return "\n".join(lines)


@dataclass(slots=True)
class Action:
    name: str
    parameters: dict[str, Any] = field(default_factory=dict)
    reasoning: str | None = None


@dataclass(slots=True)
class ActionResult:
    success: bool
    message: str
    reward: float
    achievements: list[str]
    done: bool
    observation: Observation
