"""The log says what changed, not the whole place again: the game's words for a turn, with the lines
about the player's place that the log already told while the player stood there left out, and the
Minotaur's sound left out when it says what it said last (the cue panel shows it all the while).
The stones' hums, LOOK's answer, come last but for a new sound, nearest the eye: at 80x24 a LOOK
then fits the log without scrolling. What is left out is only what the log shows above already."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from labyrinth.engine.geometry import Pos
from labyrinth.engine.items import STONES

# How the game words the sound of the Minotaur (engine/narrative.py cue_text), for telling it apart.
CUE_STARTS = ("Hot breath and hooves", "Heavy hoofbeats sound", "Faint hoofbeats echo", "The Minotaur is paralyzed for",
              "The Minotaur is out of time")
PLACE = re.compile(r"Level -?\d+\.")  # the first line of where the player stands; its ways follow indented
HUM = re.compile(f"The ({'|'.join(map(re.escape, STONES))}) hums ")  # event_words.py's hum of a stone


@dataclass
class Told:
    """What the log told last of the player's place (its lines while standing at ``position``) and of
    the Minotaur's sound."""

    position: Pos | None = None
    place: set[str] = field(default_factory=set)
    cue: str | None = None


def folded(text: str, position: Pos, told: Told) -> list[str]:
    """``text``'s lines as the log shows them, ``told`` brought up to date."""
    if position != told.position:
        told.position, told.place = position, set()
    kept, hums, in_place, cue_now = [], [], False, None
    for line in text.splitlines():
        in_place = bool(PLACE.match(line)) or (in_place and line.startswith("  "))
        cue = next((line[line.index(start):] for start in CUE_STARTS if start in line), None)
        cue_now = cue or cue_now
        if HUM.match(line):
            hums.append(line)
        elif in_place or line.startswith("You see the "):
            if line not in told.place:
                told.place.add(line)
                kept.append(line)
        elif line != cue or cue != told.cue:
            kept.append(line)
    at = len(kept) - 1 if kept and cue_now is not None and kept[-1] == cue_now else len(kept)
    told.cue = cue_now
    return kept[:at] + hums + kept[at:]
