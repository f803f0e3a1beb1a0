"""Build the two validated views of a state: the user's GameStateResponse and
the Minotaur's observation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from . import events as ev
from .constants import REENTRY_ALERT_TICKS, STAMINA_MAX, TICKS_PER_SECOND
from .geometry import ID_STEPS, RAMP_LEVELS, Pos, cell_id, cell_of
from .items import LANTERN
from .narrative import intro_text, minotaur_text, user_text
from .presets import PRESETS
from .schemas import (
    Coords,
    GameStateResponse,
    HuntingGround,
    ItemLocation,
    MinotaurCue,
    MinotaurObservation,
    NoiseHeard,
    Sighting,
    UserInput,
)
from .senses import UserView, audio_direction, minotaur_sees_user, proximity, user_view
from .state import GameState
from .world import World


@dataclass(slots=True)
class CommandSummary:
    """How the user's command went, filled in by the turn."""

    steps_moved: int = 0
    ran: int = 0
    time_taken: float = 0.0
    stop_reason: str = "SUCCESS"
    collision: str | None = None
    exhausted: bool = False
    caught: str | None = None
    bends: tuple[str, ...] = ()  # the headings a run turned to round the corridor's bends, in order


def temporal_status(s: GameState) -> str:
    """The Minotaur's temporal state as both sides see it; VANISHING in the turn of the jump."""
    if s.paralysis:
        return "PARALYZED"
    if s.jump_left:
        if s.jump_left <= REENTRY_ALERT_TICKS:
            return "RE_ENTRY_ALERT"
        return "VANISHING" if s.jump_started_turn == s.turn else "VANISHED"
    return "CHASING_3D"


@lru_cache(maxsize=4096)
def _coords(p: Pos) -> Coords:
    return Coords(x=p[0], y=p[1], z=p[2])


@lru_cache(maxsize=64)
def _item_locations(items: tuple[tuple[str, Pos], ...]) -> list[ItemLocation]:
    return [ItemLocation(name=name, position=_coords(pos)) for name, pos in items]


@lru_cache(maxsize=256)
def _cue(proximity: str, direction: str | None, status: str, cooldown_ticks: int, paralysis_ticks: int) -> MinotaurCue:
    return MinotaurCue(proximity=proximity, audio_direction=direction, temporal_status=status,
                       cooldown_time=cooldown_ticks / TICKS_PER_SECOND,
                       paralysis_time_left=paralysis_ticks / TICKS_PER_SECOND)


@lru_cache(maxsize=len(PRESETS))
def _ground(preset: str) -> HuntingGround:
    """A preset's hunting ground as the Minotaur's observation gives it: made when first asked for, as its
    model is built then (schemas._MODEL)."""
    return HuntingGround(**PRESETS[preset].to_dict())


def game_time(s: GameState) -> float:
    return s.tick / TICKS_PER_SECOND


def stamina_pct(s: GameState) -> float:
    return s.stamina / STAMINA_MAX


def lantern_cooldown(s: GameState) -> float:
    """Seconds until a new lantern appears: the lantern's timer (0 while one lies there or is held)."""
    return s.timers.get(LANTERN.name, 0) / TICKS_PER_SECOND


def user_cue(s: GameState) -> MinotaurCue:
    """What the user senses of the Minotaur in ``s``: its response's ``minotaur_cue``, for a reader of
    the numbers that needs no response built (an RL observation)."""
    return _cue(proximity(s), audio_direction(s), temporal_status(s), s.jump_cooldown, s.paralysis)


