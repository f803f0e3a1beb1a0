"""Who plays the Labyrinth, a sub-package per concern: builtin/ (the rule agents), llm/ (the LLM
agent and its providers), match/ (the one turn loop), learning/, compete/ (arena, tournament,
ratings), rl/ (Gymnasium and PettingZoo) and wsap/ (the adapters); registry.py names them all.
docs/architecture.md draws the map."""
