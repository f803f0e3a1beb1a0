"""Everything the Labyrinth writes to disk: paths, saves, replays, the reflection store."""
