"""How long a server asked us to wait, wherever it said so.

- Retry-After (seconds; an HTTP date is not read) and retry-after-ms;
- OpenAI's (and compatible gateways') x-ratelimit-reset-requests / -tokens, as Go
  durations ("1s", "6m0s", "20ms", "1h2m3.5s"): the one whose x-ratelimit-remaining-* is 0,
  else the longest;
- Mistral's ratelimitbysize-reset (seconds);
- Gemini's body, which carries no header: `error.details[]` with "@type"
  "type.googleapis.com/google.rpc.RetryInfo" and "retryDelay": "47s", and "Please retry in
  47.3s." in the message.
When several say, the longest wait is kept: each is a limit the server will enforce.

What is read is cut first (a header's value to HEADER_CHARS, a message to SEARCHED_CHARS) and a
duration longer than DURATION_CHARS is none: a regex that backtracks over a long run of digits
costs the square of its length, and a hostile header of 90 KB would hold the GIL for minutes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
RESETS = ("requests", "tokens")  # x-ratelimit-reset-<what>, paired with x-ratelimit-remaining-<what>
GO_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)")
UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
PLEASE_RETRY = re.compile(r"retry in (\d+(?:\.\d+)?)\s*(ms|s)\b", re.IGNORECASE)
HEADER_CHARS = 256  # the most read of a header's value: a wait is a few characters
SEARCHED_CHARS = 4096  # the most of a message searched for "retry in": Gemini's says it within 700
DURATION_CHARS = 40  # "1h2m3.5s" is 8; a longer duration is none


def quota_wait_s(headers: Mapping[str, str] | None = None, body: Any = None, message: str = "") -> float | None:
    """Seconds the server asked us to wait before the next request, or None if it did not say."""
    error = body.get("error", body) if isinstance(body, dict) else None
    in_body = error.get("message") if isinstance(error, dict) else None
    waits = [w for w in (retry_after_s(headers or {}), rate_limit_reset_s(headers or {}), retry_info_s(body),
                         please_retry_s(message), please_retry_s(str(in_body or ""))) if w is not None and w < math.inf]
    return max(waits) if waits else None  # a wait of more digits than a float holds ("retry in 9999...s") is none


def retry_after_s(headers: Mapping[str, str]) -> float | None:
    """retry-after-ms, or Retry-After in seconds (an HTTP date is not read: None)."""
    lowered = _lowered(headers)
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        seconds = _number(lowered.get(name))
        if seconds is not None:
            return seconds * scale
    return None


def rate_limit_reset_s(headers: Mapping[str, str]) -> float | None:
    """OpenAI's x-ratelimit-reset-* (the exhausted one's, else the longest) or Mistral's ratelimitbysize-reset."""
    lowered = _lowered(headers)
    resets = {what: go_duration_s(lowered.get(f"x-ratelimit-reset-{what}", "")) for what in RESETS}
    exhausted = [resets[w] for w in RESETS if _number(lowered.get(f"x-ratelimit-remaining-{w}")) == 0]
    found = [s for s in (exhausted or resets.values()) if s is not None]
    mistral = _number(lowered.get("ratelimitbysize-reset"))
    found += [mistral] if mistral is not None else []
    return max(found) if found else None


def retry_info_s(body: Any) -> float | None:
    """Gemini's RetryInfo retryDelay ("47s", a protobuf Duration), in an error body (with or without
    its "error" wrapper)."""
    error = body.get("error", body) if isinstance(body, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else ():
        if isinstance(detail, dict) and detail.get("@type") == RETRY_INFO:
            return go_duration_s(str(detail.get("retryDelay", "")))
    return None


def please_retry_s(message: str) -> float | None:
    """"Please retry in 47.3s." in a message (Gemini's quota answers say so)."""
    found = PLEASE_RETRY.search((message or "")[:SEARCHED_CHARS])
    return None if found is None else float(found.group(1)) * UNITS[found.group(2).lower()]


def go_duration_s(text: str) -> float | None:
    """A Go or protobuf duration ("6m0s", "20ms", "47s", "1.5s") in seconds; a bare number is seconds."""
    text = text.strip()
    if len(text) > DURATION_CHARS:
        return None
    if _number(text) is not None:
        return _number(text)
    parts = GO_DURATION.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    return sum(float(n) * UNITS[u] for n, u in parts)


def _lowered(headers: Mapping[str, str]) -> dict[str, str]:
    return {str(k).lower(): str(v)[:HEADER_CHARS] for k, v in headers.items()}


def _number(text: str | None) -> float | None:
    try:
        value = float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return value if value >= 0 and value != float("inf") else None
