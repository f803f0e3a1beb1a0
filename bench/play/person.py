"""A scripted user that plays like the person who reported the toothless Minotaur (issue 14):
it explores the hunting ground (the screen draws its edge, and the stones lie in it) in long
walks (a MOVE of 100 steps that goes on until a wall), listens for the stones now and then, grabs
what it sees, shrugs off a FAINT sound of hooves and only runs away once they sound CLOSE or the
Minotaur is in sight, raising a lantern when it is that close.

It is a yardstick for how threatening the built-in Minotaur feels, not a good player: it
decides from its observation alone, by fixed rules (no randomness), so a seed replays.
"""

from __future__ import annotations

from labyrinth.agents.base import RuleAgent
from labyrinth.agents.builtin.stone_search import StoneSearch
from labyrinth.agents.builtin.usermap import UserMap, first_leg, path_to
from labyrinth.engine.geometry import HORIZONTAL, OPPOSITE
from labyrinth.engine.items import STONES
from labyrinth.engine.wsap import Action, Observation

LOOK_EVERY_S = 120.0  # how often it stops to listen for the stones
ALARM = ("CLOSE", "VERY CLOSE")  # the sounds it reacts to; FAINT is ignored
SEARCH_LIMIT = 3000
WARY_S = 45.0  # how long after an alarm it keeps clear of where the hooves sounded
WARY_REACH = 8  # how far it keeps from there


class PersonLikeUser(RuleAgent):
    name = "person"

    def __init__(self, seed: int) -> None:
        del seed  # it plays by fixed rules
        self.map = UserMap()
        self.search: StoneSearch | None = None
        self.looked_at: tuple[int, int, int] | None = None  # where it last listened
        self.looked = -LOOK_EVERY_S
        self.goal: tuple[int, int, int] | None = None  # the unexplored edge it is heading for
        self.threat: tuple[tuple[int, int, int], float] | None = None  # where it guessed the hooves were, and when

    def decide(self, observation: Observation) -> Action:
        d, st = observation.details, observation.status
        here, now = (d["position"]["x"], d["position"]["y"], d["position"]["z"]), st["game_time_s"]
        self.map.learn(d["seen"])
        self._hear(d)
        grab = next((e for e in observation.nearby_entities if e.type in ("stone", "lantern") and e.interactable), None)
        if grab is not None:
            return Action("GRAB", {"target": grab.name}, "grabbing what lies by me")
        close = d["minotaur_in_sight"] or st["minotaur_proximity"] == "VERY CLOSE"
        if close and st["minotaur_state"] == "CHASING_3D" and "LANTERN" in observation.inventory:
            return Action("USE", {"target": "LANTERN"}, "the Minotaur! the lantern")
        if d["minotaur_in_sight"] or (st["minotaur_proximity"] in ALARM and st["minotaur_state"] == "CHASING_3D"):
            sound = st["minotaur_direction"] or ""
            dx = sum(HORIZONTAL.get(w, (0, 0))[0] for w in sound.split("-"))
            dy = sum(HORIZONTAL.get(w, (0, 0))[1] for w in sound.split("-"))
            self.threat, self.goal = ((here[0] + 6 * dx, here[1] + 6 * dy, here[2]), now), None
            return self._run_away(here, sound)
        if now - self.looked >= LOOK_EVERY_S:
            self.looked, self.looked_at = now, here
            return Action("LOOK", reasoning="listening for the stones")
        return self._explore(here, observation, now)

    def _hear(self, d: dict) -> None:
        if self.search is None:
            self.search = StoneSearch(d["hunting_ground"], self.map.cells)  # a cell seen holds no hidden stone
        if self.looked_at is not None and d["hums"]:
            for h in d["hums"]:
                self.search.hear(h["name"], self.looked_at, h["direction"], h["levels"])
            self.looked_at = None
        for item in d["items_seen"]:
            if item["name"] in STONES:
                self.search.seen(item["name"], (item["x"], item["y"], item["z"]))

    def _run_away(self, here, sound: str) -> Action:
        """Run the way out that leads most away from the sound (a person's panic, no plan)."""
        towards = sound.split("-")
        ways = [w for w, _ in self.map.moves(here, ramps="")]
        way = min(ways, key=lambda w: (w in towards, OPPOSITE.get(w, "") not in towards, w), default=None)
        if way is None:
            return Action("HALT", {"steps": 2}, "nowhere to run: holding my breath")
        return Action("MOVE", {"direction": way, "steps": 100, "speed": 2}, f"running {way}, away from the hooves")

    def _explore(self, here, observation: Observation, now: float) -> Action:
        """Towards a stone seen, else the unexplored edge nearest what the hums say; the first straight
        stretch of the way, walked on until a wall stops it."""
        held = set(observation.inventory)
        wanted = [n for n in STONES if n not in held]
        avoid = set()
        if self.threat is not None and now - self.threat[1] <= WARY_S:
            (tx, ty, tz), _ = self.threat
            avoid = {c for c in self.map.ways
                     if c != here and c[2] == tz and abs(c[0] - tx) + abs(c[1] - ty) <= WARY_REACH}
        found = self.map.search(here, SEARCH_LIMIT, avoid)
        seen = {(i["x"], i["y"], i["z"]) for i in observation.details["items_seen"] if i["name"] not in held}
        goals = [c for c in seen if c in found]
        if not goals and self.goal in found and self.goal != here and self._unexplored(self.goal):
            goals = [self.goal]  # a person keeps to where they were going
        goals = goals or [c for c in found if c != here and self._unexplored(c) and self._in_ground(c, observation)]
        if not goals:
            return Action("HALT", {"steps": 5}, "nowhere left to look")
        self.goal = min(goals, key=lambda c: (found[c][0] + min(self.search.gap(n, c) for n in wanted), c))
        path = path_to(found, self.goal)
        word, steps = first_leg(path)
        if steps == len(path) - 1 and "RAMP" not in word and self.map.kind(self.goal) not in ("^", "v"):
            steps = 100  # the way goes on out of sight: walk on until a wall stops it (not past a ramp it goes for)
        return Action("MOVE", {"direction": word, "steps": steps}, "exploring")

    @staticmethod
    def _in_ground(cell, observation: Observation) -> bool:
        """Inside the hunting ground, where the stones lie: a person does not wander off the map it is shown."""
        g = observation.details["hunting_ground"]
        return (g["x0"] <= cell[0] < g["x0"] + g["width"] and g["y0"] <= cell[1] < g["y0"] + g["height"]
                and g["z0"] <= cell[2] < g["z0"] + g["levels"])

    def _unexplored(self, cell) -> bool:
        """An open cell at the edge of what it has seen, or the unseen end of a ramp."""
        return self.map.is_frontier(cell) or self.map.kind(cell) is None
