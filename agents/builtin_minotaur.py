"""The built-in Minotaur: hunts by infrared sight and hearing, follows noises
and sightings, guards the stones the intruder still needs, and jumps out of
time where that pays.

It decides from its observation's ``details`` (the engine's MinotaurObservation),
so it knows only what the rules let it know.
"""

from __future__ import annotations

import math
import random

from engine.wsap import Action, Observation

from .base import RuleAgent

CLUE_FRESH_S = 90.0  # a noise or sighting older than this is not worth a detour
GUARD_RADIUS = 3  # how close to a stone it lies in wait
GUARD_S = 60.0  # how long it waits by one stone before moving on to another
JUMP_AFTER_S = 12.0  # how soon after losing an intruder that saw it a jump can still fool it


class BuiltinMinotaur(RuleAgent):
    name = "builtin"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"{seed}:builtin-minotaur")
        self.followed: float = -1.0  # game time of the last clue it chased down
        self.guard: tuple[int, int, int] | None = None
        self.guard_until = 0.0  # when it leaves the stone it guards
        self.prowl: tuple[int, int, int] | None = None  # a place it wanders to between two guards
        self.face_to_face = -math.inf  # when the intruder last saw it from up close

    def decide(self, observation: Observation) -> Action:
        o = observation.details["observation"]
        if o["temporal_status"] != "CHASING_3D":
            return Action("WAIT", reasoning="frozen or out of time: nothing to do")
        here = _xyz(o["position"])
        now = o["game_time"]
        if o["sees_user"]:
            user = _xyz(o["user_position"])
            if abs(user[0] - here[0]) + abs(user[1] - here[1]) <= 2:
                self.face_to_face = now  # close enough for the intruder to have seen it too
            return Action("CHASE", reasoning=f"the intruder is in sight at {user}")
        if o["cooldown_time"] == 0 and now - self.face_to_face <= JUMP_AFTER_S and len(o["visible_paths"]) >= 3:
            self.face_to_face = -math.inf
            return Action("JUMP", reasoning="it saw me and fled; at this crossing it will think the way is clear")
        clue = self._fresh_clue(o)
        if clue is not None:
            when, where = clue
            if where == here:
                self.followed = when  # reached it: nothing here any more
            else:
                return Action("PATHFIND", {"target_coords": _coords(where)},
                              f"following the trace at {where}, {o['game_time'] - when:g} s old")
        return self._guard(o, here)

    def _fresh_clue(self, o: dict) -> tuple[float, tuple[int, int, int]] | None:
        clues = [(c["game_time"], _xyz(c["position"])) for c in (o["last_heard"], o["last_seen"]) if c]
        clues = [c for c in clues if c[0] > self.followed and o["game_time"] - c[0] <= CLUE_FRESH_S]
        return max(clues) if clues else None

    def _guard(self, o: dict, here: tuple[int, int, int]) -> Action:
        """Lie in wait by a stone the intruder still needs; after a while prowl to a
        random place of the hunting ground, then pick a stone again."""
        stones = [_xyz(i["position"]) for i in o["items"] if i["name"] != "LANTERN"]
        now = o["game_time"]
        if self.prowl is not None:
            if self.prowl != here:
                return Action("PATHFIND", {"target_coords": _coords(self.prowl)}, f"prowling towards {self.prowl}")
            self.prowl = None
        if not stones:
            return Action("WAIT")
        if self.guard not in stones:
            self.guard, self.guard_until = self.rng.choice(stones), math.inf
        gx, gy, gz = self.guard
        if abs(gx - here[0]) + abs(gy - here[1]) > GUARD_RADIUS or gz != here[2]:
            return Action("PATHFIND", {"target_coords": _coords(self.guard)}, f"going to guard the stone at {self.guard}")
        if self.guard_until == math.inf:
            self.guard_until = now + GUARD_S
        if now < self.guard_until:
            return Action("WAIT", reasoning=f"lying in wait by the stone at {self.guard}")
        self.guard, g = None, o["hunting_ground"]
        self.prowl = (g["x0"] + 2 * self.rng.randrange(g["width"] // 2), g["y0"] + 2 * self.rng.randrange(g["height"] // 2),
                      g["z0"] + self.rng.randrange(g["levels"]))
        return Action("PATHFIND", {"target_coords": _coords(self.prowl)}, f"prowling towards {self.prowl}")


def _xyz(c: dict) -> tuple[int, int, int]:
    return (c["x"], c["y"], c["z"])


def _coords(p: tuple[int, int, int]) -> dict[str, int]:
    return {"x": p[0], "y": p[1], "z": p[2]}
