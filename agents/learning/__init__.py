"""Learning across games: the digest of a game, reflections and lessons, behaviour lessons."""
