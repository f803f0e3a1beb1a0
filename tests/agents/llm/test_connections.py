"""Every transport closes its connections: at close(), and when it is dropped unclosed (an agent's fresh
copies share one transport, so only the last one dropped is done). A socket left to the garbage
collector stays open until it runs, then warns (ResourceWarning) in whichever later test it runs in.
An arena closes each match's transports as the match ends: a tournament makes them for hundreds."""

import gc
import warnings

import pytest

from labyrinth.agents.compete.arena import ArenaSettings
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.base import SCHEMAS
from labyrinth.agents.registry import make_transport
from tests.stubs import Model, stub_url

ASK = ("You are the Minotaur.", [("user", "Step 1. Where do you go?")])
# The HTTP client each transport's SDK client connects with, for the providers whose client is the
# transport's own (openai's are shared by the process's transports and closed at exit).
HTTP = {"gemini": lambda sdk: sdk._api_client._httpx_client,
        "mistral": lambda sdk: sdk.sdk_configuration.client,
        "ollama": lambda sdk: sdk._client}


def settings(provider: str, stub) -> ProviderSettings:
    return ProviderSettings(provider, "m", stub_url(stub, provider), api_key="k", timeout_s=5)


@pytest.mark.parametrize("provider", [*HTTP, "openai"])
def test_a_transport_dropped_unclosed_leaves_no_socket_to_the_collector(provider, stub):
    stub.respond = Model(provider)
    transport = make_transport(settings(provider, stub))
    transport.complete(*ASK, SCHEMAS["minotaur"])  # a connection, kept alive for the next call
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        del transport
        gc.collect()
    port = stub.url.rpartition(":")[2]
    assert [str(w.message) for w in caught if f", {port})" in str(w.message)] == []


@pytest.mark.parametrize("provider", HTTP)
def test_an_arena_match_closes_its_models_transports_when_it_ends(provider, stub):
    stub.respond = Model(provider)
    seated = []  # the match's agents, kept as a front's progress display keeps them
    arena = ArenaSettings(user=provider, minotaur=provider, preset="tiny", max_turns=3,
                          providers=((provider, settings(provider, stub)),))
    arena.play(1, seated=seated.append)
    clients = [HTTP[provider](agent.transport.client) for agent in seated[0].values()]
    assert len(stub.requests) > 2 and [client.is_closed for client in clients] == [True, True]
