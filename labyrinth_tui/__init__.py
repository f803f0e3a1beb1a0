"""The terminal front: the `labyrinth` command line (and, later, the Textual app)."""
