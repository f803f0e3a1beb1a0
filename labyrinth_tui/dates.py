"""When something happened, as every screen and printout of the game says it: '2026-11-23 17:16', in
the player's own time zone (the files say it in UTC, ISO 8601). One printout says UTC, and says so: when a
tournament stopped by a quota may run again, to the second."""

from __future__ import annotations

from datetime import datetime

from labyrinth.engine.commands import shorten

UNREADABLE_CHARS = 40  # of a date a file claims that is none: shown cut, not wrapped over a list


def local_time(iso: str) -> str:
    """``iso`` (as the files write it) in local time to the minute; a date that cannot be read, as written."""
    try:
        return f"{datetime.fromisoformat(iso).astimezone():%Y-%m-%d %H:%M}"
    except ValueError:
        return shorten(iso, UNREADABLE_CHARS)


def short_time(iso: str, now: datetime | None = None) -> str:
    """``local_time`` where room is short, as a mail client lists mail: the time of day for today ('17:16'),
    the month and day for this year ('11-23'), the date before ('2025-11-23')."""
    try:
        when = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return shorten(iso, UNREADABLE_CHARS)
    now = now or datetime.now().astimezone()
    return f"{when:%H:%M}" if when.date() == now.date() else f"{when:%m-%d}" if when.year == now.year \
        else f"{when:%Y-%m-%d}"
