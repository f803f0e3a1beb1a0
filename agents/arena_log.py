"""The arena's side of the experience log: the lessons a run starts from, and each
match's reflections written as the match ends.

Only the process that runs the arena touches the log (the workers only play),
and every match learns from the log as it was when the run began, so writing as
matches end changes nothing in the results, while a kill loses only the matches
still being played. The log failing is never the run failing: a log that cannot
be used means a run without memory, a write that fails keeps its reflections
for the next write, and what was never written is told in one line at the end.
"""

from __future__ import annotations

from saves.experience import Experience, Reflection

from .runner import MatchResult

# The errors of the log's storage: the operating system's, and the saves package's own (all ValueErrors).
LOG_ERRORS = (OSError, ValueError)


def describe(error: Exception) -> str:
    """One line for a person: which file, and what is wrong with it."""
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    return " ".join(str(error).split()) or type(error).__name__


def open_log(log: Experience) -> tuple[tuple[Reflection, ...], str | None]:
    """The lessons in ``log`` and its notice for the user (a damaged log set aside), or
    LogUnusable when the log can be neither read nor safely written."""
    try:
        lessons = tuple(log.read())
    except LOG_ERRORS as error:
        raise LogUnusable(f"the experience log cannot be used ({describe(error)}); playing without memory") \
            from None
    notice = log.take_notice()
    if notice and log.path.exists():  # not set aside but still there: unreadable, so writing would lose it
        raise LogUnusable(f"{notice.rstrip('.')}; playing without memory")
    return lessons, notice


class LogUnusable(Exception):
    """The experience log can be neither read nor written here; the message says why, in one line."""


class ReflectionKeeper:
    """Adds each finished match's reflections to the log; ``keep`` is an arena's ``on_result``."""

    def __init__(self, log: Experience) -> None:
        self.log = log
        self.waiting: list[Reflection] = []  # drawn but not yet written
        self.problem: str | None = None  # why the last write failed

    def keep(self, result: MatchResult) -> None:
        self.waiting.extend(result.reflections)
        if not self.waiting:
            return
        try:
            self.log.add(self.waiting)
        except LOG_ERRORS as error:
            self.problem = describe(error)
            return
        self.waiting = []

    def report(self) -> str | None:
        """One line about reflections that could not be written, or None when all were."""
        if not self.waiting:
            return None
        return (f"the experience log could not be written ({self.problem}); {len(self.waiting)} reflections "
                f"of this run were not kept")
