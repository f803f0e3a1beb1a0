"""How a provider's call fails, apart from the transports: the turn loop tells a model's failures
from an agent's by these classes, and it loads for every game, so they import nothing (base.py,
the transports' protocol and replies, loads only when a model plays; it re-exports them)."""

from __future__ import annotations

from typing import Any


class ProviderError(Exception):
    """A call that failed for good (after the transport's retries); one line for logs, never a key.
    ``sent``: what the last attempt put on the wire (a base.Sent), when its transport says."""

    sent: Any = None


class TimedOut(ProviderError):
    """A call that failed because it took too long (no complete answer within its time), not because
    the endpoint said no: counted apart from the other provider errors."""


class QuotaError(ProviderError):
    """A quota (429) whose wait does not fit in the call's deadline: the account's limit, not the
    model's failure, so it never counts towards replacing the agent. ``wait_s``: what was left to wait."""

    def __init__(self, message: str, wait_s: float | None = None) -> None:
        super().__init__(message)
        self.wait_s = wait_s
