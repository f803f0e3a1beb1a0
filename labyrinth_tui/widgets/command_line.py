"""The command line: typed commands with history (up/down) and completion as
one types; a line that is not a command shows a one-line hint below and
nothing happens to the game. A travel ('travel <') is no command of the game:
it goes up as its own message, for the screen to walk."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Input

from labyrinth.engine import UserInput

from ..command_parser import NotACommand, Travel, parse_command, parse_travel, suggestions


class CommandLine(Input):
    BINDINGS = [
        Binding("up", "history(-1)", "previous", show=False, id="history-back"),
        Binding("down", "history(1)", "next", show=False, id="history-forward"),
    ]

    @dataclass
    class Entered(Message):
        """A typed line that is a command."""

        said: str
        command: UserInput

    @dataclass
    class TravelAsked(Message):
        """A typed travel: the known way to a ramp or a cell, walked a leg a turn."""

        said: str
        travel: Travel

    @dataclass
    class Refused(Message):
        """A typed line that is not a command, and what was probably meant."""

        said: str
        hint: str

    def __init__(self, **kwargs) -> None:
        super().__init__(placeholder="type a command: move north 5, run east, look, grab red stone ... (? help)",
                         suggester=SuggestFromList(suggestions(), case_sensitive=False),
                         select_on_focus=False, **kwargs)  # a letter typed on the map adds to the line
        self.history: list[str] = []
        self.back = 0  # how far back in the history the line is

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self.back = max(0, min(len(self.history), self.back - step))
        self.value = self.history[-self.back] if self.back else ""
        self.cursor_position = len(self.value)

    async def action_submit(self) -> None:
        said = self.value.strip()
        if not said:
            return
        self.value, self.back = "", 0
        if not self.history or self.history[-1] != said:
            self.history.append(said)
        if said in ("?", "help"):
            self.app.action_help()
            return
        try:
            travel = parse_travel(said)
            self.post_message(self.TravelAsked(said, travel) if travel else self.Entered(said, parse_command(said)))
        except NotACommand as exc:
            self.post_message(self.Refused(said, exc.hint))
