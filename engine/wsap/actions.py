"""Each role's WSAP action space and game description, and the one-to-one
mapping of a WSAP Action onto the engine's UserInput or MinotaurDecision: the one
check of an agent's action on its way in. The actions and their parameters are the
schemas' (``USER_PARAMS`` / ``MINOTAUR_PARAMS``); only their words are written here.

Names are the seed's kind of identifier (lowercase: ``move``, ``chase``), read in any
case, and ``noop``, the seed's "do nothing" that agents written from it fall back on,
is each role's quietest action. Params may come flat or nested as the seed's message
writes them (``{"params": {...}}``)."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import ValidationError

from ..commands import BadInput, describe_errors, excerpt
from ..constants import MINOTAUR_PACE, MINOTAUR_SEEING_PACE, MINOTAUR_SIGHT, QUARTERS, TICKS_PER_SECOND, USER_SIGHT
from ..figures import (
    CLOSE_RANGE,
    FAINT_RANGE,
    HEAR_RUN_STEPS,
    HEAR_WALK_STEPS,
    JUMP_COOLDOWN,
    JUMP_SPAN,
    VERY_CLOSE_RANGE,
)
from ..items import ITEMS, LANTERN, STONES_NAMED, USABLE
from ..schemas import MinotaurDecision, UserInput
from .action_schema import ROLES, param_defs
from .types import Action, ActionDef, ActionSpace

# The Minotaur's paces as the descriptions quote them (the other figures are engine/figures.py's).
_WALKS = f"{MINOTAUR_PACE * TICKS_PER_SECOND / QUARTERS:g} step/s"
_RUNS = f"{MINOTAUR_SEEING_PACE * TICKS_PER_SECOND / QUARTERS:g} steps/s"
# 'A LANTERN freezes it for 120 s.'
_USABLE_EFFECTS = " ".join(f"A {item.name} {item.effect_text}." for item in ITEMS if item.use)

# What each action does, what it needs, and its WSAP category: the words around the schemas' definition
# (its names and parameters), keyed by the actions' names.
_USER_WORDS = {
    "MOVE": (("Walk (speed 1, 1 step/s, quiet) or run (speed 2, 2 steps/s, loud, tiring) in a straight line. "
             "Stops at a wall, after the steps asked, when the Minotaur comes into sight, or when an item does."),
             ["a path in that direction (see NEARBY)", "no running into a crawlway"], "movement"),
    "LOOK": (("Stand 1 s and look: the ways out in detail, and the hum of each missing stone "
             "(its compass direction and level)."), [], "perception"),
    "GRAB": ("Take an item on your cell or next to it (1 s).",
             ["the item is on your cell or one of the four next to it, on this level"], "interaction"),
    "USE": (" ".join(item.use_text for item in ITEMS if item.use), [f"you carry the {' or the '.join(USABLE)}"],
            "item"),
    "HALT": ("Stand still and silent, recovering stamina.", [], "wait"),
}
_MINOTAUR_WORDS = {
    "CHASE": ((f"Hunt: run at the intruder while you see it ({_RUNS}), else walk ({_WALKS}) to the "
              "freshest noise or sighting, else patrol."), ["you are not paralyzed or out of time"], "movement"),
    "PATHFIND": (f"Walk a shortest path to a cell you choose ({_WALKS}; {_RUNS} while you see the intruder).",
                 ["the target is open and not a crawlway"], "movement"),
    "WAIT": ("Stand still and silent: an ambush.", [], "wait"),
    "JUMP": ((f"Leap out of time for {JUMP_SPAN} and come back at this very cell: you do not move, see, block "
             "or kill meanwhile, and the intruder hears a whine when you leave and just before you return. "
             "Whoever stands on your cell when you return dies."),
             ["CHASING_3D (not paralyzed, not already jumping)", f"cooldown 0 ({JUMP_COOLDOWN} after the last jump)"],
             "temporal"),
}


def _space(role: str, words: dict[str, tuple[str, list[str], str]]) -> ActionSpace:
    """The role's WSAP action space: the schemas' actions (named in lowercase) and parameters, with their words."""
    return ActionSpace([ActionDef(name.lower(), words[name][0], param_defs(role, name), words[name][1],
                                  words[name][2]) for name in ROLES[role][2]])


USER_ACTIONS = _space("user", _USER_WORDS)
MINOTAUR_ACTIONS = _space("minotaur", _MINOTAUR_WORDS)
_SPACES = {"user": USER_ACTIONS, "minotaur": MINOTAUR_ACTIONS}

NOOP = "noop"
# What noop plays: each role's quietest action, which is also what the turn loop plays when an
# agent's answer cannot be (roles.py's fallback is noop mapped here).
_NOOP_AS = {"user": "LOOK", "minotaur": "WAIT"}
_MESSAGE_KEYS = {"action", "params", "reasoning"}  # the seed's reply object, when sent whole as the params

GAME_NAME = "Labyrinth: The Temporal Hunt"  # what a WSAP system message calls the game ("You are an agent playing ...")

USER_DESCRIPTION = f"""\
{GAME_NAME}. You are lost in a labyrinth cut into a kilometre cube of rock: corridors one \
step (2.5 m) wide, levels 5 m apart joined by ramps (UP RAMP / DOWN RAMP from a ramp cell, one level a step). \
Your goal: find and GRAB {STONES_NAMED}; holding all three, you escape. A Minotaur hunts you. \
You see {USER_SIGHT} steps around you; it sees {MINOTAUR_SIGHT} steps in the dark and hears your steps through \
walls (running within \
{HEAR_RUN_STEPS} steps, walking only within {HEAR_WALK_STEPS}). You hear it as a cue (VERY CLOSE within \
{VERY_CLOSE_RANGE}, CLOSE {CLOSE_RANGE}, FAINT {FAINT_RANGE}) \
with a direction. If it shares your cell you die. Running (2 steps/s) costs stamina; walking (1 step/s) and \
standing restore it. Crawlways can only be walked, and the Minotaur cannot enter them at all: they are \
refuges. Every {JUMP_COOLDOWN} it may jump out of time for {JUMP_SPAN} (a Temporal Whine warns you when it \
leaves and just \
before it returns to the same cell). {_USABLE_EFFECTS} LOOK makes the missing stones hum: their \
direction and level. Time passes only when you act: each action reports the seconds it took."""

MINOTAUR_DESCRIPTION = f"""\
{GAME_NAME}. You are the Minotaur, master of a labyrinth cut into a kilometre cube of rock \
(x grows EAST, y NORTH, z UP by levels joined by ramps; you know every cell). An intruder is looking for \
{STONES_NAMED}; if it holds all three it escapes and you lose. Catch it: step onto its cell. \
Your infrared eyes see it within {MINOTAUR_SIGHT} steps in line of sight; you hear its steps through walls \
(running within \
{HEAR_RUN_STEPS} steps, walking within {HEAR_WALK_STEPS}) and learn the exact cell. You walk {_WALKS}, \
{_RUNS} while you see it. You cannot \
enter crawlways, where it can hide. You know where the stones lie: guarding them pays. Every {JUMP_COOLDOWN} you may \
JUMP out of time for {JUMP_SPAN} and return to the same cell; the intruder hears a whine. If it raises a LANTERN \
you are frozen for {LANTERN.effect_time}. One decision holds for the whole of the intruder's next action."""


