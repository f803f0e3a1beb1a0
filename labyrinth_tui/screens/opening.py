"""While a game opens (its models asked for their plans, off the UI thread): "the
Minotaur is getting ready". The keys stay the game's: for a game one plays, the
command line takes typing at once, and the commands entered meanwhile are kept,
to be played when the game starts (the text not yet entered stays in its command
line); `q` is a letter typed, as on the game screen, and ctrl+q quits."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from labyrinth.engine import UserInput
from labyrinth.engine.commands import shorten

from ..terminal_text import plain, printable
from ..widgets.command_line import CommandLine
from ..widgets.footer import SteadyFooter
from .game import THINKING_TICK_S


class OpeningScreen(Screen):
    DEFAULT_CSS = """
    #opening {
        align: center middle;
        height: 1fr;
    }

    #opening > Static {
        width: auto;
        max-width: 100%;
        padding: 0 2;
    }

    #opening-title {
        color: $accent;
        padding: 1 2;
    }
    """
    AUTO_FOCUS = "#command"

    def __init__(self, title: str, asking: str, typing: bool, clock: Callable[[], float] = time.monotonic) -> None:
        """``title``: who is getting ready; ``asking``: whom the game is waiting for ("gemini");
        ``typing``: a game one plays, whose commands can be typed ahead."""
        super().__init__()
        self.title_text, self.asking, self.typing, self.clock = title, asking, typing, clock
        self.began = clock()
        self.typed_ahead: list[tuple[str, UserInput]] = []  # entered while waiting: played when the game starts

    def compose(self) -> ComposeResult:
        with Vertical(id="opening"):
            yield Static(Text(self.title_text, style="bold"), id="opening-title")
            yield Static(id="opening-wait")
            yield Static(id="opening-typed")
        if self.typing:
            yield CommandLine(id="command")
            yield Static(id="hint")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self._tick()
        self.set_interval(THINKING_TICK_S, self._tick)

    @property
    def draft(self) -> str:
        """The text typed but not yet entered."""
        return self.query_one(CommandLine).value if self.typing else ""

    def _tick(self) -> None:
        self.query_one("#opening-wait", Static).update(
            Text(f"Asking {printable(self.asking)} for a plan... {self.clock() - self.began:.1f} s", style="italic"))

    def on_command_line_entered(self, message: CommandLine.Entered) -> None:
        self.typed_ahead.append((message.said, message.command))
        self.query_one("#hint", Static).update("")
        self.query_one("#opening-typed", Static).update(
            plain("Played when the game starts: " + ", ".join(printable(said) for said, _ in self.typed_ahead)))

    def on_command_line_refused(self, message: CommandLine.Refused) -> None:
        self.query_one("#hint", Static).update(plain(f"'{printable(shorten(message.said))}': {message.hint}"))
