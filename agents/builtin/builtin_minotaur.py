"""The built-in Minotaur: hunts by infrared sight and hearing, follows noises
and sightings, guards the stones the intruder still needs, and jumps out of
time where that pays. On ``hard`` it hunts as an expert would (TACTICS): it
never stands still by a stone but walks the engine's CHASE all the time, which
answers every noise and sighting at the step it comes (a WAIT or a PATHFIND is
deaf until the intruder's turn ends, and a person's long walk is a long turn),
makes first for where every intruder starts and then patrols; and it reads a
stone gone from its place as a trace of the intruder.

It decides from its observation's ``details`` (the engine's MinotaurObservation)
and the game's difficulty (told when it takes its seat), so it knows only what
the rules let it know.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from labyrinth.engine.geometry import cell_of, manhattan, pos_of
from labyrinth.engine.items import ITEM
from labyrinth.engine.presets import DEFAULT_DIFFICULTY
from labyrinth.engine.wsap import Action, Observation

from ..base import RuleAgent
from ..learning.behaviour_lessons import Book
from .strategy import SCALE, choose_strategy, default_strategy

if TYPE_CHECKING:  # the experience log's model is built only when lessons are (start-up)
    from labyrinth.saves.experience import Reflection

GUARD_RADIUS = 3  # how close to a stone it lies in wait
RAMP_AMBUSH = 0.5  # how often it waits at the ramp by a stone rather than at the stone
TRACE_S = 240.0  # how long a trace of the intruder tells which stone it is after
JUMP_AFTER_S = 12.0  # how soon after losing an intruder that saw it a jump can still fool it
GUARD_CHOICES = ("guarding", "rounds")  # its strategy's choices (strategy.CHOICES) that apply only where it guards


@dataclass(frozen=True)
class Tactics:
    """How it hunts on one difficulty: the balance numbers and the expert's habits."""

    clue_fresh_s: float  # a noise, sighting or taken item older than this is not worth a detour
    guard_s: float | None  # how long it waits by a stone before moving on; None: it never waits, it hunts
    reads_items: bool  # an item gone from its place tells where the intruder was a moment ago
    rounds: bool = False  # after a guard it walks to the stone left alone longest (a learned choice), not at random


TACTICS = {"normal": Tactics(90.0, 60.0, reads_items=False),
           "hard": Tactics(150.0, None, reads_items=True)}


