"""The words of the game: ``raw_text_output`` for the user and the Minotaur.

Built from the turn's events and the final state, never from anything the
side should not perceive: the user's text tells what it saw, heard and did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from .constants import USER_SIGHT
from .event_words import from_words, minotaur_words, user_words
from .figures import seconds_text
from .geometry import HORIZONTAL, SIDEWAYS, Pos, compass
from .items import STONES_NAMED
from .presets import PRESETS
from .schemas import UserInput
from .senses import NEARNESS, UserView, level_words, minotaur_active
from .state import GameState
from .world import World

if TYPE_CHECKING:  # report.py builds its texts here: a cycle at run time
    from .report import CommandSummary

Events = tuple[ev.Event, ...]


def _offset_words(frm: Pos, to: Pos) -> str:
    """'right here', '1 step to the NORTH', '2 steps to the NORTH-EAST'."""
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    word = compass(dx, dy)
    if word is None:
        return "right here"
    n = abs(dx) + abs(dy)
    return f"{n} step{'s' if n != 1 else ''} to the {word}"


def _action_text(world: World, s: GameState, cmd: UserInput, out: CommandSummary, events: Events) -> str:
    if cmd.command == "HALT":
        return f"You hold still for {out.time_taken:g} s."
    if cmd.command == "LOOK":
        return "You stop and look around."
    if cmd.command in ("GRAB", "USE"):  # its event's words (event_words.py), or plain words for one without any
        told = (t for e in events if isinstance(e, ev.Acted) and (t := user_words(e, s)))
        return next(told, f"You {'take' if cmd.command == 'GRAB' else 'use'} the {cmd.target or 'item'}.")
    # MOVE
    time = f"{out.time_taken:g} s"
    n = out.steps_moved
    if n == 0:
        return f"You cannot go {cmd.direction}: {out.collision}." if out.collision else f"You set off {cmd.direction}."
    if cmd.direction in ("UP RAMP", "DOWN RAMP"):
        text = f"You {'climb' if cmd.direction == 'UP RAMP' else 'descend'} the ramp to level {s.user[2]} ({time})"
    else:
        gait = "run" if out.ran == n else "walk" if out.ran == 0 else "run, then walk,"
        route = ", then ".join((cmd.move_direction, *out.bends)) + ("," if out.bends else "")
        text = f"You {gait} {route} {n} step{'s' if n != 1 else ''} ({time})"
        if out.stop_reason == "COLLISION":
            return f"{text} until {out.collision} stops you."
    if out.stop_reason == "ENCOUNTER" and s.outcome != "DEATH":
        if not any(isinstance(e, ev.MinotaurSighted) for e in events):  # a run stopped by its hoofbeats
            return f"{text} and stop: the hoofbeats are nearer."
        return f"{text} and freeze: the Minotaur is in sight!"
    if out.stop_reason == "ITEM_SIGHTED":
        return f"{text} and stop: something catches your eye."
    if out.stop_reason == "ARRIVED" and cmd.direction in HORIZONTAL:
        return f"{text} and stop {_arrival_words(world, s.user, (cmd.direction, *out.bends)[-1])}."
    return f"{text}."


def _arrival_words(world: World, pos: Pos, direction: str) -> str:
    """Where a run stopped: 'on a ramp leading up', 'where a passage opens to the EAST'."""
    here = world.cell(*pos)
    if here in (RAMP_UP, RAMP_DOWN):
        return f"on a ramp leading {'up' if here == RAMP_UP else 'down'}"
    sides = [d for d in world.user_exits(pos) if d in SIDEWAYS[direction]]
    return f"where {'a passage opens' if len(sides) == 1 else 'passages open'} to the {' and '.join(sides)}"


def _plain_step(world: World, s: GameState, view: UserView, cmd: UserInput, out: CommandSummary,
                events: Events) -> bool:
    """One step that found nothing new: no event, nothing in sight, a corridor going straight on."""
    if cmd.command != "MOVE" or out.steps_moved != 1 or out.stop_reason != "SUCCESS" or s.outcome:
        return False
    if cmd.direction not in HORIZONTAL or view.items or view.minotaur_in_sight:
        return False
    straight_on = not any(d in SIDEWAYS[cmd.direction] for d in view.exits) and cmd.direction in view.exits
    return straight_on and world.cell(*s.user) == FLOOR and not any(_event_text(s, e) for e in events)


# What the user's narrative leaves to its other lines: the command's line tells the move and what GRAB or
# USE did (ev.Acted), the surroundings what is in sight.
_TOLD_APART = (ev.UserMoved, ev.UserCollided, ev.ItemSighted, ev.MinotaurSighted, ev.Acted)


def _event_text(s: GameState, e: ev.Event) -> str | None:
    return None if isinstance(e, _TOLD_APART) else user_words(e, s)


def surroundings(world: World, s: GameState, view: UserView, detailed: bool) -> list[str]:
    """Where the user stands, the ways out, items and the Minotaur in sight."""
    lines = []
    x, y, z = s.user
    here = world.cell(x, y, z)
    spot = {CRAWLWAY: " You are crouched in a crawlway.", RAMP_UP: " A ramp leads up from here.",
            RAMP_DOWN: " A ramp leads down from here."}.get(here, "")
    lines.append(f"Level {z}.{spot} Paths: {', '.join(view.exits) if view.exits else 'none'}.")
    if detailed:
        for d, (dx, dy) in HORIZONTAL.items():
            ahead = [world.cell(x + dx * k, y + dy * k, z) for k in range(1, USER_SIGHT + 1)]
            if ahead[0] == ROCK:
                continue
            if ahead[0] == CRAWLWAY:
                lines.append(f"  {d}: a low crawlway (walk only; the Minotaur cannot follow).")
            elif ahead[1] == ROCK:
                side = [world.cell(x + dx + sx, y + dy + sy, z) != ROCK for sx, sy in HORIZONTAL.values()
                        if (sx, sy) != (-dx, -dy) and (sx, sy) != (dx, dy)]
                lines.append(f"  {d}: the passage turns after one step." if any(side)
                             else f"  {d}: a dead end one step away.")
            else:
                lines.append(f"  {d}: the passage goes on into the dark.")
    for name, pos in view.items:
        lines.append(f"You see the {name} {_offset_words(s.user, pos)}.")
    if view.minotaur_in_sight and minotaur_active(s):
        lines.append(f"The Minotaur looms {_offset_words(s.user, s.minotaur)}!")
    elif view.minotaur_in_sight and s.paralysis:
        lines.append(f"The Minotaur stands frozen {_offset_words(s.user, s.minotaur)}.")
    return lines


def heard_from(proximity: str, direction: str | None) -> str:
    """Where the Minotaur's hoofbeats come from, as every text says it (' from the EAST', ' from above'),
    or '' when they are not heard: frozen, out of time or too far away, it makes no sound to place."""
    return from_words(direction) if proximity in NEARNESS else ""


def cue_text(s: GameState, view: UserView) -> str | None:
    near = view.proximity
    toward = heard_from(near, view.direction)
    if near == "PARALYZED":
        return f"The Minotaur is paralyzed for {seconds_text(s.paralysis)} more."
    if near == "VANISHED":
        return "The Minotaur is out of time; you cannot tell when it will return."
    return {
        "VERY CLOSE": f"Hot breath and hooves VERY CLOSE{toward}!",
        "CLOSE": f"Heavy hoofbeats sound CLOSE{toward}.",
        "FAINT": f"Faint hoofbeats echo{toward}.",
    }.get(near)


def user_text(world: World, s: GameState, view: UserView, cmd: UserInput, out: CommandSummary,
              events: Events) -> str:
    if _plain_step(world, s, view, cmd, out, events):  # one short line, with the hoofbeats if heard
        return " ".join(t for t in (f"You step {cmd.move_direction.lower()}.", cue_text(s, view)) if t)
    parts = [_action_text(world, s, cmd, out, events)]
    parts += [t for t in (_event_text(s, e) for e in events) if t]
    if not s.outcome:
        parts += surroundings(world, s, view, detailed=cmd.command == "LOOK")
        if cmd.command == "LOOK" and s.difficulty == "hard":
            parts.append("The stones are silent on hard difficulty.")
        cue = cue_text(s, view)
        if cue:
            parts.append(cue)
    return "\n".join(parts)


def intro_text(world: World, s: GameState, view: UserView) -> str:
    bounds = PRESETS[s.preset]
    parts = [
        (f"You wake in the dark heart of the labyrinth. Somewhere in these halls lie {STONES_NAMED}; hold "
         "all three and you escape. Something with hooves is hunting you."),
        (f"The hunting ground spans {bounds.width} x {bounds.height} steps on {bounds.levels} "
         f"level{'s' if bounds.levels > 1 else ''} ({bounds.z0} to {bounds.last[2]})."),
    ]
    parts += surroundings(world, s, view, detailed=True)
    cue = cue_text(s, view)
    if cue:
        parts.append(cue)
    return "\n".join(parts)


def minotaur_text(s: GameState, events: Events, refusal: str | None, sees: bool) -> str:
    """The Minotaur's account of the turn: what it did, saw and heard."""
    parts = []
    if refusal:
        parts.append(refusal + "; you waited instead.")
    # the refusal is told above, and the sight of the intruder below
    parts += [t for e in events
              if not isinstance(e, (ev.DecisionRefused, ev.UserSpotted)) and (t := minotaur_words(e, s))]
    if not s.outcome:
        if sees:
            parts.append(f"Your infrared eyes see the intruder at {s.user}, {_offset_words(s.minotaur, s.user)}"
                         f"{'' if s.user[2] == s.minotaur[2] else ', ' + level_words(s.user[2] - s.minotaur[2])}.")
        elif s.last_seen:
            parts.append(f"You last saw the intruder at {s.last_seen[0]}, {seconds_text(s.tick - s.last_seen[1])} ago.")
    return "\n".join(parts) if parts else "Silence in the labyrinth."
