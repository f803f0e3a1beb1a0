"""Each role as a reinforcement-learning environment sees it: a fixed list of
commands (the Discrete action space), the observation space, and how a Match's
current state becomes an observation, an action mask and an ANSI map.

The Gymnasium env (gym_env.py) and the PettingZoo env (pettingzoo_env.py) both
read it from here, so that the two offer the same spaces per role. The commands
are derived from the schemas' one definition of the actions (USER_PARAMS /
MINOTAUR_PARAMS and the allowed values of their parameters); only the choice of
step counts and of PATHFIND targets is made here.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_args

import numpy as np
from gymnasium import spaces

from labyrinth.engine import MinotaurDecision, UserInput
from labyrinth.engine.cells import CELL_CHARS, MINOTAUR_OPEN
from labyrinth.engine.constants import MAX_STEPS, WORLD_LEVELS, WORLD_SIZE
from labyrinth.engine.geometry import HORIZONTAL
from labyrinth.engine.minotaur import plan_for
from labyrinth.engine.schemas import (
    ITEM_ORDER,
    MINOTAUR_PARAMS,
    STONES,
    USER_PARAMS,
    AudioDirection,
    Proximity,
    TemporalStatus,
)
from labyrinth.engine.turn import item_in_reach, unexecutable
from labyrinth.engine.wsap.action_schema import param_defs
from labyrinth.engine.wsap.perception import ITEM_MARKS, MAP_RADIUS, NOT_SEEN

from .runner import Match, Outside

# --- the commands -------------------------------------------------------------------

STEP_COUNTS = (1, 2, 4, None)  # a MOVE's steps; None runs on to the next junction, ramp or item ("far")
SPEED_WORDS = {1: "walk", 2: "run"}  # the MOVE speeds' values, named
Engine = UserInput | MinotaurDecision


@dataclass(frozen=True)
class Command:
    """One entry of a role's Discrete action space. ``make`` gives the engine input for the
    Match's current state; ``possible`` whether it can be carried out now (the action mask),
    from the Match and what the role's MOMENTS entry read of it once for all its commands."""

    name: str
    make: Callable[[Match], Engine]
    possible: Callable[[Match, Any], bool]


def _allowed(role: str, action: str, param: str) -> list[Any]:
    """The values a parameter may take, from the schemas (engine/wsap/action_schema.py)."""
    return next(p.options for p in param_defs(role, action) if p.name == param)


def _word(value: Any) -> str:
    return str(value).lower().replace(" ", "_")


def _fixed(name: str, command: Engine, possible: Callable[[Match, Any], bool] = lambda m, now: True) -> Command:
    return Command(name, lambda m: command, possible)


def _user_commands() -> tuple[Command, ...]:
    """MOVE each way (the horizontal ones at each speed and step count, the ramps one level), then
    LOOK, GRAB each item, USE the lantern and HALT, in the order of the schemas' actions. A MOVE is
    possible along the user's ways out (its Moment), GRAB and USE when the engine would carry them out."""

    def exits(direction: str) -> Callable[[Match, Any], bool]:
        return lambda m, ways_out: direction in ways_out

    def executable(command: UserInput) -> Callable[[Match, Any], bool]:
        if command.command == "GRAB":  # unexecutable's own test, without the words of its refusal
            return lambda m, now: item_in_reach(m.game.state, command.target) is not None
        return lambda m, now: unexecutable(m.game.state, command) is None

    moves = []
    for direction in _allowed("user", "MOVE", "direction"):
        if direction not in HORIZONTAL:  # a ramp: one level, walked
            moves.append(_fixed(f"move_{_word(direction)}", UserInput(command="MOVE", direction=direction, steps=1),
                                exits(direction)))
            continue
        moves += [_fixed(f"move_{_word(direction)}_{SPEED_WORDS[speed]}_{steps or 'far'}",
                         UserInput(command="MOVE", direction=direction, steps=steps, speed=speed), exits(direction))
                  for speed in _allowed("user", "MOVE", "speed") for steps in STEP_COUNTS]
    grabs = [UserInput(command="GRAB", target=item) for item in _allowed("user", "GRAB", "target")]
    # USE: the lantern is the one item that can be used (engine/turn.py, unexecutable).
    others = {"LOOK": [UserInput(command="LOOK")], "GRAB": grabs,
              "USE": [UserInput(command="USE", target="LANTERN")], "HALT": [UserInput(command="HALT")]}
    commands = []
    for action in USER_PARAMS:
        if action == "MOVE":
            commands += moves
            continue
        commands += [_fixed("_".join([_word(action), *([_word(c.target)] if c.target else [])]), c, executable(c))
                     for c in others[action]]
    return tuple(commands)


# Where a PATHFIND may go, read from the Minotaur's view: the last noise, the last sighting, each stone.
_TARGETS: dict[str, Callable[[Any], Any]] = {
    "last_noise": lambda o: o.last_heard and o.last_heard.position,
    "last_sighting": lambda o: o.last_seen and o.last_seen.position,
    **{_word(stone): (lambda o, stone=stone: next((i.position for i in o.items if i.name == stone), None))
       for stone in STONES},
}


