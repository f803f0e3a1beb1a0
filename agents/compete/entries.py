"""Every contestant a tournament entered, rated or not: its matches and how many of them are void by
its own doing, how its calls went (the failure rates), what it cost, and who it is (provider,
model, endpoint, the settings it was asked with and the requests its model was actually sent,
the models the API says answered, the settings its requests left out and why). The reports list
every entry, so a model whose matches were all void is seen, with why, rather than vanishing from
a table of the others.

A contestant is known as the ratings know it (ratings.contestant: by what its model was sent; a
void match in which it answered nothing is counted with its matches that sent one thing); its
figures are summed over all the matches it played, void ones included: a void match's calls were
made and paid for. Its cost
is its tokens at the prices its matches were recorded with (a contestant's ``price_in`` and
``price_out``, US dollars per million tokens, reasoning counted as output); unknown without them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from labyrinth.saves.results_db import ROLES, MatchRow
from labyrinth.saves.results_terms import SideRecord

from .paired import score
from .ratings import Contestant, Standings, contestant

PER_MILLION = 1_000_000
PRICES = ("price_in", "price_out")  # a model's prices, beside its settings in a results row


@dataclass
class Entry:
    """One contestant in one role, over every match of it chosen (valid and void)."""

    role: str
    name: str
    setup: str
    label: str  # as the standings name it (its name alone, unless another of its name differs by setup)
    settings: dict[str, Any] = field(default_factory=dict)  # a model's, as asked ({} for a rule agent)
    matches: int = 0
    void: int = 0  # of those, void by its own side's doing (SideRecord.void_reason)
    wins: int = 0  # in its valid matches
    decisions: int = 0
    fallbacks: int = 0
    calls: int = 0
    invalid: int = 0
    provider_errors: int = 0
    timeouts: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    reasoning_tokens: int = 0
    cost: float | None = 0.0  # US dollars; None once a match of it has no prices
    reasons: dict[str, int] = field(default_factory=dict)  # why its matches are void, with how many each
    requests: dict[str, int] = field(default_factory=dict)  # each distinct request its model was sent (JSON): calls
    model_versions: list[str] = field(default_factory=list)  # the models the API says answered, as first seen
    dropped: dict[str, str] = field(default_factory=dict)  # the settings asked that its requests left out: why

    @property
    def model(self) -> bool:
        return bool(self.settings)

    @property
    def host(self) -> str:
        """The endpoint's host (and port), as a report may show it: no path, no local detail."""
        endpoint = str(self.settings.get("endpoint") or "")
        return urlsplit(endpoint).netloc if endpoint else ""

    @property
    def cost_per_win(self) -> float | None:
        return self.cost / self.wins if self.cost is not None and self.wins else None

    def rate(self, part: int, whole: int) -> float | None:
        """``part`` of ``whole`` as a share; None with no whole (no call made, no turn asked)."""
        return part / whole if whole else None

    @property
    def fallback_rate(self) -> float | None:
        return self.rate(self.fallbacks, self.decisions)

    @property
    def invalid_rate(self) -> float | None:
        return self.rate(self.invalid, self.calls)

    @property
    def error_rate(self) -> float | None:
        return self.rate(self.provider_errors, self.calls)

    @property
    def timeout_rate(self) -> float | None:
        return self.rate(self.timeouts, self.calls)

    def add(self, row: MatchRow, side: SideRecord) -> None:
        self.matches += 1
        if why := side.void_reason(self.role):
            self.void += 1
            self.reasons[why] = self.reasons.get(why, 0) + 1
        if row.valid and score(row, self.role) == 1.0:
            self.wins += 1
        self.decisions += side.decisions
        self.fallbacks += side.fallbacks
        self.calls += side.calls
        self.invalid += side.invalid
        self.provider_errors += side.provider_errors
        self.timeouts += side.timeouts
        self.tokens_in += side.tokens_in
        self.tokens_out += side.tokens_out
        self.reasoning_tokens += side.reasoning_tokens
        self.cost = _plus(self.cost, _cost(side))
        sent = side.sent_record
        for request in sent.get("requests") or ():
            if isinstance(request, dict):
                kind = json.dumps({k: v for k, v in request.items() if k != "calls"}, sort_keys=True)
                self.requests[kind] = self.requests.get(kind, 0) + int(request.get("calls") or 0)
        self.model_versions += [str(v) for v in sent.get("model_versions") or () if str(v) not in self.model_versions]
        for setting, why in side.dropped.items():
            self.dropped.setdefault(setting, why)

    @property
    def sent(self) -> list[dict[str, Any]]:
        """Each distinct request its model was sent (parameters, output mode, where the system text went),
        the most used first, with how many calls sent it."""
        ranked = sorted(self.requests.items(), key=lambda item: (-item[1], item[0]))
        return [{**json.loads(kind), "calls": calls} for kind, calls in ranked]

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "name": self.name, "setup": self.setup, "label": self.label,
                "settings": self.settings, "matches": self.matches, "void": self.void, "wins": self.wins,
                "decisions": self.decisions, "fallbacks": self.fallbacks, "calls": self.calls,
                "invalid": self.invalid, "provider_errors": self.provider_errors, "timeouts": self.timeouts,
                "tokens_in": self.tokens_in, "tokens_out": self.tokens_out,
                "reasoning_tokens": self.reasoning_tokens, "cost": self.cost, "cost_per_win": self.cost_per_win,
                "void_reasons": dict(self.reasons), "sent": self.sent, "model_versions": list(self.model_versions),
                "dropped": dict(self.dropped)}


