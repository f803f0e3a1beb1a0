"""The data types of the Wild Spaces Agent Protocol v0.1 (docs/rules.md section 16), pure.

Field names are the seed's; argument orders and defaults are those of the public
reference implementation (ai_village's ``wsap/core.py``), so that the seed's own
examples (``ParamDef("direction", "left|right")``, ``Event("Took damage", "danger")``)
and code written against the reference construct as written; where the two
disagree (``Entity``'s order, ``ParamDef``'s ``optional``), the seed's text wins.
Two additions: ``Observation.details`` carries the game's own structured data for
programs (our built-in agents read it), and ``ParamDef.json_schema`` the exact
JSON schema of a parameter's value when the game knows it. LLM prompts use
``to_text()``, which follows the seed's step-message layout.

Beyond the core, the game adapter's interface as a runtime-checkable protocol; the
optional extensions (Memory, Multi-Agent, Tool) and the Avatar system are extensions.py's.
Every WSAP value turns into JSON-ready data with ``to_plain``.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field, fields, is_dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def to_plain(value: Any) -> Any:
    """The JSON-ready form of any WSAP value, for logs, replays and JSON prompts:
    dataclasses become dicts, enums their value, tuples lists (``json.dumps``
    would write tuples as lists anyway; converting here makes a round trip equal)."""
    if is_dataclass(value) and not isinstance(value, type):
        return _plain_fields(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def _plain_fields(value: DataclassInstance) -> dict[str, Any]:
    """A dataclass instance as ``to_plain`` gives it: its fields by name."""
    return {f.name: to_plain(getattr(value, f.name)) for f in fields(value)}


@dataclass(slots=True)
class Location:
    coordinates: tuple[float, ...]
    region: str | None = None
    description: str = ""


@dataclass(slots=True)
class Entity:
    """The seed's order (its example ``Entity("tree", None, 1, "north", None, True, "A tree to
    the north")`` reads so; the reference moves ``name`` after ``direction``)."""

    type: str
    name: str | None
    distance: float
    direction: str
    state: str | None = None
    interactable: bool = True
    description: str = ""


@dataclass(slots=True)
class Terrain:
    type: str
    direction: str
    passable: bool = True


@dataclass(slots=True)
class Effect:
    name: str
    description: str
    duration: float | None = None  # how long it has left (our game: seconds); None, until it ends otherwise


@dataclass(slots=True)
class Goal:
    id: str
    description: str
    type: str = "main"  # "main", "side", "achievement"
    progress: str | None = None
    hints: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Event:
    description: str
    type: str = "info"  # the reference's "info", "success", "danger", "reward"; our game's event kinds
    step: int | None = None  # the step it happened at


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
    nearby_entities: list[Entity] = field(default_factory=list)
    nearby_terrain: list[Terrain] = field(default_factory=list)
    active_effects: list[Effect] = field(default_factory=list)
    current_goals: list[Goal] = field(default_factory=list)
    recent_events: list[Event] = field(default_factory=list)
    step: int = 0
    time_of_day: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_text(self) -> str:
        """The seed's per-step user message, without the closing question."""
        def bullets(items: list[str]) -> str:
            return "\n".join(f"- {item}" for item in items) if items else "- none"

        nearby = [e.description or f"{e.name or e.type} to the {e.direction}" for e in self.nearby_entities]
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
        """The observation as JSON-ready data (an embodied one includes its avatar)."""
        return _plain_fields(self)

    to_dict = to_structured  # the reference implementation's name for it


# The JSON types a parameter's ``type`` names, also as Python spells them; any other is a string.
_JSON_TYPES = {"string": "string", "str": "string", "integer": "integer", "int": "integer", "number": "number",
               "float": "number", "boolean": "boolean", "bool": "boolean", "object": "object", "dict": "object",
               "array": "array", "list": "array"}


def _typed(options: list[Any], kind: str) -> list[Any] | None:
    """``options`` as values of the JSON type ``kind`` (a string that spells a number read as one for a
    number's type), or None when one of them is not one; options of any other type as they are."""
    read = {"integer": int, "number": float}.get(kind)
    if read is None:
        return options
    typed = []
    for option in options:
        try:
            value = read(option) if not isinstance(option, bool) else None
        except (TypeError, ValueError):
            return None
        if value is None or (isinstance(option, float) and option != value):  # a bool, or 2.5 as an integer
            return None
        typed.append(value)
    return typed


