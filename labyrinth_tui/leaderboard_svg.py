"""The leaderboard page's charts as inline SVG, written here rather than by a plotting
library: the page must open with no network (no script, no CDN, no font to fetch)
and these two charts are a few lines each.

``interval_chart``: one row per contestant, its figure as a dot and its 95% interval as
an error bar, on one axis (the ratings; the paired differences, around zero).
``line_chart``: one line per contestant, its rating after each of its matches.

Every name is escaped (they come from config files: treat them as hostile); every
number is written by this module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .report_text import html

WIDTH = 760  # the charts' drawing width in pixels; the page scales them down on a narrow screen
LABELS = 200  # room for the contestants' names left of an interval chart
ROW = 26  # an interval chart's row height
PLOT_HEIGHT = 300  # a line chart's plot height
MARGIN = {"left": 60, "right": 20, "top": 14, "bottom": 40}
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999")  # Okabe-Ito
DASHES = ("", "6 3", "2 3", "8 3 2 3")  # with more lines than colours, the next lap is dashed
PLOT_FILL = "#f3f6fa"  # a line chart's plot area: a tint no other part of the page has


def style(index: int) -> str:
    """The stroke of the ``index``-th line or bar: a colour, and a dash once the colours are used up."""
    colour, dash = COLOURS[index % len(COLOURS)], DASHES[index // len(COLOURS) % len(DASHES)]
    return f'stroke="{colour}"' + (f' stroke-dasharray="{dash}"' if dash else "")


def colour(index: int) -> str:
    return COLOURS[index % len(COLOURS)]


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round numbers from ``low`` to ``high``, about ``count`` of them (steps of 1, 2 or 5 times a power of ten)."""
    if high <= low:
        return [low]
    rough = (high - low) / count
    power = 10 ** math.floor(math.log10(rough))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= rough)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step + 1e-9) + 1)]


def interval_chart(rows: Sequence[tuple[str, float, float | None, float | None]], *, title: str,
                   zero: float | None = None, form: str = "{:.0f}") -> str:
    """``rows`` (a name, a figure and its interval, None when it has none) as dots with error bars on
    one horizontal axis; ``zero``: a reference line drawn across (no difference)."""
    values = [v for _, figure, low, high in rows for v in (figure, low, high) if v is not None]
    values += [] if zero is None else [zero]
    low, high = _padded(min(values, default=0.0), max(values, default=1.0))
    left, right = LABELS, WIDTH - MARGIN["right"]
    height = MARGIN["top"] + ROW * len(rows) + MARGIN["bottom"]

    def x(value: float) -> float:
        return left + (value - low) / (high - low) * (right - left)

    bottom = MARGIN["top"] + ROW * len(rows)
    parts = [_axis_x(ticks(low, high), x, bottom, MARGIN["top"], form, (low, high))]
    if zero is not None:
        parts.append(f'<line class="zero" x1="{x(zero):.1f}" x2="{x(zero):.1f}" y1="{MARGIN["top"]}" '
                     f'y2="{bottom}" stroke="#444" stroke-width="1"/>')
    for i, (name, figure, lo, hi) in enumerate(rows):
        y = MARGIN["top"] + ROW * i + ROW / 2
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{html(name)}</text>')
        if lo is not None and hi is not None:
            parts.append(f'<line class="interval" x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                         f'stroke="{colour(i)}" stroke-width="3"><title>{html(name)}: {form.format(lo)} to '
                         f'{form.format(hi)}</title></line>')
        parts.append(f'<circle class="estimate" cx="{x(figure):.1f}" cy="{y:.1f}" r="5" fill="{colour(i)}">'
                     f'<title>{html(name)}: {form.format(figure)}</title></circle>')
    return _svg("intervals", title, height, parts)


