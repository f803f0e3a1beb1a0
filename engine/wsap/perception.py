"""Each role's view of a game as WSAP Observations: what it perceives and
nothing more (fog of war), plus what it remembers.

A perception is fed every turn's result and keeps the role's memory: the cells
the user has seen, the items it saw lying, the last hum of each stone, the
recent events. ``details`` carries the same as structured data for programs.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from .. import events as ev
from ..cells import CELL_CHARS, CRAWLWAY, RAMP_DOWN, RAMP_UP
from ..constants import USER_SIGHT, WORLD_SIZE
from ..event_words import minotaur_words, user_words
from ..geometry import HORIZONTAL, Pos, cell_of, manhattan, pos_of
from ..items import ITEM, LETTERS, MARKS_LEGEND, STONES, STONES_NAMED, stones_held
from ..narrative import heard_from
from ..presets import PRESETS
from ..report import game_time, lantern_cooldown, stamina_pct, user_cue
from ..senses import in_sight, items_in_sight, level_words, user_sight
from ..state import GameState
from ..turn import TurnResult
from ..world import World
from .deferred import Deferred, Handed
from .types import Effect, Entity, Event, Goal, Location, Observation, Terrain

RECENT = 8  # events kept for "RECENT EVENTS"
RAMP_REACH = 8  # how far around an item the Minotaur is told of ramps
Ramp = list[int | str]  # [x, y, z, '^' or 'v'], as the JSON the Minotaur reads
Items = list[tuple[str, Pos]]  # (name, where) of the items in the user's sight
_EXIT_TERRAIN = {CRAWLWAY: "crawlway (walk only; the Minotaur cannot follow)"}


def steps_words(frm: Pos, to: Pos) -> str:
    """The way to a cell of the same level in action words: '2 NORTH', '1 NORTH, 2 EAST', 'here'."""
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    parts = [f"{abs(dy)} {'NORTH' if dy > 0 else 'SOUTH'}" if dy else "",
             f"{abs(dx)} {'EAST' if dx > 0 else 'WEST'}" if dx else ""]
    return ", ".join(p for p in parts if p) or "here"


MAP_RADIUS = 5  # the remembered map in an observation: 11 x 11 cells around the role


def map_window(rows: list[str], centre: Pos, marks: dict[Pos, str]) -> str:
    """The cells around ``centre`` on its level as text rows, north first: what an LLM reads as a map.
    ``rows``: the window's cells (``UserPerception.remembered`` or ``labyrinth_window``), ``marks`` go on top."""
    x, y, z = centre
    radius = len(rows) // 2
    marked: dict[int, list[str]] = {}
    for (mx, my, mz), mark in marks.items():
        row, col = y + radius - my, mx - x + radius
        if mz == z and 0 <= row < len(rows) and 0 <= col < len(rows):
            marked.setdefault(row, list(rows[row]))[col] = mark
    return "\n".join("  " + ("".join(marked[i]) if i in marked else line) for i, line in enumerate(rows))


NOT_SEEN = 255  # the kind ``UserPerception.remembered`` gives a cell the user has not seen
_DRAWN = bytes.maketrans(bytes(range(len(CELL_CHARS))), CELL_CHARS.encode())  # cell kinds -> their characters
_SIDE = 2 * MAP_RADIUS + 1
_UNSEEN = bytes([NOT_SEEN]) * (WORLD_SIZE + 2 * MAP_RADIUS)  # a row of the user's memory before it sees any
_DRAWN_SEEN = bytes.maketrans(bytes([*range(len(CELL_CHARS)), NOT_SEEN]), (CELL_CHARS + "?").encode())


def labyrinth_window(world: World, centre: Pos, radius: int = MAP_RADIUS) -> list[str]:
    """The rows of the window on the labyrinth itself (every cell known, as the Minotaur knows them), north first."""
    x, y, z = centre
    return [world.row(x - radius, 2 * radius + 1, row, z).translate(_DRAWN).decode()
            for row in range(y + radius, y - radius - 1, -1)]


