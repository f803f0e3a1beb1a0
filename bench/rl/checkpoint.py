"""A training run that survives its process: the whole run (the model with its optimizer, the
training envs mid-game, every random generator, the learning curve and the time spent) saved at the
start of each rollout, and taken up again from there by the same command.

A 1M-step baseline takes an hour or more of CPU; on a shared machine its process can end before it
does. Saved where a rollout begins (the last one's update made, the next one's actions not yet
drawn; RecurrentPPO's LSTM states kept too, which its own save leaves out), the run resumed plays on
exactly as if it had never stopped: the same games, the same draws, the same weights at the end
(tests/test_rl_bench.py checks this on a short run of each algorithm). The record
says where a run was taken up again (``resumed_at``), and its time is the sum of its parts.

The file is ``<result>.ckpt``, written whole and then renamed into place, so a process killed while
writing leaves the last good one. A checkpoint made with other settings is refused, not resumed.
"""

from __future__ import annotations

import io
import os
import pickle
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback

FORMAT = 1  # the checkpoint's own layout; a file of another is refused
LSTM = "_last_lstm_states"  # RecurrentPPO's memory of each training env's game so far, mid-game


@dataclass
class Spent:
    """The time a run has spent training, over all its processes, and where it was taken up again."""

    seconds: float = 0.0
    cpu_seconds: float = 0.0
    resumed_at: list[int] = field(default_factory=list)


class Checkpoint(BaseCallback):
    """Stable-Baselines3 callback: the run saved to ``path`` as each rollout begins and when training ends.

    ``settings`` are the run's own (task, algorithm, seed, steps, envs): a resume must match them.
    ``carry`` gives what else the run carries (the curve's points, for one), saved and given back.
    """

    def __init__(self, path: Path, settings: dict[str, Any], spent: Spent, carry: Callable[[], Any]) -> None:
        super().__init__()
        self.path, self.settings, self.spent, self.carry = path, settings, spent, carry
        self.began, self.cpu = time.perf_counter(), time.process_time()

    def elapsed(self) -> Spent:
        """The time spent so far, this process's included."""
        return Spent(self.spent.seconds + time.perf_counter() - self.began,
                     self.spent.cpu_seconds + time.process_time() - self.cpu, list(self.spent.resumed_at))

    def _on_step(self) -> bool:
        return True

    def _on_rollout_start(self) -> None:
        self.save()

    def _on_training_end(self) -> None:
        self.save()

    def save(self) -> None:
        """Everything the run needs to go on, written whole, then renamed over the last checkpoint."""
        model = io.BytesIO()
        self.model.save(model)
        blob = {"format": FORMAT, "settings": self.settings, "model": model.getvalue(), "env": self.model.env,
                "random": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state(),
                "spent": self.elapsed(), "carried": self.carry(), LSTM: getattr(self.model, LSTM, None)}
        partial = self.path.with_name(self.path.name + ".partial")
        with open(partial, "wb") as file:
            pickle.dump(blob, file, protocol=pickle.HIGHEST_PROTOCOL)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, self.path)


def resume(path: Path, settings: dict[str, Any], algo_class: Any) -> tuple[Any, Spent, Any] | None:
    """The run saved at ``path`` with its generators put back, or None if there is none.

    Raises SystemExit, saying why, for a checkpoint of another layout or other settings.
    """
    if not path.is_file():
        return None
    try:
        with open(path, "rb") as file:
            blob = pickle.load(file)  # our own file, written whole by Checkpoint.save
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError) as error:
        raise SystemExit(f"{path}: not a checkpoint this script can read ({error}); "
                         "move it away to start afresh") from error
    if not isinstance(blob, dict) or blob.get("format") != FORMAT:
        raise SystemExit(f"{path}: a checkpoint of another format; move it away to start afresh")
    if blob["settings"] != settings:
        changed = sorted(key for key in settings if blob["settings"].get(key) != settings[key])
        raise SystemExit(f"{path}: saved by a run with other settings ({', '.join(changed)}); "
                         "run with those, or move the checkpoint away to start afresh")
    model = algo_class.load(io.BytesIO(blob["model"]), env=blob["env"], force_reset=False)
    if blob.get(LSTM) is not None:  # RecurrentPPO's: its save leaves them out, and its load begins them at zero
        setattr(model, LSTM, blob[LSTM])
    random.setstate(blob["random"])  # after load: building the policy again drew from torch's generator
    np.random.set_state(blob["numpy"])
    torch.set_rng_state(blob["torch"])
    spent: Spent = blob["spent"]
    spent.resumed_at.append(int(model.num_timesteps))
    return model, spent, blob["carried"]
