"""Each role's actions as a reinforcement-learning environment offers them: a fixed list of
commands (the Discrete action space), which of them can be carried out now (the action
mask), and what a refused one plays instead.

The commands are derived from the schemas' one definition of the actions (USER_PARAMS /
MINOTAUR_PARAMS and the allowed values of their parameters); only the choice of step counts
and of PATHFIND targets is made here. The Gymnasium and PettingZoo envs both read them from
here, so that the two offer the same actions per role.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from labyrinth.engine import MinotaurDecision, UserInput
from labyrinth.engine.cells import MINOTAUR_OPEN
from labyrinth.engine.geometry import HORIZONTAL
from labyrinth.engine.items import STONES, USABLE
from labyrinth.engine.minotaur import plan_for
from labyrinth.engine.schemas import MINOTAUR_PARAMS, USER_PARAMS
from labyrinth.engine.turn import items_in_reach, unexecutable
from labyrinth.engine.wsap.action_schema import param_defs

from ..match.runner import Match

# A MOVE's steps: one (a careful step: up to an item, away from the Minotaur), or None, which runs on to the
# first place worth a stop ("far": a junction, a ramp, an item coming within reach, the hoofbeats nearer, a dead
# end; round a bend with one way on, engine/turn.py's run_on). Two and four used to be offered too: eight moves
# a direction, most of them alike, which spread a learner's early tries thin. The built-in user's decisions
# mapped onto these two (demos.py) play as well as it does.
STEP_COUNTS = (1, None)
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
    options = next(p.options for p in param_defs(role, action) if p.name == param)
    if options is None:
        raise ValueError(f"the {role}'s {action} {param} has no list of values to make commands of")
    return options


def action_word(value: Any) -> str:
    """A word of the engine's (a direction, an item, a command) as it is spelled in an action's name:
    "UP RAMP" -> "up_ramp"."""
    return str(value).lower().replace(" ", "_")


def _fixed(name: str, command: Engine, possible: Callable[[Match, Any], bool]) -> Command:
    return Command(name, lambda m: command, possible)


class UserMoment(NamedTuple):
    """What the user's commands read of the Match, once a mask: its ways out, and the names of the
    items GRAB could take (each GRAB's test of ``item_in_reach``, one pass for all of them)."""

    exits: list[str]
    reach: frozenset[str]

    @classmethod
    def of(cls, m: Match) -> UserMoment:
        state = m.game.state
        return cls(m.game.world.user_exits(state.user), frozenset(name for name, _ in items_in_reach(state)))


def _user_commands() -> tuple[Command, ...]:
    """MOVE each way (the horizontal ones at each speed and step count, the ramps one level), then
    LOOK, GRAB each item, USE the lantern and HALT, in the order of the schemas' actions. A MOVE is
    possible along the user's ways out (its Moment), GRAB and USE when the engine would carry them out."""

    def exits(direction: str) -> Callable[[Match, UserMoment], bool]:
        return lambda m, now: direction in now.exits

    def executable(command: UserInput) -> Callable[[Match, UserMoment], bool]:
        if command.command == "GRAB":  # unexecutable's own test (item_in_reach), without the words of its refusal
            target = command.target
            return lambda m, now: target in now.reach if target is not None else bool(now.reach)
        return lambda m, now: unexecutable(m.game.state, command) is None

    moves = []
    for direction in _allowed("user", "MOVE", "direction"):
        if direction not in HORIZONTAL:  # a ramp: one level, walked
            moves.append(_fixed(f"move_{action_word(direction)}",
                                UserInput(command="MOVE", direction=direction, steps=1), exits(direction)))
            continue
        moves += [_fixed(f"move_{action_word(direction)}_{SPEED_WORDS[speed]}_{steps or 'far'}",
                         UserInput(command="MOVE", direction=direction, steps=steps, speed=speed), exits(direction))
                  for speed in _allowed("user", "MOVE", "speed") for steps in STEP_COUNTS]
    grabs = [UserInput(command="GRAB", target=item) for item in _allowed("user", "GRAB", "target")]
    # USE: only the usable items (engine/items.py); USE of any other is never executable.
    others = {"LOOK": [UserInput(command="LOOK")], "GRAB": grabs,
              "USE": [UserInput(command="USE", target=item) for item in USABLE], "HALT": [UserInput(command="HALT")]}
    commands = []
    for action in USER_PARAMS:
        if action == "MOVE":
            commands += moves
            continue
        commands += [_fixed("_".join([action_word(action), *([action_word(c.target)] if c.target else [])]), c,
                            executable(c)) for c in others[action]]
    return tuple(commands)


def _lying(stone: str) -> Callable[[Any], Any]:
    """Where the Minotaur's view says ``stone`` lies (None when it is not there)."""
    return lambda o: next((i.position for i in o.items if i.name == stone), None)


# Where a PATHFIND may go, read from the Minotaur's view: the last noise, the last sighting, each stone.
_TARGETS: dict[str, Callable[[Any], Any]] = {
    "last_noise": lambda o: o.last_heard and o.last_heard.position,
    "last_sighting": lambda o: o.last_seen and o.last_seen.position,
    **{action_word(stone): _lying(stone) for stone in STONES},
}


def _allowed_now(decision: MinotaurDecision) -> Callable[[Match, Any], bool]:
    """Whether the rules let the Minotaur carry ``decision`` out now (a JUMP may be refused)."""
    return lambda m, now: plan_for(m.game.world, m.game.state, decision)[1] is None


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
            commands.append(_fixed(action_word(action), decision, _allowed_now(decision)))
            continue
        commands += [Command(f"{action_word(action)}_{name}", *pathfind(target)) for name, target in _TARGETS.items()]
    return tuple(commands)


COMMANDS: dict[str, tuple[Command, ...]] = {"user": _user_commands(), "minotaur": _minotaur_commands()}
# What a refused command plays instead: one second of standing still, so that every step of an env is a
# turn (time passes, the other side acts, the turn limit nears). Not the role's fallback (LOOK), which
# would pay a refused command with the stones' hum. Only the user's commands can be refused before a
# turn; a Minotaur's decision the rules refuse is a turn already (it waits).
STAND_IN = UserInput(command="HALT", steps=1)
# What a role's commands read of the Match, once a mask: the user's UserMoment, the Minotaur's view.
MOMENTS: dict[str, Callable[[Match], Any]] = {
    "user": UserMoment.of,
    "minotaur": lambda m: m.last.observation,
}


def action_names(role: str) -> list[str]:
    """The role's Discrete actions by number: the documented list."""
    return [c.name for c in COMMANDS[role]]


def command(role: str, action: Any) -> Command:
    """The role's command numbered ``action``, an integer (Python's or NumPy's); a clear error otherwise.
    A bool is no number of a command, Python's or NumPy's alike (Python's would pass as 0 or 1)."""
    commands = COMMANDS[role]
    try:
        number = -1 if isinstance(action, bool | np.bool_) else operator.index(action)
    except TypeError:
        number = -1
    if not 0 <= number < len(commands):
        raise ValueError(f"a {role} action is an integer in [0, {len(commands)}), not {action!r}")
    return commands[number]


# Each role's tests of its commands, in order: read every step, without a Command's attribute lookup apiece.
_POSSIBLE = {role: tuple(c.possible for c in commands) for role, commands in COMMANDS.items()}


def action_mask(match: Match, role: str) -> np.ndarray:
    """1 for each command that can be carried out now, 0 for the others."""
    now = MOMENTS[role](match)
    return np.array([possible(match, now) for possible in _POSSIBLE[role]], np.int8)