class UserPerception:
    """The user's side of one game."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.seen: dict[Pos, int] = {}
        self.walked: set[Pos] = set()  # every cell the user stood on or passed through: its trail on a map
        self.items: dict[str, Pos] = {}  # items seen lying, where last seen
        self.hums: dict[str, tuple[str | None, int]] = {}  # stone -> (direction, levels up) at the last LOOK
        self.events: deque[Event] = deque(maxlen=RECENT)
        self.handed = Handed()
        # ``seen`` again as rows of kinds by (y, z), x + MAP_RADIUS the index, NOT_SEEN where unseen: a window
        # of them is read a row at a time (a cell seen just outside the cube, rock, fits the margin).
        self._rows: dict[tuple[int, int], bytearray] = {}

    def remembered(self, centre: Pos) -> bytes:
        """The kinds of the cells the user remembers around ``centre`` (a cell of the cube) on its level,
        MAP_RADIUS around, row by row, north first, NOT_SEEN where it saw none: the map of its
        observation's text and of an RL environment's observation."""
        x, y, z = centre
        return self.remembered_area(x - MAP_RADIUS, y + MAP_RADIUS, _SIDE, _SIDE, z)

    def remembered_area(self, west: int, north: int, width: int, height: int, z: int) -> bytes:
        """The kinds of the cells the user remembers in the ``width`` x ``height`` area of level ``z``
        whose north-west corner is (west, north), row by row, north first, NOT_SEEN where it saw
        none: the window of ``remembered``, or any other (an RL observation's wider window)."""
        rows = self._rows.get
        x = west + MAP_RADIUS
        if x < 0 or x + width > len(_UNSEEN):  # partly beyond the rows' margin: cut each row within it
            lo, hi = max(x, 0), min(x + width, len(_UNSEEN))
            edge_w, edge_e = bytes([NOT_SEEN]) * (lo - x), bytes([NOT_SEEN]) * (x + width - hi)
            return b"".join(edge_w + (rows((r, z)) or _UNSEEN)[lo:hi] + edge_e
                            for r in range(north, north - height, -1))
        return b"".join(row[x:x + width] if (row := rows((r, z))) is not None else _UNSEEN[:width]
                        for r in range(north, north - height, -1))

    def observe(self, result: TurnResult) -> Observation:
        """The observation after a turn (or at the start, the opening with no events): the memory is
        kept now, the Observation built when read (deferred.py), and the turn's response with it."""
        self.handed.settle()
        state, events = result.state, result.events
        new_cells = self._look_around(state, events)
        for e in events:
            self._remember(state, e)
        if result.status == "ERROR":
            self.events.append(Event(result.response.environment.message, "error", state.turn))
        visible = items_in_sight(self.world, state)
        for name, pos in visible:
            self.items[name] = pos
        for name, pos in list(self.items.items()):  # an item seen gone (grabbed, or not there any more)
            if name in state.inventory or (in_sight(self.world, state.user, pos, user_sight(state))
                                           and (name, pos) not in visible):
                del self.items[name]
        return self.handed.hand(self._observation(result, visible, new_cells))

    def minotaur_in_sight(self, state: GameState) -> Pos | None:
        """Where the user sees the Minotaur (within its sight, in line, and in time), or None: the
        ``details`` field, for a reader that wants no more of them (an RL observation's map)."""
        seen = in_sight(self.world, state.user, state.minotaur, user_sight(state)) and not state.jump_left
        return state.minotaur if seen else None

    def _look_around(self, state: GameState, events: tuple[ev.Event, ...]) -> list[tuple[Pos, int]]:
        """Remember every cell seen from every cell walked through this turn; the new ones."""
        stops = [p for e in events if isinstance(e, ev.UserMoved) for p in e.path] + [state.user]
        new, seen, walked, sight = [], self.seen, self.walked, user_sight(state)
        for stop in stops:
            if stop in walked and sight == USER_SIGHT:  # looked from before: the labyrinth does not change, so
                continue                                # it shows nothing new (unless an item lends more sight)
            walked.add(stop)
            fresh = [cell for cell in self.world.visible_cells(stop, sight) if cell[0] not in seen]  # most known
            for pos, kind in fresh:
                seen[pos] = kind
                row = self._rows.get((pos[1], pos[2]))
                if row is None:
                    row = self._rows[pos[1], pos[2]] = bytearray(_UNSEEN)
                row[pos[0] + MAP_RADIUS] = kind
            new += fresh
        return new

    def _remember(self, state: GameState, e: ev.Event) -> None:
        if isinstance(e, ev.StonesHummed):  # told as the goals' hints, not again among the recent events
            self.hums = {name: (direction, levels) for name, direction, levels in e.hums}
        elif text := user_words(e, state):
            self.events.append(Event(text, e.kind, state.turn))

    def _observation(self, result: TurnResult, visible: Items, new_cells: list[tuple[Pos, int]]) -> Deferred:
        s = result.state

        def main() -> dict[str, Any]:  # the response's numbers read from the state: its words are not needed
            return {
                "status": _user_status(result),
                "inventory": dict.fromkeys(s.inventory, 1),
                "nearby_entities": _user_entities(s, visible, self.minotaur_in_sight(s) is not None),
                "nearby_terrain": self._terrain(s), "active_effects": _user_effects(s),
                "current_goals": self._goals(s, visible), "recent_events": list(self.events),
                "step": s.turn, "time_of_day": None,
            }

        def details() -> dict[str, Any]:
            return {"details": {
                "role": "user", "position": cell_of(s.user), "status": result.status,
                "hunting_ground": PRESETS[s.preset].to_dict(),  # told in the opening words
                "seen": [[*p, CELL_CHARS[k]] for p, k in new_cells],
                "items_in_sight": [{"name": n, **cell_of(p)} for n, p in visible],
                "items_seen": [{"name": n, **cell_of(p)} for n, p in self.items.items()],
                "hums": [{"name": n, "direction": d, "levels": lv} for n, (d, lv) in self.hums.items()],
                "minotaur_in_sight": cell_of(seen) if (seen := self.minotaur_in_sight(s)) else None,
            }}

        def location() -> dict[str, Any]:  # apart: its map is most of the cost, and rule agents never read it
            return {"location": Location(s.user, f"level {s.user[2]}", self._where(s))}
        return Deferred(main, details, location=location)

    def _terrain(self, s: GameState) -> list[Terrain]:
        """The ways out of the user's cell: passages and crawlways, and the ramp it stands on."""
        ways = self.world.user_exits(s.user)  # the response's visible_paths
        terrain = [Terrain(_EXIT_TERRAIN.get(self.world.cell(s.user[0] + dx, s.user[1] + dy, s.user[2]), "passage"),
                           d, True) for d, (dx, dy) in HORIZONTAL.items() if d in ways]
        here = self.world.cell(*s.user)
        if here == RAMP_UP:
            terrain.append(Terrain("ramp up", "UP RAMP", True))
        elif here == RAMP_DOWN:
            terrain.append(Terrain("ramp down", "DOWN RAMP", True))
        return terrain

    def _goals(self, s: GameState, visible: Items) -> list[Goal]:
        """The stones to find, with what hums and sightings tell of each, and staying alive."""
        held = stones_held(s.inventory)
        hints = [f"{name} hums {'to the ' + d if d else 'straight ' + ('up' if lv > 0 else 'down')}, {level_words(lv)}"
                 for name, (d, lv) in self.hums.items() if name not in s.inventory]
        hints += [f"{name} seen at {steps_words(s.user, p)}"
                  + ("" if p[2] == s.user[2] else f" ({level_words(p[2] - s.user[2])})")
                  for name, p in self.items.items() if ITEM[name].needed and p not in [q for _, q in visible]]
        return [Goal("stones", f"Find and GRAB {STONES_NAMED}", "main", f"{held}/{len(STONES)} stones",
                     hints or ["LOOK to hear the stones hum"]),
                Goal("survive", "Do not let the Minotaur reach your cell", "main", None, [])]

    def _where(self, s: GameState) -> str:
        x, y, z = s.user
        kind = {CRAWLWAY: " in a crawlway", RAMP_UP: " on a ramp up", RAMP_DOWN: " on a ramp down"}.get(
            self.world.cell(x, y, z), "")
        marks = {p: LETTERS[n] for n, p in self.items.items()}
        return (f"({x}, {y}) on level {z}{kind}; ways out: {', '.join(self.world.user_exits(s.user)) or 'none'}. "
                f"You have seen {len(self.seen)} cells. The map you remember around you (north up; @ you, "
                f"# rock, . floor, = crawlway, ^ v ramps, {MARKS_LEGEND}, ? not seen):\n"
                + map_window(_rows(self.remembered(s.user)), s.user, {**marks, s.user: "@"}))


def _rows(cells: bytes) -> list[str]:
    """A ``remembered`` window as text rows."""
    return [cells[i:i + _SIDE].translate(_DRAWN_SEEN).decode() for i in range(0, len(cells), _SIDE)]


def _user_status(result: TurnResult) -> dict[str, Any]:
    """The user's gauges: time, stamina, level, what it hears of the Minotaur, the last result."""
    s = result.state
    cue = user_cue(s)
    return {
        "game_time_s": game_time(s), "stamina": stamina_pct(s), "level": s.user[2],
        "minotaur_proximity": cue.proximity, "minotaur_direction": cue.audio_direction,
        "minotaur_state": cue.temporal_status, "minotaur_jump_cooldown_s": cue.cooldown_time,
        "lantern_respawn_s": lantern_cooldown(s), "last_result": last_result(result),
    }


REFUSAL_CHARS = 160  # the most of a refusal's reason the status line repeats


def last_result(result: TurnResult) -> str:
    """The last command's outcome in words that cannot be misread: a refused command changed nothing
    (and why); a move says what stopped it; anything else is its status alone."""
    if result.status == "ERROR":
        text = result.response.raw_text_output
        reason = " ".join(text.split()).split(". ")[0].rstrip(".")  # its first sentence
        reason = reason if len(reason) <= REFUSAL_CHARS else reason[:REFUSAL_CHARS - 3] + "..."
        return f"ERROR: refused, nothing happened ({reason})"
    stop = result.stop_reason
    return result.status if stop == "SUCCESS" else f"{result.status} (stopped: {stop})"


def _user_entities(s: GameState, visible: Items, minotaur_seen: bool) -> list[Entity]:
    """The items in sight, then the Minotaur: seen, or else heard."""
    cue = user_cue(s)
    entities = [Entity(ITEM[name].kind, name, abs(p[0] - s.user[0]) + abs(p[1] - s.user[1]),
                       steps_words(s.user, p), "lying", abs(p[0] - s.user[0]) + abs(p[1] - s.user[1]) <= 1,
                       f"{name}: {steps_words(s.user, p)}") for name, p in visible]
    if minotaur_seen:
        entities.append(Entity("minotaur", "Minotaur", abs(s.minotaur[0] - s.user[0]) + abs(s.minotaur[1] - s.user[1]),
                               steps_words(s.user, s.minotaur), cue.temporal_status, cue.temporal_status == "PARALYZED",
                               f"THE MINOTAUR in sight: {steps_words(s.user, s.minotaur)} ({cue.temporal_status})"))
    elif cue.proximity not in ("NONE",):
        where = heard_from(cue.proximity, cue.audio_direction)
        entities.append(Entity("minotaur", "Minotaur", -1, cue.audio_direction or "unknown", cue.temporal_status,
                               False, f"Minotaur heard {cue.proximity}{where} ({cue.temporal_status})"))
    return entities


def _user_effects(s: GameState) -> list[Effect]:
    """What weighs on the game now: the Minotaur paralyzed or out of time, the user out of breath."""
    status = user_cue(s).temporal_status
    effects = []
    if status == "PARALYZED":
        effects.append(Effect("minotaur_paralyzed", "the Minotaur is paralyzed by the lantern"))
    if status in ("VANISHING", "VANISHED", "RE_ENTRY_ALERT"):
        effects.append(Effect("minotaur_out_of_time", f"the Minotaur is out of time ({status})"))
    if stamina_pct(s) == 0:
        effects.append(Effect("exhausted", "out of breath: you can only walk"))
    return effects


class MinotaurPerception:
    """The Minotaur's side of one game: it knows its labyrinth, not where the user is."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.events: deque[Event] = deque(maxlen=RECENT)
        self._ramps: dict[Pos, list[Ramp]] = {}
        self.handed = Handed()

    def ramps_near(self, pos: Pos) -> list[Ramp]:
        """The ramps within RAMP_REACH steps of ``pos`` on its level, [x, y, z, '^' or 'v'],
        nearest first: where someone coming to that place would arrive (kept per place)."""
        if pos not in self._ramps:
            x, y = pos[0], pos[1]
            found: list[tuple[int, Ramp]] = [(abs(rx - x) + abs(ry - y), [rx, ry, rz, CELL_CHARS[kind]])
                                             for (rx, ry, rz), kind in self.world.ramps_within(pos, RAMP_REACH)]
            self._ramps[pos] = [ramp for _, ramp in sorted(found)]
        return self._ramps[pos]

    def observe(self, result: TurnResult) -> Observation:
        """The observation after a turn: the memory is kept now, the Observation built when read, from
        the turn's plain data (its MinotaurObservation model is never built for it)."""
        self.handed.settle()
        state = result.state
        for e in result.events:
            text = minotaur_words(e, state)
            if text:
                self.events.append(Event(text, e.kind, state.turn))
        if result.status == "ERROR":
            self.events.append(Event(result.minotaur_fields(words=False)["message"], "error", state.turn))
        return self.handed.hand(Deferred(lambda: self._main(result.minotaur_fields(words=False)),
                                         lambda: {"details": self._details(result.minotaur_fields())},
                                         location=lambda: {"location": self._location(result.minotaur_fields(False))}))

    def _details(self, obs: dict[str, Any]) -> dict[str, Any]:
        """The observation's numbers as plain data (what the built-in Minotaur reads): no model built for them."""
        return {"role": "minotaur", "observation": obs,
                "ramps_by_item": {i["name"]: self.ramps_near(pos_of(i["position"]))
                                  for i in obs["items"]}}

    def _main(self, obs: dict[str, Any]) -> dict[str, Any]:
        """The observation's fields from its plain data (TurnResult.minotaur_fields): the model is built
        only for a reader of the model (the pipe that plays the Minotaur), never for these."""
        here = pos_of(obs["position"])
        entities = [Entity(ITEM[i["name"]].kind, i["name"], manhattan(here, pos_of(i["position"])),
                           _bearing(here, pos_of(i["position"])), "lying", False,
                           f"{i['name']} at {pos_of(i['position'])}") for i in obs["items"]]
        if obs["user_position"]:
            u = pos_of(obs["user_position"])
            entities.insert(0, Entity("intruder", "intruder", manhattan(here, u), steps_words(here, u), "seen", True,
                                      f"THE INTRUDER in sight at {u}: {steps_words(here, u)}"))
        clues = []
        if seen := obs["last_seen"]:
            clues.append(f"last seen at {pos_of(seen['position'])}, "
                         f"{obs['game_time'] - seen['game_time']:g} s ago")
        if heard := obs["last_heard"]:
            clues.append(f"last heard ({heard['loudness']}) at {pos_of(heard['position'])}, "
                         f"{obs['game_time'] - heard['game_time']:g} s ago")
        effects = []
        if obs["paralysis_time_left"]:
            effects.append(Effect("paralyzed", "frozen by the lantern", obs["paralysis_time_left"]))
        if obs["jump_time_left"]:
            effects.append(Effect("out_of_time", "out of time", obs["jump_time_left"]))
        terrain = [Terrain("ramp" if "RAMP" in d else "passage", d, True) for d in obs["visible_paths"]]
        return {
            "status": {"game_time_s": obs["game_time"], "temporal_status": obs["temporal_status"],
                       "jump_cooldown_s": obs["cooldown_time"], "sees_intruder": obs["sees_user"],
                       "footsteps_heard_last_turn": obs["noises_heard"], "note": obs["message"]},
            "inventory": {},
            "nearby_entities": entities, "nearby_terrain": terrain, "active_effects": effects,
            "current_goals": [Goal("catch", "Step onto the intruder's cell before it holds all three stones", "main",
                                   f"{len(STONES) - sum(ITEM[i['name']].needed for i in obs['items'])}/{len(STONES)} "
                                   "stones taken by the intruder",
                                   clues or ["no trace of the intruder yet: listen, guard the stones"])],
            "recent_events": list(self.events), "step": obs["turn"], "time_of_day": None,
        }

    def _location(self, obs: dict[str, Any]) -> Location:
        """Where it is and its labyrinth around it: apart from the rest, as the user's location is (its map
        is most of the cost, and the built-in Minotaur, whose plan reads its goals, never reads it)."""
        here, b = pos_of(obs["position"]), obs["hunting_ground"]
        return Location(here, f"level {here[2]}",
                        f"({here[0]}, {here[1]}) on level {here[2]}; ways out: {', '.join(obs['visible_paths'])}. "
                        f"Hunting ground: x {b['x0']}..{b['x0'] + b['width'] - 1}, "
                        f"y {b['y0']}..{b['y0'] + b['height'] - 1}, "
                        f"levels {b['z0']}..{b['z0'] + b['levels'] - 1}. Your labyrinth around you (north up; M you, "
                        f"# rock, . floor, = crawlway, ^ v ramps, {MARKS_LEGEND}):\n"
                        + map_window(labyrinth_window(self.world, here), here,
                                     {**{pos_of(i["position"]): LETTERS[i["name"]] for i in obs["items"]}, here: "M"}))


def _bearing(a: Pos, b: Pos) -> str:
    """The way to ``b`` in action words: '3 NORTH, 2 WEST', then the levels when it is on another."""
    way = steps_words(a, b)
    return way if a[2] == b[2] else f"{way}, {level_words(b[2] - a[2])}"
