"""The numbers a learning agent is paid, per role and turn (documented in docs/rules.md).

User: +1 for each stone grabbed, +10 for escaping, -10 for being caught, and
-0.001 a second, so that dawdling costs. The Minotaur is paid the opposite:
+10 for a catch, -10 for an escape, -1 for each stone taken, +0.001 a second.
"""

from __future__ import annotations

from .. import events as ev

STONE, ESCAPE, CATCH, PER_SECOND = 1.0, 10.0, 10.0, 0.001


def user_reward(events: tuple[ev.Event, ...], seconds: float) -> float:
    reward = -PER_SECOND * seconds
    for e in events:
        if isinstance(e, ev.StoneGrabbed):
            reward += STONE
        elif isinstance(e, ev.UserEscaped):
            reward += ESCAPE
        elif isinstance(e, ev.UserCaught):
            reward -= CATCH
    return reward


def minotaur_reward(events: tuple[ev.Event, ...], seconds: float) -> float:
    return -user_reward(events, seconds)
