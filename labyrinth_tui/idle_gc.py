"""The garbage collector's full passes, made while the player pauses instead of inside a key's turn.

A full pass walks every object that has lived a while. With a game under way that took 30-45 ms
(measured on `full`), and CPython starts one after so many allocations, whatever is happening then: it
was the slowest key of a run, above the 50 ms a key may take. So, once the first frame is drawn:
everything alive then is frozen (it lives as long as the app, and no pass need walk it again);
automatic full passes become OLD_THRESHOLD / 10 times rarer (CPython's default is 10), a safety net for
a player who never pauses or a match spectated at full speed; and a full pass is made once nobody has
pressed a key or moved the mouse for IDLE_S, if anything happened since the last one.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

IDLE_S = 1.0  # a pause this long is the player's, not the gap between two typed keys
OLD_THRESHOLD = 100  # young collections between two automatic full passes


class IdleCollector:
    """Owns the collector's settings while the app runs: ``start`` after the first frame, ``touched`` on
    every input, ``tick`` often (it collects when the pause is long enough), ``stop`` when the app ends
    (the settings as they were, nothing left frozen). ``clock`` and ``collect`` are injected for tests."""

    def __init__(self, clock: Callable[[], float], collect: Callable[[], object] = gc.collect) -> None:
        self.clock, self.collect = clock, collect
        self.thresholds: tuple[int, int, int] | None = None  # the settings before start, to restore
        self.last_input = clock()
        self.pending = False  # input since the last full pass: objects made that it may free

    def start(self) -> None:
        if self.thresholds is not None:
            return
        self.thresholds = gc.get_threshold()
        gc.freeze()
        gc.set_threshold(self.thresholds[0], self.thresholds[1], OLD_THRESHOLD)

    def touched(self) -> None:
        self.last_input, self.pending = self.clock(), True

    def tick(self) -> None:
        if self.pending and self.clock() - self.last_input >= IDLE_S:
            self.pending = False
            self.collect()

    def stop(self) -> None:
        if self.thresholds is None:
            return
        gc.set_threshold(*self.thresholds)
        gc.unfreeze()
        self.thresholds = None
