"""The narrative log: each turn's command, its words and its figures. What was typed is
shown as words (``printable``): a pasted escape sequence reaches no terminal."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from labyrinth.engine import GameStateResponse

from ..terminal_text import plain, printable

STATUS_STYLE = {"ERROR": "bold yellow", "DEATH": "bold white on red", "ESCAPED": "bold black on green"}


class NarrativeLog(RichLog):
    def __init__(self, **kwargs) -> None:
        # min_width: RichLog renders at 78 columns at least by default, which cuts lines in a narrower panel.
        super().__init__(wrap=True, markup=False, highlight=False, min_width=20, **kwargs)

    def tell(self, said: str | None, response: GameStateResponse) -> None:
        env = response.environment
        if said is not None:
            head = Text(f"> {printable(said)}", style="bold")
            if response.status != "ERROR":  # the figures; the words below say how the move ended (a climb
                # to the end of a ramp is no wall, though the rules' stop_reason calls both COLLISION)
                head.append(f"   {env.time_taken:g} s, {env.steps_moved} step{'s' if env.steps_moved != 1 else ''}",
                            style="dim")
            self.write(head)
        body = plain(response.raw_text_output)
        if response.status in STATUS_STYLE:
            body.stylize(STATUS_STYLE[response.status], 0, len(body))
        self.write(body)
        self.write(Text(""))
