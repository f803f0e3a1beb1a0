"""When the saves say a thing happened: in UTC, written ISO 8601 with a Z (a saved game's time, a replay's start,
a results row's and a tournament run's), so that every file and row reads and sorts alike."""

from __future__ import annotations

from datetime import UTC, datetime


def iso(moment: datetime, timespec: str = "seconds") -> str:
    """``moment`` (aware) as the saves write it: "2026-11-21T06:30:12Z"."""
    return moment.astimezone(UTC).isoformat(timespec=timespec).replace("+00:00", "Z")


def now_iso(timespec: str = "seconds") -> str:
    """Now, as ``iso`` writes it: to the second, or to the microsecond where two moments in one second must still
    be told apart and ordered (a tournament run's start)."""
    return iso(datetime.now(UTC), timespec)
