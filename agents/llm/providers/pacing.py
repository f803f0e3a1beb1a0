"""Time for model calls: the clock they wait on, one pace per provider endpoint,
what an agent is waiting for while it waits, and who hears of a long wait.

Every request to one endpoint, from every agent in the process, takes a start
time from that endpoint's Pace: with a pace of N requests a minute (`--llm-rpm`)
starts are 60/N s apart, so no 60-second window holds more than N and a
per-minute quota never answers 429; and after a quota answer (429) no request
starts before the wait the server asked for is over, whichever agent asked. When
that wait ends, the held calls do not all start at once (they would meet the
quota again): for one window W (the longest wait the endpoint has asked for, at
most a minute: the span its quota counts in), starts are spaced at the rate the
server took before its 429 (N requests served in the W seconds before it: W/N s
apart). A 429 with none served before it in its window (the quota was spent
before our first request, by another process or an earlier run) shows no rate:
the held calls start as its wait ends, and a 429 then shows the rate. (Taken as
one a window, that first 429 cost the next call a second window's wait.)

Quota answers with no other answer between them are a hold that cannot last
(``refusing``): a server that answers 429 for ever, each time with a wait within
the hold limit (some gateways answer a spent daily quota so), would hold a call,
and a tournament, for ever. Once the endpoint's calls would be held past a budget
since the first of them (retry.HOLD_BUDGET_FACTOR times the hold limit), the next
call fails at once instead (retry.Caller). Any other answer (any non-429 status)
starts the count again.

A wait longer than LONG_WAIT_S is announced once, as it starts, to the listeners
a front installs (``long_waits_to``): the tournament and the arena say it in a line
on stderr, a terminal or not, so that a run held by a quota is never silent. By
default nobody listens.

Waits go through a Clock, so that tests move time instead of sleeping.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

SECONDS_PER_MINUTE = 60.0
LONG_WAIT_S = 10.0  # a wait longer than this is announced to the listeners (a line on stderr in a tournament)


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real one: time.monotonic and time.sleep."""

    @staticmethod
    def monotonic() -> float:
        return time.monotonic()

    @staticmethod
    def sleep(seconds: float) -> None:
        time.sleep(seconds)


SYSTEM_CLOCK = SystemClock()


@dataclass(frozen=True)
class Waiting:
    """A wait a front can show with a countdown: why, and until when on ``clock``, the transport's
    (time.monotonic for the real one). A front that counts on a clock of its own reads ``left_s()``
    once, when it first sees the wait, and counts down from there on its own clock."""

    cause: str  # "gemini is rate-limited"
    until: float
    clock: Clock = field(default=SYSTEM_CLOCK, compare=False, repr=False)

    def left_s(self, now: float | None = None) -> float:
        """Seconds still to wait at ``now`` on the transport's clock (by default, its now)."""
        return max(0.0, self.until - (self.clock.monotonic() if now is None else now))

    def saying(self, left_s: float) -> str:
        """"gemini is rate-limited: waiting 47 s", with ``left_s`` seconds to go."""
        return f"{self.cause}: waiting {round(left_s)} s"


@dataclass(frozen=True)
class Slot:
    """When a request may start, and what holds it until then ("" when nothing does)."""

    start: float
    reason: str  # "gemini is rate-limited", "gemini is kept to 10 requests a minute"

    def waiting(self, clock: Clock) -> Waiting:
        """This wait, as a front shows it (``start`` is on ``clock``)."""
        return Waiting(self.reason, self.start, clock)


@dataclass(frozen=True)
class Refusing:
    """An endpoint that has answered nothing but quota answers for ``for_s`` seconds: the last asked
    for a wait of ``asked_s``, ``left_s`` of which are left."""

    for_s: float
    asked_s: float
    left_s: float


@dataclass(frozen=True)
class LongWait:
    """A wait longer than LONG_WAIT_S as it starts: whose calls (a contestant and its role, or the
    provider), what it waits for (its cause: "openai is rate-limited") and how long."""

    who: str
    waiting: Waiting
    seconds: float

    def line(self) -> str:
        """"openai/gpt-4o-mini (user): openai is rate-limited: waiting 30 s"."""
        return f"{self.who}: {self.waiting.saying(self.seconds)}"


_LISTENERS: list[Callable[[LongWait], None]] = []


@contextmanager
def long_waits_to(listener: Callable[[LongWait], None]) -> Iterator[None]:
    """Within the block, ``listener`` hears of every wait longer than LONG_WAIT_S, once as it starts,
    from any thread (a front's: it prints a line)."""
    _LISTENERS.append(listener)
    try:
        yield
    finally:
        _LISTENERS.remove(listener)


