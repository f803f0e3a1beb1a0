"""Panel titles that fit their border: a title's parts, the most needed first, as many whole parts as
the border has room for, rather than the last one cut in the middle (a seed cut short is a wrong seed)."""

from __future__ import annotations

from collections.abc import Sequence

TITLE_FRAME = 6  # of a panel's width, what its border takes around the title: the corners, a dash and a space each side


def fitted_title(parts: Sequence[str], width: int, joiner: str = ", ") -> str:
    """The first of ``parts`` that fit in a border ``width`` columns wide, joined (the first always)."""
    shown = list(parts)
    while len(shown) > 1 and len(joiner.join(shown)) > width - TITLE_FRAME:
        shown.pop()
    return joiner.join(shown)
