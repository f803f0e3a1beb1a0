"""Quota and deadline figures, against local stub servers through the real SDKs
(no model, no internet, no real waiting for the quota: the client and the stub
share a fake clock that the waits move):

- a 60-turn match, Gemini Minotaur against the built-in user on tiny, behind a
  stand-in for Gemini's free tier (10 requests a minute, 429 with the wait in
  the body): the last turn the model was asked (every turn: 60), the 429s met,
  the minutes waited; then the same with --llm-rpm 10 (no 429 at all);
- a server that trickles its answer a byte every 0.05 s, and one that hangs,
  under --llm-timeout 0.5: how long the call took (real seconds), per SDK.

    .venv/bin/python bench/quota_bench.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.stubs, the stub servers

from run import report, row  # bench/ is on sys.path, as this file runs as a script

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.base import SCHEMAS
from labyrinth.agents.llm.providers.errors import ProviderError
from labyrinth.agents.registry import make_transport
from tests.stubs import Model, Stub, quota_match

TURNS, DEADLINE_S = 60, 0.5


def behind_a_quota() -> None:
    for rpm in (None, 10):
        stub = Stub()
        try:
            last_asked, quota, clock, match = quota_match(stub, rpm, TURNS)
        finally:
            stub.close()
        pace = f"--llm-rpm {rpm:g}" if rpm else "no pace"
        report(f"quota 10/min, {pace}: last turn asked", last_asked, f"of {match.turns}",
               target=(">=", TURNS), note=f"{len(quota.refused)} answers 429, "
                                          f"{(clock.monotonic() - 1000.0) / 60:.1f} min waited (fake clock), "
                                          f"{match.stats['minotaur'].fallbacks} fallbacks")


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
            report(f"{provider}, {fault}, --llm-timeout {DEADLINE_S:g}", took, "s", fmt=".2f", target=("<", 3 * DEADLINE_S), note=outcome)


def main() -> None:
    row("figure", "value", "target", "", "")
    behind_a_quota()
    slow_servers()


if __name__ == "__main__":
    main()
