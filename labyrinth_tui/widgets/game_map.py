"""The game's map and its keys: arrows and WASD walk, shift runs, < > take ramps, single letters
act, `o` explores (as in DCSS); `x` (as in DCSS; `;` as in NetHack) turns look mode on, where the
same keys (and hjkl) move a cursor, Enter travels there and Esc leaves. A letter that is no key here
starts typing, and a word begun with a map key plays that key and arrives whole on the command line
(word_start.py). Every binding has an id, so keys can be remapped; which set answers is the
screen's ``check_action``."""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar, Protocol, cast

from textual import events
from textual.binding import Binding, BindingType

from labyrinth.engine import UserInput

from ..word_start import LONGEST, begins_a_command
from .minimap import Minimap

ARROWS = {"up": "NORTH", "down": "SOUTH", "right": "EAST", "left": "WEST"}
LETTERS = {"w": "NORTH", "s": "SOUTH", "d": "EAST", "a": "WEST"}
VI_KEYS = {"k": "NORTH", "j": "SOUTH", "l": "EAST", "h": "WEST"}  # look mode only: l looks when playing
STEP = {"NORTH": (0, 1), "SOUTH": (0, -1), "EAST": (1, 0), "WEST": (-1, 0)}
CURSOR_LEAP = 5  # cells a shifted arrow moves the cursor
WORD_GAP_S = 0.3  # the longest pause between two letters of a word typed in one go
RAMPS = Binding.Group("ramps", compact=True)
LEVELS = Binding.Group("levels", compact=True)


def play_keys() -> list[Binding]:
    """The single keys that play while the map has focus."""
    keys = [Binding(key, f"screen.walk('{d}')", f"walk {d.lower()}", show=False, id=f"walk-{d.lower()}")
            for key, d in ARROWS.items()]
    keys += [Binding(key, f"screen.walk('{d}')", "walk" if key == "w" else f"walk {d.lower()}", show=key == "w",
                     key_display="WASD", id=f"walk-{d.lower()}-letter")  # the footer's one entry for the four
             for key, d in LETTERS.items()]
    keys += [Binding(f"shift+{key}", f"screen.run('{d}')", f"run {d.lower()}", show=False, id=f"run-{d.lower()}")
             for key, d in ARROWS.items()]
    return keys + [
        Binding("less_than_sign", "screen.ramp('UP RAMP')", "ramp up", key_display="<", group=RAMPS, id="ramp-up"),
        Binding("greater_than_sign", "screen.ramp('DOWN RAMP')", "ramp down", key_display=">", group=RAMPS,
                id="ramp-down"),
        Binding("l", "screen.simple('LOOK')", "look", id="look"),
        Binding("x", "screen.look_mode", "examine", id="look-mode"),
        Binding("semicolon", "screen.look_mode", "examine", key_display=";", show=False, id="look-mode-nethack"),
        Binding("g", "screen.simple('GRAB')", "grab", id="grab"),
        Binding("u", "screen.simple('USE')", "lantern", id="use"),
        Binding("o", "screen.explore", "explore", id="explore"),
        Binding("space", "screen.simple('HALT')", "halt", id="halt"),
        Binding("pageup", "screen.ramp('UP RAMP')", "ramp up", show=False, id="ramp-up-page"),
        Binding("pagedown", "screen.ramp('DOWN RAMP')", "ramp down", show=False, id="ramp-down-page"),
    ]


def look_keys() -> list[Binding]:
    """The keys of look mode: a cursor over the map, travel to it, leave."""
    keys = [Binding(key, f"screen.move_cursor('{d}')", "move cursor", key_display="arrows", show=key == "up",
                    id=f"cursor-{d.lower()}") for key, d in ARROWS.items()]
    keys += [Binding(key, f"screen.move_cursor('{d}')", "move cursor", show=False, id=f"cursor-{d.lower()}-{key}")
             for table in (LETTERS, VI_KEYS) for key, d in table.items()]
    keys += [Binding(f"shift+{key}", f"screen.move_cursor('{d}', {CURSOR_LEAP})", "move cursor far", show=False,
                     id=f"cursor-far-{d.lower()}") for key, d in ARROWS.items()]
    return keys + [
        Binding("enter", "screen.travel_to_cursor", "travel there", key_display="⏎", id="travel-cursor"),
        Binding("escape,x,semicolon,q", "screen.leave_look", "leave", key_display="esc", id="look-mode-leave"),
    ]


