"""The five kinds of cell and how they are drawn in text maps."""

ROCK, FLOOR, CRAWLWAY, RAMP_UP, RAMP_DOWN = range(5)

# `labyrinth world` and the rows of its JSON use exactly these characters.
CELL_CHARS = "#.=^v"
CELL_NAMES = ("ROCK", "FLOOR", "CRAWLWAY", "RAMP_UP", "RAMP_DOWN")

# Cells the user may stand in, and those the Minotaur may (it never crawls).
USER_OPEN = frozenset((FLOOR, CRAWLWAY, RAMP_UP, RAMP_DOWN))
MINOTAUR_OPEN = frozenset((FLOOR, RAMP_UP, RAMP_DOWN))
