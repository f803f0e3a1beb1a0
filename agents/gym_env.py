"""The documented path of the Gymnasium environment (docs/rl.md); the code is in rl/gym_env.py.
Importing either registers the ladder's tasks (rl/tasks.py) and ``Labyrinth/User-v0`` and ``Labyrinth/Minotaur-v0``."""

from .rl.gym_env import LabyrinthEnv

__all__ = ["LabyrinthEnv"]
