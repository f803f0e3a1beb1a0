"""How every transport makes a call: one deadline for the call's own work, each request
bounded as a whole, quotas waited out or the match held, 5xx tried again; whatever fails
for good becomes one ProviderError line (never a key).

- A request may take at most `timeout_s` (--llm-timeout) from sending to the last byte
  of the answer. The SDKs' own timeouts are per read (a server that trickles a byte a
  second never trips them), so the request runs in a daemon thread that is waited for
  that long and then abandoned.
- A call (a decision, a plan, a lesson) tries a 5xx again (RETRIES more times, with
  backoff, honouring Retry-After), all within call_deadline_s(timeout_s) of its own work.
- A wait for the endpoint's quota (a 429's wait) or its pace is not the call's work: the
  call is *held* (the deadline moves on by the time waited, and the turn loop waits as
  long), so a quota never turns a turn into a fallback. A wait longer than the hold
  (``hold_s``: --hold-limit in a tournament or an arena, QUOTA_WAIT_S in a game with a
  person) fails at once with a QuotaError saying how long, which is not the model's
  failure: a tournament stops there, saying when to resume; a game plays the fallback.
- So does any call once the endpoint has answered nothing but quota answers for longer than
  the hold budget (HOLD_BUDGET_FACTOR times the hold; pacing.Pace.refusing), the wait it
  last asked for in the QuotaError: without it, a server answering 429 for ever with waits
  within the hold held a tournament for ever (issue 38). Any other answer starts it again.
- The waits are counted apart by cause: a quota wait is one 429 waited out (the wait that
  followed it), a pace wait a start the endpoint's pace held otherwise (--llm-rpm, the spread
  after a quota answer, another call's 429); and a wait over pacing.LONG_WAIT_S is announced
  as it starts (pacing.long_waits_to: a tournament prints it).
- Timeouts and refused connections are not tried again.
- What an SDK needs is imported before any call, never in a request's thread (sdk_imports).
- An answer is read only so far (bounds.py), and what its SDK raises while reading one
  (RecursionError on a body nested deep, ValueError on a number too long or bytes that are
  not UTF-8, TypeError on a shape it did not expect) is the answer's failure, for a call of
  any kind; only an exception raised before any answer came is a bug, and propagates.
- Every text that came from outside is cut before it is parsed or shown: an error's detail
  to ERROR_CHARS, the failure's message to MESSAGE_CHARS.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from labyrinth.engine.commands import shorten

from .bounds import BodyRefused, answer_arrived, expect_answer
from .errors import ProviderError, QuotaError, TimedOut
from .limits import QUOTA_WAIT_S
from .pacing import LONG_WAIT_S, SYSTEM_CLOCK, Clock, LongWait, Waiting, announce, shared_pace
from .quota import quota_wait_s
from .redirects import RedirectRefused
from .sdk_imports import IMPORT_LOCK, imported
from .secrets import redact

if TYPE_CHECKING:
    from .base import Sent

T = TypeVar("T")

RETRIES = 2  # a 5xx is tried at most three times
BASE_DELAY_S = 0.5
MAX_DELAY_S = 8.0
QUOTA_FLOOR_S = 0.05  # the least a quota answer is waited out ("Retry-After: 0" must not spin)
HOLD_BUDGET_FACTOR = 3.0  # an endpoint's calls are held by quota answers alone at most this many holds in all
MARGIN_S = 1.0  # the runner waits this much beyond a call's deadline: the agent gives up first
ERROR_CHARS = 4096  # the most of an error's detail read (for a quota's wait) and shown (its first 160)
MESSAGE_CHARS = 600  # the most of a failure's message kept (an endpoint's URL is a setting: any length)


@dataclass(frozen=True)
class Failure:
    """What one failed request means: the message, whether to try again and when, whether
    it is a quota answer (waited out, never the model's failure) and whether it took too long."""

    message: str
    retryable: bool = False
    retry_after_s: float | None = None
    quota: bool = False
    timed_out: bool = False  # no complete answer in time: a call that fails so raises TimedOut


class Overran(Exception):
    """A request that had not ended within its time (whatever its SDK's per-read timeout)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no complete answer within {seconds:g} s")
        self.seconds = seconds


class ForeignReply(Exception):
    """A 200 whose body is JSON but not the API's object (`[]`, `null`): the SDK would raise a bare TypeError."""


class Unreadable(Exception):
    """Python's own error (RecursionError, ValueError, TypeError, ...), raised while an answer that
    had arrived was read and of a kind its transport's classify does not know: the answer's fault,
    whatever the type (``error``). A transport's own exceptions (openai's Refused) are not this."""

    def __init__(self, error: Exception) -> None:
        super().__init__(type(error).__name__)
        self.error = error


def call_deadline_s(timeout_s: float) -> float:
    """The longest one call may work: every attempt at its limit and the longest pauses between
    them (the quota's and the pace's waits come on top: they hold the call)."""
    return (RETRIES + 1) * timeout_s + RETRIES * MAX_DELAY_S


def patience_s(timeout_s: float) -> float:
    """How long the runner waits for a decision beyond the time it is held: the call's deadline and
    a margin, so that the agent's own failure is what gets counted."""
    return call_deadline_s(timeout_s) + MARGIN_S


def within(seconds: float, call: Callable[[], T]) -> T:
    """``call()``, or Overran once ``seconds`` have passed (the call goes on in its daemon thread,
    abandoned: its answer or error is dropped)."""
    values: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            values.append(call())
        except BaseException as exc:  # noqa: BLE001 -- handed over to the caller, or dropped if abandoned
            errors.append(exc)

    worker = threading.Thread(target=run, name="llm-request", daemon=True)
    worker.start()
    worker.join(max(seconds, 0.0))
    if worker.is_alive():
        raise Overran(seconds)
    if errors:
        raise errors[0]
    return values[0]


def read_answer(call: Callable[[], T], classify: Callable[[Exception], Failure | None],
                arrivals: list[bool] | None = None) -> T:
    """``call()``, in the thread that makes its request; Python's own errors that it raises once an
    answer has arrived, and ``classify`` does not know, are Unreadable. ``arrivals`` is told whether
    an answer arrived (any status), once the call is over."""
    expect_answer()
    try:
        return call()
    except Exception as exc:
        if answer_arrived() and type(exc).__module__ == "builtins" and classify(exc) is None:
            raise Unreadable(exc) from exc
        raise
    finally:
        if arrivals is not None:
            arrivals.append(answer_arrived())


class Caller:
    """One transport's calls to ``provider`` at ``endpoint``: bounded, paced and retried as above.
    ``waiting`` says what a call is waiting for while it waits (None otherwise); ``quota_waits`` and
    ``quota_wait_s`` count the quota answers waited out (one each) and the time their waits held the
    calls; ``pace_waits`` and ``pace_wait_s`` the other starts the endpoint's pace held (--llm-rpm, the
    spread after a quota answer, another call's quota answer) and for how long (``held_s()``: all of
    it, with the wait under way). ``who`` names the calls in a long wait's announcement (pacing.LongWait):
    the provider, unless the agent says whose they are."""

    def __init__(self, provider: str, endpoint: str, timeout_s: float, rpm: float | None = None,
                 clock: Clock = SYSTEM_CLOCK, hold_s: float = QUOTA_WAIT_S) -> None:
        self.provider, self.timeout_s, self.clock, self.hold_s = provider, timeout_s, clock, hold_s
        self.pace = shared_pace(provider, endpoint, rpm, clock)
        self.who = provider
        self.waiting: Waiting | None = None
        self.quota_waits, self.quota_wait_s = 0, 0.0
        self.pace_waits, self.pace_wait_s = 0, 0.0
        self._wait_began: float | None = None

    def held_s(self) -> float:
        """Seconds this transport's calls have been held so far, the wait under way included."""
        began = self._wait_began
        return self.quota_wait_s + self.pace_wait_s + (self.clock.monotonic() - began if began is not None else 0.0)

    def __call__(self, call: Callable[[], T], classify: Callable[[Exception], Failure | None],
                 sent: Sent | None = None) -> T:
        """``call()``, within the call's deadline; ProviderError (QuotaError for a quota) when it gives up,
        carrying ``sent`` (what the request put on the wire: the record of a failed call says it too).
        Exceptions ``classify`` does not know (None) are bugs and propagate."""
        try:
            return self._attempts(call, classify)
        except ProviderError as failed:
            failed.sent = sent
            raise

    def _attempts(self, call: Callable[[], T], classify: Callable[[Exception], Failure | None]) -> T:
        """``call()`` tried again as its failures allow, waiting as quotas and backoff ask."""
        deadline = self.clock.monotonic() + call_deadline_s(self.timeout_s)
        attempt = quota_answers = 0
        refused = False  # the last answer was a quota's: the next wait is its own
        while True:
            deadline += self._take_turn(refused)
            limit = min(self.timeout_s, deadline - self.clock.monotonic())
            arrivals: list[bool] = []
            try:
                reply = within(limit, partial(read_answer, call, classify, arrivals))
            except Exception as exc:
                failure = classify(exc)
                if failure is None:
                    raise
            else:
                self.pace.answered()
                return reply
            refused = failure.quota
            if failure.quota:  # wait as asked (or back off), in the next _take_turn; not an attempt
                asked = failure.retry_after_s
                self.pace.hold(BASE_DELAY_S * 2 ** quota_answers if asked is None else max(asked, QUOTA_FLOOR_S))
                quota_answers += 1
                continue
            if any(arrivals):  # an answer, if not the one wanted: the endpoint is not refusing everything
                self.pace.answered()
            tries = f" (after {attempt + 1} tries)" if attempt else ""
            delay = BASE_DELAY_S * 2 ** attempt if failure.retry_after_s is None else failure.retry_after_s
            delay = min(max(delay, 0.0), MAX_DELAY_S)
            if not failure.retryable or attempt == RETRIES or \
                    self.clock.monotonic() + delay + self.timeout_s > deadline:
                raise _failed(failure, failure.message + tries)
            self.clock.sleep(delay)
            attempt += 1

    def once(self, call: Callable[[], T], classify: Callable[[Exception], Failure | None]) -> T:
        """One request and no waiting (for `labyrinth doctor`'s checks): a quota answer is a
        QuotaError at once, with the wait it asked for."""
        try:
            return within(self.timeout_s, partial(read_answer, call, classify))
        except Exception as exc:
            failure = classify(exc)
            if failure is None:
                raise
        if failure.quota:
            raise QuotaError(_said(failure.message), wait_s=failure.retry_after_s)
        raise _failed(failure, failure.message)

    def _take_turn(self, refused: bool) -> float:
        """Wait for this endpoint's next start time (the pace, a quota's wait), showing why and announcing
        a long one, and say how long that held the call: a quota wait when it follows the call's own quota
        answer (``refused``), else a pace wait if it waited at all. QuotaError at once if the wait is longer
        than the hold, or if the endpoint has answered nothing but quota answers for longer than the hold
        budget (HOLD_BUDGET_FACTOR times the hold)."""
        budget_s = HOLD_BUDGET_FACTOR * self.hold_s
        refusing = self.pace.refusing(budget_s)
        if refusing is not None and refusing.left_s <= self.hold_s:  # a longer wait is too long, as below
            raise QuotaError(f"{self.provider} has answered nothing but quota answers for {math.ceil(refusing.for_s)} "
                             f"s (calls are held so at most {budget_s:g} s); it last asked for a wait of "
                             f"{math.ceil(refusing.asked_s)} s", wait_s=refusing.left_s)
        slot, taken = self.pace.slot(latest=self.clock.monotonic() + self.hold_s)
        now = self.clock.monotonic()
        if not taken:
            wait = slot.start - now
            raise QuotaError(f"{slot.reason or self.provider}: a wait of {math.ceil(wait)} s is too long (a call is "
                             f"held at most {self.hold_s:g} s)", wait_s=wait)
        if slot.start <= now:
            self._count(refused, 0.0)
            return 0.0
        waiting = self.waiting = slot.waiting(self.clock)
        self._wait_began = now
        try:
            if slot.start - now > LONG_WAIT_S:
                announce(LongWait(self.who, waiting, slot.start - now))
            while (left := slot.start - self.clock.monotonic()) > 0:
                self.clock.sleep(left)
        finally:
            waited = self.clock.monotonic() - now
            self._count(refused, waited)
            self.waiting, self._wait_began = None, None
        return waited

    def _count(self, refused: bool, waited: float) -> None:
        """One wait: the call's own quota answer's (``refused``: counted even if nothing was left of it), or
        the pace's, if it held the call at all."""
        if refused:
            self.quota_waits, self.quota_wait_s = self.quota_waits + 1, self.quota_wait_s + waited
        elif waited > 0:
            self.pace_waits, self.pace_wait_s = self.pace_waits + 1, self.pace_wait_s + waited


def _failed(failure: Failure, message: str) -> ProviderError:
    """The error a call that failed so raises: TimedOut when it took too long, else ProviderError."""
    return (TimedOut if failure.timed_out else ProviderError)(_said(message))


def _said(message: str) -> str:
    """A failure's message as a ProviderError says it: never a key, and of a bounded length."""
    return shorten(redact(message), MESSAGE_CHARS)


def http_failure(provider: str, status: int, detail: str, headers: Mapping[str, str] | None = None,
                 body: Any = None) -> Failure:
    """An HTTP error answer: 429 is a quota (waited out), 5xx is worth another try."""
    detail = str(detail)[:ERROR_CHARS]
    first_line = " ".join(detail.split())[:160]
    return Failure(f"{provider} answered HTTP {status}: {first_line}", status == 429 or status >= 500,
                   quota_wait_s(headers, body, detail), quota=status == 429)


@dataclass(frozen=True)
class HttpErrors:
    """The exceptions of httpx, httpx2 and pydantic that transport_failure tells apart."""

    timeouts: tuple[type[BaseException], ...]
    not_the_apis: tuple[type[BaseException], ...]  # a body that is not JSON, or not the API's shape
    unreachable: tuple[type[BaseException], ...]


_HTTP_ERRORS: list[HttpErrors] = []


def http_errors() -> HttpErrors:
    """HttpErrors, their libraries loaded once under the one import lock (sdk_imports), whole: a client of
    each is made and closed, which loads what a client's first making loads (its transport's modules:
    httpcore, httpcore2, truststore). By every transport's load_sdk when it is made, so never in a
    request's thread while an SDK reads them."""
    if not _HTTP_ERRORS:
        with IMPORT_LOCK:
            if not _HTTP_ERRORS:
                httpx, httpx2, pydantic = imported("httpx"), imported("httpx2"), imported("pydantic")
                for library in (httpx, httpx2):
                    library.Client().close()
                _HTTP_ERRORS.append(HttpErrors(
                    (httpx.TimeoutException, httpx2.TimeoutException),
                    (httpx.DecodingError, httpx2.DecodingError, json.JSONDecodeError, pydantic.ValidationError,
                     ForeignReply),
                    (httpx.TransportError, httpx2.TransportError, ConnectionError)))
    return _HTTP_ERRORS[0]


def transport_failure(provider: str, exc: Exception, timeout_s: float, where: str) -> Failure | None:
    """What every SDK raises beyond its own HTTP errors: a timeout (the SDK's per read, or the
    request's as a whole) or an unreachable endpoint (httpx, httpx2, or the ollama SDK's own
    ConnectionError), a body not read (too large), a redirect to another server (not followed),
    or a 200 whose body is not the API's (not JSON, or missing fields: the SDKs raise bare JSON or
    pydantic errors) or that its SDK could not read at all (Unreadable); None else."""
    kinds = http_errors()
    if isinstance(exc, Overran):
        return Failure(f"{provider} did not answer within {exc.seconds:g} s at {where}", timed_out=True)
    if isinstance(exc, kinds.timeouts):
        return Failure(f"{provider} did not answer within {timeout_s:g} s at {where}", timed_out=True)
    if isinstance(exc, kinds.not_the_apis):
        return Failure(f"{provider} at {where} sent a reply that is not its API's: {type(exc).__name__}"
                       + (f" ({exc})" if isinstance(exc, ForeignReply) else ""))
    if isinstance(exc, BodyRefused):
        return Failure(f"{provider} at {where} sent {exc}")
    if isinstance(exc, RedirectRefused):
        return Failure(f"{provider} at {where} {exc}")
    if isinstance(exc, Unreadable):
        return Failure(f"{provider} at {where} sent a reply its SDK could not read: {exc}")
    if isinstance(exc, kinds.unreachable):
        return Failure(f"{provider} is not reachable at {where}: {type(exc).__name__}")
    return None
