"""LLM providers, one small module per SDK, each imported only when used."""
