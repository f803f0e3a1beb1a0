"""What one model at one OpenAI-compatible endpoint takes in a chat request: known by its name,
or learned from its refusals and remembered for the run.

OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 and gpt-5.x; dated or suffixed, and behind a
gateway's prefix such as OpenRouter's `openai/o4-mini`) refuse `max_tokens` (they take
`max_completion_tokens`, which bounds their hidden reasoning too) and any temperature but the
default 1, and take a `reasoning_effort`; o1-mini and o1-preview take neither a system message nor
an effort. Such a model is known by its name and asked the right way from its first request. Any
other name (an Azure deployment's, a model newer than this list) is asked as a chat model until its
endpoint refuses a parameter with a 400 that names it (`param`) and says it is unsupported; that
parameter is then left out (max_tokens: the model reasons, so it is given max_completion_tokens
and an effort) and the request made again at once. What an endpoint refused is its answer about
the model, whoever asked: every transport of the process asks that model there the same way from
then on, so hundreds of matches learn it once. A model of any other name whose contestant gives an
effort (gpt-oss behind vLLM takes one) is sent it, with its temperature and room to think.
A contestant's setting that a request leaves out is said, with why (``left_out``): known by the
model's name, or refused by its endpoint.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..config import ProviderSettings
from .base import DEFAULT_EFFORT, token_budget

# What can be refused and left out: three parameters and the system message (folded into the first
# user message instead).
PARAMETERS = ("max_tokens", "temperature", "reasoning_effort")
SYSTEM = "system"
# A reasoning model's name: o1, o3-mini, o4-mini-2025-04-16, gpt-5, gpt-5.1-codex... (not gpt-5-chat,
# a chat model) as the last part of a gateway's path.
REASONING_NAME = re.compile(r"(o[1-9]\d*|gpt-5(\.\d+)?)(-(?!chat).*)?")
NO_SYSTEM_NAME = re.compile(r"o1-(mini|preview)(-.*)?")  # the first o1 models: no system message, no effort
REFUSED_NAME = re.compile(r"unsupported (?:parameter|value): '([\w.\[\]]+)'", re.IGNORECASE)  # in a message
MESSAGE_ROLE = re.compile(r"messages\[\d+\]\.role")
REFUSED_BY_SERVER = "refused by the server"  # why a setting learned from a 400 is left out
NOT_TAKEN = {"temperature": "not sent: a reasoning model takes none",  # why one known by the name is
             "reasoning_effort": "not sent: the model takes none"}


@dataclass(frozen=True)
class Dialect:
    """How to ask one model: ``refused`` holds what its endpoint does not take (PARAMETERS, SYSTEM)."""

    refused: frozenset[str] = frozenset()

    @property
    def reasoning(self) -> bool:
        """Whether the model reasons as OpenAI's do: only they refuse max_tokens."""
        return "max_tokens" in self.refused

    def messages(self, system: str, turns: list[tuple[str, str]]) -> list[dict[str, str]]:
        """The conversation, the system text in a system message or, where none is taken, ahead of the
        first user message."""
        messages = [{"role": role, "content": text} for role, text in turns]
        if SYSTEM not in self.refused:
            return [{"role": "system", "content": system}, *messages]
        if messages and messages[0]["role"] == "user":
            return [{"role": "user", "content": f"{system}\n\n{messages[0]['content']}"}, *messages[1:]]
        return [{"role": "user", "content": system}, *messages]

    def sampling(self, settings: ProviderSettings) -> dict[str, Any]:
        """The budget, effort and temperature a request carries: a reasoning model (or one given an
        effort) gets its thinking's room on top of the answer's max_tokens."""
        effort = None if "reasoning_effort" in self.refused else \
            settings.reasoning_effort or (DEFAULT_EFFORT if self.reasoning else None)
        thinks = self.reasoning or effort is not None
        budget = token_budget(settings.max_tokens, effort, thinks)
        return {"max_completion_tokens" if self.reasoning else "max_tokens": budget,
                **({"reasoning_effort": effort} if effort else {}),
                **({} if "temperature" in self.refused else {"temperature": settings.temperature})}


def left_out(settings: ProviderSettings, parameters: Mapping[str, Any]) -> dict[str, str]:
    """The contestant's sampling settings (a temperature, an effort it gave) that a request's
    ``parameters`` (as Dialect.sampling made them) do not carry, and why: known by the model's
    name, or refused by its endpoint."""
    asked = {"temperature": settings.temperature, "reasoning_effort": settings.reasoning_effort}
    named = by_name(settings.model).refused
    return {name: NOT_TAKEN[name] if name in named else REFUSED_BY_SERVER
            for name, value in asked.items() if value is not None and name not in parameters}


def by_name(model: str) -> Dialect:
    """What a model refuses, as far as its name tells."""
    name = model.rpartition("/")[2].lower()
    if NO_SYSTEM_NAME.fullmatch(name):
        return Dialect(frozenset({"max_tokens", "temperature", "reasoning_effort", SYSTEM}))
    if REASONING_NAME.fullmatch(name):
        return Dialect(frozenset({"max_tokens", "temperature"}))
    return Dialect()


_LEARNED: dict[tuple[str, str], Dialect] = {}
_LOCK = threading.Lock()


def dialect(endpoint: str, model: str) -> Dialect:
    """How to ask ``model`` at ``endpoint`` now: by its name, and what this process has learned."""
    with _LOCK:
        return _LEARNED.get((endpoint, model)) or by_name(model)


def learn(endpoint: str, model: str, refused: str) -> None:
    """``model`` at ``endpoint`` does not take ``refused``, for every transport from now on."""
    with _LOCK:
        known = _LEARNED.get((endpoint, model)) or by_name(model)
        _LEARNED[(endpoint, model)] = Dialect(known.refused | {refused})


def refused_in(error: Any, body: dict[str, Any]) -> str | None:
    """What a 400's error object (the SDK's ``exc.body``: message, type, param, code) says the model
    does not take of what ``body`` asked for (PARAMETERS, SYSTEM), if it says so; None for any other
    400 (a bad value of ours, a prompt too long), which is the call's failure."""
    if not isinstance(error, dict):
        return None
    said = f"{error.get('code') or ''} {error.get('message') or ''}".lower()
    if "unsupported" not in said and "not supported" not in said:
        return None
    named = REFUSED_NAME.search(str(error.get("message") or ""))
    param = str(error.get("param") or (named.group(1) if named else ""))
    if param in PARAMETERS and param in body:
        return param
    if MESSAGE_ROLE.fullmatch(param) and SYSTEM in said and body["messages"][0]["role"] == SYSTEM:
        return SYSTEM
    return None