def _params(parameters: Any) -> dict[str, Any] | None:
    """The action's params, flat (``{"direction": "NORTH"}``) or nested as the seed's message
    writes them (``{"params": {"direction": "NORTH"}}``, maybe with its "action" and "reasoning");
    None if they are not an object."""
    if not isinstance(parameters, dict):
        return None
    nested = parameters.get("params")
    return nested if isinstance(nested, dict) and set(parameters) <= _MESSAGE_KEYS else parameters


def _check(action: Action, role: str) -> tuple[str, dict[str, Any]]:
    """The engine's name of the action and its parameters, checked against the role's action
    space; BadInput saying what is valid otherwise. The model's own validation does the rest."""
    space = _SPACES[role]
    name = action.name.strip() if isinstance(action.name, str) else ""
    if name.lower() == NOOP:
        return _NOOP_AS[role], {}  # do nothing: whatever params came with it
    found = space.get_action(name)
    if found is None:
        raise BadInput(f"Unknown action {excerpt(action.name)}: choose one of {', '.join(space.action_names())} "
                       f"(or {NOOP}).")
    params = _params(action.parameters)
    if params is None:
        raise BadInput(f"{found.name}: params must be an object.")
    unknown = sorted(set(params) - {p.name for p in found.parameters}, key=str)
    if unknown:
        valid = "; ".join(p.to_text() for p in found.parameters) or "none"
        raise BadInput(f"{found.name} takes no {excerpt(unknown[0])}{' and more' if unknown[1:] else ''}; "
                       f"its params: {valid}.")
    missing = [p for p in found.parameters if not p.optional and params.get(p.name) is None]
    if missing:
        raise BadInput(f"{found.name} needs {missing[0].name}: {missing[0].to_text()}.")
    return found.name.upper(), params  # the engine's words are the names in capitals


Input = TypeVar("Input", UserInput, MinotaurDecision)


def _to_engine(action: Action, role: str, model: type[Input]) -> Input:
    """The one check of an agent's action on its way in, and the engine input (of ``model``, the
    role's) it maps onto. An action without params always maps onto the same (frozen) input,
    validated once: a rule agent's WAIT or CHASE of every turn is not validated again."""
    name, params = _check(action, role)
    plain = None if params else _PLAIN.get((role, name))
    if isinstance(plain, model):
        return plain
    _, key, _ = ROLES[role]
    try:
        made = model.model_validate({key: name, **params})
    except ValidationError as exc:
        raise BadInput(f"Invalid {name.lower()}: {describe_errors(exc, model)}.") from None
    if not params:
        _PLAIN[role, name] = made
    return made


_PLAIN: dict[tuple[str, str], UserInput | MinotaurDecision] = {}  # (role, action) -> its input without params


def to_user_input(action: Action) -> UserInput:
    """Map a WSAP action onto a UserInput: the action is the command, the params the rest."""
    return _to_engine(action, "user", UserInput)


def to_minotaur_decision(action: Action) -> MinotaurDecision:
    """Map a WSAP action onto a MinotaurDecision."""
    return _to_engine(action, "minotaur", MinotaurDecision)
