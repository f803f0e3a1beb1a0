"""Offered when a game asks for an LLM provider that has no key: what to set,
and the built-in agent instead."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..terminal_text import plain


class ProviderMissingScreen(ModalScreen[bool]):
    """Dismissed with True to play the built-in agent instead, False to go back."""

    DEFAULT_CSS = """
    #missing-buttons {
        height: auto;
        padding-top: 1;
    }

    #missing-buttons Button {
        margin: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("b", "choose(True)", "built-in", id="missing-builtin"),
                                             Binding("escape,q", "choose(False)", "back", id="missing-back")]

    def __init__(self, problem: str, role: str) -> None:
        super().__init__()
        self.problem, self.role = problem, role

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="missing"):
            yield Static("This model is not configured", classes="dialog-title")
            yield Static(plain(self.problem), classes="problem")  # "[gemini]" is not markup
            yield Static("`labyrinth doctor` shows what is configured and checks each endpoint.")
            with Horizontal(id="missing-buttons"):
                yield Button(f"Play the built-in {self.role} instead", id="builtin", variant="primary")
                yield Button("Back", id="back")

    def on_mount(self) -> None:
        self.query_one("#builtin", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id == "builtin")

    def action_choose(self, builtin: bool) -> None:
        self.dismiss(builtin)
