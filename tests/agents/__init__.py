"""Tests of who plays (labyrinth.agents): the built-in and LLM agents through the real SDKs against stub
servers, the turn loop, learning, the arena and tournament, the RL and WSAP environments."""