def entries(rows: Iterable[MatchRow], standings: Standings,
            entered: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> dict[str, tuple[Entry, ...]]:
    """Every contestant of ``rows`` (valid and void) by role: the rated ones in the standings' order,
    then those with no valid match, by name; and those ``entered`` (a run's manifest's contestants, by
    role) that no row holds (every match of theirs stopped by a quota, say), with nothing played."""
    rows = list(rows)
    sent = _sent_setups(rows)
    found: dict[Contestant, Entry] = {}
    for row in rows:
        for role in ROLES:
            who = contestant(row, role)
            asked = (role, who.name, getattr(row, f"{role}_setup"))
            if row.side(role).model and not row.side(role).sent_setup and len(sent.get(asked, ())) == 1:
                who = who._replace(setup=next(iter(sent[asked])))  # nothing answered: as its other matches sent
            side = row.side(role)
            entry = found.get(who)
            if entry is None:
                entry = found[who] = Entry(role, who.name, who.setup, standings.label_of(who), _settings(side))
            entry.add(row, side)
    for role, contestants in (entered or {}).items():
        named = {who.name for who in found if who.role == role}
        for c in contestants:
            if c["name"] not in named:
                found[Contestant(role, c["name"], c.get("setup", ""))] = Entry(role, c["name"], c.get("setup", ""),
                                                                                c["name"], dict(c.get("settings", {})))
    placed = {(r.role, r.name, r.setup): i for ratings in standings.ratings.values() for i, r in enumerate(ratings)}
    return {role: tuple(sorted((e for who, e in found.items() if who.role == role),
                               key=lambda e: (placed.get((e.role, e.name, e.setup), len(placed)), e.label)))
            for role in ROLES}


def _sent_setups(rows: list[MatchRow]) -> dict[tuple[str, str, str], set[str]]:
    """For each contestant as it was asked (role, name, setup asked), the fingerprints of what its
    matches sent: a match in which its model answered nothing sent nothing, and is its contestant's
    when its other matches all sent one thing."""
    found: dict[tuple[str, str, str], set[str]] = {}
    for row in rows:
        for role in ROLES:
            if sent := row.side(role).sent_setup:
                found.setdefault((role, getattr(row, role), getattr(row, f"{role}_setup")), set()).add(sent)
    return found


def _settings(side: SideRecord) -> dict[str, Any]:
    """A side's settings as asked, without the prices ({} for a rule agent or a record that is not JSON)."""
    return {k: v for k, v in side.settings_record.items() if k not in PRICES}


def _cost(side: SideRecord) -> float | None:
    """What a side's calls cost at the prices it was recorded with; 0 for a rule agent, None when a
    model's match has no prices."""
    if not side.model:
        return 0.0
    try:
        price_in, price_out = (float(side.settings_record[name]) for name in PRICES)
    except (ValueError, KeyError, TypeError):
        return None
    return (side.tokens_in * price_in + side.tokens_out * price_out) / PER_MILLION


def _plus(total: float | None, more: float | None) -> float | None:
    return None if total is None or more is None else total + more
