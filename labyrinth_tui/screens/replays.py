"""Recorded matches, the latest first: every game played or watched in the TUI, and what
`labyrinth arena --replays` records into the same folder. Pick one to watch it on the map
(screens/replay_player.py). File names and what a file says are shown as words (``plain``):
a name like "[@click=app.quit]" is not markup, an escape sequence in a header reaches no terminal."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replays import ReplayError, read_replay

from ..session import ReplaySession
from ..terminal_text import plain, printable


class ReplaysScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q", "dismiss", "back", id="replays-close")]

    def compose(self) -> ComposeResult:
        folder = replays_dir()
        self.files = sorted(folder.glob("*.jsonl"), reverse=True) if folder.is_dir() else []
        with Vertical(id="replays", classes="dialog"):
            yield Static(plain(f"Replays in {folder}: Enter watches one, Esc goes back"), classes="dialog-title")
            if self.files:
                yield OptionList(*(Option(plain(path.name), id=str(i)) for i, path in enumerate(self.files)),
                                 id="replay-list")
            else:
                yield Static(plain("No replays yet: every game you play or watch here is recorded, "
                                   f"and `labyrinth arena --replays {folder}` adds matches."))
            with VerticalScroll(id="replay-text"):
                yield Static(id="replay-body")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from .replay_player import ReplayPlayerScreen

        try:
            replay = read_replay(self.files[int(event.option.id)])
        except ReplayError as exc:
            self.query_one("#replay-body", Static).update(plain(f"This file cannot be read: {printable(str(exc))}"))
            return
        if not replay.turns:
            self.query_one("#replay-body", Static).update("This match ended before its first turn: nothing to watch.")
            return
        self.app.push_screen(ReplayPlayerScreen(ReplaySession(replay)))
