"""Text from outside (files, models, servers, typed lines) made safe to show on a terminal.

Every character that could act on the terminal rather than be read is written as a visible
escape (ESC as ``\\x1b``, a right-to-left override as ``\\u202e``): C0 and C1 controls (so
CSI colour codes, OSC titles and hyperlinks, cursor moves), DEL, the bidirectional embeddings,
overrides, isolates and marks that make a line read differently from its characters, the
Unicode line and paragraph separators, and lone surrogates (which cannot even be encoded).
Nothing is lost: the escape says which character was there.

Rich markup is kept out in a different way: the command line prints with ``print``, which
reads no markup, and the screens get a ``rich.text.Text`` from ``plain``, never a markup string.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

from .ascii_text import ascii_only

if TYPE_CHECKING:  # Rich loads with the screens, not for the command line's messages (start-up): see plain
    from rich.text import Text

# C0 but the newline (kept or escaped by choice), DEL and C1, ALM, LRM/RLM, LRE/RLE/PDF/LRO/RLO,
# LRI/RLI/FSI/PDI, the line and paragraph separators, and the surrogates.
_ACTIVE = r"\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"
_ACTIVE_IN_LINE = re.compile(f"[{_ACTIVE}\n]")
_ACTIVE_IN_LINES = re.compile(f"[{_ACTIVE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, newlines: bool = False) -> str:
    """``text`` with every character that would act on a terminal written as an escape; ``newlines``
    keeps line breaks (a text of several lines), else they are escaped too (one value, one line)."""
    return (_ACTIVE_IN_LINES if newlines else _ACTIVE_IN_LINE).sub(_escape, text)


def plain(text: str, style: str = "") -> Text:
    """``text`` for a widget: printable, its line breaks kept, and never read as markup."""
    from rich.text import Text  # loaded already by the screen that asks

    return Text(printable(text, newlines=True), style=style)


def say(line: str, command: str = "") -> None:
    """One message on stderr, named by what says it ("labyrinth arena: ..."; the bare "labyrinth: ..." for the
    program itself), the one way every command reports: text from outside as escapes (``printable``), and on a
    terminal that takes only ASCII every other character as the escape of its code point too (a path's "·" as
    ``\\xb7``, never ascii_text's stand-in: the file a message names must stay findable), and flushed, so that it
    lands in its place among the progress lines of a long run."""
    who = f"labyrinth {command}" if command else "labyrinth"
    said = f"{who}: {printable(line)}"
    if ascii_only(sys.stderr):
        said = said.encode("ascii", "backslashreplace").decode("ascii")
    print(said, file=sys.stderr, flush=True)
