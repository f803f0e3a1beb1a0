"""What a results row says that is used without the database: how one side played a match
(``SideRecord``, which the turn loop fills for every match), when that makes the match void, and
the words the command line's help quotes. Apart from results_db.py so that a game that keeps no
results (the pipe, the game screen) does not load SQLite and the database's code at start-up;
results_db.py imports what it needs of them."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal, get_args

Role = Literal["user", "minotaur"]  # the sides of a match, in the order the engine names them
ROLES: tuple[str, ...] = get_args(Role)  # as a results row, a replay and the experience log name them
ROLE_WORDS = dict(zip(ROLES, ("user", "Minotaur"), strict=True))  # each side, as a sentence names it
USER_SCORE = {"ESCAPED": 1.0, "TIMEOUT": 0.5, "DEATH": 0.0}  # a match's, the user's (the Minotaur's: 1 minus it)
NOBODY = "none"  # the learned of a match where neither side learned from the experience log
FALLBACK_SHARE_ALLOWED = 0.10  # a model whose turns were played by the fallback more often did not play the match
SETUP_CHARS = 12  # a setup's fingerprint: 48 bits of a SHA-256, enough to tell a run's contestants apart


def learned_by(learners: Iterable[str]) -> str:
    """Who learned from the experience log, as rows and manifests keep it: the learning roles in ROLES' order,
    joined by "+" ("user+minotaur"), or NOBODY."""
    chosen = set(learners)
    return "+".join(role for role in ROLES if role in chosen) or NOBODY


LEARNED = tuple(learned_by(chosen) for chosen in ((), *((role,) for role in ROLES), ROLES))  # every learned


def fingerprint(value: Any, chars: int = SETUP_CHARS) -> str:
    """A short fingerprint of ``value`` (JSON, its keys sorted; ``chars`` hex digits of its SHA-256): a
    contestant's setup, asked or sent, a game as played, the lessons a run learned from."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:chars]


@dataclass(frozen=True)
class SideRecord:
    """How one side played a match: what its contestant is, what its model was sent, and what became
    of its answers. A model's calls add up: calls = answered + invalid + provider_errors + timeouts."""

    settings: str = "{}"  # a model's provider, model, endpoint (no key, no password) and sampling settings as its
    # contestant asks for them, as JSON (what the match's key is made from), with its prices when set (which are not)
    decisions: int = 0  # turns it was asked for
    fallbacks: int = 0  # turns played by the fallback instead of its answer
    invalid: int = 0  # model calls whose reply held nothing usable (a rule agent's: actions that are no command)
    provider_errors: int = 0  # model calls that failed for good other than by time (after retries)
    refused: int = 0  # actions the game refused (ERROR)
    exceptions: int = 0
    timeouts: int = 0  # model calls that failed because they took too long
    late_turns: int = 0  # turns whose answer missed the match's deadline
    calls: int = 0  # model calls: plan, decisions, lesson; not the built-in agent's turns after a replacement
    plan_calls: int = 0  # of the calls, the opening plan's
    lesson_calls: int = 0  # of the calls, the lesson's after the game
    answered: int = 0  # calls whose reply was usable
    answer_s: float = 0.0  # the time the answered calls took (not a quota's or the pace's hold)
    quota_waits: int = 0  # quota answers (429) waited out, one each (in a row kept before pace_waits: every wait)
    quota_wait_s: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0  # reasoning included
    reasoning_tokens: int = 0  # of tokens_out: thinking the model did before answering
    replaced: bool = False  # its model kept failing and the built-in agent took over
    last_error: str | None = None  # the last provider error, one redacted line
    sent: str = "{}"  # what its model was sent, as JSON: prompt_version, requests (each distinct request of the calls
    # the API answered: parameters, output mode, where the system text went, and how many calls), model_versions
    # (the models the API says answered), dropped (the asked settings left out: why); {} for a rule agent
    pace_waits: int = 0  # starts the endpoint's pace held (--llm-rpm, the spread after a quota answer)
    pace_wait_s: float = 0.0

    @property
    def model(self) -> bool:
        """Whether a model played this side (a rule agent's settings are empty)."""
        return self.settings != "{}"

    # Read once each (a frozen record: they cannot change): the reports and ratings ask for them several
    # times a side, over thousands of matches.
    @cached_property
    def settings_record(self) -> dict[str, Any]:
        """``settings`` read ({} when it is none, or not an object)."""
        return json_object(self.settings)

    @cached_property
    def sent_record(self) -> dict[str, Any]:
        """``sent`` read ({} when it is none, or not an object)."""
        return json_object(self.sent)

    @property
    def dropped(self) -> dict[str, str]:
        """The asked settings its model's requests left out, and why ({"temperature": "refused by the server"})."""
        found = self.sent_record.get("dropped")
        return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}

    @cached_property
    def sent_setup(self) -> str:
        """A short fingerprint of what its model was sent, as ``setup`` is of what it was asked for: the
        provider, the public endpoint and each distinct request (the parameters with the model's name as
        sent, the output mode, where the system text went), never the asked settings; two sides with one
        played on byte-identical requests. "" for a rule agent, or a model the API never answered."""
        requests = self.sent_record.get("requests")
        if not isinstance(requests, list) or not requests:
            return ""
        asked = self.settings_record
        kinds = sorted(({k: v for k, v in r.items() if k != "calls"} for r in requests if isinstance(r, dict)),
                       key=lambda kind: json.dumps(kind, sort_keys=True))  # in one order, however they came
        return fingerprint({"provider": asked.get("provider"), "endpoint": asked.get("endpoint"), "requests": kinds})

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
                    f"({self.provider_errors} provider errors, {self.timeouts} timeouts, "
                    f"{self.invalid} answers without an action)")
        if self.decisions and self.fallbacks > FALLBACK_SHARE_ALLOWED * self.decisions:
            return (f"{self.fallbacks} of the {ROLE_WORDS[role]}'s {self.decisions} turns were played by the fallback "
                    f"(more than {FALLBACK_SHARE_ALLOWED:.0%})")
        return None


def void_of(sides: dict[str, SideRecord]) -> str | None:
    """Why a match with these sides (by role) is no valid result of its contestants, "void: " and the first side's
    reason in ROLES' order; None when both played it. A row is judged by it, and an arena's match as it ends."""
    reasons = [why for role in ROLES if (why := sides[role].void_reason(role))]
    return f"void: {reasons[0]}" if reasons else None


def json_object(text: str) -> dict[str, Any]:
    """``text`` as a JSON object ({} when it is not one: a row of an older schema, a damaged one)."""
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return found if isinstance(found, dict) else {}
