"""Saved games to resume, newest first; files that cannot be read are named, not hidden.
What a save file says, and its name, are shown as words (``plain``): never markup or escapes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from labyrinth.saves.games import SavedGame, list_games

from ..terminal_text import plain


class SavedGamesScreen(ModalScreen[SavedGame | None]):
    BINDINGS = [Binding("escape,q", "dismiss(None)", "back", id="saves-close")]

    def compose(self) -> ComposeResult:
        self.games, problems = list_games()
        with Vertical(id="saves", classes="dialog"):
            yield Static("Saved games: Enter resumes, Esc goes back", classes="dialog-title")
            if self.games:
                yield OptionList(*(Option(plain(f"{g.saved_at}  {g.summary}"), id=str(i))
                                   for i, g in enumerate(self.games)), id="save-list")
            else:
                yield Static("No saved games yet: ctrl+s saves the game you are playing.")
            for problem in problems:
                yield Static(plain(problem), classes="problem")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.games[int(event.option.id)])
