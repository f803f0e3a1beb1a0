"""The wire format of the Game State Manager (docs/rules.md sections 5, 8.1, 12 and 13).

UserInput and MinotaurDecision come in; GameStateResponse goes to the user and
MinotaurObservation to the Minotaur. Inputs forbid unknown fields; outputs are
frozen and validated when built, so an invalid response is a bug, never sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .constants import MAX_STEPS, MINOTAUR_SIGHT
from .items import USABLE, ItemName

Command = Literal["MOVE", "HALT", "LOOK", "GRAB", "USE"]
Direction = Literal["NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP"]
MinotaurAction = Literal["PATHFIND", "JUMP", "WAIT", "CHASE"]
Status = Literal["SUCCESS", "DEATH", "ESCAPED", "ERROR"]
StopReason = Literal["COLLISION", "ENCOUNTER", "SUCCESS", "ITEM_SIGHTED", "ARRIVED"]
Noise = Literal["HIGH", "LOW"]
Proximity = Literal["VERY CLOSE", "CLOSE", "FAINT", "NONE", "VANISHED", "PARALYZED"]
AudioDirection = Literal[
    "NORTH", "NORTH-EAST", "EAST", "SOUTH-EAST", "SOUTH", "SOUTH-WEST", "WEST", "NORTH-WEST", "ABOVE", "BELOW"
]
TemporalStatus = Literal["CHASING_3D", "VANISHING", "VANISHED", "RE_ENTRY_ALERT", "PARALYZED"]
# How a game ends: the user escaped or was caught (the engine's ends), or a match's turn limit came first. Every
# record of a finished game (a replay, a reflection, a tournament row, an RL episode) names one of these.
Ending = Literal["ESCAPED", "DEATH"]  # the engine's own ends (GameState.outcome)
ENDINGS: tuple[Ending, ...] = get_args(Ending)
Outcome = Literal[Ending, "TIMEOUT"]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
WIN: dict[str, Ending] = {"user": "ESCAPED", "minotaur": "DEATH"}  # the end each role plays for


def match_outcome(ending: Ending | None, turns: int, max_turns: int | None) -> Outcome | None:
    """A match's outcome after ``turns`` turns: the game's own ``ending``, else TIMEOUT once the turn limit is
    reached, else None (it goes on). The one rule a match plays by and a replay's check holds it to."""
    if ending:
        return ending
    return "TIMEOUT" if max_turns is not None and turns >= max_turns else None


@dataclass(frozen=True)
class Param:
    """One parameter of one action: a field of the action's input model (UserInput or
    MinotaurDecision), what it means for that action, whether the action needs it, and
    what the engine plays when it is left out (models are told)."""

    field: str
    meaning: str
    required: bool = False
    default: int | None = None


# The actions, each with the only parameters it takes, in the order agents are shown them: the one
# definition from which the WSAP action spaces, the JSON schema sent to the models, the check of every
# agent's action and the typed-command parser's tables are derived (engine/wsap/actions.py, labyrinth.tui).
USER_PARAMS: dict[str, tuple[Param, ...]] = {
    "MOVE": (Param("direction", "where to go; UP RAMP / DOWN RAMP only from a ramp cell", required=True),
             Param("steps", f"exact steps (1-{MAX_STEPS}); omit: run to a junction, ramp, item or the Minotaur"),
             Param("speed", "1 walk or crawl, 2 run", default=1)),
    "LOOK": (),
    "GRAB": (Param("target", "which item; the one in reach when left out"),),
    "USE": (Param("target", f"the item to use: only the {' or the '.join(USABLE)} can be used"),),
    "HALT": (Param("steps", f"seconds to wait (1-{MAX_STEPS})", default=1),),
}
MINOTAUR_PARAMS: dict[str, tuple[Param, ...]] = {
    "CHASE": (),
    "PATHFIND": (Param("target_coords", 'the cell to reach, {"x": int, "y": int, "z": int}; not rock, not a '
                       "crawlway; any such cell of the cube is reached", required=True),),
    "WAIT": (),
    "JUMP": (),
}

# The outputs build their validators when first used, not at import: a start (the game's first frame, `labyrinth
# gsm`) builds the opening response's and nothing else (issue 41). The inputs are built at import: an agent's
# answer is validated in the thread that called its model, and pydantic's build of a deferred model is not safe
# against two threads at once (a call abandoned at its timeout, still parsing, beside the next turn's).
_INPUT = ConfigDict(extra="forbid", frozen=True)
_MODEL = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _canonical_word(value: Any) -> Any:
    """Forgive case, underscores and extra spaces in enum words: 'up_ramp' -> 'UP RAMP'."""
    if isinstance(value, str):
        return " ".join(value.replace("_", " ").split()).upper()
    return value


class Coords(BaseModel):
    """A cell of the cube in integer steps: x EAST, y NORTH, z UP (levels)."""

    model_config = _MODEL
    x: int
    y: int
    z: int


