"""Tests of the fronts a person uses (labyrinth.tui): the command line, and the Textual app through Pilot
and snapshots."""
