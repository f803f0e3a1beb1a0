"""How each model contestant's calls went over a run: the line the tournament and the
arena print at the end (and on Ctrl-C), so that a model that never answered, or whose
matches are void, is named with why, instead of hiding behind the built-in agent that
played in its place. Its counts add up: every call (the opening plans and the lessons
among them) was answered, invalid, a provider error or a timeout; and a setting its
contestant asked for that its requests left out is said, with why."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from labyrinth.saves.results_terms import SideRecord

EXIT_INCOMPLETE = 3  # a run that left matches void or unplayed: its figures are not the whole run's


@dataclass
class Health:
    """One model contestant's calls and matches over a run:
    requests = answered + invalid + provider_errors + timeouts."""

    name: str
    matches: int = 0
    void: int = 0
    requests: int = 0
    plan_calls: int = 0  # of the requests, the opening plans'
    lesson_calls: int = 0  # and the lessons' after the games
    answered: int = 0  # a usable reply
    invalid: int = 0  # a reply that held nothing usable
    provider_errors: int = 0  # failed for good, other than by time
    timeouts: int = 0  # failed because it took too long
    late_turns: int = 0  # turns played without its answer, which came after the turn's deadline
    answer_s: float = 0.0  # the answered calls' time
    replaced: int = 0
    quota_waits: int = 0  # quota answers waited out, one each
    quota_wait_s: float = 0.0
    last_error: str | None = None
    dropped: dict[str, str] = field(default_factory=dict)  # asked settings its requests left out, and why
    pace_waits: int = 0  # starts the endpoint's pace held
    pace_wait_s: float = 0.0

    def add(self, side: SideRecord, void: bool) -> None:
        self.matches += 1
        self.void += void
        self.requests += side.calls
        self.plan_calls += side.plan_calls
        self.lesson_calls += side.lesson_calls
        self.answered += side.answered
        self.invalid += side.invalid
        self.provider_errors += side.provider_errors
        self.timeouts += side.timeouts
        self.late_turns += side.late_turns
        self.answer_s += side.answer_s
        self.replaced += side.replaced
        self.quota_waits += side.quota_waits
        self.quota_wait_s += side.quota_wait_s
        self.last_error = side.last_error or self.last_error
        for setting, why in side.dropped.items():
            self.dropped.setdefault(setting, why)
        self.pace_waits += side.pace_waits
        self.pace_wait_s += side.pace_wait_s

    @property
    def never_answered(self) -> bool:
        """Asked, and not one reply came back (usable or not)."""
        return self.requests > 0 and self.answered + self.invalid == 0

    @property
    def mean_answer_s(self) -> float:
        return self.answer_s / self.answered if self.answered else 0.0

    def line(self) -> str:
        """One line: what was asked and what became of it, what went wrong, what it cost in matches, and
        the settings its requests left out."""
        counts = (f"{self.requests} requests ({self.plan_calls} plans, {self.lesson_calls} lessons): "
                  f"{self.answered} answered, {self.invalid} invalid, {self.provider_errors} provider errors, "
                  f"{self.timeouts} timeouts; {self.mean_answer_s:.2f} s an answer"
                  f"{f', {self.late_turns} late turns' if self.late_turns else ''}; replaced in {self.replaced}, "
                  f"{self.void} of {self.matches} matches void, {self.quota_waits} quota waits "
                  f"({self.quota_wait_s:,.0f} s), {self.pace_waits} paced starts ({self.pace_wait_s:,.0f} s)")
        counts += "".join(f"; {setting} dropped: {why}" for setting, why in sorted(self.dropped.items()))
        if self.never_answered:
            return f"{self.name} NEVER ANSWERED ({self.last_error or 'no reason given'}): {counts}"
        return f"{self.name}: {counts}"


def health(sides: Iterable[tuple[str, str, SideRecord]]) -> list[Health]:
    """Each model contestant's health, by name, from its sides (name, role, record): a match is void
    for it when its own side made it so (SideRecord.void_reason), as the reports count it; rule agents
    are left out: they make no calls."""
    found: dict[str, Health] = {}
    for name, role, side in sides:
        if side.model:
            found.setdefault(name, Health(name)).add(side, side.void_reason(role) is not None)
    return [found[name] for name in sorted(found)]
