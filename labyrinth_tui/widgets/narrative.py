"""The narrative log: each turn's command, its words and its figures. What was typed is
shown as words (``printable``): a pasted escape sequence reaches no terminal.

The entries are kept as data and wrapped again whenever the log's width changes (a resized
terminal): a line cut at the old width, or left narrow, would hide the end of a sentence.
A Line API widget of its own rather than a RichLog, which renders each entry once at the
width of the moment. A long game's log (2,000 turns: 6,000 entries, over a second to wrap)
is wrapped again newest first: the last entries at once, the older ones a batch at a time
between frames, so a resize never freezes the screen. A turn is told as folding.py folds it: what
changed, not the whole place again. A game's opening is shown from its start (``show_start``),
so the premise is read before the first key; the next entry brings the end back."""

from __future__ import annotations

from rich.console import RenderableType
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from labyrinth.engine import GameStateResponse

from ..folding import Told, folded
from ..terminal_text import plain, printable
from .titles import TITLE_FRAME, fitted_title

BATCH = 300  # entries wrapped again at a time (about 100 turns, a few tens of ms): the newest at once
STATUS_STYLE = {"ERROR": "bold yellow", "DEATH": "bold white on red", "ESCAPED": "bold black on green"}


class NarrativeLog(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    NarrativeLog {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        &:focus {
            background-tint: $foreground 5%;
        }
    }
    """

    def __init__(self, entries: list[RenderableType] | None = None, **kwargs) -> None:
        """``entries``: a log to show again (the history view shows the game's, at its own width)."""
        super().__init__(**kwargs)
        self.entries: list[RenderableType] = list(entries or ())  # everything written, in order
        self.lines: list[Strip] = []  # the entries wrapped at ``wrapped_at`` columns
        self.wrapped_at = 0  # 0: the width is not known yet, nothing is wrapped
        self.unwrapped = 0  # how many of the oldest entries still wait to be wrapped at that width
        self._shown: LRUCache[tuple[int, int], Strip] = LRUCache(1024)  # lines as drawn, by (index, width)
        self.told = Told()  # what the log told last of the place and the sound: the next turn folds it
        self.from_start = False  # the view stays at the first line until the next entry
        self.title_parts: tuple[str, ...] = ()  # the title's, the most needed first: as many as fit are shown

    def titled(self, *parts: str) -> None:
        """Title the log with ``parts``, the most needed first: as many as its width has room for."""
        self.title_parts = shown = tuple(printable(part) for part in parts)  # measured as they will be shown
        self.border_title = plain(fitted_title(shown, self.outer_size.width or len(", ".join(shown)) + TITLE_FRAME))

    def show_start(self) -> None:
        """Show the log from its first line (the opening), not its end, until an entry is written."""
        self.from_start = True
        self.release_anchor()
        self.scroll_home(animate=False, immediate=True)

    def on_mount(self) -> None:
        """Anchored: every layout keeps the log at its end, until the player scrolls up (back at the end,
        or at the next entry written, it is anchored again); unless it shows the opening from its start."""
        self.anchor()
        if self.from_start:
            self.release_anchor()

    def write(self, content: RenderableType) -> NarrativeLog:
        """Add an entry at the end, and show the end."""
        self.entries.append(content)
        if self.from_start:
            self.from_start = False
            self.anchor()
        if self.wrapped_at:
            self.lines.extend(self._wrap(content, self.wrapped_at))
            self._grown()
            # At once, so that the frame that shows the new lines shows them (a scroll only after that frame
            # drew the whole screen twice a key); the anchor keeps the end in view if a layout then changes
            # the log's height (a panel beside it grew).
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        return self

    def _grown(self) -> None:
        """The new lines' room to scroll, without a layout of the screen: the log's own box stays as it
        was (its scrollbar is always shown), and a layout costs every widget's, 12 ms a turn measured
        on a 120x40 screen, most of a key's time. The scrollbar and the scroll range follow the new
        size here, as a layout would make them."""
        size = Size(self.wrapped_at, len(self.lines))
        self.set_reactive(NarrativeLog.virtual_size, size)
        self._scroll_update(size)
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every entry again at the new width; the view stays at the end if it was there. The title
        fits again."""
        if self.title_parts:
            self.titled(*self.title_parts)
        width = self.scrollable_content_region.width
        if width <= 0 or width == self.wrapped_at:
            return
        at_end = not self.wrapped_at or self.is_vertical_scroll_end
        self.wrapped_at, self.unwrapped, self.lines = width, len(self.entries), []
        self._wrap_older(at_end)

    def _wrap_older(self, at_end: bool) -> None:
        """Wrap the newest entries not yet wrapped at the current width, above the lines that are;
        the view stays on the same lines (or at the end, if it was there when the width changed), and
        the next batch waits for the next frame."""
        if not self.unwrapped:
            return
        first = max(0, self.unwrapped - BATCH)
        older = [line for entry in self.entries[first:self.unwrapped] for line in self._wrap(entry, self.wrapped_at)]
        self.lines[:0], self.unwrapped = older, first
        self._shown.clear()
        self.virtual_size = Size(self.wrapped_at, len(self.lines))
        if self.from_start:
            self.scroll_home(animate=False, immediate=True)
        elif at_end:
            self.scroll_end(animate=False, immediate=False, x_axis=False)
        else:
            self.scroll_to(y=self.scroll_y + len(older), animate=False, immediate=True)
        self.refresh()
        if self.unwrapped:
            self.call_after_refresh(self._wrap_older, at_end)

    def _wrap(self, entry: RenderableType, width: int) -> list[Strip]:
        console = self.app.console
        lines = list(Segment.split_lines(console.render(entry, console.options.update_width(width))))
        return Strip.from_lines(lines) if lines else [Strip.blank(width)]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._shown.clear()

    def render_line(self, y: int) -> Strip:
        index, width = self.scroll_offset.y + y, self.scrollable_content_region.width
        if index >= len(self.lines):  # below the end: one blank line, kept as the others (index -1)
            if (-1, width) not in self._shown:
                self._shown[-1, width] = Strip.blank(width, self.rich_style)
            return self._shown[-1, width]
        if (index, width) not in self._shown:
            self._shown[index, width] = self.lines[index].crop_extend(0, width, self.rich_style).apply_style(
                self.rich_style)
        return self._shown[index, width]

    def tell(self, said: str | None, response: GameStateResponse) -> None:
        env = response.environment
        if said is not None:
            head = Text(f"> {printable(said)}", style="bold")
            if response.status != "ERROR":  # the figures; the words below say how the move ended (a climb
                # to the end of a ramp is no wall, though the rules' stop_reason calls both COLLISION)
                head.append(f"   {env.time_taken:g} s, {env.steps_moved} step{'s' if env.steps_moved != 1 else ''}",
                            style="dim")
            self.write(head)
        where = response.user_state.position
        body = plain("\n".join(folded(response.raw_text_output, (where.x, where.y, where.z), self.told)))
        if response.status in STATUS_STYLE:
            body.stylize(STATUS_STYLE[response.status], 0, len(body))
        self.write(body)
        self.write(Text(""))
