"""Each role's WSAP action space and game description, and the one-to-one
mapping of a WSAP Action onto the engine's UserInput or MinotaurDecision."""

from __future__ import annotations

from typing import Any

from .commands import BadInput, describe_errors, excerpt
from .constants import (
    HEAR_HIGH_SQ,
    HEAR_LOW_SQ,
    JUMP_COOLDOWN_TICKS,
    JUMP_MAX_TICKS,
    JUMP_MIN_TICKS,
    LANTERN_RESPAWN_TICKS,
    MINOTAUR_PACE,
    MINOTAUR_SEEING_PACE,
    PARALYSIS_TICKS,
    QUARTERS,
    TICKS_PER_SECOND,
)
from .schemas import ITEM_ORDER, MinotaurDecision, UserInput
from .wsap import Action, ActionDef, ActionSpace, ParamDef

DIRECTIONS = ["NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP"]

# The numbers the descriptions quote, from the constants, so that tuning them keeps the words true.
_PARALYSIS, _RESPAWN = PARALYSIS_TICKS // TICKS_PER_SECOND, LANTERN_RESPAWN_TICKS // TICKS_PER_SECOND
_COOLDOWN = JUMP_COOLDOWN_TICKS // TICKS_PER_SECOND
_JUMP = f"{JUMP_MIN_TICKS / TICKS_PER_SECOND:g}-{JUMP_MAX_TICKS / TICKS_PER_SECOND:g} s"
_HEAR_RUN, _HEAR_WALK = f"{HEAR_HIGH_SQ ** 0.5:g}", f"{HEAR_LOW_SQ ** 0.5:.1f}".removesuffix(".0")
_WALKS = f"{MINOTAUR_PACE * TICKS_PER_SECOND / QUARTERS:g} step/s"
_RUNS = f"{MINOTAUR_SEEING_PACE * TICKS_PER_SECOND / QUARTERS:g} steps/s"

USER_ACTIONS = ActionSpace([
    ActionDef("MOVE", "Walk (speed 1, 1 step/s, quiet) or run (speed 2, 2 steps/s, loud, tiring) in a straight line. "
              "Stops at a wall, after the steps asked, when the Minotaur comes into sight, or when an item does.",
              [ParamDef("direction", "string", "where to go; UP RAMP / DOWN RAMP only from a ramp cell", DIRECTIONS),
               ParamDef("steps", "integer", "how many steps (1-100); use 1 on a ramp", optional=True, default=100),
               ParamDef("speed", "integer", "1 walk or crawl, 2 run", [1, 2], optional=True, default=1)],
              ["a path in that direction (see NEARBY)", "no running into a crawlway"], "movement"),
    ActionDef("LOOK", "Stand 1 s and look: the ways out in detail, and the hum of each missing stone "
              "(its compass direction and level).", [], [], "perception"),
    ActionDef("GRAB", "Take an item on your cell or next to it (1 s).",
              [ParamDef("target", "string", "which item; the one in reach when left out", list(ITEM_ORDER),
                        optional=True)],
              ["the item is on your cell or one of the four next to it, on this level"], "interaction"),
    ActionDef("USE", f"Raise the LANTERN: the Minotaur is paralyzed for {_PARALYSIS} s, wherever it is; the lantern "
              f"burns out and a new one appears somewhere {_RESPAWN} s later.",
              [ParamDef("target", "string", "the item to use", ["LANTERN"], optional=True)],
              ["you carry the LANTERN"], "item"),
    ActionDef("HALT", "Stand still and silent, recovering stamina.",
              [ParamDef("steps", "integer", "seconds to wait (1-100)", optional=True, default=1)], [], "wait"),
])

MINOTAUR_ACTIONS = ActionSpace([
    ActionDef("CHASE", f"Hunt: run at the intruder while you see it ({_RUNS}), else walk ({_WALKS}) to the "
              "freshest noise or sighting, else patrol.", [], ["you are not paralyzed or out of time"], "movement"),
    ActionDef("PATHFIND", f"Walk a shortest path to a cell you choose ({_WALKS}; {_RUNS} while you see the intruder).",
              [ParamDef("target_coords", "object", "the cell to reach, {\"x\": int, \"y\": int, \"z\": int}; "
                        "not rock, not a crawlway; any such cell of the cube is reached")],
              ["the target is open and not a crawlway"], "movement"),
    ActionDef("WAIT", "Stand still and silent: an ambush.", [], [], "wait"),
    ActionDef("JUMP", f"Leap out of time for {_JUMP} and come back at this very cell: you do not move, see, block "
              "or kill meanwhile, and the intruder hears a whine when you leave and just before you return. "
              "Whoever stands on your cell when you return dies.", [],
              ["CHASING_3D (not paralyzed, not already jumping)", f"cooldown 0 ({_COOLDOWN} s after the last jump)"],
              "temporal"),
])

