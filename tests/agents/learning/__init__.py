"""Tests of learning across games (labyrinth.agents.learning): reflections, lessons, behaviour lessons."""
