"""Recorded matches (`labyrinth arena --replays`): pick one to read it turn by turn.
File names and contents are shown as words (``plain``): a name like "[@click=app.quit]" is
not markup, an escape sequence in a header reaches no terminal."""

from __future__ import annotations

import io

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replays import ReplayError, read_replay

from ..replay_cmd import write_summary
from ..terminal_text import plain, printable


class ReplaysScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q", "dismiss", "back", id="replays-close")]

    def compose(self) -> ComposeResult:
        folder = replays_dir()
        self.files = sorted(folder.glob("*.jsonl"), reverse=True) if folder.is_dir() else []
        with Vertical(id="replays", classes="dialog"):
            yield Static(plain(f"Replays in {folder}: Enter shows one, Esc goes back"), classes="dialog-title")
            if self.files:
                yield OptionList(*(Option(plain(path.name), id=str(i)) for i, path in enumerate(self.files)),
                                 id="replay-list")
            else:
                yield Static(plain("No replays yet: `labyrinth arena --replays DIR` records matches "
                                   f"(use {folder} to see them here)."))
            with VerticalScroll(id="replay-text"):
                yield Static(id="replay-body")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        out = io.StringIO()
        try:
            write_summary(read_replay(self.files[int(event.option.id)]), out)
        except ReplayError as exc:
            out.write(f"This file cannot be read: {printable(str(exc))}")
        self.query_one("#replay-body", Static).update(plain(out.getvalue()))
