"""Tests of the rule agents (labyrinth.agents.builtin): the built-in user and Minotaur judged by their play,
their bearings."""
