"""The built-in Minotaur: hunts by infrared sight and hearing, follows noises
and sightings, guards the stones the intruder still needs, and jumps out of
time where that pays.

It decides from its observation's ``details`` (the engine's MinotaurObservation),
so it knows only what the rules let it know.
"""

from __future__ import annotations

import random

from engine.wsap import Action, Observation

from .base import RuleAgent

CLUE_FRESH_S = 90.0  # a noise or sighting older than this is not worth a detour
GUARD_RADIUS = 3  # how close to a stone it lies in wait


class BuiltinMinotaur(RuleAgent):
    name = "builtin"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"{seed}:builtin-minotaur")
        self.followed: float = -1.0  # game time of the last clue it chased down
        self.guard: tuple[int, int, int] | None = None

    def decide(self, observation: Observation) -> Action:
        o = observation.details["observation"]
        if o["temporal_status"] != "CHASING_3D":
            return Action("WAIT", reasoning="frozen or out of time: nothing to do")
        here = _xyz(o["position"])
        if o["sees_user"]:
            return Action("CHASE", reasoning=f"the intruder is in sight at {_xyz(o['user_position'])}")
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
        stones = [_xyz(i["position"]) for i in o["items"] if i["name"] != "LANTERN"]
        if not stones:
            return Action("WAIT")
        if self.guard not in stones:
            self.guard = self.rng.choice(stones)
        gx, gy, gz = self.guard
        if abs(gx - here[0]) + abs(gy - here[1]) <= GUARD_RADIUS and gz == here[2]:
            return Action("WAIT", reasoning=f"lying in wait by the stone at {self.guard}")
        return Action("PATHFIND", {"target_coords": _coords(self.guard)}, f"going to guard the stone at {self.guard}")


def _xyz(c: dict) -> tuple[int, int, int]:
    return (c["x"], c["y"], c["z"])


def _coords(p: tuple[int, int, int]) -> dict[str, int]:
    return {"x": p[0], "y": p[1], "z": p[2]}
