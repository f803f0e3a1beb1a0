"""Tests of the one turn loop (labyrinth.agents.match): broken agents, the schedule of many matches."""
