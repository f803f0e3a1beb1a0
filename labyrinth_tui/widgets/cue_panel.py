"""The Minotaur cue panel: how near it sounds, from where, its temporal state,
and when it can jump again. The Temporal Whine stands out."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from labyrinth.engine import GameStateResponse

PROXIMITY_STYLE = {"VERY CLOSE": "bold white on red", "CLOSE": "bold dark_orange", "FAINT": "yellow",
                   "NONE": "dim", "VANISHED": "bold magenta", "PARALYZED": "bold cyan"}
ARROWS = {"NORTH": "↑", "NORTH-EAST": "↗", "EAST": "→", "SOUTH-EAST": "↘", "SOUTH": "↓", "SOUTH-WEST": "↙",
          "WEST": "←", "NORTH-WEST": "↖", "ABOVE": "⤒", "BELOW": "⤓"}
WHINE = {"VANISHING": "TEMPORAL WHINE: it vanished!", "RE_ENTRY_ALERT": "TEMPORAL WHINE: it returns!"}


class CuePanel(Static):
    """What the user hears of the Minotaur."""

    def show(self, response: GameStateResponse) -> None:
        cue = response.minotaur_cue
        text = Text()
        text.append(f" {cue.proximity} ", style=PROXIMITY_STYLE.get(cue.proximity, ""))
        if cue.audio_direction:
            text.append(f"  {ARROWS[cue.audio_direction]} {cue.audio_direction.lower()}")
        text.append("\n")
        if cue.temporal_status in WHINE:
            text.append(f" {WHINE[cue.temporal_status]} ", style="bold white on magenta")
        else:
            text.append(cue.temporal_status.replace("_", " ").lower(), style="italic")
        jump = "can jump now" if cue.cooldown_time == 0 else f"jump in {_clock(cue.cooldown_time)}"
        text.append(f"\n{jump}", style="dim")
        self.update(text)
        self.set_class(cue.proximity in ("VERY CLOSE", "CLOSE") or cue.temporal_status in WHINE, "-alarm")


def _clock(seconds: float) -> str:
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes}:{rest:02d}"
