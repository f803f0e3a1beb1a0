"""The narrative log: each turn's command, its words and its figures. What was typed is
shown as words (``printable``): a pasted escape sequence reaches no terminal.

The entries are kept as data and wrapped again when the log's width changes (a resized
terminal): a line cut at the old width, or left narrow, would hide the end of a sentence."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.widgets import RichLog

from labyrinth.engine import GameStateResponse

from ..terminal_text import plain, printable

STATUS_STYLE = {"ERROR": "bold yellow", "DEATH": "bold white on red", "ESCAPED": "bold black on green"}


class NarrativeLog(RichLog):
    def __init__(self, entries: list[RenderableType] | None = None, **kwargs) -> None:
        """``entries``: a log to show again (the history view shows the game's, at its own width)."""
        # min_width: RichLog renders at 78 columns at least by default, which cuts lines in a narrower panel.
        super().__init__(wrap=True, markup=False, highlight=False, min_width=20, **kwargs)
        self.entries: list[RenderableType] = []  # everything written, in order: wrapped again on a resize
        self.wrapped_at = 0  # the width the lines were wrapped at (0: not yet)
        for entry in entries or ():
            self.write(entry)

    def write(self, content: RenderableType, *args, **kwargs) -> NarrativeLog:
        if self._size_known:  # before, RichLog defers the write, and makes it again through here
            self.entries.append(content)
        return super().write(content, *args, **kwargs)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every entry again at the new width; the view stays at the end if it was there."""
        width = self.scrollable_content_region.width
        if not self.wrapped_at or width == self.wrapped_at or not self.lines:
            self.wrapped_at = self.wrapped_at or width
            return
        self.wrapped_at = width
        at_end = self.is_vertical_scroll_end
        entries, self.entries = self.entries, []
        super().clear()
        for entry in entries:
            self.write(entry, scroll_end=False)
        if at_end:
            self.scroll_end(animate=False, immediate=False, x_axis=False)

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