@dataclass(slots=True)
class ParamDef:
    """One parameter: the seed writes ``ParamDef("direction", "left|right")`` and
    ``ParamDef("mode", "dormant|suspend|despawn", optional=True)``, the reference adds
    ``type`` third; the rest are keywords (the reference's fourth, ``required``, means
    the opposite of the seed's ``optional``: a positional bool would be misread)."""

    name: str
    description: str
    type: str = "string"  # "string", "integer", "object", ...
    _: KW_ONLY
    options: list[Any] | None = None  # the values it may take, when they are few
    optional: bool = False
    default: Any = None
    json_schema: dict[str, Any] | None = None  # its value's exact JSON schema, when the game knows it

    def to_text(self) -> str:
        text = f"{self.name} ({self.type}{', optional' if self.optional else ''})"
        if self.options:
            text += ": one of " + ", ".join(str(a) for a in self.options)
        if self.default is not None:
            text += f"; default {self.default}"
        return text + (f". {self.description}" if self.description else "")

    @classmethod
    def adopted(cls, foreign: Any) -> ParamDef:
        """A parameter of another implementation of WSAP, as ours: the reference's says ``required``
        where ours says ``optional``, and lists its options as strings even for a number (``"1"``),
        which are read as the type says (all of them, or none: then they stay strings, and so does
        the type, so that the schema never asks for what no option is)."""
        if isinstance(foreign, ParamDef):
            return foreign
        optional = getattr(foreign, "optional", None)
        if optional is None:
            optional = not getattr(foreign, "required", True)
        kind = str(getattr(foreign, "type", None) or "string")
        options = getattr(foreign, "options", None)
        options = list(options) if options else None
        if options and (typed := _typed(options, _JSON_TYPES.get(kind.lower(), "string"))) is not None:
            options = typed
        elif options:
            kind = "string"
            options = [str(option) for option in options]
        return cls(str(foreign.name), str(getattr(foreign, "description", "") or ""), kind, options=options,
                   optional=bool(optional), default=getattr(foreign, "default", None),
                   json_schema=getattr(foreign, "json_schema", None))

    def value_schema(self) -> dict[str, Any]:
        """The JSON schema of its value, for a model's structured output: the game's exact one,
        else its type and options (a type JSON does not name is taken as a string)."""
        if self.json_schema is not None:
            return {**self.json_schema, "description": self.description}
        return {"type": _JSON_TYPES.get(self.type.lower(), "string"),
                **({"enum": list(self.options)} if self.options else {}), "description": self.description}


@dataclass(slots=True)
class ActionDef:
    name: str
    description: str
    parameters: list[ParamDef] = field(default_factory=list)
    preconditions: list[str] = field(default_factory=list)
    category: str = "general"


@dataclass(slots=True)
class ActionSpace:
    actions: list[ActionDef]

    @classmethod
    def adopted(cls, foreign: Any) -> ActionSpace:
        """An action space of another implementation of WSAP (the reference's own classes), as ours:
        the same actions, their parameters read as ParamDef.adopted reads them."""
        if isinstance(foreign, ActionSpace):
            return foreign
        return cls([ActionDef(str(a.name), str(getattr(a, "description", "") or ""),
                              [ParamDef.adopted(p) for p in getattr(a, "parameters", None) or ()],
                              [str(c) for c in getattr(a, "preconditions", None) or ()],
                              str(getattr(a, "category", None) or "general")) for a in foreign.actions])

    def action_names(self) -> list[str]:
        return [a.name for a in self.actions]

    def get_action(self, name: str) -> ActionDef | None:
        """The action called ``name``, whatever its case (the seed's names are lowercase; a
        model or an older agent may write them in capitals)."""
        wanted = name.strip().lower()
        return next((a for a in self.actions if a.name.lower() == wanted), None)

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
    reward: float = 0.0
    achievements: list[str] = field(default_factory=list)
    done: bool = False
    observation: Observation | None = None  # the new state (our adapters always give it)


# --- What a game implements to be played through WSAP ----------------------------------------


@runtime_checkable
class GameAdapter(Protocol):
    """What makes a game LLM-controllable; agents stay generic."""

    @property
    def game_description(self) -> str:
        """The game, its goals and mechanics, sent once at session start."""

    @property
    def action_space(self) -> ActionSpace:
        """The actions the agent can take."""

    def observe(self) -> Observation:
        """The current state as a text-friendly observation."""

    def act(self, action: Action) -> ActionResult:
        """Carry out an action and say what came of it."""

    def reset(self) -> Observation:
        """Back to the initial state."""