def user_response(s: GameState, view: UserView, *, status: str, message: str, out: CommandSummary,
                  text: str) -> GameStateResponse:
    """The validated response; built as one dict so pydantic-core checks it in a single call."""
    return GameStateResponse.model_validate({
        "status": status,
        "user_state": {
            "position": _coords(s.user),
            "stamina_pct": stamina_pct(s),
            "inventory": list(s.inventory),
            "lantern_cooldown": lantern_cooldown(s),
        },
        "environment": {
            "visible_paths": view.exits,
            "visible_items": [name for name, _ in view.items],
            "message": message,
            "steps_moved": out.steps_moved,
            "time_taken": out.time_taken,
            "stop_reason": out.stop_reason,
            "ambient_noise": "HIGH" if out.ran else "LOW",
            "turn": s.turn,
            "game_time": game_time(s),
        },
        "minotaur_cue": _cue(view.proximity, view.direction, temporal_status(s), s.jump_cooldown, s.paralysis),
        "raw_text_output": text,
    })


# A move's direction by what it adds to a cell id (World.minotaur_moves lists them in HORIZONTAL's order, then
# the ramp).
_MOVE_WORDS = {**{step: d for d, step in ID_STEPS.items()}, **{levels: d for d, levels in RAMP_LEVELS.items()}}


def _minotaur_paths(world: World, pos: Pos) -> list[str]:
    """Its ways out, read from the moves its searches use (and remember)."""
    here = cell_id(pos)
    return [_MOVE_WORDS[move - here] for move in world.minotaur_moves(here)]


class MinotaurReport(NamedTuple):
    """What the Minotaur is told of a turn, ready to be built: its observation as the validated model,
    or as the plain data that model's ``model_dump()`` gives, for a reader of numbers (the built-in
    Minotaur reads its observation's ``details``) that needs no model built and dumped again.
    ``text``: its words when the report gives them, else told from the turn's ``events``. A named
    tuple: every turn makes one, and a frozen dataclass takes longer to make than the rest of a report."""

    world: World
    s: GameState
    status: str
    message: str
    text: str | None = None
    events: tuple[ev.Event, ...] = ()
    refusal: str | None = None
    noises_heard: int = 0

    def _sees(self) -> bool:
        return minotaur_sees_user(self.world, self.s) and not self.s.outcome

    def _text(self, sees: bool) -> str:
        return self.text if self.text is not None else minotaur_text(self.s, self.events, self.refusal, sees)

    def observation(self) -> MinotaurObservation:
        s, sees = self.s, self._sees()
        return MinotaurObservation(
            status=self.status,
            turn=s.turn,
            game_time=s.tick / TICKS_PER_SECOND,
            position=_coords(s.minotaur),
            temporal_status=temporal_status(s),
            cooldown_time=s.jump_cooldown / TICKS_PER_SECOND,
            jump_time_left=s.jump_left / TICKS_PER_SECOND,
            paralysis_time_left=s.paralysis / TICKS_PER_SECOND,
            sees_user=sees,
            user_position=_coords(s.user) if sees else None,
            last_seen=Sighting(position=_coords(s.last_seen[0]), game_time=s.last_seen[1] / TICKS_PER_SECOND)
            if s.last_seen else None,
            last_heard=NoiseHeard(position=_coords(s.last_heard[0]), game_time=s.last_heard[1] / TICKS_PER_SECOND,
                                  loudness=s.last_heard[2]) if s.last_heard else None,
            noises_heard=self.noises_heard,
            visible_paths=_minotaur_paths(self.world, s.minotaur),
            items=_item_locations(s.items),
            hunting_ground=_ground(s.preset),
            message=self.message,
            raw_text_output=self._text(sees),
        )

    def fields(self, words: bool = True) -> dict[str, Any]:
        """``observation().model_dump()``, field for field, without the model (tests/engine/test_views.py
        holds the two alike); without ``words``, less its ``raw_text_output``, which is then not written."""
        s, sees = self.s, self._sees()
        fields = {
            "status": self.status,
            "turn": s.turn,
            "game_time": s.tick / TICKS_PER_SECOND,
            "position": cell_of(s.minotaur),
            "temporal_status": temporal_status(s),
            "cooldown_time": s.jump_cooldown / TICKS_PER_SECOND,
            "jump_time_left": s.jump_left / TICKS_PER_SECOND,
            "paralysis_time_left": s.paralysis / TICKS_PER_SECOND,
            "sees_user": sees,
            "user_position": cell_of(s.user) if sees else None,
            "last_seen": {"position": cell_of(s.last_seen[0]), "game_time": s.last_seen[1] / TICKS_PER_SECOND}
            if s.last_seen else None,
            "last_heard": {"position": cell_of(s.last_heard[0]), "game_time": s.last_heard[1] / TICKS_PER_SECOND,
                           "loudness": s.last_heard[2]} if s.last_heard else None,
            "noises_heard": self.noises_heard,
            "visible_paths": _minotaur_paths(self.world, s.minotaur),
            "items": [{"name": name, "position": cell_of(pos)} for name, pos in s.items],
            "hunting_ground": PRESETS[s.preset].to_dict(),
            "message": self.message,
        }
        if words:
            fields["raw_text_output"] = self._text(sees)
        return fields


