"""The Minotaur cue panel, in words: how near it sounds and from where (as the log says it),
what it is doing in time, and the countdowns a player plays against: the lantern's hold and
the wait before it can jump again. The Temporal Whine stands out."""

from __future__ import annotations

import math

from rich.text import Text
from textual.widgets import Static

from labyrinth.engine import GameStateResponse
from labyrinth.engine.narrative import heard_from

# What the user senses of the Minotaur (MinotaurCue.proximity), in words and how it looks.
PROXIMITY = {"VERY CLOSE": ("VERY CLOSE", "bold white on red"), "CLOSE": ("close", "bold dark_orange"),
             "FAINT": ("faint", "yellow"), "NONE": ("silent", "dim"), "VANISHED": ("gone", "bold magenta"),
             "PARALYZED": ("frozen", "bold cyan")}
ARROWS = {"NORTH": "↑", "NORTH-EAST": "↗", "EAST": "→", "SOUTH-EAST": "↘", "SOUTH": "↓", "SOUTH-WEST": "↙",
          "WEST": "←", "NORTH-WEST": "↖", "ABOVE": "⤒", "BELOW": "⤓"}
# What it is doing in time (MinotaurCue.temporal_status); PARALYZED says its countdown instead.
DOING = {"CHASING_3D": "hunting", "VANISHED": "returns where it vanished"}
WHINE = {"VANISHING": "TEMPORAL WHINE: vanished", "RE_ENTRY_ALERT": "TEMPORAL WHINE: returning"}


class CuePanel(Static):
    """What the user hears of the Minotaur."""

    def show(self, response: GameStateResponse) -> None:
        self.update(cue_words(response))
        cue = response.minotaur_cue
        self.set_class(cue.proximity in ("VERY CLOSE", "CLOSE") or cue.temporal_status in WHINE, "-alarm")


def cue_words(response: GameStateResponse) -> Text:
    """The panel's three lines: the sound and its direction, the temporal state, the jump."""
    cue = response.minotaur_cue
    words, style = PROXIMITY[cue.proximity]
    text = Text()
    text.append(f" {words} ", style=style)
    toward = heard_from(cue.proximity, cue.audio_direction)  # the log's very words, or none when it says none
    if toward:
        text.append(f" {ARROWS[cue.audio_direction]}{toward}")
    text.append("\n")
    if cue.temporal_status in WHINE:
        text.append(f" {WHINE[cue.temporal_status]} ", style="bold white on magenta")
    elif cue.temporal_status == "PARALYZED":
        text.append(f"frozen by the lantern: {countdown(cue.paralysis_time_left)}", style="bold cyan")
    else:
        text.append(DOING[cue.temporal_status], style="italic")
    text.append(f"\n{_jump_words(cue.temporal_status, cue.cooldown_time)}", style="dim")
    return text


def _jump_words(status: str, cooldown: float) -> str:
    """When it can leap out of time again: only a hunting Minotaur can jump now."""
    if cooldown:
        return f"can jump again in {countdown(cooldown)}"
    return "can jump at any moment" if status == "CHASING_3D" else "can jump once it is free"


def clock(seconds: float) -> str:
    """The game clock as a player reads it: '0:45', '12:03' (whole seconds gone by)."""
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


def countdown(seconds: float) -> str:
    """Time left as a player reads it, rounded up: '0:01' while any is left, never '0:00' too soon."""
    return clock(math.ceil(seconds))
