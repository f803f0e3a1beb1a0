"""Achievements: moments worth naming, unlocked once per game by each role.

They are read from the turn's events, like everything that tells what happened.
"""

from __future__ import annotations

from collections.abc import Collection

from .. import events as ev
from ..items import stones_held
from .types import Achievement

USER_ACHIEVEMENTS = {
    "first_stone": Achievement("first_stone", "Took a first stone", "common"),
    "two_stones": Achievement("two_stones", "Held two stones at once", "uncommon"),
    "escaped": Achievement("escaped", "Escaped the labyrinth with the three stones", "rare"),
    "lantern_found": Achievement("lantern_found", "Took a lantern", "common"),
    "lantern_paralysis": Achievement("lantern_paralysis", "Froze the Minotaur with a lantern", "uncommon"),
    "whine_survivor": Achievement("whine_survivor", "Lived through a Temporal Whine at VERY CLOSE range", "rare"),
}
MINOTAUR_ACHIEVEMENTS = {
    "spotted": Achievement("spotted", "Saw the intruder with infrared eyes", "common"),
    "heard": Achievement("heard", "Heard the intruder's footsteps", "common"),
    "time_leap": Achievement("time_leap", "Leapt out of time", "uncommon"),
    "caught": Achievement("caught", "Caught the intruder", "rare"),
    "reentry_ambush": Achievement("reentry_ambush", "Caught the intruder on returning to time", "legendary"),
}


def user_unlocked(events: tuple[ev.Event, ...], inventory: Collection[str]) -> set[str]:
    """The user's achievements earned by this turn's events (before any were already had), with
    ``inventory`` the user's after the turn. The stones held and whether the user was caught are
    read only when an event asks: every RL step calls this, and most turns earn nothing."""
    names = set()
    for e in events:
        if isinstance(e, ev.StoneGrabbed):
            names.add("first_stone")
            if stones_held(inventory) >= 2:
                names.add("two_stones")
        elif isinstance(e, ev.UserEscaped):
            names.add("escaped")
        elif isinstance(e, ev.LanternGrabbed):
            names.add("lantern_found")
        elif isinstance(e, ev.LanternUsed):
            names.add("lantern_paralysis")
        elif isinstance(e, ev.WhineHeard) and e.near and not any(isinstance(c, ev.UserCaught) for c in events):
            names.add("whine_survivor")
    return names


def minotaur_unlocked(events: tuple[ev.Event, ...]) -> set[str]:
    names = set()
    for e in events:
        if isinstance(e, ev.UserSpotted):
            names.add("spotted")
        elif isinstance(e, ev.UserHeard):
            names.add("heard")
        elif isinstance(e, ev.MinotaurJumped):
            names.add("time_leap")
        elif isinstance(e, ev.UserCaught):
            names.add("caught")
            if e.at_reentry:
                names.add("reentry_ambush")
    return names
