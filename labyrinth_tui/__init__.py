"""The terminal front: the `labyrinth` command line and the Textual app."""