def _minotaur_commands() -> tuple[Command, ...]:
    """Each action without parameters as it is (possible unless the rules refuse it: a JUMP may be),
    and PATHFIND to each target of ``_TARGETS`` (possible while the target is known and open to it)."""

    def pathfind(target: Callable[[Any], Any]) -> tuple[Callable[[Match], Engine], Callable[[Match, Any], bool]]:
        def make(m: Match) -> MinotaurDecision:
            # an unknown target is sent as it is: the engine refuses the PATHFIND and the Minotaur waits
            return MinotaurDecision(action="PATHFIND", target_coords=target(m.last.observation))

        def possible(m: Match, view: Any) -> bool:
            coords = target(view)
            return coords is not None and m.game.world.cell(coords.x, coords.y, coords.z) in MINOTAUR_OPEN
        return make, possible

    commands = []
    for action, params in MINOTAUR_PARAMS.items():
        if not any(p.required for p in params):
            decision = MinotaurDecision(action=action)
            commands.append(_fixed(_word(action), decision,
                                   lambda m, now, d=decision: plan_for(m.game.world, m.game.state, d)[1] is None))
            continue
        commands += [Command(f"{_word(action)}_{name}", *pathfind(target)) for name, target in _TARGETS.items()]
    return tuple(commands)


COMMANDS: dict[str, tuple[Command, ...]] = {"user": _user_commands(), "minotaur": _minotaur_commands()}
# What a role's commands read of the Match, once a mask: the user's ways out, the Minotaur's view.
MOMENTS: dict[str, Callable[[Match], Any]] = {
    "user": lambda m: m.game.world.user_exits(m.game.state.user),
    "minotaur": lambda m: m.last.observation,
}


def action_names(role: str) -> list[str]:
    """The role's Discrete actions by number: the documented list."""
    return [c.name for c in COMMANDS[role]]


def command(role: str, action: Any) -> Command:
    """The role's command numbered ``action``, an integer (Python's or NumPy's); a clear error otherwise."""
    commands = COMMANDS[role]
    try:
        number = operator.index(action)
    except TypeError:
        number = -1
    if not 0 <= number < len(commands):
        raise ValueError(f"a {role} action is an integer in [0, {len(commands)}), not {action!r}")
    return commands[number]


def action_mask(match: Match, role: str) -> np.ndarray:
    """1 for each command that can be carried out now, 0 for the others."""
    now = MOMENTS[role](match)
    return np.array([c.possible(match, now) for c in COMMANDS[role]], np.int8)


# --- the observations ------------------------------------------------------------------

CHARSET = "".join(map(chr, range(32, 127))) + "\n"  # the WSAP text is printable ASCII in lines
# Characters: the text is bounded by construction (fixed sections, eight recent events, at most four items and
# the opponent nearby, an 11 x 11 map); played games stay under 1,600 (tests/test_gym_env.py checks by play).
TEXT_MAX = 8192
MAP_CHARS = CELL_CHARS + "?" + "".join(ITEM_MARKS[name] for name in ITEM_ORDER) + "@M"  # the map's codes, drawn
UNKNOWN = MAP_CHARS.index("?")
CODES = {char: code for code, char in enumerate(MAP_CHARS)}
MARKS = {"user": CODES["@"], "minotaur": CODES["M"], **{name: CODES[mark] for name, mark in ITEM_MARKS.items()}}
SIDE = 2 * MAP_RADIUS + 1
_ROWS = range(MAP_RADIUS, -MAP_RADIUS - 1, -1)  # north first, as the text map
_SEEN_CODES = bytes.maketrans(bytes([NOT_SEEN]), bytes([UNKNOWN]))  # a remembered window's kinds as map codes
_CUE = [list(get_args(Proximity)), [*get_args(AudioDirection), None], list(get_args(TemporalStatus))]
_TEMPORAL = list(get_args(TemporalStatus))
_POSITION = spaces.Box(0, np.array([WORLD_SIZE - 1, WORLD_SIZE - 1, WORLD_LEVELS - 1]), (3,), np.int32)
_SECONDS = float(MAX_STEPS * 10 ** 6)  # a timer's bound: a million turns of the longest command


def _timers(n: int) -> spaces.Box:
    return spaces.Box(0.0, _SECONDS, (n,), np.float32)


def _xyz(c: Any) -> tuple[int, int, int]:
    return c.x, c.y, c.z


def _window(centre: tuple[int, int, int], cells: bytes, marks: list[tuple[Any, int]]) -> np.ndarray:
    """The window's cell codes (``cells``, row by row, north first) with ``marks`` (position, code) on top."""
    x, y, z = centre
    grid = np.frombuffer(cells, np.uint8).reshape(SIDE, SIDE).copy()
    for (mx, my, mz), code in marks:
        row, col = MAP_RADIUS - (my - y), mx - x + MAP_RADIUS
        if mz == z and 0 <= row < SIDE and 0 <= col < SIDE:
            grid[row, col] = code
    return grid


