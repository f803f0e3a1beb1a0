"""One contestant's rating over its matches as a small line chart, for the Leaderboard
screen: the highlighted contestant's history, and at the right edge its 95% interval
now as a bar, so a reader sees whether the rating has settled and how sure it is.

Drawn in braille: each character is a 2 x 4 grid of dots, so a chart of 6 lines and
60 columns has 24 x 120 points, fine enough for a curve, with no plotting package and
in any font a terminal has. ``braille`` is the pure drawing; the widget adds the
scale on the left and styles the line, the interval and the scale from the screen's
stylesheet (its component classes).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import ClassVar

from rich.segment import Segment
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from labyrinth.agents.compete.ratings import Rating

DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))  # a braille character's dot bits, by column then row
BLANK = 0x2800  # the empty braille character; a cell's dots are added to it
GAP = 2  # dot columns between the line's end and the interval's bar


def braille(history: Sequence[float], at: Sequence[int], span: tuple[float, float] | None, width: int,
            height: int, low: float, high: float) -> tuple[list[list[int]], list[list[int]]]:
    """The chart's dots, ``width`` x ``height`` characters between ``low`` (bottom) and ``high`` (top):
    the line through ``history`` (at ``at``, how many matches had been played), and the interval
    ``span`` as a bar at the right edge; each as a grid of dot bits, per character, rows top first."""
    line = [[0] * width for _ in range(height)]
    bar = [[0] * width for _ in range(height)]
    columns, rows = 2 * width, 4 * height
    last = columns - 1 - (GAP + 1 if span else 0)  # the line's rightmost dot column

    def dot(grid: list[list[int]], x: int, y: int) -> None:
        if 0 <= x < columns and 0 <= y < rows:
            grid[y // 4][x // 2] |= DOTS[x % 2][y % 4]

    def row_of(value: float) -> int:
        return round((high - value) / (high - low) * (rows - 1)) if high > low else rows // 2

    first, final = (at[0], at[-1]) if at else (0, 0)
    points = [(round((a - first) / (final - first) * last) if final > first else last, row_of(v))
              for a, v in zip(at, history, strict=True)]
    for (x0, y0), (x1, y1) in pairwise(points):
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for k in range(steps + 1):
            dot(line, round(x0 + (x1 - x0) * k / steps), round(y0 + (y1 - y0) * k / steps))
    for x, y in points[-1:]:
        dot(line, x, y)
    if span:
        for y in range(row_of(span[1]), row_of(span[0]) + 1):
            dot(bar, columns - 1, y)
            dot(bar, columns - 2, y)
    return line, bar


class RatingChart(Widget):
    """The rating over matches of ``rating`` (None: nothing highlighted), on its own scale."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"rating-chart--line", "rating-chart--interval", "rating-chart--scale"}
    rating: reactive[Rating | None] = reactive(None)

    def watch_rating(self, rating: Rating | None) -> None:
        if rating is None:
            self.border_title = self.border_subtitle = ""
            return
        self.border_title = f"{rating.label}: {rating.rating:.0f} over its {rating.matches} matches"
        self.border_subtitle = "" if rating.low is None else \
            f"95% interval now {rating.low:.0f}–{rating.high:.0f} (the bar at the right)"

    def render_line(self, y: int) -> Strip:
        width, height = self.size.width, self.size.height
        rating = self.rating
        if rating is None or not rating.history:
            return Strip.blank(width)
        span = None if rating.low is None or rating.high is None else (rating.low, rating.high)
        values = [*rating.history, *(span or ())]
        low, high = min(values), max(values)
        scale = [f"{high:.0f}", f"{low:.0f}"]
        room = max(map(len, scale)) + 1
        if width <= room + 2:
            return Strip.blank(width)
        line, bar = braille(rating.history, rating.history_at, span, width - room, height, low, high)
        label = scale[0] if y == 0 else scale[1] if y == height - 1 else ""
        styles = {name: self.get_component_rich_style(f"rating-chart--{name}") for name in ("line", "interval",
                                                                                             "scale")}
        segments = [Segment(label.rjust(room - 1) + " ", styles["scale"])]
        for dots, bars in zip(line[y], bar[y], strict=True):  # an empty cell a space: some fonts dot U+2800
            segments.append(Segment(chr(BLANK + (dots | bars)) if dots | bars else " ",
                                    styles["interval" if bars else "line"]))
        return Strip(segments).adjust_cell_length(width)
