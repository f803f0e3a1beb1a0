"""The one rule for secrets in text: every configured key, and every URL's user-info
(``http://user:password@host``), is written as REDACTED in whatever text leaves the
provider layer (an error's message, a model's reply, the endpoint shown by doctor).

A gateway may echo the key it refused in its 401 body, and an endpoint may carry a
password; both would otherwise reach the replay, the screen and the next prompt.
Keys are remembered as they are wrapped in a Secret (agents/llm/config.py) and the
user-info of each configured endpoint as its settings are made; any other URL's
user-info is recognised by its form.

Every reply and error passes through ``redact``, so its cost is linear in the text's length
whatever the text holds: a scan that backtracks (as a regex that looks for the scheme before
each "://" did, over every run of letters) would hold the GIL for minutes on a long reply.
"""

from __future__ import annotations

import base64
import re
import threading
from urllib.parse import unquote, urlsplit, urlunsplit

REDACTED = "[REDACTED]"
MIN_SECRET_CHARS = 6  # a shorter "secret" would blot out ordinary words; it is no secret anyway
# A URL's user-info: from its "://" (found by a literal search) to the "@" before the host. The scheme
# is not needed to know a password, and each run scanned ends at a "/", so no character is scanned twice.
USER_INFO = re.compile(r"://[^\s/?#@\"'<>]+@")

_known: set[str] = set()
_lock = threading.Lock()


def remember(*secrets: str | None) -> None:
    """Redact these from now on (in this process)."""
    kept = {s for s in secrets if s and len(s) >= MIN_SECRET_CHARS}
    with _lock:
        _known.update(kept)


def remember_url(url: str | None) -> None:
    """Redact ``url``'s user-info: the user:password pair and the password, as written and decoded, and
    the pair in base64 (the SDKs' httpx sends it as Basic authorization, in place of a Bearer key); and
    its query's values and its fragment, as written and decoded (a gateway's key can ride there:
    ``?key=...``), so that a message naming the endpoint, wherever it goes, holds none of them."""
    if not url or not any(mark in url for mark in "@?#"):
        return
    try:
        parts = urlsplit(url)
    except ValueError:
        return
    if "@" in parts.netloc:
        info = parts.netloc.rpartition("@")[0]
        password = parts.password or ""
        basic = base64.b64encode(unquote(info).encode()).decode()  # as sent in Authorization: Basic, if echoed
        remember(info, unquote(info), password, unquote(password), basic)
    values = [value for _, _, value in (pair.partition("=") for pair in parts.query.split("&"))]
    remember(*values, *map(unquote, values), parts.fragment, unquote(parts.fragment))


def redact(text: str) -> str:
    """``text`` with every known secret and every URL's user-info replaced by REDACTED."""
    if not text:
        return text
    text = USER_INFO.sub(f"://{REDACTED}@", text)
    with _lock:
        known = sorted(_known, key=len, reverse=True)  # a longer secret first: it may hold a shorter one
    for secret in known:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def public_url(url: str) -> str:
    """``url`` without user-info, query or fragment (what a results table or a message may show)."""
    try:
        parts = urlsplit(url)
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit((parts.scheme, host, parts.path, "", ""))
    except ValueError:
        return "(an endpoint that cannot be read)"
