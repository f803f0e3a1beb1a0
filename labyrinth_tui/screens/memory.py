"""The Memory screen: what the agents learned across games (filled in by the reflection memory)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class MemoryScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q", "dismiss", "close", id="memory-close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="memory", classes="dialog"):
            yield Static("Memory", classes="dialog-title")
            yield Static("Nothing yet: the agents do not keep reflections across games yet. Once they do, "
                         "each game's lessons will be listed here.\n\nEsc to go back.")
