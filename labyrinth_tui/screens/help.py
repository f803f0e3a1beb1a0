"""Help: the rules in short, the commands, the keys (the map's as the player's config file set them, in
the table and in the prose, and what shift + a way does as its options say: HELP_TEXT's ``<...>`` marks,
``<keys:NAME>`` for a map action's keys, which help_text fills) and the themes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from labyrinth.engine.constants import MINOTAUR_SIGHT, USER_SIGHT
from labyrinth.engine.figures import (
    CLOSE_RANGE,
    FAINT_RANGE,
    HEAR_RUN_STEPS,
    HEAR_WALK_STEPS,
    JUMP_COOLDOWN,
    JUMP_SPAN,
    VERY_CLOSE_RANGE,
    seconds_text,
)
from labyrinth.engine.items import ITEMS
from labyrinth.engine.wsap.actions import GAME_NAME

from ..app_access import labyrinth_app
from ..keymap import ACTIONS, CURSOR_LEAP, DEFAULT_KEYS, SHIFT_MOVES, WALKS, ShiftMove, shown
from ..knowledge import NEAR_WORDS
from ..player_settings import PlayerSettings
from ..themes import theme_names
from ..widgets.footer import SteadyFooter
from ..widgets.map_glyphs import legend_rows
from ..word_start import WORD_PACE_S

LEGEND_TABLE = "| glyph | on the map |\n|---|---|\n" + "\n".join(
    f"| {f'`{glyph}`' if glyph else '(blank)'} | {meaning} |" for glyph, meaning in legend_rows())

# What each item that can be used does ('* A **lantern** (`L`) freezes it for 120 s; a new one appears 720 s after.').
USABLE_LINES = "\n".join(
    f"* A **{item.noun}** (`{item.letter}`) {item.effect_text}"
    + (f"; a new one appears {seconds_text(item.respawn_ticks)} after." if item.respawn_ticks else ".")
    for item in ITEMS if item.use)

THEME_NAMES = ", ".join(f"`{name}`" for name in theme_names())


MOVED = {"look": "l", "use": "u"}  # the keys vi-keys took from LOOK and the lantern (the help says so by default)
KEYS_MARK = re.compile(r"<keys:([a-z-]+)>")


def keys_words(keys: Sequence[str]) -> str:
    """An action's keys as the help writes them: "`x` `;`", or "(none)"."""
    return " ".join(f"`{shown(key)}`" for key in keys) or "(none)"


def keys_table(keys: Mapping[str, Sequence[str]], shift_move: ShiftMove) -> str:
    """The map's keys as a table: each action's keys (as ``keys`` has them), what it does (a shifted way
    as ``shift_move`` makes it), its name in [keys]."""
    rows = [f"| {keys_words(keys[action.name])} | {action.said(shift_move)} | `{action.name}` |" for action in ACTIONS]
    return "| keys | on the map | [keys] name |\n|---|---|---|\n" + "\n".join(rows)


def ways_words(keys: Mapping[str, Sequence[str]], prefix: str = "") -> str:
    """The four ways' keys (a step's, or with ``prefix`` "run-" a shifted one's), as the help's prose lists
    them: the last of each way's keys in vi's order, then the one before... ("`h` `j` `k` `l`, `a` `s` `w` `d`,
    `←` `↓` `↑` `→`" by default)."""
    ways = [keys[prefix + name] for name in WALKS]
    columns = [[way[-depth] for way in ways if len(way) >= depth] for depth in range(1, max(map(len, ways)) + 1)]
    return ", ".join(keys_words(column) for column in columns if column)


def moved_words(keys: Mapping[str, Sequence[str]]) -> str:
    """LOOK's and the lantern's keys, and, when they are still the defaults, the keys they had before vi-keys."""
    said = [f"{label} is {keys_words(keys[name])}"
            + (f" (moved from `{MOVED[name]}` for vi-keys)" if keys[name] == DEFAULT_KEYS[name] else "")
            for name, label in (("look", "LOOK"), ("use", "the lantern"))]
    return ", ".join(said)


def help_text(settings: PlayerSettings) -> str:
    """The help, its map keys and what shift + a way does as the player's ``settings`` have them."""
    keys, shift_move = settings.keys, settings.options.shift_move
    fills = {"<KEYS_TABLE>": keys_table(keys, shift_move), "<walks>": ways_words(keys),
             "<runs>": ways_words(keys, "run-"), "<moved>": moved_words(keys),
             "<shifted>": f"{shift_move} along the corridor ({SHIFT_MOVES[shift_move]})"}
    text = re.sub("|".join(fills), lambda found: fills[found[0]], HELP_TEXT)
    return KEYS_MARK.sub(lambda found: keys_words(keys[found[1]]), text)


