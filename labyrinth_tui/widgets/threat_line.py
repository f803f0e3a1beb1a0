"""The threat on one line, for the map on the whole screen (F2), where the cue panel is hidden: how
near the Minotaur sounds and from where, what it does in time, and the stones' last bearings, each
shortened as the line's width asks (the cue panel's own forms)."""

from __future__ import annotations

from rich.text import Text
from textual import events

from labyrinth.engine import GameStateResponse

from ..knowledge import Bearings
from .cue_panel import LOOK_KEY, bearing_forms, sound_forms, time_forms
from .fitted import Fitted
from .status_bar import fit

SOUND, TIME, STONES = range(3)
SHORTEN_FIRST = (TIME, STONES, TIME, STONES, SOUND, STONES)


class ThreatLine(Fitted):
    look_key = LOOK_KEY  # the player's LOOK key (the screen sets it), as the cue panel's

    def show(self, response: GameStateResponse, bearings: Bearings | None, hard: bool) -> None:
        self._shown = (response, bearings, hard)
        self.update(threat_words(response, bearings, hard, self.content_size.width, self.look_key))

    def on_resize(self, event: events.Resize) -> None:
        if getattr(self, "_shown", None):
            self.update(threat_words(*self._shown, self.content_size.width, self.look_key), layout=False)


def threat_words(response: GameStateResponse, bearings: Bearings | None, hard: bool, width: int,
                 look_key: str = LOOK_KEY) -> Text:
    cue = response.minotaur_cue
    doing, jump = time_forms(cue.temporal_status, cue.paralysis_time_left, cue.cooldown_time)
    parts = [[Text("Minotaur", style="bold") + form for form in sound_forms(response)],
             [doing[0] + Text(" · ") + jump[0], doing[1] + Text(" · ") + jump[1], doing[1]],
             bearing_forms(bearings, response.user_state.inventory, hard, look_key)]
    return fit(parts, width, SHORTEN_FIRST, gap="  │  ")
