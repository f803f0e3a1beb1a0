"""The learning curve of a training run, read from the training games themselves: after each
rollout, the games that ended in it (their share won, the user's stones at the end, the return),
printed as a line and kept for the run's record. An hours-long run so shows whether it learns
while it runs, and the record holds how it got there, not only where it ended.

The wins and stones are the env's own info (``outcome`` and ``stones``, every game's end); the
return is the sum of the rewards the trainer was given, the game's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from labyrinth.engine.schemas import WIN


class Curve(BaseCallback):
    """Stable-Baselines3 callback: one point of the curve a rollout (``points``), one line printed."""

    def __init__(self, role: str, label: str) -> None:
        super().__init__()
        self.won, self.label = WIN[role], label
        self.points: list[dict[str, Any]] = []
        self.returns: np.ndarray | None = None
        self.ended: list[tuple[bool, int, float]] = []  # won, stones, return: games ended this rollout

    def carried(self) -> tuple[list[dict[str, Any]], np.ndarray | None, list[tuple[bool, int, float]]]:
        """What a resumed run needs of the curve (checkpoint.Checkpoint saves it)."""
        return self.points, self.returns, self.ended

    def take_up(self, carried: tuple[list[dict[str, Any]], np.ndarray | None, list[tuple[bool, int, float]]]) -> None:
        """The curve as a checkpoint left it."""
        self.points, self.returns, self.ended = carried

    def _on_step(self) -> bool:
        rewards, dones, infos = self.locals["rewards"], self.locals["dones"], self.locals["infos"]
        if self.returns is None:
            self.returns = np.zeros(len(rewards))
        self.returns += rewards
        for index in np.flatnonzero(dones):
            info = infos[index]
            self.ended.append((info.get("outcome") == self.won, int(info["stones"]), float(self.returns[index])))
            self.returns[index] = 0.0
        return True

    def _on_rollout_end(self) -> None:
        point: dict[str, Any] = {"steps": self.num_timesteps, "games": len(self.ended)}
        if self.ended:
            won, stones, returns = zip(*self.ended, strict=True)
            point.update(win=round(float(np.mean(won)), 4), stones=round(float(np.mean(stones)), 3),
                         ret=round(float(np.mean(returns)), 3))
            print(f"{self.label}: {self.num_timesteps:,} steps, {len(won)} games ended: win {point['win']:.3f}, "
                  f"stones {point['stones']:.2f}, return {point['ret']:+.2f}", flush=True)
        self.points.append(point)
        self.ended = []