def _user_numbers(match: Match) -> dict[str, np.ndarray]:
    r = match.last.response
    cue, env, me = r.minotaur_cue, r.environment, r.user_state
    return {"position": np.array(_xyz(me.position), np.int32),
            "stamina": np.array([me.stamina_pct], np.float32),
            "timers": np.array([env.game_time, cue.cooldown_time, cue.paralysis_time_left, me.lantern_cooldown],
                               np.float32),
            "cue": np.array([values.index(v) for values, v in
                             zip(_CUE, (cue.proximity, cue.audio_direction, cue.temporal_status), strict=True)],
                            np.int64),
            "inventory": np.array([name in me.inventory for name in ITEM_ORDER], np.int8)}


def _user_map(match: Match) -> np.ndarray:
    """What the user remembers around it: the cells it has seen, the items where it saw them,
    the Minotaur when in sight."""
    seat, state = match.seats["user"], match.game.state
    marks = [(pos, MARKS[name]) for name, pos in seat.perception.items.items()]
    sighted = seat.perception.minotaur_in_sight(state)
    if sighted:
        marks.append((sighted, MARKS["minotaur"]))
    cells = seat.perception.remembered(state.user).translate(_SEEN_CODES)
    return _window(state.user, cells, [*marks, (state.user, MARKS["user"])])


def _minotaur_numbers(match: Match) -> dict[str, np.ndarray]:
    o = match.last.observation
    lying = {i.name for i in o.items}
    return {"position": np.array(_xyz(o.position), np.int32),
            "timers": np.array([o.game_time, o.cooldown_time, o.jump_time_left, o.paralysis_time_left], np.float32),
            "cue": np.array([_TEMPORAL.index(o.temporal_status), o.sees_user], np.int64),
            "stones": np.array([stone in lying for stone in STONES], np.int8)}


def _minotaur_map(match: Match) -> np.ndarray:
    """Its labyrinth around it (it knows every cell), the items lying, the intruder when seen."""
    o, world = match.last.observation, match.game.world
    marks = [(_xyz(i.position), MARKS[i.name]) for i in o.items]
    if o.user_position:
        marks.append((_xyz(o.user_position), MARKS["user"]))
    here = x, y, z = _xyz(o.position)
    cells = b"".join(world.row(x - MAP_RADIUS, SIDE, y + dy, z) for dy in _ROWS)
    return _window(here, cells, [*marks, (here, MARKS["minotaur"])])


@dataclass(frozen=True)
class Encoding:
    """One role's numeric observation: its spaces, and how a Match fills them."""

    numbers: dict[str, spaces.Space]
    read: Callable[[Match], dict[str, np.ndarray]]
    map: Callable[[Match], np.ndarray]
    remembers: bool  # its map is its seat's memory (the perception's), kept even without the text


ENCODINGS = {
    "user": Encoding({"position": _POSITION, "stamina": spaces.Box(0.0, 1.0, (1,), np.float32),
                      "timers": _timers(4),  # game time, the Minotaur's jump cooldown and paralysis, lantern respawn
                      "cue": spaces.MultiDiscrete([len(values) for values in _CUE]),  # proximity, direction, status
                      "inventory": spaces.MultiBinary(len(ITEM_ORDER))}, _user_numbers, _user_map, remembers=True),
    "minotaur": Encoding({"position": _POSITION,
                          "timers": _timers(4),  # game time, jump cooldown, time out of time, paralysis
                          "cue": spaces.MultiDiscrete([len(_TEMPORAL), 2]),  # temporal status, sees the intruder
                          "stones": spaces.MultiBinary(len(STONES))}, _minotaur_numbers, _minotaur_map,
                         remembers=False),
}


def observation_space(role: str, text: bool = True) -> spaces.Dict:
    """The role's observation: the WSAP text (unless left out), the map window's cell codes
    (MAP_CHARS), and its numbers."""
    fields: dict[str, spaces.Space] = {"text": spaces.Text(TEXT_MAX, charset=CHARSET)} if text else {}
    fields["map"] = spaces.Box(0, len(MAP_CHARS) - 1, (SIDE, SIDE), np.uint8)
    return spaces.Dict({**fields, **ENCODINGS[role].numbers})


def seat(role: str, text: bool) -> Outside:
    """The Outside seat an environment plays ``role`` from: it keeps the role's perception only
    when the observation needs it (the text, or a map that is the role's memory)."""
    return Outside("gym", observe=text or ENCODINGS[role].remembers)


def observe(match: Match, role: str, text: bool = True) -> dict[str, Any]:
    """The role's observation of the Match as it stands."""
    encoding = ENCODINGS[role]
    obs: dict[str, Any] = {"text": match.seats[role].observation.to_text()} if text else {}
    obs["map"] = encoding.map(match)
    obs.update(encoding.read(match))
    return obs


def draw(grid: np.ndarray) -> str:
    """The map window as text, one row a line, north first (render_mode "ansi")."""
    return "\n".join("".join(MAP_CHARS[code] for code in row) for row in grid.tolist()) + "\n"
