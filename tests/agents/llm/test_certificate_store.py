"""Every provider's HTTP client verifies servers with the process's one certificate store of its HTTP
library (providers/tls.py), which is the library's own default: loading a store costs some 40-70 ms of
CPU, which each transport made paid again before."""

import ssl

import httpx
import httpx2
import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.tls import shared_ssl_context
from labyrinth.agents.registry import make_transport


def pool(client) -> ssl.SSLContext:
    """The store an httpx or httpx2 client's connections verify with."""
    return client._transport._pool._ssl_context


# The stores each SDK client verifies with (its HTTP clients', sync and async, and Gemini's websockets'),
# each with the library whose one store it should be.
STORES = {"gemini": lambda sdk: [(pool(sdk._api_client._httpx_client), httpx2),
                                 (pool(sdk._api_client._async_httpx_client), httpx2),
                                 (sdk._api_client._websocket_ssl_ctx["ssl"], httpx)],
          "mistral": lambda sdk: [(pool(sdk.sdk_configuration.client), httpx2),
                                  (pool(sdk.sdk_configuration.async_client), httpx2)],
          "ollama": lambda sdk: [(pool(sdk._client), httpx)],
          "openai": lambda sdk: [(pool(sdk._client), httpx2)]}


@pytest.mark.parametrize("provider", sorted(STORES))
def test_every_transport_verifies_with_the_one_store_of_its_http_library(provider):
    for _ in range(3):
        transport = make_transport(ProviderSettings(provider, "m", "http://127.0.0.1:9", api_key="k"))
        for store, library in STORES[provider](transport.client):
            assert store is shared_ssl_context(library)


@pytest.mark.parametrize("library", [httpx, httpx2])
def test_the_shared_store_is_made_once_as_the_library_makes_its_default(library):
    shared, default = shared_ssl_context(library), library.create_ssl_context()
    assert shared_ssl_context(library) is shared
    assert shared.verify_mode == ssl.CERT_REQUIRED and shared.check_hostname
    assert shared.cert_store_stats() == default.cert_store_stats() and shared.cert_store_stats()["x509_ca"] > 0
