"""What each role is told of an event, in words: one table per role, read by everything that
tells a turn (the narrative's ``raw_text_output``, engine/narrative.py, and the recent events of
each role's WSAP observation, engine/wsap/perception.py), so that no event is worded twice.

An event the role does not perceive has no words (None). Each table is a ``match`` over every kind of
event (events.AnyEvent), so that the type checker reads each event's own fields and sees a kind left out
(``_unworded``); the tables never raise, so no event can stop a text being told.
"""

from __future__ import annotations

from typing import Never, cast

from . import events as ev
from .figures import JUMP_COOLDOWN, seconds_text
from .items import ITEM, LANTERN, STONES, STONES_NAMED, stones_held
from .senses import level_words
from .state import GameState


def from_words(direction: str | None) -> str:
    """' from the NORTH', ' from above', or '' when the sound has no direction."""
    if direction is None:
        return ""
    return f" from {direction.lower()}" if direction in ("ABOVE", "BELOW") else f" from the {direction}"


def _steps(count: int, what: str = "step") -> str:
    return f"{count} {what}{'s' if count != 1 else ''}"


def _hum_text(name: str, direction: str | None, levels: int) -> str:
    where = level_words(levels)
    if direction is None:
        spot = "here" if levels == 0 else "overhead" if levels > 0 else "underfoot"
        return f"The {name} hums right {spot}, {where}."
    return f"The {name} hums to the {direction}, {where}."


def _unworded(e: Never) -> str | None:
    """The last case of a word table: the type checker takes a kind of event that reaches it for a missing case;
    at run time (an event the checker never saw) it has no words."""
    return None


def user_words(event: ev.Event, s: GameState) -> str | None:
    """The user's words for ``event``, ``s`` being the state at the end of its turn."""
    e = cast(ev.AnyEvent, event)  # every event is one of them (test_event_words)
    match e:
        case ev.UserMoved():
            return f"moved {_steps(e.steps)} ({e.ran} running) to {e.end}"
        case ev.UserLeftGround():
            return "You leave the hunting ground: the maze goes on without end out here, with nothing you seek."
        case ev.UserReenteredGround():
            return "You are back in the hunting ground."
        case ev.UserCollided():
            return f"stopped by {e.reason}"
        case ev.StaminaExhausted():
            return "You are out of breath and slow to a walk."
        case ev.ItemSighted():
            return f"spotted the {e.item} at {e.position}"
        case ev.MinotaurSighted():
            return f"saw the Minotaur at {e.position}"
        case ev.ItemGrabbed():
            return f"You take the {e.item}."
        case ev.StoneGrabbed():
            return f"You take the {e.stone} ({stones_held(s.inventory)}/{len(STONES)} stones)."
        case ev.LanternGrabbed():
            return f"You take the LANTERN. USE it to freeze the Minotaur for {LANTERN.effect_time}."
        case ev.ItemUsed() if e.item in ITEM:
            return f"You use the {e.item}: it {ITEM[e.item].effect_text}."
        case ev.ItemUsed():
            return f"You use the {e.item}."
        case ev.EffectEnded():
            return f"The {e.item} is spent."
        case ev.LanternUsed():
            return f"You raise the LANTERN: its blaze freezes the Minotaur for {LANTERN.effect_time}, and it burns out."
        case ev.LanternSpawned():
            return "Somewhere in the labyrinth, a new lantern flickers into being."
        case ev.StonesHummed():
            return "\n".join(_hum_text(*hum) for hum in e.hums) or None
        case ev.ParalysisEnded():
            return "The lantern's spell fades: the Minotaur can move again."
        case ev.WhineHeard() if e.phase == "VANISHING":
            return f"A temporal whine tears the air{from_words(e.direction)}: the Minotaur has vanished from time!"
        case ev.WhineHeard():
            return f"The whine rises again{from_words(e.direction)}: the Minotaur is about to re-enter!"
        case ev.MinotaurReentered() if not s.outcome:
            frozen = ", frozen by the lantern" if s.paralysis else ""
            return f"The Minotaur materializes at its fixed re-entry position{frozen}!"
        case ev.UserCaught():
            return f"The Minotaur catches you: you {e.how}. You die."
        case ev.UserEscaped():
            return f"With {STONES_NAMED} in hand, the labyrinth lets you go. You have escaped!"
        case ev.MinotaurReentered() | ev.MinotaurMoved() | ev.UserSpotted() | ev.UserHeard() | ev.DecisionRefused() \
                | ev.MinotaurJumped():
            return None  # the Minotaur's own doings: the user perceives them through the senses (the cue), if at all
        case _:
            return _unworded(e)


def minotaur_words(event: ev.Event, s: GameState) -> str | None:
    """The Minotaur's words for ``event`` (``s``: the state at the end of its turn, as ``user_words``)."""
    e = cast(ev.AnyEvent, event)
    match e:
        case ev.MinotaurJumped():
            return f"You leap out of time for {seconds_text(e.duration_ticks)}; the cooldown is {JUMP_COOLDOWN}."
        case ev.MinotaurReentered():
            return f"You re-enter time at {e.position}."
        case ev.LanternUsed():
            return f"A blinding lantern freezes you for {LANTERN.effect_time}!"
        case ev.ParalysisEnded():
            return "The lantern's hold breaks: you can move again."
        case ev.MinotaurMoved():
            return f"You moved {_steps(e.steps)} to {e.end}."
        case ev.UserHeard():
            return f"You heard {_steps(e.count, f'{e.loudness} footstep')}, the last at {e.position}."
        case ev.UserSpotted():
            return f"spotted the intruder at {e.position}"
        case ev.DecisionRefused():
            return e.reason
        case ev.StoneGrabbed():
            return f"A stone's hum fell silent: the {e.stone} was taken."
        case ev.UserCaught():
            return "You caught the intruder. DEATH."
        case ev.UserEscaped():
            return "The intruder escaped with the three stones."
        case ev.UserMoved() | ev.UserLeftGround() | ev.UserReenteredGround() | ev.UserCollided() \
                | ev.StaminaExhausted() | ev.ItemSighted() | ev.StonesHummed() | ev.MinotaurSighted() \
                | ev.ItemGrabbed() | ev.LanternGrabbed() | ev.LanternSpawned() | ev.WhineHeard() | ev.ItemUsed() \
                | ev.EffectEnded():
            return None  # what the intruder does and perceives unseen: the Minotaur learns of it by its senses
        case _:
            return _unworded(e)
