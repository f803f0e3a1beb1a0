"""Tests of the rules (labyrinth.engine): examples and properties of the world, the turn, the senses and the words."""
