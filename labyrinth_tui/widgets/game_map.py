"""The game's map and its keys (keymap.py's table: vi-keys, arrows and WASD walk, shifted they run,
< > take ramps, single letters act, every key remappable); `x` (as in DCSS; `;` as in NetHack) turns
look mode on, where the walking keys move a cursor, Enter travels there and Esc leaves. A letter that
is no key here starts typing, and a word typed here plays at most its first key (word_start.py): a
map key that may be the word's next letter waits for the letter after it. Which set of keys answers
is the screen's ``check_action``."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import ClassVar, Protocol, cast

from textual import events
from textual.binding import BindingType
from textual.timer import Timer

from ..keymap import map_bindings
from ..word_start import WORD_PACE_S, goes_on, whole
from .minimap import Minimap

STEP = {"NORTH": (0, 1), "SOUTH": (0, -1), "EAST": (1, 0), "WEST": (-1, 0)}
SETTLE_TICK_S = 0.05  # how often a held key looks whether its word's pause is over


def way_shut(direction: str, known_ways: Collection[str]) -> str | None:
    """Why a move ``direction`` would go nowhere, when the player knows it (the last response's
    visible_paths): a map key and a typed command are free alike then."""
    if direction in known_ways:
        return None
    return {"UP RAMP": "No ramp leads up here.", "DOWN RAMP": "No ramp leads down here."}.get(direction, "A wall.")


class KeysScreen(Protocol):
    """What the map asks of its screen (the game screen, which imports this module) about a key."""

    looking: bool  # look mode: the keys move a cursor
    clock: Callable[[], float]  # the pace of typing is told by it

    def key_taken(self, event: events.Key) -> bool:
        """Whether the key goes no further: typed ahead of danger, or pressed to stop a travel."""

    def start_typing(self, text: str, played: str) -> None:
        """The command line takes ``text``, knowing the letters ``played`` on the map before it."""

    def take_word(self, word: str, played: str) -> None:
        """The command line takes ``word`` whole, the letters ``played`` first on the map put back."""

    def type_on(self, event: events.Key) -> None:
        """The command line takes a key that was on its way to the map when typing began."""


class GameMap(Minimap):
    BINDINGS: ClassVar[list[BindingType]] = [*map_bindings()]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.played = ""  # the letter played here last, if a word may have begun with it
        self.held: list[events.Key] = []  # map keys held back: a word's next letters, maybe
        self.word_at = 0.0  # when the word's last letter came (the screen's clock)
        self.settling: Timer | None = None  # while keys are held: whether their word's pause is over

    @property
    def game(self) -> KeysScreen:
        """The screen the map is on, as what the map asks of it: only the game screen has a map with
        keys, and it cannot be named here (it imports this module)."""
        return cast(KeysScreen, self.screen)

    def word(self, now: float) -> str:
        """The word begun here: the letter played and the keys held since, if the last came within the
        pace of typing."""
        if now - self.word_at > WORD_PACE_S:
            return ""
        return self.played + "".join(key.character or "" for key in self.held)

    async def on_key(self, event: events.Key) -> None:
        """A key typed ahead of danger is dropped, one pressed while travelling stops it (the screen says
        which). A key that reaches the map once typing began (it was on its way: a word typed in one
        burst) goes to the command line. A bound key plays here and now, as it is read: left to bubble
        up to the bindings, it would play after the keys behind it were let through (a danger it brings
        could not stop them), and a printable one would be bound only where the focus is by then. A
        printable key that is no key here starts typing (in look mode it is ignored). A word typed on
        the map plays at most its first key (word_start.py)."""
        if self.game.key_taken(event):  # typed ahead of danger, or pressed to stop a travel
            self._taken(event)
            return
        if self.screen.focused is not self:  # (has_focus says so only once its Blur, queued after this key, is read)
            self._taken(event)
            self.game.type_on(event)
            return
        bound, character = self.screen.active_bindings.get(event.key), event.character if event.is_printable else None
        if bound is None and character is None:
            await self.settle()
            return  # not the map's: it goes up to the screen and the app
        self._taken(event)
        if self.game.looking:
            if bound is not None and bound.enabled:
                await self.app.run_action(bound.binding.action, bound.node)
            return
        now = self.game.clock()
        word = self.word(now)
        if word and (goes_on(word, event.key, character) or event.key == "enter" and self.held and whole(word)):
            self._word_goes_on(event, word, now, bound is not None)
            return
        await self.settle()
        if bound is None:
            self.played = ""
            self.game.start_typing(character or "", word)
            return
        self.played, self.word_at = (character, now) if character and character.isalpha() else ("", now)
        if bound.enabled:
            await self.app.run_action(bound.binding.action, bound.node)

    def _word_goes_on(self, event: events.Key, word: str, now: float, bound: bool) -> None:
        """The key may be the word's next (word_start.py). A map key waits, when none does yet. Once a key
        waits, the next one that goes on gives the command line the whole word (Enter sends it). A letter
        that is no map key, with none waiting, starts typing, knowing the letter played before it."""
        self.word_at = now
        if bound and not self.held and event.key != "enter":
            self.held.append(event)
            if self.settling is None:
                self.settling = self.set_interval(SETTLE_TICK_S, self._settle_if_due)
            return
        played, self.played = self.played, ""
        if not self.held:
            self.game.start_typing(event.character or "", played)
            return
        self._stop_settling()
        self.held = []
        if event.key == "enter":
            self.game.take_word(word, played)
            self.game.type_on(event)
        else:
            self.game.take_word(word + (event.character or ""), played)

    async def _settle_if_due(self) -> None:
        if self.game.clock() - self.word_at > WORD_PACE_S:
            await self.settle()

    async def settle(self) -> None:
        """The keys held are no word's letters after all (another key came, or the pause was too long):
        they play, in order."""
        self._stop_settling()
        held, self.held = self.held, []
        for event in held:
            bound = self.screen.active_bindings.get(event.key)
            character = event.character if event.is_printable else None
            self.played = character if character and character.isalpha() else ""
            if bound is not None and bound.enabled:
                await self.app.run_action(bound.binding.action, bound.node)

    def _stop_settling(self) -> None:
        if self.settling is not None:
            self.settling.stop()
            self.settling = None

    @staticmethod
    def _taken(event: events.Key) -> None:
        event.stop()
        event.prevent_default()
