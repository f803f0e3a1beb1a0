"""A key goes only to the endpoint it was given for, through each real SDK client against stand-in
servers: a 307 to another server (another port of 127.0.0.1 is another origin) is not followed by
any of the four, in a chat or in doctor's check, and says where it pointed without the query that
may hold a key; a redirect within the server is followed as before; and an Ollama contestant with
an endpoint of its own never sends the OLLAMA_API_KEY its SDK reads from the environment."""

from __future__ import annotations

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.base import SCHEMAS
from labyrinth.agents.llm.providers.errors import ProviderError
from labyrinth.agents.registry import make_transport, parse_contestant
from labyrinth.saves.config import config_path
from labyrinth.saves.providers import PROVIDERS
from tests.stubs import CHAT_PATHS, Model, Stub, stub_url

ASK = ("You are the Minotaur.", [("user", "Step 1. Where do you go?")])
KEY = "KEY-stays-home-4f2a9c"
KEY_HEADERS = ("authorization", "x-goog-api-key")
MODEL = {"gemini": "gemini-2.5-flash", "mistral": "mistral-small-latest", "ollama": "qwen3:8b",
         "openai": "gpt-4o-mini"}


def base_url(provider: str, stub: Stub) -> str:
    return stub_url(stub, provider)


def key_headers(stub: Stub) -> list[dict[str, str]]:
    return [{k.lower(): v for k, v in r["headers"].items() if k.lower() in KEY_HEADERS} for r in stub.requests]


@pytest.fixture
def elsewhere():
    """The server a redirect points to: it logs what it receives and answers as the API would."""
    servers: list[Stub] = []

    def make(provider: str) -> Stub:
        servers.append(Stub(Model(provider)))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


@pytest.mark.parametrize("provider", list(PROVIDERS))
@pytest.mark.parametrize("call", ["chat", "check"])
def test_a_redirect_to_another_server_is_not_followed_and_says_where_it_pointed(provider, call, stub, elsewhere):
    other = elsewhere(provider)
    stub.respond = lambda request: (307, "", {"Location": f"{other.url}{request['path']}?key=QUERY-SECRET-77"})
    transport = make_transport(ProviderSettings(provider, MODEL[provider], base_url(provider, stub), api_key=KEY,
                                                timeout_s=5))
    with pytest.raises(ProviderError) as failed:
        transport.complete(*ASK, SCHEMAS["minotaur"]) if call == "chat" else transport.check()
    assert other.requests == []  # neither the key nor the prompt reached it
    assert key_headers(stub)[0] in ({"authorization": f"Bearer {KEY}"}, {"x-goog-api-key": KEY})  # sent at home
    said = str(failed.value)
    assert f"redirected to another server ({other.url}/" in said and "not followed" in said
    assert "QUERY-SECRET" not in said and len(stub.requests) == 1  # not tried again


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_a_redirect_within_the_server_is_followed_with_the_key(provider, stub):
    model = Model(provider)

    def moved(request):
        if request["path"].startswith("/moved"):
            return model({**request, "path": request["path"].removeprefix("/moved")})
        return 307, "", {"Location": f"{stub.url}/moved{request['path']}"}

    stub.respond = moved
    transport = make_transport(ProviderSettings(provider, MODEL[provider], base_url(provider, stub), api_key=KEY,
                                                timeout_s=5))
    assert '"action"' in transport.complete(*ASK, SCHEMAS["minotaur"]).text
    assert [r["path"].startswith("/moved") for r in stub.requests] == [False, True]
    assert key_headers(stub)[1] == key_headers(stub)[0] != {}


def test_ollama_sends_only_the_key_it_was_given_never_the_environments(stub, monkeypatch):
    monkeypatch.setenv("OLLAMA_API_KEY", "ENV-OLLAMA-KEY-31d8")
    stub.respond = Model("ollama")
    for given, sent in ((None, {}), ("GIVEN-OLLAMA-KEY-9e", {"authorization": "Bearer GIVEN-OLLAMA-KEY-9e"})):
        stub.requests.clear()
        transport = make_transport(ProviderSettings("ollama", "qwen3:8b", stub.url, api_key=given, timeout_s=5))
        transport.complete(*ASK, SCHEMAS["minotaur"])
        transport.check()
        assert key_headers(stub) == [sent, sent]


def test_an_ollama_contestant_with_its_own_endpoint_gets_no_key_from_the_environment(stub, monkeypatch):
    monkeypatch.setenv("OLLAMA_API_KEY", "ENV-OLLAMA-KEY-31d8")
    stub.respond = Model("ollama")
    config_path().parent.mkdir(parents=True)
    config_path().write_text(f'[contestants.far-qwen]\nprovider = "ollama"\nmodel = "qwen3:8b"\n'
                             f'base_url = "{stub.url}"\n'
                             '[contestants.near-qwen]\nprovider = "ollama"\nmodel = "qwen3:8b"\n')
    far = parse_contestant("user", "far-qwen").settings()
    assert far.api_key is None
    make_transport(far).complete(*ASK, SCHEMAS["minotaur"])
    assert key_headers(stub) == [{}]
    near = parse_contestant("user", "near-qwen").settings()  # the provider's endpoint: the provider's key
    assert near.api_key is not None and near.api_key.reveal() == "ENV-OLLAMA-KEY-31d8"
    assert [r["path"] for r in stub.requests] == [CHAT_PATHS["ollama"]]
