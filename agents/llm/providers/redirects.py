"""A redirect to another server is not followed: a key stays with the endpoint it was given for.

Each SDK's HTTP client follows redirects, and httpx drops only the Authorization header on a hop
to another origin: google-genai's key rides in its own header (x-goog-api-key) and reached any
server a 307 named, with the prompt. Every transport's client is made with bounds.event_hooks,
whose response hooks include ``refuse_other_origins``: an answer that redirects to another origin
(another scheme, host or port) is refused before the client builds the next request, whichever
SDK and whatever it sends, and the call fails with RedirectRefused, which retry.transport_failure
makes a ProviderError naming where it pointed (without user-info or query, which may hold a key).
A redirect within the origin is followed as before (a trailing slash, a moved path), and so is
http to https on the same host at the default ports, as httpx itself keeps Authorization there.
"""

from __future__ import annotations

from typing import Any

from .secrets import public_url

DEFAULT_PORTS = {"http": 80, "https": 443}


class RedirectRefused(Exception):
    """An answer that redirected to another origin, not followed: its message says where to."""


def refuse_other_origins(response: Any) -> None:
    """RedirectRefused when ``response`` (an httpx or httpx2 answer) redirects to another origin."""
    if not response.has_redirect_location:
        return
    here = response.request.url
    try:
        there = here.join(response.headers["Location"])
    except Exception:  # noqa: BLE001 - a Location the library cannot read: it refuses it itself
        return
    if not _same_origin(here, there):
        raise RedirectRefused(f"redirected to another server ({public_url(str(there))}): not followed, so that "
                              "the key stays with its endpoint (name that server as the endpoint if it is the "
                              "right one)")


def _same_origin(here: Any, there: Any) -> bool:
    """Whether ``there`` is ``here``'s origin, or its https upgrade on the default ports."""
    ports = [url.port or DEFAULT_PORTS.get(url.scheme) for url in (here, there)]
    if here.host != there.host:
        return False
    return (here.scheme, ports[0]) == (there.scheme, ports[1]) or \
        (here.scheme, ports[0], there.scheme, ports[1]) == ("http", 80, "https", 443)