USER_DESCRIPTION = f"""\
Labyrinth: The Temporal Hunt. You are lost in a labyrinth cut into a kilometre cube of rock: corridors one \
step (2.5 m) wide, levels 5 m apart joined by ramps (UP RAMP / DOWN RAMP from a ramp cell, one level a step). \
Your goal: find and GRAB the RED, BLUE and YELLOW stones; holding all three, you escape. A Minotaur hunts you. \
You see 2 steps around you; it sees 6 steps in the dark and hears your steps through walls (running within \
{_HEAR_RUN} steps, walking only within {_HEAR_WALK}). You hear it as a cue (VERY CLOSE within 7.5 m, CLOSE 20 m, FAINT 37.5 m) \
with a direction. If it shares your cell you die. Running (2 steps/s) costs stamina; walking (1 step/s) and \
standing restore it. Crawlways can only be walked, and the Minotaur cannot enter them at all: they are \
refuges. Every {_COOLDOWN} s it may jump out of time for {_JUMP} (a Temporal Whine warns you when it leaves and just \
before it returns to the same cell). A LANTERN freezes it for {_PARALYSIS} s. LOOK makes the missing stones hum: their \
direction and level. Time passes only when you act: each action reports the seconds it took."""

MINOTAUR_DESCRIPTION = f"""\
Labyrinth: The Temporal Hunt. You are the Minotaur, master of a labyrinth cut into a kilometre cube of rock \
(x grows EAST, y NORTH, z UP by levels joined by ramps; you know every cell). An intruder is looking for the \
RED, BLUE and YELLOW stones; if it holds all three it escapes and you lose. Catch it: step onto its cell. \
Your infrared eyes see it within 6 steps in line of sight; you hear its steps through walls (running within \
{_HEAR_RUN} steps, walking within {_HEAR_WALK}) and learn the exact cell. You walk {_WALKS}, {_RUNS} while you see it. You cannot \
enter crawlways, where it can hide. You know where the stones lie: guarding them pays. Every {_COOLDOWN} s you may \
JUMP out of time for {_JUMP} and return to the same cell; the intruder hears a whine. If it raises a LANTERN \
you are frozen for {_PARALYSIS} s. One decision holds for the whole of the intruder's next action."""


def _check(action: Action, space: ActionSpace) -> dict[str, Any]:
    """The action's parameters, or BadInput listing what is valid."""
    definition = space.get(action.name.strip().upper() if isinstance(action.name, str) else action.name)
    if definition is None:
        raise BadInput(f"Unknown action {excerpt(action.name)}: choose one of {', '.join(space.names())}.")
    params = action.parameters if isinstance(action.parameters, dict) else None
    if params is None:
        raise BadInput(f"{definition.name}: params must be an object.")
    known = {p.name for p in definition.parameters}
    unknown = sorted(set(params) - known)
    if unknown:
        valid = "; ".join(p.to_text() for p in definition.parameters) or "none"
        raise BadInput(f"{definition.name} takes no {excerpt(unknown[0])}{' and more' if unknown[1:] else ''}; "
                       f"its params: {valid}.")
    return params


def to_user_input(action: Action) -> UserInput:
    """Map a WSAP action onto a UserInput: the action is the command, the params the rest."""
    params = _check(action, USER_ACTIONS)
    try:
        return UserInput.model_validate({"command": action.name.strip().upper(), **params})
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        raise BadInput(f"Invalid {action.name.strip().upper()}: {describe_errors(exc)}.") from None


def to_minotaur_decision(action: Action) -> MinotaurDecision:
    """Map a WSAP action onto a MinotaurDecision."""
    params = _check(action, MINOTAUR_ACTIONS)
    try:
        return MinotaurDecision.model_validate({"action": action.name.strip().upper(), **params})
    except ValueError as exc:
        raise BadInput(f"Invalid {action.name.strip().upper()}: {describe_errors(exc)}.") from None
