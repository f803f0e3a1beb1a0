"""The documented path of the LLM agent (docs/wsap.md); the code is in llm/llm_agent.py."""

from .llm.llm_agent import LLMAgent

__all__ = ["LLMAgent"]
