"""The most of an answer any transport reads, bounded where it saves memory: in the SDK's own
HTTP client, before the body is read.

Each of the four SDKs reads a whole body into memory before it parses it (a 50 MB answer
cost 422 MB and 10 CPU-s). Every client is given ``event_hooks()`` (httpx's and httpx2's take
the same): a request asks for the body as it is, since a small gzip body can expand past any
bound; an answer
- whose Content-Length is over MAX_BODY_BYTES is refused before a byte of its body is read;
- whose body (chunked, or its length unsaid) runs past MAX_BODY_BYTES is read that far and
  abandoned, its connection closed;
- in an encoding that was not asked for is refused;
each with BodyRefused, which retry.transport_failure makes a ProviderError saying why. Its
headers are bounded by the HTTP library itself (h11 refuses a head over 100 KB).

The hooks also note, in the thread that made the request, that an answer arrived: what the
SDK raises after that, while it reads the answer, is the answer's fault (retry.read_answer); and
they refuse a redirect to another server, which would take the key there (redirects.py).
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from .redirects import refuse_other_origins

# An answer's text is at most REPLY_TOKENS plus the thinking room of THINKING_TOKENS["high"], under
# 17,000 tokens: some 100 KB even as JSON escapes (\uXXXX, six bytes a character). The largest bodies
# otherwise are the model catalogues `labyrinth doctor` lists (a gateway's hundreds of models). 4 MiB
# holds all of these many times over and keeps a call's memory to a few tens of MB.
MAX_BODY_BYTES = 4 << 20
PLAIN = ("", "identity")  # the Content-Encoding of a body sent as it is
LENGTH_DIGITS = 19  # a Content-Length with more digits is no length (int() would read 4,300 of them)

_arrivals = threading.local()


class BodyRefused(Exception):
    """An answer whose body was not read (or not to its end): its message says what it was."""


def event_hooks(*on_answer: Callable[[Any], None],
                on_request: Callable[[Any], None] | None = None) -> dict[str, list[Callable[[Any], None]]]:
    """The event hooks an httpx or httpx2 client is made with; ``on_answer`` (a transport's own
    checks of an answer) run after the bound is in place and a redirect elsewhere is refused;
    ``on_request`` (a transport's own touch to each request) after the body is asked for as it is."""
    return {"request": [_ask_plain, *([on_request] if on_request else [])],
            "response": [_bound, refuse_other_origins, *on_answer]}


def expect_answer() -> None:
    """A request is about to be made in this thread: no answer has arrived for it yet."""
    _arrivals.arrived = False


def answer_arrived() -> bool:
    """Whether an answer has arrived in this thread since ``expect_answer()``."""
    return getattr(_arrivals, "arrived", False)


def _ask_plain(request: Any) -> None:
    request.headers["Accept-Encoding"] = "identity"


def _bound(response: Any) -> None:
    _arrivals.arrived = True
    encoding = response.headers.get("Content-Encoding", "").strip().lower()
    if encoding not in PLAIN:
        raise BodyRefused(f"a reply encoded as {encoding[:40]!r}, which was not asked for")
    size = _length(response.headers.get("Content-Length"))
    if size is not None and size > MAX_BODY_BYTES:
        raise BodyRefused(f"a reply of {size:,} bytes (at most {MAX_BODY_BYTES:,} are read)")
    library = sys.modules[type(response).__module__.partition(".")[0]]  # httpx or httpx2
    response.stream = _capped(library.SyncByteStream)(response.stream)


def _length(header: str | None) -> int | None:
    """A Content-Length's bytes, if it says a number (a count of bytes is read anyway)."""
    text = (header or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= LENGTH_DIGITS else None


@functools.cache
def _capped(stream_class: type) -> type:
    """A body stream of ``stream_class``'s library (which reads only its own kind) that ends with
    BodyRefused once more than MAX_BODY_BYTES have come; the client then closes it, and with it
    the connection."""

    class Capped(stream_class):  # a base known only when called: the library's own
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __iter__(self) -> Iterator[bytes]:
            read = 0
            for chunk in self.inner:
                read += len(chunk)
                if read > MAX_BODY_BYTES:
                    raise BodyRefused(f"a reply of more than {MAX_BODY_BYTES:,} bytes")
                yield chunk

        def close(self) -> None:
            self.inner.close()

    return Capped