def _level_message(s: GameState) -> str:
    return f"Current Z-Level: {s.user[2]}"


Respond = Callable[[], GameStateResponse]


class Report(NamedTuple):
    """Both sides' views of a turn, each built when first read (turn.py's TurnResult), and what the
    turn loop reads of every turn without them: most turns nobody reads the words (an RL env, a rule
    agent), and making them costs more than the turn. ``status`` is both views' status, ``time_taken``
    and ``stop_reason`` the user's response's."""

    status: str
    time_taken: float
    stop_reason: str
    respond: Respond
    minotaur: MinotaurReport


def turn_report(world: World, s: GameState, cmd: UserInput, out: CommandSummary, events: tuple[ev.Event, ...],
                refusal: str | None, noises_heard: int) -> Report:
    status = s.outcome or "SUCCESS"

    def respond() -> GameStateResponse:
        view = user_view(world, s)  # what the user perceives: only its words and its response need all of it
        return user_response(s, view, status=status, message=_level_message(s), out=out,
                             text=user_text(world, s, view, cmd, out, events))
    return Report(status, out.time_taken, out.stop_reason, respond,
                  MinotaurReport(world, s, status, refusal or temporal_status(s), None, events, refusal, noises_heard))


def initial_report(world: World, s: GameState) -> Report:
    def respond() -> GameStateResponse:
        view = user_view(world, s)
        return user_response(s, view, status="SUCCESS", message=_level_message(s), out=CommandSummary(),
                             text=intro_text(world, s, view))
    return Report("SUCCESS", 0.0, "SUCCESS", respond, MinotaurReport(world, s, "SUCCESS", "The hunt begins.",
                                                          "An intruder has entered your labyrinth. Hunt it down."))


USER_REJECTED = "The intruder's command was rejected; nothing happened and no time passed."


def error_report(world: World, s: GameState, problem: str, minotaur_problem: str = USER_REJECTED) -> Report:
    """ERROR: nothing happened, no time passed. Each side is told its own problem
    only: the user's mistakes would tell the Minotaur where it is and what it holds."""
    text = f"{problem}\nNothing happened and no time passed."
    return Report("ERROR", 0.0, "SUCCESS",
                  lambda: user_response(s, user_view(world, s), status="ERROR", message=problem, out=CommandSummary(),
                                        text=text),
                  MinotaurReport(world, s, "ERROR", minotaur_problem, minotaur_problem))


def final_report(world: World, s: GameState, outcome: str) -> Report:
    """After DEATH or ESCAPED every command gets the final status and changes nothing. ``outcome``:
    ``s.outcome``, which the caller has found set."""
    message = f"The game is over: {outcome}. Start a new game to play again."
    return Report(outcome, 0.0, "SUCCESS",
                  lambda: user_response(s, user_view(world, s), status=outcome, message=message, out=CommandSummary(),
                                        text=message),
                  MinotaurReport(world, s, outcome, message, message))
