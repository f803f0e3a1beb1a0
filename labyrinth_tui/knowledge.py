"""What the player knows besides the map, kept from turn to turn by a session: the stones' last
bearings (LOOK's hums, with when and where they were heard), where the Minotaur was last seen or
guessed from its sound (and when), whether the last turn brought danger, which throws away
the keys typed ahead of it and stops a travel (the roguelikes' "flush input on danger"), and the
danger perceived now, risen or not, which no autoexplore walks on in."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from labyrinth.engine import GameStateResponse
from labyrinth.engine import events as ev
from labyrinth.engine.geometry import COMPASS_STEPS, Pos
from labyrinth.engine.presets import Bounds
from labyrinth.engine.schemas import ENDINGS
from labyrinth.engine.senses import NEARNESS
from labyrinth.engine.turn import TurnResult

BAND = {"VERY CLOSE": 2, "CLOSE": 5, "FAINT": 11}  # steps each proximity suggests, for a guess on the map
LEVEL_STEP = {"ABOVE": 1, "BELOW": -1}  # a sound straight over or under: on the next level, right there
NEAR_WORDS = {"CLOSE": "close", "VERY CLOSE": "VERY CLOSE"}  # the sound's levels that are close: a danger
IN_SIGHT = "the Minotaur is in sight"


def sounds_near(proximity: str) -> str | None:
    """The words for the Minotaur's sound when it is close (CLOSE or VERY CLOSE), else None."""
    return f"the Minotaur sounds {NEAR_WORDS[proximity]}" if proximity in NEAR_WORDS else None


@dataclass(frozen=True)
class Bearings:
    """The stones' hums at the last LOOK, as heard from ``spot`` at ``heard_at`` (game seconds): each
    stone's compass direction (None: straight over, under or here) and the level it lies on."""

    hums: tuple[tuple[str, str | None, int], ...]
    heard_at: float
    turn: int
    spot: Pos

    def lying(self, inventory: Collection[str]) -> tuple[tuple[str, str | None, int], ...]:
        """The hums of the stones not taken since."""
        return tuple(hum for hum in self.hums if hum[0] not in inventory)


@dataclass(frozen=True)
class Sighting:
    """Where the Minotaur was last seen (``seen``) or guessed from its hoofbeats, and when."""

    where: Pos
    seen: bool
    heard_at: float
    turn: int


def guessed(observation, user: Pos, ground: Bounds | None) -> tuple[Pos | None, bool]:
    """The Minotaur's cell when in sight; else a guess from its sound's band and direction, on the level
    the player heard it from (the next one for a sound straight above or below), inside the hunting
    ground; else None."""
    seen = observation.details["minotaur_in_sight"]
    if seen:
        return (seen["x"], seen["y"], seen["z"]), True
    status = observation.status
    band, direction = BAND.get(status["minotaur_proximity"]), status["minotaur_direction"]
    x, y, z = user
    if band and direction in COMPASS_STEPS:
        dx, dy = COMPASS_STEPS[direction]
        x, y = x + dx * band, y + dy * band
    elif band and direction in LEVEL_STEP:
        z += LEVEL_STEP[direction]
    else:
        return None, False
    if ground is not None:
        x = min(max(x, ground.x0), ground.last[0])
        y = min(max(y, ground.y0), ground.last[1])
        if z not in ground.z_range:
            return None, False
    return (x, y, z), False


def alarm(before: GameStateResponse, after: GameStateResponse, saw: bool, sees: bool) -> str | None:
    """Why the keys typed ahead of this turn must not play: the game ended, the hunting Minotaur came
    into sight, its hoofbeats rose to CLOSE or VERY CLOSE, or a move was cut short by it; None when the
    turn brought no danger (a refused command brings none)."""
    if after.status in ENDINGS:
        return "the game is over"
    if after.status == "ERROR":
        return None
    cue = after.minotaur_cue
    if sees and not saw and cue.temporal_status == "CHASING_3D":
        return IN_SIGHT
    if cue.proximity in NEAR_WORDS and NEARNESS[cue.proximity] > NEARNESS.get(before.minotaur_cue.proximity, 0):
        return sounds_near(cue.proximity)
    if after.environment.stop_reason == "ENCOUNTER":
        return "the hoofbeats grew nearer"
    return None


class Knowledge:
    """The player's knowledge after each turn (``learn``), for the panels, the map and the keys."""

    def __init__(self, ground: Bounds | None, response: GameStateResponse, observation) -> None:
        self.ground = ground
        self.bearings: Bearings | None = None
        self.sighting: Sighting | None = None
        self.alarm: str | None = None  # the last turn's danger
        self.response = response
        self.sees = bool(observation.details["minotaur_in_sight"])
        self._sight(observation, response)

    def learn(self, result: TurnResult, observation) -> None:
        """A played turn's result, and what the player observes after it."""
        r = result.response
        sees = bool(observation.details["minotaur_in_sight"])
        self.alarm = alarm(self.response, r, self.sees, sees)
        self.response, self.sees = r, sees
        if r.status == "ERROR":
            return
        for e in result.events:
            if isinstance(e, ev.StonesHummed):
                spot = result.state.user
                self.bearings = Bearings(tuple((name, d, spot[2] + levels) for name, d, levels in e.hums),
                                         r.environment.game_time, r.environment.turn, spot)
        self._sight(observation, r)

    @property
    def danger_near(self) -> str | None:
        """The danger the player perceives now, risen this turn or not: the Minotaur in sight, or its sound
        close (no autoexplore starts or goes on then: a player moves by hand); None when there is none."""
        if self.sees:
            return IN_SIGHT
        return sounds_near(self.response.minotaur_cue.proximity)

    def _sight(self, observation, r: GameStateResponse) -> None:
        position = r.user_state.position
        where, seen = guessed(observation, (position.x, position.y, position.z), self.ground)
        if where is not None:
            self.sighting = Sighting(where, seen, r.environment.game_time, r.environment.turn)

    def minotaur_mark(self) -> tuple[Pos | None, bool]:
        """Where the map marks the Minotaur, and whether it is in sight now (else the last sighting or
        guess, however old: look mode says when)."""
        s = self.sighting
        if s is None:
            return None, False
        return s.where, s.seen and s.turn == self.response.environment.turn
