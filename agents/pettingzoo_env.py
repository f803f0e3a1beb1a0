"""The documented path of the PettingZoo environment (docs/rl.md); the code is in rl/pettingzoo_env.py."""

from .rl.pettingzoo_env import LabyrinthParallelEnv, env, parallel_env, task_parallel_env

__all__ = ["LabyrinthParallelEnv", "env", "parallel_env", "task_parallel_env"]
