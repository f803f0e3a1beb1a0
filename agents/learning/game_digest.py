"""The evidence a reflection is built from, gathered from a game's events as it
is played: how and where the user died or escaped, what it did after each
Temporal Whine, which stones it took when, which ramps and crawlways it used,
and whether the Minotaur's jumps paid off; and the behaviour observations of each role
(behaviour_lessons: a situation, a choice, what followed). Kept small: numbers, not the game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from labyrinth.engine import events as ev
from labyrinth.engine.cells import CRAWLWAY
from labyrinth.engine.figures import seconds
from labyrinth.engine.geometry import compass, reckoned_steps
from labyrinth.engine.items import stones_held
from labyrinth.engine.turn import TurnResult
from labyrinth.engine.world import World

FLIGHT_WINDOW_S = 10.0  # how long after a whine the user's move counts as its answer to it
JUMP_PAYOFF_S = 30.0  # a catch or a sighting this soon after re-entry: the jump paid off
FOLLOW_S = 30.0  # a catch this soon after a choice followed from it ("caught"); none: "safe"
FAR_STEPS = 6  # a flight this long is "away"; the lantern's distance bands below it
NEAR_STEPS = 2


@dataclass
class Flight:
    """What the user did after one Temporal Whine (VANISHING): from where it stood when the
    whine sounded to where it stood at the end of the first turn ending 10 s or more later."""

    time_s: float
    origin: tuple[int, int, int]
    whine_from: str | None  # where the whine sounded from
    end: tuple[int, int, int] | None = None
    ran: bool = False

    def to_dict(self) -> dict[str, Any]:
        dx, dy = (self.end[0] - self.origin[0], self.end[1] - self.origin[1]) if self.end else (0, 0)
        return {"time_s": self.time_s, "from": list(self.origin), "whine_from": self.whine_from,
                "direction": compass(dx, dy) or ("LEVEL" if self.end and self.end[2] != self.origin[2] else "STAYED"),
                "steps": abs(dx) + abs(dy), "levels": (self.end[2] - self.origin[2]) if self.end else 0,
                "ran": self.ran}


@dataclass
class Jump:
    time_s: float
    position: tuple[int, int, int]
    reentered_s: float | None = None
    paid_off: bool = False


@dataclass
class GameDigest:
    """Evidence of one game, fed turn by turn (``turn``)."""

    world: World
    before: tuple[int, int, int]  # where the user stood when the turn began (at first: its start)
    stones: list[dict[str, Any]] = field(default_factory=list)  # [{stone, time_s, position}] in order
    flights: list[Flight] = field(default_factory=list)
    jumps: list[Jump] = field(default_factory=list)
    death: dict[str, Any] | None = None
    escape: dict[str, Any] | None = None
    ramps_taken: int = 0
    crawlway_steps: int = 0
    lantern_uses: int = 0
    lantern_held_s: float | None = None  # when the user first held a lantern
    last_whine_s: float | None = None
    sightings: int = 0  # times the Minotaur saw the user
    heard: int = 0  # turns in which the Minotaur heard the user
    behaviour: dict[str, list[dict[str, str]]] = field(default_factory=lambda: {"user": [], "minotaur": []})
    waiting: list[tuple[str, str, str, float]] = field(default_factory=list)  # (role, when, did, since_s): unresolved
    spotted: bool = False  # the Minotaur saw the user last turn
    lost_sight: bool = False  # ... and not this one: its next move is its answer
    jumped_from: tuple[int, int, int] | None = None  # where the user stood when the Minotaur jumped

    def turn(self, result: TurnResult) -> None:
        """Take in one played turn."""
        state = result.state
        # UserMoved comes after a catch in the same move: whether it ran is known first.
        ran = any(e.ran > 0 for e in result.events if isinstance(e, ev.UserMoved))
        self._observe(result, ran)
        for e in result.events:
            t = seconds(e.tick)
            match e:
                case ev.UserMoved():
                    self.ramps_taken += sum(a[2] != b[2] for a, b in zip((e.start, *e.path), e.path, strict=False))
                    self.crawlway_steps += sum(self.world.cell(*p) == CRAWLWAY for p in e.path)
                case ev.StoneGrabbed():
                    self.stones.append({"stone": e.stone, "time_s": t, "position": list(e.position)})
                case ev.LanternGrabbed():
                    self.lantern_held_s = t if self.lantern_held_s is None else self.lantern_held_s
                case ev.LanternUsed():
                    self.lantern_uses += 1
                case ev.WhineHeard() if e.phase == "VANISHING":
                    self.last_whine_s = t
                    self.flights.append(Flight(t, self.before, e.direction))
                case ev.MinotaurJumped():
                    self.jumps.append(Jump(t, e.position))
                case ev.MinotaurReentered() if self.jumps:
                    self.jumps[-1].reentered_s = t
                case ev.UserSpotted():
                    self.sightings += 1
                    self._jump_pays(t)
                case ev.UserHeard():
                    self.heard += 1
                case ev.UserCaught():
                    self._jump_pays(t)
                    jump = self.jumps[-1] if self.jumps else None
                    self.death = {"position": list(e.position), "time_s": t, "how": e.how,
                                  "seconds_after_whine": None if self.last_whine_s is None
                                  else round(t - self.last_whine_s, 1),
                                  "ran": ran, "lantern_held": "LANTERN" in state.inventory,
                                  "stones": stones_held(state.inventory),
                                  "after_jump": bool(jump and jump.reentered_s is not None
                                                     and t - jump.reentered_s <= JUMP_PAYOFF_S)}
                case ev.UserEscaped():
                    self.escape = {"position": list(e.position), "time_s": t}
        now = seconds(state.tick)
        for flight in self.flights:
            if flight.end is None and (now - flight.time_s >= FLIGHT_WINDOW_S or state.outcome):
                flight.end, flight.ran = state.user, ran or flight.ran
                steps = abs(state.user[0] - flight.origin[0]) + abs(state.user[1] - flight.origin[1])
                self._wait("user", "whine", "stayed" if steps < FAR_STEPS else "ran_away" if flight.ran
                           else "walked_away", flight.time_s)
            elif flight.end is None:
                flight.ran = flight.ran or ran
        self._settle(now, caught=state.outcome == "DEATH", over=state.outcome is not None)
        self.before = state.user

    def _observe(self, result: TurnResult, ran: bool) -> None:
        """The situations of this turn and the choices made in them (behaviour_lessons)."""
        state, kinds = result.state, {type(e) for e in result.events}
        now = seconds(state.tick)
        moved = ev.UserMoved in kinds
        if self.spotted:  # its answer to being seen last turn
            self._wait("user", "spotted", "ran" if ran else "walked" if moved else "stood", now)
        if self.lost_sight:
            did = "jumped" if ev.MinotaurJumped in kinds else "moved" if ev.MinotaurMoved in kinds else "waited"
            self._wait("minotaur", "lost_sight", did, now)
        seen = ev.UserSpotted in kinds
        self.lost_sight, self.spotted = self.spotted and not seen, seen
        for e in result.events:
            if isinstance(e, ev.LanternUsed):
                m = state.minotaur
                gap = reckoned_steps(m, e.position)
                self._wait("user", "lantern", "near_2" if gap <= NEAR_STEPS else "near_5" if gap < FAR_STEPS
                           else "far", now)
            elif isinstance(e, ev.MinotaurJumped):
                self.jumped_from = self.before
            elif isinstance(e, ev.MinotaurReentered) and self.jumped_from is not None:
                a, b = self.jumped_from, state.user
                steps = reckoned_steps(a, b)
                self._wait("minotaur", "jump", "fled_far" if steps >= FAR_STEPS else "fled_near" if steps
                           else "hid", now)
                self.jumped_from = None

    def _wait(self, role: str, when: str, did: str, since_s: float) -> None:
        self.waiting.append((role, when, did, since_s))

    def _settle(self, now: float, caught: bool, over: bool = False) -> None:
        """Observations whose result is known: a catch within FOLLOW_S, or FOLLOW_S gone by (or the
        game over) without one."""
        still = []
        for role, when, did, since in self.waiting:
            if caught and now - since <= FOLLOW_S:
                self.behaviour[role].append({"when": when, "did": did, "led_to": "caught"})
            elif caught or over or now - since > FOLLOW_S:
                self.behaviour[role].append({"when": when, "did": did, "led_to": "safe"})
            else:
                still.append((role, when, did, since))
        self.waiting = still

    def _jump_pays(self, t: float) -> None:
        jump = self.jumps[-1] if self.jumps else None
        if jump and jump.reentered_s is not None and t - jump.reentered_s <= JUMP_PAYOFF_S:
            jump.paid_off = True

    def evidence(self, role: str | None = None) -> dict[str, Any]:
        """The numbers, as stored in a reflection (``role``'s: with its behaviour observations)."""
        return {**({"behaviour": list(self.behaviour[role])} if role else {}),
                "stones": self.stones, "death": self.death, "escape": self.escape,
                "flights": [f.to_dict() for f in self.flights if f.end is not None],
                "jumps": [{"time_s": j.time_s, "position": list(j.position), "reentered_s": j.reentered_s,
                           "paid_off": j.paid_off} for j in self.jumps],
                "ramps_taken": self.ramps_taken, "crawlway_steps": self.crawlway_steps,
                "lantern_uses": self.lantern_uses, "lantern_held_s": self.lantern_held_s,
                "sightings": self.sightings, "heard": self.heard}
