"""Retries shared by every transport: 429 and 5xx are tried again with backoff
(honouring Retry-After), timeouts and refused connections are not; whatever
fails for good becomes one ProviderError line (never a key)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from .base import ProviderError
from .secrets import redact

T = TypeVar("T")

RETRIES = 2  # a call is tried at most three times
BASE_DELAY_S = 0.5
MAX_DELAY_S = 8.0


@dataclass(frozen=True)
class Failure:
    """What one failed call means: the message, and whether to try again and when."""

    message: str
    retryable: bool = False
    retry_after_s: float | None = None


def with_retries(call: Callable[[], T], classify: Callable[[Exception], Failure | None],
                 retries: int = RETRIES, sleep: Callable[[float], None] = time.sleep) -> T:
    """``call()``, tried again while ``classify`` calls its failure retryable; ProviderError when it gives up.
    Exceptions ``classify`` does not know (None) are bugs and propagate."""
    for attempt in range(retries + 1):
        try:
            return call()
        except Exception as exc:
            failure = classify(exc)
            if failure is None:
                raise
            if not failure.retryable or attempt == retries:
                tries = f" (after {attempt + 1} tries)" if attempt else ""
                raise ProviderError(redact(failure.message + tries)) from None
            delay = BASE_DELAY_S * 2 ** attempt if failure.retry_after_s is None else failure.retry_after_s
            sleep(min(max(delay, 0.0), MAX_DELAY_S))
    raise AssertionError("unreachable: the last attempt returns or raises")


def http_failure(provider: str, status: int, detail: str, headers: Mapping[str, str] | None = None) -> Failure:
    """An HTTP error answer: 429 and 5xx are worth another try."""
    first_line = " ".join(str(detail).split())[:160]
    return Failure(f"{provider} answered HTTP {status}: {first_line}", status == 429 or status >= 500,
                   retry_after_s(headers or {}))


def transport_failure(provider: str, exc: Exception, timeout_s: float, where: str) -> Failure | None:
    """What every SDK raises beyond its own HTTP errors: a timeout or an unreachable endpoint
    (httpx, httpx2, or the ollama SDK's own ConnectionError), or a 200 whose body is not the
    API's (not JSON, or missing fields: the SDKs raise bare JSON or pydantic errors); None else."""
    import httpx
    import httpx2
    from pydantic import ValidationError

    if isinstance(exc, (httpx.TimeoutException, httpx2.TimeoutException)):
        return Failure(f"{provider} did not answer within {timeout_s:g} s at {where}")
    if isinstance(exc, (httpx.DecodingError, httpx2.DecodingError, json.JSONDecodeError, ValidationError)):
        return Failure(f"{provider} at {where} sent a reply that is not its API's: {type(exc).__name__}")
    if isinstance(exc, (httpx.TransportError, httpx2.TransportError, ConnectionError)):
        return Failure(f"{provider} is not reachable at {where}: {type(exc).__name__}")
    return None


def patience_s(timeout_s: float) -> float:
    """The longest a call with all its retries may take: every attempt timing out, the longest pauses."""
    return (RETRIES + 1) * timeout_s + RETRIES * MAX_DELAY_S


def retry_after_s(headers: Mapping[str, str]) -> float | None:
    """Seconds the server asked us to wait (retry-after-ms or Retry-After in seconds), if it did."""
    lowered = {k.lower(): v for k, v in headers.items()}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            return float(lowered[name]) * scale
        except (KeyError, ValueError):
            continue  # absent, or an HTTP date: the backoff applies
    return None