HELP_TEXT = f"""\
# {GAME_NAME}

Find the **RED**, **BLUE** and **YELLOW** stones and hold all three to escape.
A Minotaur hunts you: if it shares your cell, you die.

* You see **{USER_SIGHT} steps** around you; it sees **{MINOTAUR_SIGHT}** in the dark and hears your steps
  through walls: running within {HEAR_RUN_STEPS} steps, walking only within {HEAR_WALK_STEPS}.
* You hear it: **VERY CLOSE** ({VERY_CLOSE_RANGE}), **CLOSE** ({CLOSE_RANGE}), **FAINT** ({FAINT_RANGE}), \
with a direction.
* Walking costs nothing and is quiet; running is twice as fast, loud, and tiring.
* **Crawlways** (`=`) can only be walked, and the Minotaur cannot enter them.
* Every {JUMP_COOLDOWN} it may **jump out of time** for {JUMP_SPAN} and return to the same cell:
  a Temporal Whine warns you when it leaves and just before it comes back.
{USABLE_LINES}
* **LOOK** makes the missing stones hum: their direction and their level.

## Commands (type them)

| command | what it does |
|---|---|
| `move north 10`, `m n 10`, `north` | walk 10 steps north (without a count: along the corridor, round its bends, \
to the next junction, ramp or item) |
| `run east`, `move east run` | run east, along the corridor |
| `walk w 3` | walk 3 steps west |
| `up`, `down` | take the ramp you stand on |
| `look` | look around, hear the stones |
| `grab red stone`, `grab lantern`, `grab` | take what is within reach |
| `use lantern` | freeze the Minotaur |
| `halt 5` | wait 5 s, silent, resting |
| `travel <`, `travel >` | walk the known way to the nearest ramp up (down) you have seen |
| `travel 203 198 100` | walk the known way to that cell (x y level; the level may be left out) |
| `explore` | walk to the nearest place of this level you have not seen, again and again (as <keys:explore> on \
the map) |
| `{{"command": "LOOK"}}` | raw JSON works too |

A move into a wall you know costs nothing, typed or keyed. Travel walks a leg a turn and
stops at once on danger, or at any key. Exploring will not start, nor go on, while the Minotaur is in
sight or heard {' or '.join(NEAR_WORDS)}: move by hand then. It stops where travel stops, when a stone, the
lantern or a ramp comes into view (the config file's `explore_stops` in `[options]` may leave out any of
these three; never the Minotaur), or when nothing you can reach on this level is left unseen (it seeks
only the hunting ground, and picks up nothing). Up and down recall earlier commands;
completions appear as you type. While typing,
**PageUp** **PageDown** scroll the log a page and **shift+up** **shift+down** a line;
**ctrl+o** shows the whole game's messages on a screen of their own.

## Keys

Press **Esc** to move between the command line and the map. On the map every key acts at once, as in
a roguelike: <walks> walk a step; shifted (<runs>) they <shifted> until something stops
you (`shift_move` in the config file's `[options]` says run or walk); <keys:diagonal> play nothing (there
are no diagonal ways). <moved>. A letter that is no map key starts typing a command, and **a word typed on the map
plays at most its first key**: a map key that may be the word's next letter (`a` after `w`: walk)
waits for the key after it (at most {WORD_PACE_S:g} s), and the command line gets the word whole (the
hint says which key played).

<KEYS_TABLE>

Examining (<keys:examine> or a click), the walking keys move a cursor (shifted ones leap {CURSOR_LEAP}) and
a line says what you know of its cell; <keys:travel> (or a second click) travels there by the way you know. `X`
marks where you are on another level. Any map key can be changed in the config file's `[keys]` table
(docs/playing.md says how).

| key | anywhere in the game |
|---|---|
| F2 | the map on the whole screen, and back; a line under it keeps the Minotaur's sound and the stones' bearings |
| F1, <keys:help> on the map | this help |
| ctrl+o | the game's messages |
| ctrl+s | save the game (one save per game: saving again overwrites it) |
| ctrl+t | back to the title; a game with a turn played is saved, and the title offers to Continue it |
| ctrl+q | quit; a game under way is saved first |

**Danger drops the keys you typed ahead**, as in DCSS and Brogue: when the Minotaur comes into
sight, its hoofbeats rise to CLOSE, a run or a travel is cut short, exploring is refused near it, or the
game ends, keys already on their way are not played (the log says so). The cue panel keeps the stones' last bearings
(`stones 0:45: R↘99`: the red stone lies south-east of where you looked, on level 99) until
the next LOOK; the log tells what changed, not the whole place again.

Every game is recorded: **Replays** on the title plays one back on the map. When a game ends,
its story (the outcome, the figures, the map you explored, the last messages) is written next to
its replay, and `s` says where; `labyrinth replay FILE --summary` prints the same. **Leaderboard** shows
the ratings of `labyrinth tournament`'s contestants, and plays any of their matches back.

## The map

{LEGEND_TABLE}

## Themes

`labyrinth play --theme NAME`, or `theme = "NAME"` in the config file's `[options]`:
{THEME_NAMES}. `high-contrast` draws white on black with bright
marks; `colour-blind` keeps to colours every common colour blindness tells apart (you blue, the
Minotaur vermillion).

## Spectating

Space plays or pauses, `n` plays one turn, `+` `-` change the speed, `o` shows the whole level
with both agents (all-seeing) or only what the user has seen, `a` folds the agents' panel away,
F2 gives the map the whole screen, `[` `]` look at the other levels.

## Playing against a model

**Hot-seat** (or `labyrinth hotseat`) sets a language model's Minotaur on you:
Gemini, given `GEMINI_API_KEY`; the log's title names the model. While it thinks
the screen says so and the map still answers; commands typed meanwhile queue
(shown after the thinking note) and are played in order once it has moved. If its answers fail, it waits that
turn; if it keeps failing, the built-in Minotaur takes over. The title's form
offers every model for either role; `labyrinth doctor` checks them.
"""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    #help {
        width: 90%;
        max-width: 110;
        height: 90%;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss", "close", id="help-close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(help_text(labyrinth_app(self).settings))
        yield SteadyFooter()  # its own keys: the screen below's would show keys this one does not take


HELP = help_text(PlayerSettings())  # with the keys and options every player starts with
