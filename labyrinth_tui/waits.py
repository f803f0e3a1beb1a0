"""A model's wait (a quota, the --llm-rpm pace) as a screen shows it: "Gemini is
rate-limited: waiting 47 s", counting down.

An agent's ``waiting`` (a Waiting, or None) gives its end on the transport's own
clock (time.monotonic for a real one), which need not be the screen's (tests give
the app a clock they move by hand). So the wait is read on the transport's clock
once, when the screen first sees it, and counted down on the screen's from there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from labyrinth.agents.base import ModelPlayer

if TYPE_CHECKING:  # a wait comes only from a model's agent, whose modules load with it, not with the screen
    from labyrinth.agents.llm.providers.pacing import Waiting


class Countdowns:
    """The waits of the agents a screen shows, each counted down on the screen's ``clock``."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._ends: dict[int, tuple[Waiting, float]] = {}  # an agent's wait, and when it ends on our clock

    def saying(self, agent) -> str | None:
        """What ``agent`` is waiting for and how many seconds are left, or None when it is not waiting."""
        waiting = agent.waiting if isinstance(agent, ModelPlayer) else None
        if waiting is None:
            self._ends.pop(id(agent), None)
            return None
        seen = self._ends.get(id(agent))
        if seen is None or seen[0] is not waiting:  # a new wait: read it once on its own clock
            seen = self._ends[id(agent)] = (waiting, self.clock() + waiting.left_s())
        said = waiting.saying(max(0.0, seen[1] - self.clock()))
        return said[:1].upper() + said[1:]
