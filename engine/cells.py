"""The five kinds of cell and how they are drawn in text maps."""

ROCK, FLOOR, CRAWLWAY, RAMP_UP, RAMP_DOWN = range(5)

# `labyrinth world` and the rows of its JSON use exactly these characters.
CELL_CHARS = "#.=^v"

# Cells the Minotaur may stand in: it never crawls.
MINOTAUR_OPEN = frozenset((FLOOR, RAMP_UP, RAMP_DOWN))
