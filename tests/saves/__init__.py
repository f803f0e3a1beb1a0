"""Tests of what is kept on disk (labyrinth.saves): replays, saved games, the experience log, the config
file, the results database, against hostile files."""
