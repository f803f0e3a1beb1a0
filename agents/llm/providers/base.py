"""What every provider transport gives the LLM agent, and the schemas it asks for.

A transport sends one conversation (system text, then user/assistant turns) and
returns the model's raw reply and the token counts from the API's usage fields, with what went
on the wire for it (``Sent``: the request's parameters, the output mode, the settings left out
and why) and the model the API says answered. It waits out quotas, retries 5xx with backoff and
keeps every call within one deadline (retry.py); when it gives up it raises ProviderError
(TimedOut when the call took too long), which the agent counts, or QuotaError, which does not
count towards replacing the agent.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from labyrinth.engine.commands import shorten
from labyrinth.engine.wsap import ActionSpace
from labyrinth.engine.wsap.action_schema import action_schema
from labyrinth.engine.wsap.roles import ROLES

from .pacing import Waiting
from .secrets import redact

# The most kept of a reply's text, and of the API's word for why it stopped: a whole REPLY_TOKENS (limits.py) answer
# is some 1,200 characters, and a model's thinking is never in its text. What is cut says so.
REPLY_CHARS = 64 * 1024
WORD_CHARS = 64
MODEL_CHARS = 120  # the most kept of the model id an API says answered (a gateway's path and a date fit)
MOST_TOKENS = 2**31 - 1  # a count of tokens past any context; a larger one from an API is no count (SQLite's
# integers hold 2**63, and a JSON number may have 4,300 digits)
DEFAULT_EFFORT = "low"  # a thinking model's effort unless its contestant says: enough to choose one move
# Room for a model's thinking, given on top of the answer's max_tokens to a model that thinks (its
# thinking is paid as output and counted against the same limit), by reasoning effort. A cap, not a
# spend: a model thinks as long as it needs up to it, and one that runs past it is cut before its
# answer (finish reason length or MAX_TOKENS, no text), which the agent counts as an answer without an
# action, so a cap too small shows in the results rather than hiding. Chosen, not measured against a
# real reasoning model: at low effort (the default) a decision of one move gets over ten times its
# answer's 300 tokens to think in, and one call's output stays under 4,500 tokens; each effort above
# doubles the room, as each asks for more thinking.
THINKING_TOKENS = {"none": 0, "minimal": 1024, "low": 4096, "medium": 8192, "high": 16384}
MODEL_EFFORT = "medium"  # the room for a model that thinks at its own default effort (OpenAI's is medium)
STRICT_SCHEMA = "json_schema (strict)"  # the output mode of a request that sent the action's schema, strict


def token_budget(max_tokens: int, effort: str | None, thinks: bool) -> int:
    """The output tokens a request allows: the answer's, and for a model that thinks the room for its thinking
    at ``effort`` (MODEL_EFFORT's when it thinks at its own default)."""
    return max_tokens + (THINKING_TOKENS[effort or MODEL_EFFORT] if thinks else 0)


def api_word(value: object) -> str | None:
    """An SDK enum (a finish reason, a block reason) as the API's word: "SAFETY", "MAX_TOKENS", "length"."""
    return None if value is None else str(getattr(value, "value", value))


def json_kind(value: object) -> str:
    """What a parsed JSON value is, as an error about a body that is not the object it should be says it:
    "a JSON list", "a JSON null"."""
    return f"a JSON {type(value).__name__.replace('NoneType', 'null')}"


def listed_check(names: Collection[str], model: str) -> str:
    """`labyrinth doctor`'s line on an endpoint's listing of models: how many, and whether ``model`` is one."""
    return f"{len(names)} models; {model} {'available' if model in names else 'not in the list'}"


@dataclass(frozen=True)
class Sent:
    """What one request put on the wire, as far as it makes the model answer as it does: the
    ``parameters`` (the model's name as sent, the token budget under the name it was sent as,
    the temperature and the thinking's settings only if sent, as the transport gave them to its
    SDK), the ``output`` mode (the structured output asked for, after any step-down), where the
    system text went when it was not sent as one (``system``), and which of the contestant's
    settings the request left out, and why (``dropped``: {"temperature": "refused by the server"}).
    Made by each transport from the request it builds, never from a second copy of its rules;
    it holds our own settings only, never a key."""

    parameters: Mapping[str, Any]
    output: str
    dropped: Mapping[str, str] = field(default_factory=dict)
    system: str | None = None  # e.g. "folded into the first user message"; None: sent as the system text

    def to_dict(self) -> dict[str, Any]:
        """As a replay and a results row keep it (JSON): ``system`` and ``dropped`` only when there are."""
        return {"parameters": dict(self.parameters), "output": self.output,
                **({"system": self.system} if self.system else {}),
                **({"dropped": dict(self.dropped)} if self.dropped else {})}


@dataclass(frozen=True)
class Reply:
    """A model's answer as it leaves the provider layer: its text never holds a secret (a model
    or gateway that echoes the prompt or the key cannot send one on) and is cut to REPLY_CHARS
    first (every later scan of it is then bounded), and when the API said why the answer stopped
    or was withheld, that reason, for the agent to report. A count of tokens that cannot be one
    (negative, past any context, not an integer) is None: the API gave no count to add up."""

    text: str  # the raw reply, as the model wrote it (cut, redacted): the agent checks this, whatever the SDK parsed
    tokens_in: int | None  # from the API's usage fields
    tokens_out: int | None  # the answer's, its reasoning (thinking) included
    finish_reason: str | None = None  # the API's own word (STOP, MAX_TOKENS, SAFETY, length, ...) when it gave one
    blocked: str | None = None  # why the prompt itself was refused (Gemini's promptFeedback.blockReason)
    reasoning_tokens: int | None = None  # of tokens_out, those the model spent thinking before its answer
    sent: Sent | None = None  # what the request that was answered put on the wire (after any refusal)
    model_version: str | None = None  # the model the API says answered (its `model`, Gemini's modelVersion)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", redact(shorten(self.text, REPLY_CHARS)))
        for count in ("tokens_in", "tokens_out", "reasoning_tokens"):
            if not _plausible(getattr(self, count)):
                object.__setattr__(self, count, None)
        for word, chars in (("finish_reason", WORD_CHARS), ("blocked", WORD_CHARS), ("model_version", MODEL_CHARS)):
            if getattr(self, word) is not None:
                object.__setattr__(self, word, redact(shorten(str(getattr(self, word)), chars)))

    @property
    def cut_short(self) -> str | None:
        """Why the model stopped, when it was not the model's own choice to stop (None for a
        normal end or when the API did not say)."""
        reason = (self.finish_reason or "").upper()
        return None if reason in ("", "STOP", "FINISH_REASON_UNSPECIFIED") else self.finish_reason


def _plausible(tokens: object) -> bool:
    """Whether an API's count of tokens can be one (or is None: it gave none)."""
    return tokens is None or (isinstance(tokens, int) and not isinstance(tokens, bool) and 0 <= tokens <= MOST_TOKENS)


class Transport(Protocol):
    name: str  # "provider/model", shown as the agent's name
    timeout_s: float  # the longest one request may take, as a whole
    waiting: Waiting | None  # what a call is waiting for (a quota, the pace) while it waits

    def complete(self, system: str, turns: list[tuple[str, str]], schema: ResponseSchema) -> Reply:
        """The model's answer to ``turns`` ((role, text) with role "user" or "assistant")."""

    def check(self) -> str:
        """What a cheap call that spends no tokens says of the endpoint and the model (doctor's check)."""

    def close(self) -> None:
        """Close its SDK client's connections; the transport is not used after. Every match of an arena
        or tournament makes its agents, and so their transports, anew: one left open per match holds
        its socket until the garbage collector finds it (a ResourceWarning then). A transport whose
        client is its own (weakref.finalize) also closes it when it is dropped, or at exit: an agent's
        fresh copies share its transport (base.fresh_copy), so only the last one dropped is done."""


@dataclass(frozen=True)
class ResponseSchema:
    """The JSON schema a reply must follow, as every SDK takes it: a name (Mistral's
    json_schema wants one) and the schema itself (Gemini's response_json_schema, Ollama's format)."""

    name: str
    json: dict[str, Any]

    @classmethod
    def of(cls, model: type[BaseModel]) -> ResponseSchema:
        return cls(model.__name__, model.model_json_schema())


def action_response(role: str, space: ActionSpace) -> ResponseSchema:
    """The schema of a reply holding one of ``space``'s actions (one branch per action), named
    after the role it plays ("UserAction"; Mistral's json_schema wants a name of [a-zA-Z0-9_-])."""
    name = "".join(c for c in role.title() if c.isascii() and (c.isalnum() or c in "_-")) or "Player"
    return ResponseSchema(f"{name}Action", action_schema(space))


# Our game's two: each role's action, derived from the schemas' one definition (engine/wsap/action_schema.py).
SCHEMAS: dict[str, ResponseSchema] = {role: action_response(role, known.actions) for role, known in ROLES.items()}


class Lesson(BaseModel):
    """A model's own reflection on a finished game (Reflexion)."""

    model_config = ConfigDict(extra="forbid")
    lesson: str = Field(min_length=1, max_length=600, description="two sentences: what went wrong or what "
                                                                  "worked, and what to do differently next time")


LESSON = ResponseSchema.of(Lesson)


# Mistral's tekken tokenizer counts 2.5 to 2.8 of our prompts' characters a token (bench/llm/llm_bench.py);
# the maps and tables tokenise far worse than prose. 2.25 leaves a margin for other tokenizers.
CHARS_PER_TOKEN = 2.25


def estimate_tokens(text: str) -> int:
    """A cautious estimate of ``text``'s tokens, to keep prompts within the context."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)
