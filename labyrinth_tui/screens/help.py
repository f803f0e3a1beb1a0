"""Help: the rules in short, the commands and the keys."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# Labyrinth: The Temporal Hunt

Find the **RED**, **BLUE** and **YELLOW** stones and hold all three to escape.
A Minotaur hunts you: if it shares your cell, you die.

* You see **2 steps** around you; it sees **6** in the dark and hears your steps
  through walls: running within 24 steps, walking only within 4.5.
* You hear it: **VERY CLOSE** (7.5 m), **CLOSE** (20 m), **FAINT** (37.5 m), with a direction.
* Walking costs nothing and is quiet; running is twice as fast, loud, and tiring.
* **Crawlways** (`=`) can only be walked, and the Minotaur cannot enter them.
* Every 600 s it may **jump out of time** for 5-10 s and return to the same cell:
  a Temporal Whine warns you when it leaves and just before it comes back.
* A **lantern** (`L`) freezes it for 120 s; a new one appears 720 s after.
* **LOOK** makes the missing stones hum: their direction and their level.

## Commands (type them)

| command | what it does |
|---|---|
| `move north 10`, `m n 10`, `north` | walk up to 10 steps north (default: until something stops you) |
| `run east`, `move east run` | run east |
| `walk w 3` | walk 3 steps west |
| `up`, `down` | take the ramp you stand on |
| `look` | look around, hear the stones |
| `grab red stone`, `grab lantern`, `grab` | take what is within reach |
| `use lantern` | freeze the Minotaur |
| `halt 5` | wait 5 s, silent, resting |
| `{"command": "LOOK"}` | raw JSON works too |

Up and down recall earlier commands; completions appear as you type.

## Keys

Press **Esc** to move between the command line and the map. On the map:

| key | action |
|---|---|
| arrows, WASD | walk one step |
| shift + arrows | run until something stops you |
| `<` `>`, PageUp PageDown | ramp up, ramp down |
| `l` `g` `u` space | look, grab, use the lantern, halt |
| `[` `]` | look at the level above / below |
| `?`, F1 | this help |
| ctrl+s | save the game |
| ctrl+q | quit |

## Playing against a model

**Hot-seat** (or `labyrinth hotseat`) sets a language model's Minotaur on you:
Gemini, given `GEMINI_API_KEY`. While it thinks the screen says so and the map
still answers; a move waits for its answer. If its answers fail, it waits that
turn; if it keeps failing, the built-in Minotaur takes over. The title's form
offers every model for either role; `labyrinth doctor` checks them.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "close", id="help-close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(HELP)
