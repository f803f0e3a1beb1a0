"""The command line: typed commands with history (up/down) and completion as
one types; a line that is not a command shows a one-line hint below and
nothing happens to the game. A travel ('travel <') is no command of the game:
it goes up as its own message, for the screen to walk. Enter submits at once,
as it is read, and the line goes up stamped with the moment Enter was pressed:
a screen that drops the keys typed ahead of a danger drops such a line too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Input

from labyrinth.engine import UserInput

from ..app_access import labyrinth_app
from ..command_parser import NotACommand, Travel, parse_command, parse_travel, suggestions


class CommandLine(Input):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "history(-1)", "previous", show=False, id="history-back"),
        Binding("down", "history(1)", "next", show=False, id="history-forward"),
    ]

    @dataclass
    class Entered(Message):
        """A typed line that is a command, and when its Enter was pressed (Textual's event time)."""

        said: str
        command: UserInput
        pressed_at: float

    @dataclass
    class TravelAsked(Message):
        """A typed travel: the known way to a ramp or a cell, walked a leg a turn."""

        said: str
        travel: Travel
        pressed_at: float

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
        self.pressed_at = 0.0  # when the Enter being handled was pressed

    async def on_key(self, event: events.Key) -> None:
        """Enter submits here, in the order the keys come, rather than once the key has bubbled up to the
        bindings (by then the keys after it may have been read)."""
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.pressed_at = event.time
            await self.action_submit()

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
            labyrinth_app(self).action_help()
            return
        try:
            travel = parse_travel(said)
            self.post_message(self.TravelAsked(said, travel, self.pressed_at) if travel else
                              self.Entered(said, parse_command(said), self.pressed_at))
        except NotACommand as exc:
            self.post_message(self.Refused(said, exc.hint))
