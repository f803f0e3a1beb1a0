"""The built-in user: maps what it sees, follows the stones' hum, walks quietly,
flees when hunted (running only when it must, into crawlways when it can,
never into a known dead end), raises the lantern at the last moment and keeps
clear of a Temporal Whine.

It decides from its observation (status, nearby things, ``details``), so it
knows only what the rules let the user know. Seeded: same seed, same play.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from labyrinth.engine.geometry import COMPASS_STEPS, RAMP_LEVELS, Pos, pos_of, reckoned_steps
from labyrinth.engine.geometry import HORIZONTAL as STEPS
from labyrinth.engine.items import STONES
from labyrinth.engine.senses import NEARNESS
from labyrinth.engine.wsap import Action, Observation

from ..base import RuleAgent
from ..learning.behaviour_lessons import Book
from .stone_search import StoneSearch
from .strategy import CHOICES, SCALE, choose_strategy
from .usermap import Found, Reach, Searched, UserMap, first_leg, path_to

if TYPE_CHECKING:  # the experience log's model is built only when lessons are (start-up)
    from labyrinth.saves.experience import Reflection

LOOK_EVERY_S = 90.0  # listen to the stones again after this long
LISTEN_AFTER_STEPS = 10  # ... or after getting this far from the last place it listened
BAND = {"VERY CLOSE": 2, "CLOSE": 5}  # a guess of the distance each proximity means (FAINT is too vague)
THREAT_MEMORY_S = 60.0  # how long a place where the Minotaur was heard stays one to avoid
KEEP_AWAY = 8  # steps it keeps from where the Minotaur is thought to be
PATIENCE_S = 40.0  # how long without progress (new cells, stones) before it dares
BOLD_S = 40.0  # how long it then ignores where the Minotaur was heard
WAIT_S = 8  # seconds of each silent wait
SWITCH_GAIN = 12  # how much nearer another stone must seem before it changes its mind
SEARCH_LIMIT = 1500  # cells a plan may look through
FLEE_RADIUS = 14  # how far ahead an escape is planned
RAMP_PULL = 8  # how much nearer a ramp the right way counts, as a goal, than the frontier
UNSEEN_STRIDE = 8  # steps asked beyond the last seen cell of a straight corridor
LANTERN_DETOUR = 16  # steps it goes out of its way for a lantern it saw
LANTERN_SEARCH_S = 120.0  # how long it looks for the first lantern before going for the stones
BEYOND_GROUND = 10_000  # what a goal beyond the hunting ground adds to its score: the last resort
DEATH_SPOT_S = 90.0  # how long before and after the time it died there a death spot is kept away from
EARLY_LANTERN = CHOICES["user"]["lantern"][1]  # the strategy's arm that raises it when the hooves sound CLOSE
CLOSE = NEARNESS["CLOSE"]  # how near the hooves sound when the Minotaur is a danger (VERY CLOSE too)
WARY_DARE = CHOICES["user"]["daring"][1]  # the strategy's arm that calls a dare off when the hooves sound CLOSE


class BuiltinUser(RuleAgent):
    name = "builtin"

    def __init__(self, seed: int) -> None:
        self.seed = seed  # it decides by rules alone; the seed only tells which lessons were learnt here
        self.death_spots: list[tuple[Pos, float]] = []  # where and when it died before, in this labyrinth
        self.lantern_early = False  # raise the lantern when the hooves sound CLOSE, not only VERY CLOSE
        self.map = UserMap()
        self.visits: Counter[Pos] = Counter()
        self._search: StoneSearch | None = None  # made from the first observation (_hear_stones)
        self.heard = False  # the hums of the last LOOK are taken in
        self.hum_pos: Pos | None = None
        self.hum_time = -math.inf
        self.items: dict[str, Pos] = {}
        self.threat: Pos | None = None  # where the Minotaur was last seen or heard
        self.threat_time = -math.inf
        self.sightings: list[Pos] = []  # where it saw the Minotaur the last two times
        self.progress_time = 0.0  # when the stones' possible places last became fewer
        self.places = math.inf  # how many places the stones it still wants may be in
        self.bold_until = -math.inf  # until then it goes on whatever it hears of the Minotaur
        self.blocked: set[Pos] = set()
        self.last_rank = 0  # how near the Minotaur sounded last turn
        self.last_move: str | None = None  # the direction of its last MOVE
        self.last_sound: str | None = None  # where the hooves sounded from last turn
        self.sound: str | None = None  # where they sound from now
        self.fled = (-1, -math.inf)  # the level it last fled by a ramp, and when
        self.start: Pos | None = None
        self.target: str | None = None  # the stone it is after
        self.goal: Pos | None = None  # the cell it is exploring towards
        self.strategy: dict[str, str] | None = None  # the strategy it chose from the behaviour lessons, if any
        self.look_every_s = LOOK_EVERY_S
        self.wary_dare = False  # a dare ends when the Minotaur sounds CLOSE or VERY CLOSE (strategy: daring)

    def follow(self, book: Book) -> None:
        """Choose its strategy for this game from the behaviour lessons (strategy.choose_strategy); the
        strategy recorded is the one played: a lantern raised early already (learn) is the early arm."""
        arms = choose_strategy("user", self.seed, book)
        self.lantern_early |= arms["lantern"] == EARLY_LANTERN
        arms = self.strategy = {**arms, "lantern": EARLY_LANTERN} if self.lantern_early else arms
        self.look_every_s = LOOK_EVERY_S * SCALE[arms["listening"]]
        self.wary_dare = arms["daring"] == WARY_DARE

    def learn(self, lessons: Sequence[Reflection], preset: str) -> None:
        """From the games it died in: keep away from where (and when) it was caught in this
        labyrinth (same seed and preset), and having been caught with the lantern unused, raise
        it sooner. Evidence it cannot read is passed over."""
        for lesson in lessons:
            death = lesson.evidence.get("death")
            if not isinstance(death, dict):  # the log checks the evidence's shape, not what each key holds
                continue
            self.lantern_early |= death.get("lantern_held") is True
            if lesson.seed == self.seed and lesson.preset == preset:
                try:
                    x, y, z = death["position"]
                    self.death_spots.append(((int(x), int(y), int(z)), float(death["time_s"])))
                except (KeyError, TypeError, ValueError, OverflowError):  # OverflowError: int() of an infinity
                    continue

    def decide(self, observation: Observation) -> Action:
        """Take in the turn, then: grab what is in reach; escape when the Minotaur is on me (or
        coming closer while near); listen for the stones' hum now and then; else explore."""
        d, st = observation.details, observation.status
        here, now = self._take_in(observation)
        held = set(observation.inventory)
        grab = self._grab(observation, held)
        if grab:
            return grab
        danger = self._danger(st, d)
        rank = NEARNESS.get(st["minotaur_proximity"], 0)
        came_closer = self._hooves_came_closer(st, rank)
        if self.wary_dare and rank >= CLOSE:
            self.bold_until = -math.inf  # the hooves sound close (only ever while it is in time): the dare is off
        if self._must_escape(danger, came_closer, d["minotaur_in_sight"] is not None, now):
            return self._remember(self._escape(here, st, held, d))
        if self._should_listen(here, now) and rank < CLOSE:  # no standing about to LOOK with it close
            self.hum_pos, self.hum_time, self.heard = here, now, False
            return self._remember(Action("LOOK", reasoning="listening for the stones' hum"))
        return self._remember(self._explore(here, held, now))

    # --- what it takes in ----------------------------------------------------

    def _take_in(self, observation: Observation) -> tuple[Pos, float]:
        """Learn all this turn shows (cells, items, hums, the Minotaur's whereabouts); where and when it is."""
        d, st = observation.details, observation.status
        here = self.here = pos_of(d["position"])
        now = self.now = st["game_time_s"]
        if self.start is None:
            self.start = here
        self.map.learn(d["seen"])
        self.visits[here] += 1
        self.items = {i["name"]: pos_of(i) for i in d["items_seen"]}
        self._hear_stones(d)
        self._note_progress([n for n in STONES if n not in observation.inventory], d["seen"], now)
        self._locate_minotaur(here, st, d, now)
        self.blocked = self._cells_to_keep_off(st, d)
        return here, now

    def _note_progress(self, wanted: list[str], seen: list[list[Any]], now: float) -> None:
        """Progress is fewer places where the stones it wants may be (a hum heard, a cell seen
        empty, a stone taken), or, while one of them is not found yet, a new cell of the hunting
        ground (the way there may lie through it); without any for PATIENCE_S it dares for a while."""
        places = self.search.places(wanted)
        fewer, self.places = places < self.places, places
        if fewer or (places > len(wanted) and any(self.search.in_ground(tuple(c[:3])) for c in seen)):
            self.progress_time = now
        elif now - self.progress_time >= PATIENCE_S and now >= self.bold_until:
            self.bold_until = now + BOLD_S  # stuck out of fear for too long: dare
            self.progress_time = now

    @property
    def search(self) -> StoneSearch:
        """Where the stones may be: made when the first observation is taken in, which every
        decision begins with."""
        if self._search is None:
            raise RuntimeError("no observation taken in yet")
        return self._search

    def _hear_stones(self, d: dict[str, Any]) -> None:
        """Narrow each stone's possible places: by the hums of the last LOOK (once), and by sight."""
        if self._search is None:
            self._search = StoneSearch(d["hunting_ground"], self.map.cells)
        if d["hums"] and self.hum_pos is not None and not self.heard:
            for h in d["hums"]:
                self.search.hear(h["name"], self.hum_pos, h["direction"], h["levels"])
            self.heard = True
        self.search.look(tuple(c[:3]) for c in d["seen"])
        for name, pos in self.items.items():
            if name in STONES:
                self.search.seen(name, pos)

    def _cells_to_keep_off(self, st: dict[str, Any], d: dict[str, Any]) -> set[Pos]:
        """A paralyzed Minotaur in sight, or one waiting where it was seen before, blocks its cell:
        plan around it. One heard straight above or below is up or down the ramp I stand on. One
        out of time comes back where it left: keep off that cell until it has."""
        blocked = {pos_of(d["minotaur_in_sight"])} if d["minotaur_in_sight"] and \
            (st["minotaur_state"] == "PARALYZED" or self._waiting()) else set()
        if st["minotaur_direction"] in ("ABOVE", "BELOW"):
            blocked.add(_step(self.here, "UP RAMP" if st["minotaur_direction"] == "ABOVE" else "DOWN RAMP"))
        if st["minotaur_state"] in ("VANISHING", "VANISHED", "RE_ENTRY_ALERT") and self.threat is not None:
            blocked |= {self.threat} | {n for _, n in self.map.moves(self.threat, ramps="")}
        return blocked

    def _hooves_came_closer(self, st: dict[str, Any], rank: int) -> bool:
        """Whether the Minotaur sounds nearer than last turn by its own doing (not because I walked
        towards it, or it moved while I stood still); remembers this turn's sound."""
        came_closer = rank > self.last_rank and not _towards(self.last_move, st["minotaur_direction"])
        came_closer |= rank >= CLOSE and self.last_move is None and self.last_rank >= CLOSE and \
            self.last_sound != st["minotaur_direction"]  # I stood still, yet the sound moved
        self.last_rank, self.last_sound = rank, st["minotaur_direction"]
        self.sound = st["minotaur_direction"] if st["minotaur_state"] == "CHASING_3D" else None
        return came_closer

    def _remember(self, action: Action) -> Action:
        self.last_move = action.parameters.get("direction") if action.name == "MOVE" else None
        if self.last_move in ("UP RAMP", "DOWN RAMP") and self.last_rank >= CLOSE:
            self.fled = (self.here[2], self.now)  # left a level where the Minotaur was near
        return action

    def _back_ramp(self, here: Pos, now: float) -> str:
        """The kind of ramp that leads back to a level it fled lately ('' if none)."""
        level, when = self.fled
        if now - when > THREAT_MEMORY_S or level == here[2]:
            return ""
        return "v" if level < here[2] else "^"

    def _locate_minotaur(self, here: Pos, st: dict[str, Any], d: dict[str, Any], now: float) -> None:
        """Where the Minotaur probably is: seen, or guessed from the sound's band and direction."""
        if d["minotaur_in_sight"]:
            self.threat, self.threat_time = pos_of(d["minotaur_in_sight"]), now
            self.sightings = [*self.sightings[-1:], self.threat]
        elif st["minotaur_proximity"] in BAND and st["minotaur_direction"] in COMPASS_STEPS:
            ux, uy = COMPASS_STEPS[st["minotaur_direction"]]
            reach = BAND[st["minotaur_proximity"]]
            self.threat, self.threat_time = (here[0] + ux * reach, here[1] + uy * reach, here[2]), now
        elif st["minotaur_direction"] in ("ABOVE", "BELOW") and st["minotaur_proximity"] in BAND:
            self.threat, self.threat_time = (here[0], here[1],
                                             here[2] + (1 if st["minotaur_direction"] == "ABOVE" else -1)), now

    def _near_threat(self, p: Pos, now: float, reach: int) -> bool:
        """Whether ``p`` is within ``reach`` of a place to keep away from (``_threats``)."""
        return any(reckoned_steps(p, q) <= reach for q in self._threats(now))

    def _threats(self, now: float) -> list[Pos]:
        """The places to keep away from: where the Minotaur was lately, and where it caught me in
        an earlier game at about this time; none while it dares (it goes on whatever it hears,
        leaving the Minotaur to its reflexes: flight, the lantern). A list, so that a loop over
        many cells works it out once."""
        if now < self.bold_until:
            return []
        places = [spot for spot, when in self.death_spots if abs(now - when) <= DEATH_SPOT_S]
        if self.threat is not None and now - self.threat_time <= THREAT_MEMORY_S:
            places.append(self.threat)
        return places

    # --- what to do ----------------------------------------------------------

    def _should_listen(self, here: Pos, now: float) -> bool:
        """LOOK at the start, after a change of level, and after walking a while."""
        if self.hum_pos is None or self.hum_pos[2] != here[2]:
            return True
        moved = abs(here[0] - self.hum_pos[0]) + abs(here[1] - self.hum_pos[1])
        return moved >= LISTEN_AFTER_STEPS or now - self.hum_time > self.look_every_s

    def _grab(self, observation: Observation, held: set[str]) -> Action | None:
        for e in observation.nearby_entities:
            if e.interactable and (e.type == "stone" or (e.type == "lantern" and "LANTERN" not in held)):
                return Action("GRAB", {"target": e.name}, f"the {e.name} is within reach")
        return None

    def _danger(self, st: dict[str, Any], d: dict[str, Any]) -> int:
        """0 calm, 1 the Minotaur is near (keep away from it), 2 it is on me (escape now)."""
        if st["minotaur_state"] != "CHASING_3D":
            return 0
        if d["minotaur_in_sight"] or st["minotaur_proximity"] == "VERY CLOSE":
            return 2
        return 1 if st["minotaur_proximity"] == "CLOSE" else 0

    def _escape(self, here: Pos, st: dict[str, Any], held: set[str], d: dict[str, Any]) -> Action:
        """The Minotaur is on me: the lantern, else the crawlway I am in, else the safest known cell
        I reach before it does, else any way that does not lead to it."""
        seen = d["minotaur_in_sight"] is not None
        if self._lantern_is_due(st, held, seen):
            return Action("USE", {"target": "LANTERN"}, "the Minotaur is upon me: lantern!")
        threat = self._threat_now(st["game_time_s"])
        if self.map.kind(here) == "=" and (threat is None or _dist(here, threat) <= 2):
            return self._crawlway_escape(here, threat)
        avoid = {threat} | {n for _, n in self.map.moves(threat)} if threat else set()
        avoid.discard(here)
        found = self.map.search(here, 800, avoid, self._flight_ramps(here, threat, st["game_time_s"]))
        best = self._refuge(here, threat, found)
        if best is None:  # nothing known is safer: any way that does not lead to it
            return self._cornered(here, threat, avoid, seen and st["stamina"] >= 0.1)
        hurried = (seen or st["minotaur_proximity"] == "VERY CLOSE") and st["stamina"] >= 0.1
        return self._flee_to(found, best, hurried)

    def _must_escape(self, danger: int, came_closer: bool, seen: bool, now: float) -> bool:
        """The Minotaur is on me, or near and coming closer. Bold, it trusts only its eyes: one
        heard but not seen, however loud, may be standing still round a corner or on another
        level, and one seen where it stood before waits there (it plans around its cell)."""
        if now < self.bold_until:
            return danger == 2 and seen and not self._waiting()
        return danger == 2 or (danger == 1 and came_closer)

    def _waiting(self) -> bool:
        """Whether the Minotaur, in sight now, stands where it was seen the time before."""
        return len(self.sightings) == 2 and self.sightings[0] == self.sightings[1] == self.threat \
            and self.threat_time == self.now

    def _lantern_is_due(self, st: dict[str, Any], held: set[str], seen: bool) -> bool:
        """Raise the lantern at the last moment: it is in sight, or sounds VERY CLOSE (CLOSE once
        an earlier game taught it to raise the lantern sooner)."""
        close = ("VERY CLOSE", "CLOSE") if self.lantern_early else ("VERY CLOSE",)
        return "LANTERN" in held and (seen or st["minotaur_proximity"] in close)

    def _crawlway_escape(self, here: Pos, threat: Pos | None) -> Action:
        """Safe here; slip out of the far side while the Minotaur has to go round."""
        far = [(dirn, nxt) for dirn, nxt in self.map.moves(here, ramps="")
               if threat is not None and _dist(nxt, threat) > 1]
        if far:
            return Action("MOVE", {"direction": far[0][0], "steps": 3}, "slipping out of the crawlway's far side")
        return Action("HALT", {"steps": 3}, "hiding in the crawlway: the Minotaur cannot follow")

    def _flight_ramps(self, here: Pos, threat: Pos | None, now: float) -> str:
        """Ramps are good ways out, but never back towards the level the Minotaur is on."""
        ramps = "^v" if threat is None or threat[2] == here[2] else ("^" if threat[2] < here[2] else "v")
        return ramps.replace(self._back_ramp(here, now), "")

    def _refuge(self, here: Pos, threat: Pos | None, found: Found) -> Pos | None:
        """The best known cell within FLEE_RADIUS that I reach before the Minotaur, or None."""
        best, best_score = None, -math.inf
        for cell, (dist, _) in found.items():
            if cell == here or dist > FLEE_RADIUS:
                continue
            ahead = _dist(cell, threat) - dist if threat else dist  # > 0: I get there first
            if ahead <= 0:
                continue
            score = self._refuge_score(cell, dist, ahead)
            if score > best_score:
                best, best_score = cell, score
        return best

    def _refuge_score(self, cell: Pos, dist: int, ahead: int) -> float:
        """How good a refuge a cell is: a lead over the Minotaur, a crawlway or a ramp, open ends;
        never a known dead end."""
        kind = self.map.kind(cell) or "?"  # "?": the unseen cell a ramp leads to
        score = ahead + {"=": 25, "^": 6, "v": 6, "?": 6}.get(kind, 0) - 0.3 * dist
        if kind == "." and self.map.is_frontier(cell):
            score += 3  # the unknown beyond may go on
        if kind == "." and self.map.exits(cell) <= 1:
            score -= 15  # a known dead end
        return score

    def _cornered(self, here: Pos, threat: Pos | None, avoid: set[Pos], may_run: bool) -> Action:
        """Any way that does not lead to the Minotaur, the one farthest from it first; run if it sees me."""
        ways = [(dirn, nxt) for dirn, nxt in self.map.moves(here) if nxt not in avoid]
        if not ways:
            return Action("HALT", {"steps": 1}, "cornered")
        dirn, _ = max(ways, key=lambda w: (_dist(w[1], threat) if threat else 0, w[0]))
        return Action("MOVE", {"direction": dirn, "steps": 1 if "RAMP" in dirn else 4,
                               "speed": 2 if may_run and "RAMP" not in dirn else 1},
                      "cornered: any way out")

    def _flee_to(self, found: Found, best: Pos, hurried: bool) -> Action:
        """The first straight stretch towards the refuge: run when hurried, except on a ramp."""
        path = path_to(found, best)
        direction, steps = first_leg(path)
        run = hurried and "RAMP" not in direction
        if run:
            run, steps = self._run_short_of_crawlway(path, steps)
        return Action("MOVE", {"direction": direction, "steps": steps, "speed": 2 if run else 1},
                      f"fleeing towards {best}")

    def _run_short_of_crawlway(self, path: list[Pos], steps: int) -> tuple[bool, int]:
        """Never run into a crawlway: stop in front of it (crawl in next turn); whether to run, and how far."""
        into = next((i for i, p in enumerate(path[1:steps + 1]) if self.map.kind(p) == "="), None)
        if into == 0:
            return False, steps
        if into is not None:
            return True, into
        return True, steps

    def _threat_now(self, now: float) -> Pos | None:
        """Where the Minotaur is now, as well as the user can tell (seen, or heard this turn)."""
        return self.threat if self.threat_time == now else None

    def _explore(self, here: Pos, held: set[str], now: float) -> Action:
        """Calm: fetch a lantern or stone it saw nearby, look for the first lantern early on,
        else search for the stone the hums point to (by a ramp when it lies on another level)."""
        wanted: list[str] = [n for n in STONES if n not in held]
        found = self.map.reach(here, SEARCH_LIMIT, self.blocked, ramps="")  # on this level: ramps are goals
        fetch = self._item_to_fetch(held, wanted, found, now)
        if fetch:
            goal, why = fetch
            return self._go(found, goal, now, why)
        if self._lantern_search_is_on(here, held, now):
            look = self._look_for_first_lantern(here, found, now)
            if look:
                return look
        name = self._stone_to_seek(wanted, here, now)
        ramp = self._ramp_towards(name, here, now)
        word = "UP RAMP" if ramp == "^" else "DOWN RAMP"
        if ramp and self.map.kind(here) == ramp and _step(here, word) not in self.blocked:
            return self._walk(word, 1, f"taking the ramp towards the {name}")
        if not self._goal_still_good(here, found, ramp, now):
            self.goal = self._choose(here, found, name, ramp, now)
        if self.goal is None:
            return self._hold(now, "waiting quietly: no safe way on")
        return self._go(found, self.goal, now, f"searching for the {name}")

    def _item_to_fetch(self, held: set[str], wanted: list[str], found: Searched, now: float) -> tuple[Pos, str] | None:
        """A lantern it saw within LANTERN_DETOUR (when it has none), else a stone it saw on this
        level away from the Minotaur: where, and why."""
        lantern = self.items.get("LANTERN")
        if "LANTERN" not in held and lantern is not None and lantern in found and found[lantern][0] <= LANTERN_DETOUR:
            return lantern, "to the lantern I saw"
        for name, goal in self.items.items():
            if name in wanted and goal in found and not self._near_threat(goal, now, KEEP_AWAY):
                return goal, f"to the {name} I saw at {goal}"
        return None

    def _lantern_search_is_on(self, here: Pos, held: set[str], now: float) -> bool:
        """Whether it still looks for the first lantern: none held or seen, early, on the starting level."""
        return "LANTERN" not in held and "LANTERN" not in self.items and now < LANTERN_SEARCH_S \
            and self.start is not None and here[2] == self.start[2]

    def _look_for_first_lantern(self, here: Pos, found: Reach, now: float) -> Action | None:
        """Early on, the first lantern lies on the starting level not far away: head for the
        nearest unexplored edge (None when there is none left to reach safely)."""
        goal = self.goal
        if not (goal is not None and goal in found and goal != here and self.map.is_frontier(goal)):
            self.goal = self._choose(here, found, None, None, now)
        if self.goal is None:
            return None
        return self._go(found, self.goal, now, "looking for the lantern near the start")

    def _stone_to_seek(self, wanted: list[str], here: Pos, now: float) -> str:
        """The stone nearest by its hums, unless the Minotaur was heard by it; no dithering: it keeps
        its stone unless another seems SWITCH_GAIN nearer."""
        rank = {n: (self._guarded(n, now), self.search.gap(n, here), n) for n in wanted}  # once each
        name = min(wanted, key=rank.__getitem__)
        if self.target in wanted and not rank[self.target][0] and rank[self.target][1] - rank[name][1] < SWITCH_GAIN:
            name = self.target
        self.target = name
        return name

    def _ramp_towards(self, name: str, here: Pos, now: float) -> str | None:
        """The kind of ramp ('^' or 'v') towards the stone's level, None on its level or when that
        way leads back to where it fled the Minotaur."""
        box = self.search.box(name)
        levels = box[4] - here[2] if box else 0
        ramp = "^" if levels > 0 else "v" if levels < 0 else None
        if ramp == self._back_ramp(here, now):
            ramp = None  # the way down (or up) is where the Minotaur was: not now
        return ramp

    def _goal_still_good(self, here: Pos, found: Searched, ramp: str | None, now: float) -> bool:
        """Whether the cell it explores towards is still reachable, worth it, and away from the Minotaur."""
        goal = self.goal
        return goal is not None and goal in found and goal != here and self._still_worth(goal, ramp) \
            and not self._near_threat(goal, now, KEEP_AWAY)

    def _hold(self, now: float, why: str) -> Action:
        """Keep away from the Minotaur: back off quietly when it is close, else wait silently
        for it to move on (after PATIENCE_S without progress it dares)."""
        if self.last_rank >= CLOSE and self.threat is not None:
            retreat = self._retreat(self.here, self.threat, now)
            if retreat:
                return retreat
        return Action("HALT", {"steps": WAIT_S if self.last_rank < CLOSE else 2}, why)

    def _retreat(self, here: Pos, threat: Pos, now: float) -> Action | None:
        """A quiet walk to a known cell farther from the Minotaur (at ``threat``) than it is from me."""
        found = self.map.search(here, 400, {threat} | self.blocked, "^v".replace(self._back_ramp(here, now), ""))
        best = max((c for c, (dist, _) in found.items() if 0 < dist <= FLEE_RADIUS
                    and _dist(c, threat) > _dist(here, threat) + 2),
                   key=lambda c: (_dist(c, threat) - 0.5 * found[c][0], c), default=None)
        if best is None:
            return None
        word, steps = first_leg(path_to(found, best))
        return Action("MOVE", {"direction": word, "steps": steps}, "backing away quietly from the Minotaur")

    def _go(self, found: Searched, goal: Pos, now: float, why: str) -> Action:
        """Walk the first straight stretch towards ``goal``, but not towards the Minotaur."""
        path = path_to(found, goal)
        word, steps = first_leg(path)
        if any(self._near_threat(p, now, 3) for p in path[1:steps + 1]):
            return self._hold(now, "the Minotaur is that way: waiting quietly")
        if found[goal][0] == steps and "RAMP" not in word and self.map.kind(_step(goal, word)) is None:
            steps += UNSEEN_STRIDE  # the corridor goes on out of sight: keep going until it ends
        if self.last_rank and _towards(word, self.sound):
            steps = min(steps, 2)  # towards a sound of hooves: a step at a time, listening
        return self._walk(word, steps, why)

    def _guarded(self, name: str, now: float) -> bool:
        box = self.search.box(name)
        if box is None:
            return False
        x0, x1, y0, y1, z = box
        return self._near_threat(((x0 + x1) // 2, (y0 + y1) // 2, z), now, KEEP_AWAY + (x1 - x0 + y1 - y0) // 2)

    def _still_worth(self, goal: Pos, ramp: str | None) -> bool:
        kind = self.map.kind(goal)
        return (ramp is not None and kind == ramp) or self.map.is_frontier(goal)

    def _choose(self, here: Pos, found: Reach, name: str | None, ramp: str | None, now: float) -> Pos | None:
        """The cell to head for: a ramp the right way, or the unexplored edge of the
        map nearest the stone's possible places (the nearest at all when ``name`` is
        None), keeping away from the Minotaur; one beyond the hunting ground (where
        nothing is to be found) only when none in it is in reach.

        It runs over the cells found, nearest first, so the few that can be goals (a ramp, the
        frontier) are picked out first and only they are scored; and as no cell scores under
        its distance (less RAMP_PULL when a ramp may be the goal), it stops, and the search with
        it, at the distance where none could score under the best."""
        best, best_score = None, math.inf
        kind_of, frontier, visits = self.map.cells.get, self.map.frontier, self.visits
        threats, gap, in_ground = self._threats(now), self.search.gap, self.search.in_ground
        floor = RAMP_PULL if ramp else 0  # how far under its distance a cell's score may be
        for cell, (dist, _) in found.nearest_first():
            if dist - floor >= best_score:
                break
            is_ramp = ramp and kind_of(cell) == ramp
            if not (is_ramp or cell in frontier) or cell == here:
                continue
            if threats and any(reckoned_steps(cell, q) <= KEEP_AWAY for q in threats):
                continue
            score: float
            if is_ramp and name is not None:  # a ramp is a goal only towards a stone's level
                score = dist + gap(name, (cell[0], cell[1], cell[2] + (1 if ramp == "^" else -1))) - RAMP_PULL
            else:
                score = dist + (1.5 * gap(name, cell) if name else 0) + (20 if ramp else 0)
            score += 3 * visits.get(cell, 0) + (0 if in_ground(cell) else BEYOND_GROUND)
            if score < best_score:
                best, best_score = cell, score
        return best

    def _walk(self, direction: str, steps: int, why: str) -> Action:
        return Action("MOVE", {"direction": direction, "steps": steps, "speed": 1}, why)


def _towards(move: str | None, sound: str | None) -> bool:
    """Whether a move went the way a sound came from (so the sound grew louder by itself)."""
    if move is None or sound is None:
        return False
    if "RAMP" in move or sound in ("ABOVE", "BELOW"):
        return (move == "UP RAMP") == (sound == "ABOVE") and "RAMP" in move and sound in ("ABOVE", "BELOW")
    return move in sound.split("-")


def _dist(a: Pos, b: Pos) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + 2 * abs(a[2] - b[2])


def _step(here: Pos, direction: str) -> Pos:
    dx, dy = STEPS.get(direction, (0, 0))
    return (here[0] + dx, here[1] + dy, here[2] + RAMP_LEVELS.get(direction, 0))