def announce(wait: LongWait) -> None:
    """Tell the listeners of ``wait``; a listener that fails is not the call's failure."""
    for listener in list(_LISTENERS):  # noqa: PERF101 - a copy: another thread may add or remove one meanwhile
        try:
            listener(wait)
        except Exception:  # noqa: BLE001, S110 - a display's failure (a closed stderr) must not fail the call
            pass


class Pace:
    """The requests to one endpoint: spaced by the requests-a-minute pace, held while a quota
    answer's wait runs, and how long quota answers alone have come. Thread-safe: both roles'
    agents may share it."""

    def __init__(self, provider: str, clock: Clock) -> None:
        self.provider, self.clock = provider, clock
        self.rpm: float | None = None
        self._lock = threading.Lock()
        self._next = -math.inf  # the earliest the next request may start, by the pace
        self._held_until = -math.inf  # no request before this: a quota answer asked so
        self._starts: deque[float] = deque()  # the starts of the last minute
        self._refused: deque[float] = deque()  # the quota answers of the last minute
        self._spread = 0.0  # after a quota answer: the spacing of starts the server showed it takes
        self._spread_until = -math.inf  # ... for one window after the quota's wait
        self._window = 1.0  # the span the endpoint's quota counts in: its longest wait asked for
        self._refusing_since: float | None = None  # the first quota answer since any other answer
        self._asked = 0.0  # the wait the last quota answer asked for

    def slot(self, latest: float) -> tuple[Slot, bool]:
        """The next start time, and whether it was taken: it is only when it is at most ``latest``
        (a start beyond it is not reserved)."""
        with self._lock:
            now = self.clock.monotonic()
            start = max(now, self._next, self._held_until)
            slot = Slot(start, self._reason(start - now, held=start == self._held_until))
            if start > latest:
                return slot, False
            spread = self._spread if start < self._spread_until else 0.0
            self._next = start + max(SECONDS_PER_MINUTE / self.rpm if self.rpm else 0.0, spread)
            self._starts.append(start)
            while self._starts and self._starts[0] <= start - SECONDS_PER_MINUTE:
                self._starts.popleft()
            return slot, True

    def hold(self, seconds: float) -> None:
        """No request starts for ``seconds`` (a quota answer's wait); then, for the quota's window, no
        faster than the requests the window before it served."""
        with self._lock:
            now = self.clock.monotonic()
            window = self._window = min(max(seconds, self._window), SECONDS_PER_MINUTE)
            self._held_until = max(self._held_until, now + seconds)
            self._refusing_since = now if self._refusing_since is None else self._refusing_since
            self._asked = seconds
            self._refused.append(now)
            while self._refused and self._refused[0] <= now - SECONDS_PER_MINUTE:
                self._refused.popleft()
            served = sum(1 for start in self._starts if start > now - window) - \
                sum(1 for at in self._refused if at > now - window)
            self._spread = window / served if served > 0 else 0.0  # none served: no rate shown
            self._spread_until = self._held_until + window

    def answered(self) -> None:
        """The endpoint gave an answer other than a quota's: it is not refusing everything."""
        with self._lock:
            self._refusing_since = None

    def refusing(self, budget_s: float) -> Refusing | None:
        """How long this endpoint has answered nothing but quota answers, when its calls are held by them
        and the hold runs past ``budget_s`` since the first; None else (a call past the hold, when the
        next one would send a request again, is not held)."""
        with self._lock:
            now, since = self.clock.monotonic(), self._refusing_since
            if since is None or self._held_until <= now or self._held_until - since <= budget_s:
                return None
            return Refusing(now - since, self._asked, self._held_until - now)

    def _reason(self, wait_s: float, held: bool) -> str:
        if wait_s <= 0:
            return ""
        if held:
            return f"{self.provider} is rate-limited"
        spread = self._spread if self.clock.monotonic() < self._spread_until else 0.0
        if self.rpm and SECONDS_PER_MINUTE / self.rpm >= spread:
            return f"{self.provider} is kept to {self.rpm:g} requests a minute"
        return f"{self.provider} resumes {SECONDS_PER_MINUTE / spread:.3g} requests a minute after a quota answer"


_PACES: dict[tuple[str, str], Pace] = {}
_PACES_LOCK = threading.Lock()


def shared_pace(provider: str, endpoint: str, rpm: float | None, clock: Clock = SYSTEM_CLOCK) -> Pace:
    """The one Pace of ``provider`` at ``endpoint`` in this process (a quota is the server's, whoever
    asks); ``rpm`` (None: no pace) is the latest transport's."""
    with _PACES_LOCK:
        pace = _PACES.get((provider, endpoint))
        if pace is None or pace.clock is not clock:
            pace = _PACES[(provider, endpoint)] = Pace(provider, clock)
        pace.rpm = rpm
        return pace