class UserInput(BaseModel):
    """One command of the user (docs/rules.md section 5)."""

    model_config = _INPUT
    command: Command = Field(description="MOVE, HALT, LOOK, GRAB or USE.")
    direction: Direction | None = Field(None, description="Where a MOVE goes; required for MOVE.")
    steps: int | None = Field(None, ge=1, le=MAX_STEPS,
                              description="MOVE: steps exactly (none: run to the next junction, ramp or item); "
                                          "HALT: seconds (default 1).")
    speed: Literal[1, 2] = Field(1, description="1 walks or crawls (1 step/s), 2 runs (2 steps/s).")
    target: ItemName | None = Field(None, description="What GRAB takes or USE uses.")

    @field_validator("command", "direction", "target", mode="before")
    @classmethod
    def _forgive_words(cls, value: Any) -> Any:
        return _canonical_word(value)

    @field_validator("steps", "speed", mode="before")
    @classmethod
    def _no_booleans(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("must be a number, not true or false")  # noqa: TRY004 - pydantic reports ValueError
        return value

    @model_validator(mode="after")
    def _direction_for_move(self) -> UserInput:
        if self.command == "MOVE" and self.direction is None:
            raise ValueError("MOVE needs a direction: NORTH, SOUTH, EAST, WEST, UP RAMP or DOWN RAMP")
        return self

    @property
    def move_direction(self) -> Direction:
        """A MOVE's direction, typed as never None: the validator above refuses a MOVE without one,
        a fact the field's type (optional for the other commands) cannot carry."""
        assert self.direction is not None, f"{self.command} has no direction"
        return self.direction


class MinotaurDecision(BaseModel):
    """One decision of the Minotaur (docs/rules.md section 8.1)."""

    model_config = _INPUT
    action: MinotaurAction = Field(description="PATHFIND, JUMP, WAIT or CHASE.")
    target_coords: Coords | None = Field(None, description="Where a PATHFIND goes.")

    @field_validator("action", mode="before")
    @classmethod
    def _forgive_words(cls, value: Any) -> Any:
        return _canonical_word(value)


class UserState(BaseModel):
    model_config = _MODEL
    position: Coords
    stamina_pct: float = Field(ge=0, le=1, description="0 exhausted .. 1 fresh.")
    inventory: list[ItemName]
    lantern_cooldown: float = Field(ge=0, description="Seconds until a new lantern spawns; 0 when one exists.")


class Environment(BaseModel):
    model_config = _MODEL
    visible_paths: list[Direction] = Field(description="Directions the user can move from here.")
    visible_items: list[ItemName] = Field(description="Items in the user's sight.")
    message: str
    steps_moved: int = Field(ge=0, le=MAX_STEPS)
    time_taken: float = Field(ge=0, description="Seconds this command took.")
    stop_reason: StopReason
    ambient_noise: Noise = Field(description="The loudest noise the user made this turn.")
    turn: int = Field(ge=0, description="Turns played so far.")
    game_time: float = Field(ge=0, description="Seconds since the start.")


class MinotaurCue(BaseModel):
    model_config = _MODEL
    proximity: Proximity
    audio_direction: AudioDirection | None
    temporal_status: TemporalStatus
    cooldown_time: float = Field(ge=0, description="Seconds until the Minotaur can JUMP again.")
    paralysis_time_left: float = Field(ge=0, description="Seconds the lantern still holds it frozen; 0 when not.")


class GameStateResponse(BaseModel):
    """What the user learns after each command (docs/rules.md section 12)."""

    model_config = _MODEL
    status: Status
    user_state: UserState
    environment: Environment
    minotaur_cue: MinotaurCue
    raw_text_output: str


class Sighting(BaseModel):
    """Where and when the Minotaur last saw the user."""

    model_config = _MODEL
    position: Coords
    game_time: float


class NoiseHeard(BaseModel):
    """The last noise the Minotaur heard: the exact cell, when, and how loud."""

    model_config = _MODEL
    position: Coords
    game_time: float
    loudness: Noise


class ItemLocation(BaseModel):
    model_config = _MODEL
    name: ItemName
    position: Coords


class HuntingGround(BaseModel):
    model_config = _MODEL
    x0: int
    y0: int
    z0: int
    width: int
    height: int
    levels: int


class MinotaurObservation(BaseModel):
    """What the Minotaur perceives after each turn: the input of its next decision."""

    model_config = _MODEL
    status: Status = Field(description="The game's status, as the user's response gives it.")
    turn: int = Field(ge=0)
    game_time: float = Field(ge=0)
    position: Coords
    temporal_status: TemporalStatus
    cooldown_time: float = Field(ge=0, description="Seconds until JUMP is allowed (0: allowed when CHASING_3D).")
    jump_time_left: float = Field(ge=0, description="Seconds until it re-enters; 0 when not jumping.")
    paralysis_time_left: float = Field(ge=0, description="Seconds of lantern paralysis left.")
    sees_user: bool = Field(description=f"The user is within {MINOTAUR_SIGHT} steps in infrared line of sight now.")
    user_position: Coords | None = Field(description="Where the user is, when seen now.")
    last_seen: Sighting | None
    last_heard: NoiseHeard | None
    noises_heard: int = Field(ge=0, description="How many of the user's steps it heard this turn.")
    visible_paths: list[Direction] = Field(description="Where it can move from its cell (no crawlways).")
    items: list[ItemLocation] = Field(description="Items lying in the labyrinth (it knows its labyrinth).")
    hunting_ground: HuntingGround
    message: str = Field(description="Why a decision was refused or changed, else a short status.")
    raw_text_output: str
