"""Tests of many matches, one verdict (labyrinth.agents.compete): the arena, the tournament and its records,
intervals and ratings."""
