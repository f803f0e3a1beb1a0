"""The rule agents: the built-in user and Minotaur, the naive yardsticks, and what they plan with."""