def shared_keys() -> list[Binding]:
    """The keys the map answers in both modes: the other levels, the help."""
    return [
        Binding("left_square_bracket", "screen.look_level(1)", "level above", key_display="[", group=LEVELS,
                id="level-up"),
        Binding("right_square_bracket", "screen.look_level(-1)", "level below", key_display="]", group=LEVELS,
                id="level-down"),
        # not in the footer, which shows the app's f1 for the same help (one entry an action); in the help
        Binding("question_mark", "app.help", "help", key_display="?", show=False, id="help-key"),
    ]


def key_move(direction: str, known_ways: Collection[str], run: bool = False) -> UserInput | str:
    """What a map key plays: one step, or with shift a run (a MOVE without a count, which follows the
    corridor to the next junction, ramp or item). A way the player knows is shut gives the words that
    say so instead (way_shut): bumping a wall costs no time."""
    shut = way_shut(direction, known_ways)
    if shut:
        return shut
    if run:
        return UserInput(command="MOVE", direction=direction, speed=2)
    return UserInput(command="MOVE", direction=direction, steps=1)


def way_shut(direction: str, known_ways: Collection[str]) -> str | None:
    """Why a move ``direction`` would go nowhere, when the player knows it (the last response's
    visible_paths): a map key and a typed command are free alike then."""
    if direction in known_ways:
        return None
    return {"UP RAMP": "No ramp leads up here.", "DOWN RAMP": "No ramp leads down here."}.get(direction, "A wall.")


class KeysScreen(Protocol):
    """What the map asks of its screen (the game screen, which imports this module) about a key."""

    looking: bool  # look mode: the keys move a cursor

    def key_taken(self, event: events.Key) -> bool:
        """Whether the key goes no further: typed ahead of danger, or pressed to stop a travel."""

    def start_typing(self, character: str, played: str) -> None:
        """The command line takes ``character``, knowing the letters ``played`` on the map before it."""


class GameMap(Minimap):
    BINDINGS: ClassVar[list[BindingType]] = [*play_keys(), *look_keys(), *shared_keys()]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.letters = ""  # the letter keys played here since any other key: a word may have begun
        self.letter_at = 0.0  # when the last of them was pressed

    @property
    def game(self) -> KeysScreen:
        """The screen the map is on, as what the map asks of it: only the game screen has a map with
        keys, and it cannot be named here (it imports this module)."""
        return cast(KeysScreen, self.screen)

    async def on_key(self, event: events.Key) -> None:
        """A key typed ahead of danger is dropped, one pressed while travelling stops it (the screen says
        which). A bound key plays here and now, as it is read: left to bubble up to the bindings, it would
        play after the keys behind it were let through (a danger it brings could not stop them), and a
        printable one would be bound only where the focus is by then (a key typed in one burst with a
        word after it would be lost). A printable key that is no key here starts typing (in look mode
        it is ignored): the command line takes it (and so the rest of the word), rather than the word's
        letters playing one by one as moves. A letter played is kept, in case a word began with it
        (word_start.py)."""
        if self.game.key_taken(event):  # typed ahead of danger, or pressed to stop a travel
            event.stop()
            event.prevent_default()
            return
        bound, character = self.screen.active_bindings.get(event.key), event.character if event.is_printable else None
        if bound is not None and bound.binding.id == "explore" and self._in_a_word(character, event.time):
            bound = None  # the o of 'look', 'go' or 'down' typed in one go: a letter, not a walk of many turns
        if bound is None:
            if character:
                event.stop()
                event.prevent_default()
                if not self.game.looking:
                    self.game.start_typing(character, self.letters)
            self.letters = ""
            return
        event.stop()
        event.prevent_default()
        self.letters = (self.letters + character)[-LONGEST:] if character and character.isalpha() else ""
        self.letter_at = event.time
        if bound.enabled:
            await self.app.run_action(bound.binding.action, bound.node)

    def _in_a_word(self, character: str | None, pressed_at: float) -> bool:
        """Whether ``character`` goes on a word begun by the letters just played here, typed in one go."""
        return bool(self.letters and character and pressed_at - self.letter_at < WORD_GAP_S
                    and begins_a_command(self.letters + character))
