"""What a results row says that is used without the database: how one side played a match
(``SideRecord``, which the turn loop fills for every match), when that makes the match void, and
the words the command line's help quotes. Apart from results_db.py so that a game that keeps no
results (the pipe, the game screen) does not load SQLite and the database's code at start-up;
results_db.py re-exports them."""

from __future__ import annotations

from dataclasses import dataclass

NOBODY = "none"  # the learned of a match where neither side learned from the experience log
FALLBACK_SHARE_ALLOWED = 0.10  # a model whose turns were played by the fallback more often did not play the match
ROLE_WORDS = {"user": "user", "minotaur": "Minotaur"}  # as a sentence names them


@dataclass(frozen=True)
class SideRecord:
    """How one side played a match: what its contestant is, and what became of its answers."""

    settings: str = "{}"  # a model's provider, model, endpoint (no key, no password) and sampling settings, as JSON
    decisions: int = 0  # turns it was asked for
    fallbacks: int = 0  # turns played by the fallback instead of its answer
    invalid: int = 0  # answers that held no valid action
    provider_errors: int = 0  # calls that failed for good (after retries)
    refused: int = 0  # actions the game refused (ERROR)
    exceptions: int = 0
    timeouts: int = 0  # turns whose answer missed the match's deadline
    calls: int = 0  # model calls: plan, decisions, lesson; not the built-in agent's turns after a replacement
    answered: int = 0  # calls that came back with a reply (usable or not)
    call_s: float = 0.0  # the time those calls took
    quota_waits: int = 0  # quota answers (429) waited out, one each (in a row kept before pace_waits: every wait)
    quota_wait_s: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0  # reasoning included
    reasoning_tokens: int = 0  # of tokens_out: thinking the model did before answering
    replaced: bool = False  # its model kept failing and the built-in agent took over
    last_error: str | None = None  # the last provider error, one redacted line
    pace_waits: int = 0  # starts the endpoint's pace held (--llm-rpm, the spread after a quota answer)
    pace_wait_s: float = 0.0

    @property
    def model(self) -> bool:
        """Whether a model played this side (a rule agent's settings are empty)."""
        return self.settings != "{}"

    @property
    def mean_call_s(self) -> float:
        return self.call_s / self.calls if self.calls else 0.0

    def void_reason(self, role: str) -> str | None:
        """Why this side's model did not play the match, or None if it did. A rule agent's answers the
        game refuses are its play; a turn on which it raised is not (the fallback played it: a bench's
        scripted player whose every decision raised once stood still through a whole table)."""
        if not self.model:
            if self.exceptions:
                return (f"the {ROLE_WORDS[role]}'s agent failed on {self.exceptions} of its {self.decisions} turns, "
                        "which the fallback played")
            return None
        if self.replaced:
            return (f"the {ROLE_WORDS[role]}'s model was replaced by the built-in agent after failing in a row "
                    f"({self.provider_errors} provider errors, {self.invalid} answers without an action)")
        if self.decisions and self.fallbacks > FALLBACK_SHARE_ALLOWED * self.decisions:
            return (f"{self.fallbacks} of the {ROLE_WORDS[role]}'s {self.decisions} turns were played by the fallback "
                    f"(more than {FALLBACK_SHARE_ALLOWED:.0%})")
        return None
