"""A small WSAP game written against the reference implementation's own types, not ours:
the classes below have the shapes of ai_village's ``wsap/core.py`` (``ParamDef`` says
``required``, not ``optional``, and lists its options as strings even for a number;
``ActionResult`` carries the next observation), written here from that interface so the
suite needs nothing from outside. The game, the Ferry: row across a river of
RIVER_WIDTH lengths, a number of strokes at a time, before the tide (TIDE_STEPS steps)
carries the boat out to sea."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RIVER_WIDTH = 6
TIDE_STEPS = 12


@dataclass
class ParamDef:
    name: str
    description: str
    type: str = "string"
    required: bool = True
    options: list[str] | None = None


@dataclass
class ActionDef:
    name: str
    description: str
    parameters: list[ParamDef] = field(default_factory=list)
    preconditions: list[str] = field(default_factory=list)
    category: str = "general"

    def to_text(self) -> str:
        text = f"{self.name}: {self.description}"
        if self.parameters:
            text += f" (params: {', '.join(p.name for p in self.parameters)})"
        return text


@dataclass
class ActionSpace:
    actions: list[ActionDef]

    def to_text(self) -> str:
        return "\n".join(f"  - {a.to_text()}" for a in self.actions)

    def action_names(self) -> list[str]:
        return [a.name for a in self.actions]


@dataclass
class Location:
    coordinates: tuple[float, ...]
    region: str | None = None
    description: str = ""


@dataclass
class Goal:
    id: str
    description: str
    type: str = "main"
    progress: str | None = None


@dataclass
class Observation:
    status: dict[str, Any]
    inventory: dict[str, int]
    location: Location
    current_goals: list[Goal] = field(default_factory=list)
    step: int = 0

    def to_text(self) -> str:
        status = ", ".join(f"{k}: {v}" for k, v in self.status.items())
        goals = "\n".join(f"  - [{g.type.upper()}] {g.description}" for g in self.current_goals)
        return (f"Step {self.step}\n\nSTATUS:\n{status}\n\nLOCATION:\n{self.location.description}\n\n"
                f"CURRENT GOALS:\n{goals}")


@dataclass
class Action:
    name: str
    parameters: dict[str, Any] = field(default_factory=dict)
    reasoning: str | None = None


@dataclass
class ActionResult:
    success: bool
    message: str
    reward: float = 0.0
    achievements: list[str] = field(default_factory=list)
    done: bool = False
    observation: Observation | None = None


FERRY_ACTIONS = ActionSpace([
    ActionDef("row", "Row towards the far bank", [ParamDef("strokes", "how many strokes", "integer",
                                                           options=["1", "2", "3"])], category="movement"),
    ActionDef("shout", "Call to the far bank", [ParamDef("word", "what to call", required=False,
                                                         options=["hello", "help"])], category="social"),
    ActionDef("rest", "Ship the oars for a moment", category="wait"),
])


class FerryAdapter:
    """The Ferry, as a reference-style GameAdapter: ``act`` reads ``Action.parameters`` as the
    reference's adapters do, with the strokes as a number."""

    name = "The Ferry"
    game_description = (f"You are in a rowing boat on a river {RIVER_WIDTH} lengths wide. Reach the far bank "
                        f"before the tide carries you out to sea (in {TIDE_STEPS} steps).")
    action_space = FERRY_ACTIONS

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> Observation:
        self.crossed, self.step, self.done = 0, 0, False
        self.heard: list[dict[str, Any]] = []  # every action as it arrived
        return self.observe()

    def observe(self) -> Observation:
        return Observation({"crossed": f"{self.crossed}/{RIVER_WIDTH}", "tide_in": TIDE_STEPS - self.step}, {},
                           Location((self.crossed,), "river", f"{self.crossed} lengths out of {RIVER_WIDTH}"),
                           [Goal("cross", "Reach the far bank")], self.step)

    def act(self, action: Action) -> ActionResult:
        self.heard.append({"name": action.name, "parameters": dict(action.parameters)})
        if action.name == "row":
            strokes = action.parameters.get("strokes")
            if not isinstance(strokes, int) or not 1 <= strokes <= 3:
                return ActionResult(False, f"strokes must be 1, 2 or 3, not {strokes!r}", 0.0, [], False,
                                    self.observe())
            self.crossed = min(RIVER_WIDTH, self.crossed + strokes)
        elif action.name not in ("shout", "rest", "noop"):
            return ActionResult(False, f"unknown action {action.name!r}", 0.0, [], False, self.observe())
        self.step += 1
        self.done = self.crossed >= RIVER_WIDTH or self.step >= TIDE_STEPS
        won = self.crossed >= RIVER_WIDTH
        return ActionResult(True, "The boat moves." if not won else "You reach the far bank!", 1.0 if won else 0.0,
                            ["crossed"] if won else [], self.done, self.observe())
