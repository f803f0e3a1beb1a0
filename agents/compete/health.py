"""How each model contestant's calls went over a run: the line the tournament and the
arena print at the end (and on Ctrl-C), so that a model that never answered, or whose
matches are void, is named with why, instead of hiding behind the built-in agent that
played in its place."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from labyrinth.saves.results_terms import SideRecord

EXIT_INCOMPLETE = 3  # a run that left matches void or unplayed: its figures are not the whole run's


@dataclass
class Health:
    """One model contestant's calls and matches over a run."""

    name: str
    matches: int = 0
    void: int = 0
    requests: int = 0
    answered: int = 0
    invalid: int = 0
    provider_errors: int = 0
    replaced: int = 0
    quota_waits: int = 0  # quota answers waited out, one each
    quota_wait_s: float = 0.0
    last_error: str | None = None
    pace_waits: int = 0  # starts the endpoint's pace held
    pace_wait_s: float = 0.0

    def add(self, side: SideRecord, void: bool) -> None:
        self.matches += 1
        self.void += void
        self.requests += side.calls
        self.answered += side.answered
        self.invalid += side.invalid
        self.provider_errors += side.provider_errors
        self.replaced += side.replaced
        self.quota_waits += side.quota_waits
        self.quota_wait_s += side.quota_wait_s
        self.last_error = side.last_error or self.last_error
        self.pace_waits += side.pace_waits
        self.pace_wait_s += side.pace_wait_s

    @property
    def never_answered(self) -> bool:
        return self.requests > 0 and self.answered == 0

    @property
    def sound(self) -> bool:
        """Whether every match it played is its own result."""
        return self.void == 0 and not self.never_answered

    def line(self) -> str:
        """One line: what was asked and answered, what went wrong, what it cost in matches."""
        counts = (f"{self.requests} requests, {self.answered} answered, {self.invalid} invalid, "
                  f"{self.provider_errors} provider errors, replaced in {self.replaced}, "
                  f"{self.void} of {self.matches} matches void, {self.quota_waits} quota waits "
                  f"({self.quota_wait_s:,.0f} s), {self.pace_waits} paced starts ({self.pace_wait_s:,.0f} s)")
        if self.never_answered:
            return f"{self.name} NEVER ANSWERED ({self.last_error or 'no reason given'}): {counts}"
        return f"{self.name}: {counts}"


def health(sides: Iterable[tuple[str, SideRecord, bool]]) -> list[Health]:
    """Each model contestant's health, by name, from its sides (name, record, whether the match is
    void); rule agents are left out: they make no calls."""
    found: dict[str, Health] = {}
    for name, side, void in sides:
        if side.model:
            found.setdefault(name, Health(name)).add(side, void)
    return [found[name] for name in sorted(found)]
