"""The Labyrinth's agents for both roles (built-in, LLM, human) and the match runner."""
