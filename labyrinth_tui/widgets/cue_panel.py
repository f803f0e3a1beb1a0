"""The Minotaur cue panel, in words: how near it sounds and from where (as the log says it), what it
is doing in time and the wait before it can jump again, and the stones' last bearings (LOOK's hums:
each stone's direction from where they were heard, its level, and when), which stay until the next
LOOK. Each line has longer and shorter forms and the panel shows the longest that fits its width, so
that at 80x24 it keeps to three lines. The Temporal Whine stands out."""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text
from textual import events

from labyrinth.engine import GameStateResponse
from labyrinth.engine.items import ITEMS
from labyrinth.engine.narrative import heard_from

from ..keymap import DEFAULT_KEYS, shown
from ..knowledge import Bearings
from .fitted import Fitted
from .status_bar import fit
from .time_words import clock, countdown

# What the user senses of the Minotaur (MinotaurCue.proximity), in words and how it looks.
PROXIMITY = {"VERY CLOSE": ("VERY CLOSE", "bold white on red"), "CLOSE": ("close", "bold dark_orange"),
             "FAINT": ("faint", "yellow"), "NONE": ("silent", "dim"), "VANISHED": ("gone", "bold magenta"),
             "PARALYZED": ("frozen", "bold cyan")}
ARROWS = {"NORTH": "↑", "NORTH-EAST": "↗", "EAST": "→", "SOUTH-EAST": "↘", "SOUTH": "↓", "SOUTH-WEST": "↙",
          "WEST": "←", "NORTH-WEST": "↖", "ABOVE": "⤒", "BELOW": "⤓"}
# What it is doing in time (MinotaurCue.temporal_status), long and short; PARALYZED says its countdown instead.
DOING = {"CHASING_3D": ("hunting", "hunting"), "VANISHED": ("returns where it vanished", "out of time")}
WHINE = {"VANISHING": ("TEMPORAL WHINE: vanished", "WHINE: gone"),
         "RE_ENTRY_ALERT": ("TEMPORAL WHINE: returning", "WHINE: back soon")}
STONE_STYLES: dict[str, str] = {item.name: f"bold {item.colour}" for item in ITEMS if item.needed}
SPLIT_WIDTH = 40  # a panel this wide puts what it does in time and its jump on a line each when one is too short
LOOK_KEY = shown(DEFAULT_KEYS["look"][0])  # the LOOK key every player starts with


class CuePanel(Fitted):
    look_key = LOOK_KEY  # the player's LOOK key, which the stones' line names before any LOOK (the screen sets it)
    """What the user hears of the Minotaur, and of the stones."""

    def show(self, response: GameStateResponse, bearings: Bearings | None = None, hard: bool = False) -> None:
        """``bearings``: the last LOOK's, or None; ``hard``: the stones never hum (hard difficulty)."""
        self._shown = (response, bearings, hard)
        self.update(cue_words(response, bearings, hard, self.content_size.width, self.look_key))
        cue = response.minotaur_cue
        self.set_class(cue.proximity in ("VERY CLOSE", "CLOSE") or cue.temporal_status in WHINE, "-alarm")

    def on_resize(self, event: events.Resize) -> None:
        """Fitted again to the new width, once this resize's layout is done: its lines may be fewer (shown
        before the width was known, the longest forms wrapped), and a layout asked for during this one
        would be lost."""
        if getattr(self, "_shown", None):
            self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        self.update(cue_words(*self._shown, self.content_size.width, self.look_key))


def cue_words(response: GameStateResponse, bearings: Bearings | None = None, hard: bool = False,
              width: int = 0, look_key: str = LOOK_KEY) -> Text:
    """The panel's lines at ``width`` (0: the longest forms): the sound and its direction; the temporal
    state and the jump; the stones' bearings (before any LOOK, its key: ``look_key``)."""
    cue = response.minotaur_cue
    lines = [fit([sound_forms(response)], width, (0,))]
    doing, jump = time_forms(cue.temporal_status, cue.paralysis_time_left, cue.cooldown_time)
    together = doing[0] + Text(" · ") + jump[0]
    if not width or together.cell_len <= width:
        lines.append(together)
    elif width >= SPLIT_WIDTH:
        lines += [doing[0], jump[0]]
    else:
        lines.append(fit([[doing[1] + Text(" · ") + jump[1], doing[1]]], width, (0,)))
    forms = bearing_forms(bearings, response.user_state.inventory, hard, look_key)
    lines.append(fit([forms], width, (0,) * len(forms)))
    text = Text("\n").join(lines)
    text.no_wrap, text.overflow = True, "ellipsis"  # a line each, whatever the width (unknown at first)
    return text


def sound_forms(response: GameStateResponse) -> list[Text]:
    """How near the Minotaur sounds and from where: in the log's very words, or only the arrow."""
    cue = response.minotaur_cue
    words, style = PROXIMITY[cue.proximity]
    direction = cue.audio_direction
    toward = heard_from(cue.proximity, direction)  # the log's very words, or none when it says none
    near = Text(f" {words} ", style=style)
    if not toward or direction is None:
        return [near]
    return [near + Text(f" {ARROWS[direction]}{toward}"), near + Text(f" {ARROWS[direction]}")]


def time_forms(status: str, frozen_s: float, cooldown_s: float) -> tuple[list[Text], list[Text]]:
    """What the Minotaur does in time and when it can jump again, each long and short."""
    if status in WHINE:
        doing = [Text(f" {words} ", style="bold white on magenta") for words in WHINE[status]]
    elif status == "PARALYZED":
        doing = [Text(f"frozen by the lantern: {countdown(frozen_s)}", style="bold cyan"),
                 Text(f"frozen {countdown(frozen_s)}", style="bold cyan")]
    else:
        doing = [Text(words, style="italic") for words in DOING[status]]
    if cooldown_s:
        jump = [f"can jump again in {countdown(cooldown_s)}", f"jump in {countdown(cooldown_s)}"]
    elif status == "CHASING_3D":
        jump = ["can jump at any moment", "may jump now"]
    else:
        jump = ["can jump once it is free", "jumps once free"]
    return doing, [Text(words, style="dim") for words in jump]


def bearing_forms(bearings: Bearings | None, inventory: Collection[str], hard: bool,
                  look_key: str = LOOK_KEY) -> list[Text]:
    """The stones still lying, as the last LOOK heard them: 'stones 0:45: R↘99 B↖100', longer where it
    fits (where they were heard from, 'level'); before any LOOK, how to hear them (its key: ``look_key``)."""
    if hard:
        return [Text("the stones are silent on hard difficulty", style="dim"),
                Text("stones silent (hard)", style="dim")]
    hums = bearings.lying(inventory) if bearings else ()
    if bearings is None or not hums:
        return [Text(f"stones unheard: a LOOK ({look_key}) makes them hum", style="dim"),
                Text(f"stones unheard (LOOK: {look_key})", style="dim")]
    x, y, _ = bearings.spot
    heads = [f"stones heard at {clock(bearings.heard_at)} from {x},{y}: ", f"stones {clock(bearings.heard_at)}: ",
             f"stones {clock(bearings.heard_at)}: "]
    forms = []
    for head, separator, level in zip(heads, (" · ", "  ", " "), ("level ", "level ", "")):
        text = Text(head, style="dim")
        for i, (name, direction, z) in enumerate(hums):
            arrow = ARROWS[direction] if direction else "•"
            gap = " " if level else ""
            text.append(separator if i else "").append(f"{name[0]}{gap}{arrow}{gap}{level}{z}",
                                                       style=STONE_STYLES[name])
        forms.append(text)
    return forms