def line_chart(series: Sequence[tuple[str, Sequence[int], Sequence[float]]], *, title: str, x_label: str,
               y_label: str) -> str:
    """``series`` (a name, its x values and its y values) as one line each, with a legend below."""
    xs = [x for _, at, _ in series for x in at] or [0]
    ys = [y for _, _, values in series for y in values] or [0.0]
    x_low, x_high = 0, max(max(xs), 1)
    y_low, y_high = _padded(min(ys), max(ys))
    left, right = MARGIN["left"], WIDTH - MARGIN["right"]
    top, bottom = MARGIN["top"], MARGIN["top"] + PLOT_HEIGHT

    def x(value: float) -> float:
        return left + (value - x_low) / (x_high - x_low) * (right - left)

    def y(value: float) -> float:
        return bottom - (value - y_low) / (y_high - y_low) * (bottom - top)

    parts = [(f'<rect class="plot" x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" '
              f'fill="{PLOT_FILL}"/>'),
             _axis_x([t for t in ticks(x_low, x_high) if t == int(t)], x, bottom, top, "{:.0f}", (x_low, x_high)),
             _axis_y(ticks(y_low, y_high), y, left, right)]
    parts.append(f'<text class="axis-label" x="{(left + right) / 2:.0f}" y="{bottom + 34}" '
                 f'text-anchor="middle">{html(x_label)}</text>')
    parts.append(f'<text class="axis-label" x="14" y="{(top + bottom) / 2:.0f}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {(top + bottom) / 2:.0f})">{html(y_label)}</text>')
    for i, (name, at, values) in enumerate(series):
        points = " ".join(f"{x(a):.1f},{y(v):.1f}" for a, v in zip(at, values, strict=True))
        parts.append(f'<polyline class="history" data-points="{len(values)}" points="{points}" fill="none" '
                     f'{style(i)} stroke-width="2"><title>{html(name)}</title></polyline>')
        if values:  # the rating now, marked: a history of one point draws no line
            parts.append(f'<circle cx="{x(at[-1]):.1f}" cy="{y(values[-1]):.1f}" r="3.5" fill="{colour(i)}"/>')
    legend_top = bottom + MARGIN["bottom"] + 6
    for i, (name, _, _) in enumerate(series):
        row_y = legend_top + 20 * i
        parts.append(f'<line x1="{left}" x2="{left + 28}" y1="{row_y - 4}" y2="{row_y - 4}" {style(i)} '
                     f'stroke-width="3"/><text x="{left + 36}" y="{row_y}">{html(name)}</text>')
    return _svg("lines", title, legend_top + 20 * len(series), parts)


def _padded(low: float, high: float) -> tuple[float, float]:
    """A range around ``low`` and ``high`` with a little room at both ends (some room even when they are equal)."""
    pad = (high - low) * 0.05 or max(abs(high) * 0.05, 1.0)
    return low - pad, high + pad


def _axis_x(marks: list[float], x, bottom: float, top: float, form: str, span: tuple[float, float]) -> str:
    """The x axis: its line across the whole ``span`` (what is drawn above may reach its ends), and its marks."""
    lines = [f'<line x1="{x(span[0]):.1f}" x2="{x(span[1]):.1f}" y1="{bottom}" y2="{bottom}" stroke="#888"/>']
    for mark in marks:
        lines.append(f'<line class="grid" x1="{x(mark):.1f}" x2="{x(mark):.1f}" y1="{top}" y2="{bottom}" '
                     f'stroke="#e4e4e4"/><text class="tick" x="{x(mark):.1f}" y="{bottom + 16}" '
                     f'text-anchor="middle">{form.format(mark)}</text>')
    return "".join(lines)


def _axis_y(marks: list[float], y, left: float, right: float) -> str:
    return "".join(f'<line class="grid" x1="{left}" x2="{right}" y1="{y(mark):.1f}" y2="{y(mark):.1f}" '
                   f'stroke="#e4e4e4"/><text class="tick" x="{left - 6}" y="{y(mark) + 4:.1f}" '
                   f'text-anchor="end">{mark:.0f}</text>' for mark in marks)


def _svg(kind: str, title: str, height: float, parts: list[str]) -> str:
    return (f'<svg class="chart {kind}" role="img" viewBox="0 0 {WIDTH} {height:.0f}" width="{WIDTH}" '
            f'height="{height:.0f}" xmlns="http://www.w3.org/2000/svg"><title>{html(title)}</title>'
            f'{"".join(parts)}</svg>')
