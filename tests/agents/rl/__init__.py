"""Tests of the reinforcement-learning environments (labyrinth.agents.rl): Gymnasium, PettingZoo, observations,
demonstrations."""
