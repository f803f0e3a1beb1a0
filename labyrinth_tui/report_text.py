"""Text from the results database as a report writes it: a hand-edited database can hold control characters
(an escape sequence, a carriage return, NUL) in a contestant's name, which a CSV cell or a web page would
carry raw to whatever shows the file. One place says which characters go."""

from __future__ import annotations

import re
from html import escape

CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0, DEL and C1: none belongs in a cell
_IN_HTML = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # the same but tab and line feed, a page's white space


def plain(text: str) -> str:
    """``text`` without any control character (a CSV cell's)."""
    return CONTROLS.sub("", text)


def html(text: str) -> str:
    """``text`` escaped for a web page or an SVG, without the control characters no page shows (tab and line
    feed stay: they are white space there)."""
    return escape(_IN_HTML.sub("", text))
