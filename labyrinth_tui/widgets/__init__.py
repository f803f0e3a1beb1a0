"""The game's widgets, one per file."""
