"""Run as a script by test_first_calls.py, in a fresh interpreter, so that no SDK is imported yet;
prints what it found as JSON.

- ``together``: sixteen first calls at once, as matches that start together make them. Each thread
  makes its transport (the registry's make_transport, as a match's thread makes its agent) and
  calls, all of them let go together; the Mistral, OpenAI, Gemini and Ollama transports take turns,
  each against a stub server of its API (OpenAI's refuses the strict json_schema format, which its
  transport then leaves out), and the first call's server refuses it (a 400). Each call's outcome:
  "ok", or its exception.
- ``late``: every provider loaded as a run loads them before its matches start
  (registry.load_providers), then each transport's calls answered, refused, held by a quota, failed
  by a 5xx and answered with what is not its API's, then dropped: the modules that imported (none
  should: the matches' threads would import them, at once).

    python -m tests.agents.llm.first_calls together|late
"""

from __future__ import annotations

import gc
import json
import sys
import threading

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.base import SCHEMAS
from labyrinth.agents.llm.providers.errors import ProviderError
from labyrinth.agents.registry import load_providers, make_transport, transport_class
from tests.stubs import WIRE, FakeClock, Model, Stub, stub_url, wire

CALLS = 16
PROVIDERS = ("mistral", "openai", "gemini", "ollama")  # the refused first call is Mistral's, whose errors load late
WAIT_S = 60.0  # a bound on the whole: each call is a local request


def together() -> list[str]:
    # OpenAI's servers refuse the strict json_schema format: the call is asked again in the next at once, as the
    # endpoint's refusal (Refused) is told from a failure by the transport's classify
    servers = {provider: Stub(Model(provider, refuses=("json_schema",) if wire(provider) == "openai" else ()))
               for provider in PROVIDERS}
    refusing = Stub().reply(400, WIRE[PROVIDERS[0]][1](400, "Invalid request: a parameter is not supported"), None)
    outcomes = ["not ended"] * CALLS
    together = threading.Barrier(CALLS)

    def call(n: int) -> None:
        provider = PROVIDERS[n % len(PROVIDERS)]
        url = stub_url(refusing if n == 0 else servers[provider], provider)
        settings = ProviderSettings(provider, f"test-{provider}-model", url, api_key="k", timeout_s=WAIT_S / 2)
        together.wait()
        try:
            make_transport(settings).complete("You are the Minotaur.", [("user", "Step 1.")], SCHEMAS["minotaur"])
            outcomes[n] = "ok"
        except Exception as exc:  # noqa: BLE001 - every failure is the outcome, reported
            outcomes[n] = f"{type(exc).__name__}: {exc}"

    threads = [threading.Thread(target=call, args=(n,), daemon=True) for n in range(CALLS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_S)
    for server in (*servers.values(), refusing):
        server.close()
    return outcomes


def late() -> list[str]:
    servers = {provider: Stub(Model(provider, refuses=("json_schema",) if wire(provider) == "openai" else ()))
               for provider in PROVIDERS}
    load_providers(PROVIDERS)
    before = set(sys.modules)
    for provider, server in servers.items():
        url = stub_url(server, provider)
        settings = ProviderSettings(provider, f"test-{provider}-model", url, api_key="k", timeout_s=WAIT_S / 2)
        transport = transport_class(provider)(settings, FakeClock())
        answer, error = WIRE[provider]
        for status, body in ((200, None), (400, error(400, "bad")), (429, error(429, "slow down")),
                             (503, error(503, "overloaded")), (422, error(422, "unprocessable")), (200, "[]"),
                             (200, {"unexpected": True})):
            server.replies[:] = [] if body is None else [(status, body, {"Retry-After": "1"})]
            server.replies += [(200, answer('{"action": "WAIT", "params": {}, "reasoning": "r"}', 5, 5), None)]
            try:
                transport.complete("You are the Minotaur.", [("user", "Step 1.")], SCHEMAS["minotaur"])
            except ProviderError:
                pass  # a failure, told as one: what it loaded is what is looked at
        server.close()
    del transport
    gc.collect()  # a client's finalizer runs in whichever thread drops it
    return sorted(set(sys.modules) - before)


if __name__ == "__main__":
    print(json.dumps({"together": together, "late": late}[sys.argv[1]]()))
