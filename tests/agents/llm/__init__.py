"""Tests of the LLM agent and the providers (labyrinth.agents.llm) through the real SDKs against stub servers,
faults included."""
