"""Tests of the WSAP adapters (labyrinth.agents.wsap): the Labyrinth as a WSAP environment, conformance with
others' agents and games."""
