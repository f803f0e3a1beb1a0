"""The message history: the whole game's log on a screen of its own, at the terminal's full
width, to read back at leisure (arrows, PageUp PageDown, Home End). Esc, q or ctrl+o close it."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen

from ..widgets.footer import SteadyFooter
from ..widgets.narrative import NarrativeLog


class HistoryScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    #history {
        height: 1fr;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    """
    AUTO_FOCUS = "#history"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,ctrl+o", "dismiss", "close", id="history-close")]

    def __init__(self, entries: list[RenderableType]) -> None:
        """``entries``: the game's log, shown as it is now (a copy: the game goes on without it)."""
        super().__init__()
        self.entries = list(entries)

    def compose(self) -> ComposeResult:
        log = NarrativeLog(self.entries, id="history")
        log.border_title = "Messages (Esc closes)"
        yield log
        yield SteadyFooter()
