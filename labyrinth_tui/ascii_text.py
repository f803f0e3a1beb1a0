"""Text for a terminal that is not UTF-8 (``LANG=C``, ``PYTHONIOENCODING=ascii``): the
few symbols the leaderboard draws with are given ASCII stand-ins, the sparkline's
eight block heights an ASCII ramp of eight, and any other character (a contestant's
name from a config file) a visible escape, so that nothing is lost and printing never
fails half-way. Rich draws its tables' boxes in ASCII on such a terminal by the same
rule (an encoding whose name does not start with "utf").

A stand-in may be wider than its symbol (``≤`` is ``<=``): text is converted before
it is laid out, never after, so the tables' columns still line up.
"""

from __future__ import annotations

from typing import TextIO

BLOCKS = "▁▂▃▄▅▆▇█"  # a sparkline's heights, lowest first
RAMP = "_.:-=+*#"  # the same heights in ASCII
SYMBOLS = str.maketrans({"≤": "<=", "±": "+/-", "–": "-", "…": "...", "·": "|", "σ": "sd",
                         **dict(zip(BLOCKS, RAMP, strict=True))})


def ascii_only(stream: TextIO) -> bool:
    """Whether ``stream`` takes only ASCII, by Rich's rule: its encoding's name does not start with utf."""
    return not (getattr(stream, "encoding", None) or "utf-8").lower().startswith("utf")


def to_ascii(text: str) -> str:
    """``text`` in ASCII: the known symbols by their stand-ins, anything else as a backslash escape."""
    return text.translate(SYMBOLS).encode("ascii", "backslashreplace").decode("ascii")


def fitted(text: str, ascii: bool) -> str:
    """``text`` as a terminal that takes only ASCII (``ascii``) or any character can show it."""
    return to_ascii(text) if ascii else text
