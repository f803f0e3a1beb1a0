"""Game time as a player reads it, the same on every panel and screen."""

from __future__ import annotations

import math


def clock(seconds: float) -> str:
    """The game clock as a player reads it: '0:45', '12:03' (whole seconds gone by)."""
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


def countdown(seconds: float) -> str:
    """Time left as a player reads it, rounded up: '0:01' while any is left, never '0:00' too soon."""
    return clock(math.ceil(seconds))
