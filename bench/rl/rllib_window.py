"""The rates bench/rl/train_rllib.py prints, made from running totals, without Ray (so that the suite tests them
where the [ray] extra is absent). RLlib sums a total logged with ``reduce="lifetime_sum"`` over its env runners
as it is; a mean logged with a window is not a mean over the last episodes once two runners' windows are merged
(its figures jump by more than a window of 200 episodes could)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

WINDOW = 200  # a row's rates and returns are over at least this many of the last episodes
PREFIX = "total_"  # the totals' names among RLlib's env-runner results


class Window:
    """The rates of the last episodes: each iteration's totals kept, each row's rates taken over the episodes
    that ended since the latest iteration at least ``size`` episodes before (all of them, early on). The
    totals are of the episodes that ended (``total_ended``) and of any other count or sum."""

    def __init__(self, size: int = WINDOW) -> None:
        self.size = size
        self.totals: list[dict[str, float]] = [{}]

    def rates(self, results: Mapping[str, Any]) -> tuple[int, dict[str, float]]:
        """(episodes counted, each other total's mean over them) for one iteration's env-runner results."""
        now = {key.removeprefix(PREFIX): float(value) for key, value in results.items() if key.startswith(PREFIX)}
        self.totals.append(now)
        ended = now.get("ended", 0.0)
        base = next((t for t in reversed(self.totals[:-1]) if ended - t.get("ended", 0.0) >= self.size),
                    self.totals[0])
        count = int(ended - base.get("ended", 0.0))
        return count, {key: (value - base.get(key, 0.0)) / count if count else float("nan")
                       for key, value in now.items() if key != "ended"}
