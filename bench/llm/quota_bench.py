"""Quota and deadline figures, against local stub servers through the real SDKs
(no model, no internet, no real waiting for the quota: the client and the stub
share a fake clock that the waits move):

- a 60-turn match, Gemini Minotaur against the built-in user on tiny, behind a
  stand-in for Gemini's free tier (10 requests a minute, 429 with the wait in
  the body): the last turn the model was asked (every turn: 60), the 429s met,
  the quota waits counted (one a 429) and the paced starts, the minutes waited;
  then the same with --llm-rpm 10 (no 429 at all);
- that quota spent 30 s before the first request: how long ten calls take (the
  429's 30 s once: the window is new when it ends);
- a server that answers 429 for ever, each asking for 5 s, under --hold-limit 5:
  how long (fake clock) a call is held before it fails, per SDK (the hold budget,
  3 holds: it waited for ever before);
- a server that trickles its answer a byte every 0.05 s, and one that hangs,
  under --llm-timeout 0.5: how long the call took (real seconds), per SDK.

    .venv/bin/python bench/llm/quota_bench.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.stubs, the stub servers
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows

from figures import report, row

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.base import SCHEMAS
from labyrinth.agents.llm.providers.errors import ProviderError, QuotaError
from labyrinth.agents.llm.providers.retry import HOLD_BUDGET_FACTOR
from labyrinth.agents.registry import make_transport, transport_class
from tests.stubs import WIRE, FakeClock, Model, PerMinuteQuota, Stub, quota_match

TURNS, DEADLINE_S = 60, 0.5
HOLD_S = 5.0
ASK = ("sys", [("user", "Step 1.")], SCHEMAS["minotaur"])


def behind_a_quota() -> None:
    for rpm in (None, 10):
        stub = Stub()
        try:
            last_asked, quota, clock, match = quota_match(stub, rpm, TURNS)
        finally:
            stub.close()
        pace = f"--llm-rpm {rpm:g}" if rpm else "no pace"
        stats = match.stats["minotaur"]
        report(f"quota 10/min, {pace}: last turn asked", last_asked, f"of {match.turns}",
               target=(">=", TURNS), note=f"{len(quota.refused)} answers 429, {stats.quota_waits} quota waits "
                                          f"({stats.quota_wait_s:.0f} s), {stats.pace_waits} paced starts "
                                          f"({stats.pace_wait_s:.0f} s), {(clock.monotonic() - 1000.0) / 60:.1f} min "
                                          f"waited (fake clock), {stats.fallbacks} fallbacks")


def spent_before() -> None:
    clock, stub = FakeClock(), Stub()
    stub.respond = quota = PerMinuteQuota(Model("gemini"), 10, clock)
    quota.served = [970.0] * 10  # by someone else, 30 s before the first request
    try:
        gemini = transport_class("gemini")(ProviderSettings("gemini", "m", stub.url, api_key="k"), clock)
        for _ in range(10):
            gemini.complete(*ASK)
    finally:
        stub.close()
    report("quota spent before: 10 calls took", clock.monotonic() - 1000.0, "s", target=("<", 31.0),
           note=f"{len(quota.refused)} answers 429, {gemini.calls.quota_waits} quota waits, "
                f"{gemini.calls.pace_waits} paced starts (fake clock)")


def refused_for_ever() -> None:
    for provider in ("gemini", "mistral", "ollama", "openai"):
        clock, stub = FakeClock(), Stub().reply(429, WIRE[provider][1](429, "quota"), {"Retry-After": f"{HOLD_S:g}"})
        url = stub.url + ("/v1" if provider == "openai" else "")
        limited = transport_class(provider)(ProviderSettings(provider, "m", url, api_key="k", hold_s=HOLD_S), clock)
        try:
            limited.complete(*ASK)
            outcome = "answered"
        except QuotaError as error:
            outcome = f"QuotaError, {len(stub.requests)} requests, then none (resume in {error.wait_s:g} s)"
        finally:
            stub.close()
        report(f"{provider}, 429 for ever, --hold-limit {HOLD_S:g}: held", clock.monotonic() - 1000.0, "s",
               target=("<", HOLD_BUDGET_FACTOR * HOLD_S + 1), note=outcome)


def slow_servers() -> None:
    for fault in ("trickle", "hang"):
        for provider in ("gemini", "mistral", "ollama"):
            stub = Stub(Model(provider, {1: fault}))
            try:
                transport = make_transport(ProviderSettings(provider, "m", stub.url, api_key="k",
                                                            timeout_s=DEADLINE_S))
                began = time.perf_counter()
                try:
                    transport.complete("sys", [("user", "Step 1.")], SCHEMAS["minotaur"])
                    outcome = "answered"
                except ProviderError:
                    outcome = "timed out"
                took = time.perf_counter() - began
            finally:
                stub.close()
            report(f"{provider}, {fault}, --llm-timeout {DEADLINE_S:g}", took, "s", fmt=".2f",
                   target=("<", 3 * DEADLINE_S), note=outcome)


def main() -> None:
    row("figure", "value", "target", "", "")
    behind_a_quota()
    spent_before()
    refused_for_ever()
    slow_servers()


if __name__ == "__main__":
    main()
