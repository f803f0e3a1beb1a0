"""The documented path of the WSAP message format (docs/wsap.md); the code is in llm/wsap_messages.py."""

from .llm.wsap_messages import ActionParseError, parse_action, step_message, system_message

__all__ = ["ActionParseError", "parse_action", "step_message", "system_message"]