class BuiltinMinotaur(RuleAgent):
    name = "builtin"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(f"{seed}:builtin-minotaur")
        self.tactics = TACTICS[DEFAULT_DIFFICULTY]
        self.last_stones: list[tuple[int, int, int]] = []  # where, in this labyrinth, the intruder took its last stone
        self.followed: float = -1.0  # game time of the last clue it chased down
        self.guard: tuple[int, int, int] | None = None
        self.guard_until = 0.0  # when it leaves the stone it guards
        self.post: tuple[int, int, int] | None = None  # where it waits: the stone, or a ramp by it
        self.prowl: tuple[int, int, int] | None = None  # a place it wanders to between two guards
        self.face_to_face = -math.inf  # when the intruder last saw it from up close
        self.lying: set[tuple[int, int, int]] | None = None  # where items lay at the last decision
        self.taken: tuple[float, tuple[int, int, int]] | None = None  # when and where an item was last taken
        self.guarded: dict[tuple[int, int, int], float] = {}  # when it last left each stone it guarded
        self.arms = default_strategy("minotaur")  # its strategy (strategy.CHOICES): today's play without memory
        self.strategy: dict[str, str] | None = None  # the strategy it chose from the behaviour lessons, if any

    def seated(self, difficulty: str) -> None:
        """The difficulty's tactics, with its strategy's choices about guarding (a hunter that never
        guards, on hard, has none to make: they are left out of the strategy recorded, which holds only
        the choices played)."""
        tactics = TACTICS[difficulty]
        if tactics.guard_s is not None:
            tactics = replace(tactics, guard_s=tactics.guard_s * SCALE[self.arms["guarding"]],
                              rounds=tactics.rounds or self.arms["rounds"] == "stone to stone")
        self.tactics = tactics
        if self.strategy is not None:
            self.strategy = {choice: arm for choice, arm in self.arms.items()
                             if tactics.guard_s is not None or choice not in GUARD_CHOICES}

    def follow(self, book: Book) -> None:
        """Choose its strategy for this game from the behaviour lessons (strategy.choose_strategy)."""
        self.arms = self.strategy = choose_strategy("minotaur", self.seed, book)
        self.seated(DEFAULT_DIFFICULTY)  # until the seat tells the difficulty

    def learn(self, lessons: Sequence[Reflection], preset: str) -> None:
        """From the games the intruder escaped in this labyrinth (same seed and preset), newest
        first: the stone it took last is the one to guard. Evidence it cannot read is passed over."""
        for lesson in lessons:
            stones = lesson.evidence.get("stones")
            if lesson.seed != self.seed or lesson.preset != preset or lesson.outcome != "ESCAPED" or not stones:
                continue
            try:
                x, y, z = stones[-1]["position"]
                self.last_stones.append((int(x), int(y), int(z)))
            except (KeyError, TypeError, ValueError, IndexError, OverflowError):  # OverflowError: int() of an infinity
                continue

    def decide(self, observation: Observation) -> Action:
        o = observation.details["observation"]
        if self.tactics.reads_items:
            self._see_items_taken(o)
        if o["temporal_status"] != "CHASING_3D":
            return Action("WAIT", reasoning="frozen or out of time: nothing to do")
        here = pos_of(o["position"])
        now = o["game_time"]
        if o["sees_user"]:
            user = pos_of(o["user_position"])
            if abs(user[0] - here[0]) + abs(user[1] - here[1]) <= 2:
                self.face_to_face = now  # close enough for the intruder to have seen it too
            return Action("CHASE", reasoning=f"the intruder is in sight at {user}")
        if o["cooldown_time"] == 0 and now - self.face_to_face <= JUMP_AFTER_S and len(o["visible_paths"]) >= 3 \
                and self.arms["jumping"] != "never":
            self.face_to_face = -math.inf
            return Action("JUMP", reasoning="it saw me and fled; at this crossing it will think the way is clear")
        clue = self._fresh_clue(o)
        if clue is not None:
            when, where, heard = clue
            if manhattan(where, here) <= 1:
                self.followed = when  # reached it (or the side of the crawlway it was in): nothing here
                if self.tactics.rounds:
                    self.guard = None  # next, the stone nearest this trace: where the intruder is bound
            elif heard:
                # CHASE goes to the freshest trace, and to the cell beside it when it is a crawlway.
                return Action("CHASE", reasoning=f"following the trace at {where}, {now - when:g} s old")
            else:
                return Action("PATHFIND", {"target_coords": cell_of(where)},
                              f"the intruder took what lay at {where} {now - when:g} s ago")
        if self.tactics.guard_s is None:
            # The engine's patrol: the hunting ground's centre first (every intruder's start), then places near.
            return Action("CHASE", reasoning="hunting: every noise or sighting turns me at once")
        return self._guard(o, here, observation.details["ramps_by_item"])

    def _see_items_taken(self, o: dict[str, Any]) -> None:
        """An item no longer where it lay was taken just now: the intruder stood by it."""
        lying = {pos_of(i["position"]) for i in o["items"]}
        if self.lying is not None:
            for gone in sorted(self.lying - lying):
                self.taken = (o["game_time"], gone)
        self.lying = lying

    def _fresh_clue(self, o: dict[str, Any]) -> tuple[float, tuple[int, int, int], bool] | None:
        """The freshest trace not yet followed: (when, where, whether the engine's CHASE knows it)."""
        clues = [(c["game_time"], pos_of(c["position"]), True) for c in (o["last_heard"], o["last_seen"]) if c]
        if self.taken is not None:
            clues.append((*self.taken, False))
        clues = [c for c in clues if c[0] > self.followed and o["game_time"] - c[0] <= self.tactics.clue_fresh_s]
        return max(clues) if clues else None

    def _guard(self, o: dict[str, Any], here: tuple[int, int, int], ramps: dict[str, list[list[Any]]]) -> Action:
        """Lie in wait by a stone the intruder still needs; after a while prowl to a
        random place of the hunting ground (or, on its rounds, to another stone)."""
        stones = [pos_of(i["position"]) for i in o["items"] if ITEM[i["name"]].needed]
        ramps_by_stone = {pos_of(i["position"]): ramps.get(i["name"], []) for i in o["items"]}
        now = o["game_time"]
        if self.prowl is not None:
            if self.prowl != here:
                return Action("PATHFIND", {"target_coords": cell_of(self.prowl)}, f"prowling towards {self.prowl}")
            self.prowl = None
        if not stones:
            return Action("WAIT")
        if self.guard not in stones:
            self.guard, self.guard_until = self._likely_next(o, stones), math.inf
            near = ramps_by_stone.get(self.guard, [])
            # Lie in wait at the ramp by the stone half the time: where the intruder arrives.
            self.post = (near[0][0], near[0][1], near[0][2]) if near and self.rng.random() < RAMP_AMBUSH else self.guard
        post = self.post
        assert post is not None, "a post is chosen with every stone guarded"
        gx, gy, gz = post
        if abs(gx - here[0]) + abs(gy - here[1]) > GUARD_RADIUS or gz != here[2]:
            return Action("PATHFIND", {"target_coords": cell_of(post)}, f"going to guard the stone at {self.guard}")
        if self.guard_until == math.inf:
            self.guard_until = now + self.tactics.guard_s
        if now < self.guard_until:
            return Action("WAIT", reasoning=f"lying in wait at {self.post}, by the stone at {self.guard}")
        self.guarded[self.guard] = now
        if self.tactics.rounds:
            self.guard = min(stones, key=lambda p: (self.guarded.get(p, -math.inf), p))
            self.guard_until, self.post = math.inf, self.guard
            return Action("PATHFIND", {"target_coords": cell_of(self.post)},
                          f"on my rounds, to the stone at {self.guard}")
        self.guard, g = None, o["hunting_ground"]
        self.prowl = (g["x0"] + 2 * self.rng.randrange(g["width"] // 2),
                      g["y0"] + 2 * self.rng.randrange(g["height"] // 2),
                      g["z0"] + self.rng.randrange(g["levels"]))
        return Action("PATHFIND", {"target_coords": cell_of(self.prowl)}, f"prowling towards {self.prowl}")

    def _likely_next(self, o: dict[str, Any], stones: list[tuple[int, int, int]]) -> tuple[int, int, int]:
        """The stone the intruder will most likely go for: the one nearest to where it
        was last seen or heard (or took an item), if that is recent; else the one it took
        last when it escaped before; else any."""
        clues = [(c["game_time"], pos_of(c["position"])) for c in (o["last_seen"], o["last_heard"])
                 if c and o["game_time"] - c["game_time"] <= TRACE_S]
        if self.taken is not None and o["game_time"] - self.taken[0] <= TRACE_S:
            clues.append(self.taken)
        if not clues:
            learnt = [p for p in self.last_stones if p in stones]
            return learnt[0] if learnt else self.rng.choice(stones)  # the newest game's
        x, y, z = max(clues, key=lambda c: c[0])[1]
        return min(stones, key=lambda p: (abs(p[0] - x) + abs(p[1] - y) + 8 * abs(p[2] - z), p))


