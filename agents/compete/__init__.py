"""Many matches, one verdict: the arena, the tournament, paired differences and ratings."""
