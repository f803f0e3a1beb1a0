"""The LLM agent for every provider: its settings, its prompts and replies, and the providers' transports."""
