"""The built-in user: maps what it sees, follows the stones' hum, walks quietly,
flees when hunted (running only when it must, into crawlways when it can,
never into a known dead end), raises the lantern at the last moment and keeps
clear of a Temporal Whine.

It decides from its observation (status, nearby things, ``details``), so it
knows only what the rules let the user know. Seeded: same seed, same play.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from engine.wsap import Action, Observation

from .base import RuleAgent
from .stone_search import StoneSearch
from .usermap import STEPS, Pos, UserMap, first_leg

LOOK_EVERY_S = 90.0  # listen to the stones again after this long
LISTEN_AFTER_STEPS = 10  # ... or after getting this far from the last place it listened
STONE_NAMES = ("RED STONE", "BLUE STONE", "YELLOW STONE")
SEARCH_LIMIT = 1500  # cells a plan may look through
FLEE_RADIUS = 14  # how far ahead an escape is planned
UNSEEN_STRIDE = 8  # steps asked beyond the last seen cell of a straight corridor
UNIT = {"NORTH": (0, 1), "SOUTH": (0, -1), "EAST": (1, 0), "WEST": (-1, 0), "NORTH-EAST": (1, 1),
        "NORTH-WEST": (-1, 1), "SOUTH-EAST": (1, -1), "SOUTH-WEST": (-1, -1)}


def _xyz(c: dict) -> Pos:
    return (c["x"], c["y"], c["z"])


def _alignment(frm: Pos, to: Pos, direction: str | None) -> float:
    """Cosine between the way from ``frm`` to ``to`` and a compass direction (0 when either is none)."""
    if direction not in UNIT:
        return 0.0
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    ux, uy = UNIT[direction]
    norm = math.hypot(dx, dy) * math.hypot(ux, uy)
    return (dx * ux + dy * uy) / norm if norm else 0.0


class BuiltinUser(RuleAgent):
    name = "builtin"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"{seed}:builtin-user")
        self.map = UserMap()
        self.visits: Counter[Pos] = Counter()
        self.search: StoneSearch | None = None
        self.heard = False  # the hums of the last LOOK are taken in
        self.hum_pos: Pos | None = None
        self.hum_time = -math.inf
        self.items: dict[str, Pos] = {}
        self.threat: Pos | None = None  # where the Minotaur was last seen
        self.goal: Pos | None = None  # the cell it is exploring towards

    def decide(self, observation: Observation) -> Action:
        d, st = observation.details, observation.status
        here = _xyz(d["position"])
        now = st["game_time_s"]
        self.map.learn(d["seen"])
        self.visits[here] += 1
        self.items = {i["name"]: _xyz(i) for i in d["items_seen"]}
        if self.search is None:
            self.search = StoneSearch(d["hunting_ground"])
        if d["hums"] and self.hum_pos is not None and not self.heard:
            for h in d["hums"]:
                self.search.hear(h["name"], self.hum_pos, h["direction"], h["levels"])
            self.heard = True
        for name, pos in self.items.items():
            if name in STONE_NAMES:
                self.search.seen(name, pos)
        if d["minotaur_in_sight"]:
            self.threat = _xyz(d["minotaur_in_sight"])
        held = set(observation.inventory)

        grab = self._grab(observation, held)
        if grab:
            return grab
        danger = self._danger(st, d)
        if danger == 2:
            return self._escape(here, st, held, d)
        if self._should_listen(here, now):
            self.hum_pos, self.hum_time, self.heard = here, now, False
            return Action("LOOK", reasoning="listening for the stones' hum")
        return self._explore(here, held, st if danger else None)

    # --- what to do ----------------------------------------------------------

    def _should_listen(self, here: Pos, now: float) -> bool:
        """LOOK at the start, after a change of level, and after walking a while."""
        if self.hum_pos is None or self.hum_pos[2] != here[2]:
            return True
        moved = abs(here[0] - self.hum_pos[0]) + abs(here[1] - self.hum_pos[1])
        return moved >= LISTEN_AFTER_STEPS or now - self.hum_time > LOOK_EVERY_S

    def _grab(self, observation: Observation, held: set[str]) -> Action | None:
        for e in observation.nearby_entities:
            if e.interactable and (e.type == "stone" or (e.type == "lantern" and "LANTERN" not in held)):
                return Action("GRAB", {"target": e.name}, f"the {e.name} is within reach")
        return None

    def _danger(self, st: dict, d: dict) -> int:
        """0 calm, 1 the Minotaur is near (keep away from it), 2 it is on me (escape now)."""
        if st["minotaur_state"] != "CHASING_3D":
            return 0
        if d["minotaur_in_sight"] or st["minotaur_proximity"] == "VERY CLOSE":
            return 2
        return 1 if st["minotaur_proximity"] == "CLOSE" else 0

    def _escape(self, here: Pos, st: dict, held: set[str], d: dict) -> Action:
        if "LANTERN" in held:
            return Action("USE", {"target": "LANTERN"}, "the Minotaur is upon me: lantern!")
        threat = self._threat_cell(here, st, d)
        if self.map.kind(here) == "=" and threat is not None:
            # Safe in a crawlway: leave by the side away from it only when that side is clear.
            away = [(dirn, nxt) for dirn, nxt in self.map.moves(here) if _dist(nxt, threat) > _dist(here, threat)]
            if not away or _dist(here, threat) <= 1:
                return Action("HALT", {"steps": 2}, "hiding in the crawlway; the Minotaur cannot follow")
        avoid = {threat} if threat else set()
        found = self.map.search(here, 400, avoid)
        best, best_score = None, -math.inf
        for cell, (dist, _) in found.items():
            if cell == here or dist > FLEE_RADIUS:
                continue
            kind = self.map.kind(cell)
            gain = _dist(cell, threat) - dist if threat else dist
            score = gain + (6 if kind == "=" else 0) - (8 if self.map.exits(cell) <= 1 and kind != "=" else 0)
            score += 0.5 * min(self.map.exits(cell), 3)
            if score > best_score:
                best, best_score = cell, score
        if best is None:
            return Action("HALT", {"steps": 1}, "cornered")
        direction, steps = first_leg(found, here, best)
        run = st["stamina"] >= 0.1 and "RAMP" not in direction and self.map.kind(_step(here, direction)) != "="
        return Action("MOVE", {"direction": direction, "steps": steps, "speed": 2 if run else 1},
                      f"fleeing towards {best}")

    def _threat_cell(self, here: Pos, st: dict, d: dict) -> Pos | None:
        if d["minotaur_in_sight"]:
            return _xyz(d["minotaur_in_sight"])
        direction = st["minotaur_direction"]
        if direction in UNIT:
            ux, uy = UNIT[direction]
            return (here[0] + 3 * ux, here[1] + 3 * uy, here[2])
        return None

    def _explore(self, here: Pos, held: set[str], wary: dict | None) -> Action:
        wanted = [n for n in STONE_NAMES if n not in held]
        found = self.map.search(here, SEARCH_LIMIT)
        known = [(found[p][0], n, p) for n, p in self.items.items() if n in wanted and p in found]
        if known:
            _, name, goal = min(known)
            direction, steps = first_leg(found, here, goal)
            return self._walk(direction, steps, f"to the {name} I saw at {goal}")
        name = min(wanted, key=lambda n: (self.search.gap(n, here), n))
        box = self.search.box(name)
        levels = box[4] - here[2] if box else 0
        ramp = "^" if levels > 0 else "v" if levels < 0 else None
        if ramp and self.map.kind(here) == ramp:
            return self._walk("UP RAMP" if ramp == "^" else "DOWN RAMP", 1, f"taking the ramp towards the {name}")
        danger_dir = wary["minotaur_direction"] if wary else None
        if danger_dir or not (self.goal in found and self.goal != here and self.goal[2] == here[2]
                              and self._still_worth(self.goal, ramp)):
            self.goal = self._choose(here, found, name, ramp, danger_dir)
        if self.goal is None:
            return Action("HALT", {"steps": 2}, "nothing left to explore within reach")
        word, steps = first_leg(found, here, self.goal)
        if found[self.goal][0] == steps and "RAMP" not in word and self.map.kind(_step(self.goal, word)) is None:
            steps += UNSEEN_STRIDE  # the corridor goes on out of sight: keep going until it ends
        return self._walk(word, steps, f"searching for the {name}")

    def _still_worth(self, goal: Pos, ramp: str | None) -> bool:
        kind = self.map.kind(goal)
        return (ramp is not None and kind == ramp) or self.map.is_frontier(goal)

    def _choose(self, here: Pos, found, name: str, ramp: str | None, danger_dir: str | None) -> Pos | None:
        """The cell to head for: a ramp the right way, or the unexplored edge of the
        map nearest the stone's possible places, away from any danger."""
        best, best_score = None, math.inf
        for cell, (dist, _) in found.items():
            if cell == here or cell[2] != here[2]:
                continue
            kind = self.map.kind(cell)
            if ramp and kind == ramp:
                score = dist + self.search.gap(name, (cell[0], cell[1], cell[2] + (1 if ramp == "^" else -1))) - 8
            elif self.map.is_frontier(cell):
                score = dist + 1.5 * self.search.gap(name, cell) + (20 if ramp else 0)
            else:
                continue
            score += 3 * self.visits[cell] + 12 * max(0.0, _alignment(here, cell, danger_dir))
            if score < best_score:
                best, best_score = cell, score
        return best

    def _walk(self, direction: str, steps: int, why: str) -> Action:
        return Action("MOVE", {"direction": direction, "steps": steps, "speed": 1}, why)


def _dist(a: Pos, b: Pos) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + 2 * abs(a[2] - b[2])


def _step(here: Pos, direction: str) -> Pos:
    dx, dy = STEPS.get(direction, (0, 0))
    return (here[0] + dx, here[1] + dy, here[2])
