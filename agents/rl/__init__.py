"""The reinforcement-learning environments: Gymnasium, PettingZoo, their spaces, views and renders."""
