"""Saved games to resume, the latest saved first; files that cannot be read are named, not hidden.
A save can be deleted (d, then y to confirm). What a save file says, and its name, are shown as
words (``plain``): never markup or escapes."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from labyrinth.saves.games import SavedGame, delete_game, list_games

from ..dates import local_time
from ..terminal_text import plain, printable
from ..widgets.footer import SteadyFooter

EMPTY = "No saved games yet: ctrl+s saves the game you are playing, and leaving a game saves it."


class SavedGamesScreen(ModalScreen[SavedGame | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss(None)", "back", id="saves-close"),
                                             Binding("d,delete", "delete", "delete", id="saves-delete")]

    def compose(self) -> ComposeResult:
        self.games, problems = list_games()
        with Vertical(id="saves", classes="dialog"):
            yield Static("Saved games: Enter resumes, d deletes, Esc goes back", classes="dialog-title")
            yield OptionList(*self._options(), id="save-list")
            yield Static(EMPTY, id="saves-empty")
            for problem in problems:
                yield Static(plain(problem), classes="problem")
        yield SteadyFooter()  # its own keys: the title's below would show keys this dialog does not take

    def on_mount(self) -> None:
        self._show_emptiness()

    def _show_emptiness(self) -> None:
        """The list while there are saves; when there are none, the words that say how to make one."""
        self.query_one("#save-list", OptionList).display = bool(self.games)
        self.query_one("#saves-empty", Static).display = not self.games

    def _options(self) -> list[Option]:
        return [Option(plain(f"{local_time(g.saved_at)}  {g.summary}")) for g in self.games]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.games[event.option_index])  # the options are the games, in order

    def action_delete(self) -> None:
        """Delete the highlighted save, once the player confirms."""
        index = self.query_one("#save-list", OptionList).highlighted
        if index is None or not self.games:
            return
        game = self.games[index]

        def confirmed(yes: bool | None) -> None:
            if yes:
                self._delete(game)

        self.app.push_screen(ConfirmDelete(game.summary), confirmed)

    def _delete(self, game: SavedGame) -> None:
        assert game.path is not None  # list_games read it from its file
        try:
            delete_game(game.path)
        except OSError as exc:
            self.notify(printable(str(exc)), title="Cannot delete", severity="error", markup=False)
            return
        self.games.remove(game)
        menu = self.query_one("#save-list", OptionList)
        menu.clear_options()
        menu.add_options(self._options())
        self._show_emptiness()
        self.notify(printable(f"Deleted: {game.summary}"), timeout=2, markup=False)


class ConfirmDelete(ModalScreen[bool]):
    """Deleting a save cannot be undone: y deletes, n or Esc keeps it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("y", "dismiss(True)", "delete", id="confirm-yes"),
                                             Binding("n,escape", "dismiss(False)", "keep", id="confirm-no")]

    def __init__(self, summary: str) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm", classes="dialog"):
            yield Static(plain(f"Delete this saved game?\n{self.summary}\n\ny deletes it, n keeps it"))
