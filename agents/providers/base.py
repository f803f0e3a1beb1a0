"""What every provider transport gives the LLM agent, and the schema it asks for.

A transport sends one conversation (system text, then user/assistant turns) and
returns the model's raw reply and the token counts from the API's usage fields. It retries 429 and 5xx with
backoff (honouring Retry-After) and times out every call; when it gives up it
raises ProviderError, which the agent counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from labyrinth.engine.schemas import Coords, Direction, ItemName

CONTEXT_TOKENS = 4096  # the smallest context a model is given (Ollama's default num_ctx)
REPLY_TOKENS = 300  # the most a reply may take: an action and a sentence of reasoning


@dataclass(frozen=True)
class Reply:
    text: str  # the raw reply, as the model wrote it: the agent checks this, whatever the SDK parsed
    tokens_in: int | None  # from the API's usage fields
    tokens_out: int | None


class ProviderError(Exception):
    """A call that failed for good (after the transport's retries); one line for logs, never a key."""


class Transport(Protocol):
    name: str  # "provider/model", shown as the agent's name
    timeout_s: float  # the longest one attempt may take

    def complete(self, system: str, turns: list[tuple[str, str]], schema: type[BaseModel]) -> Reply:
        """The model's answer to ``turns`` ((role, text) with role "user" or "assistant")."""


class UserParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    direction: Direction | None = Field(None, description="MOVE: where to go")
    steps: int | None = Field(None, ge=1, le=100, description="MOVE: steps; HALT: seconds")
    speed: Literal[1, 2] | None = Field(None, description="MOVE: 1 walk, 2 run")
    target: ItemName | None = Field(None, description="GRAB or USE: the item")


class UserAction(BaseModel):
    """The user's WSAP action with typed params: the schema of every request."""

    model_config = ConfigDict(extra="forbid")
    action: Literal["MOVE", "LOOK", "GRAB", "USE", "HALT"]
    params: UserParams
    reasoning: str = Field(description="why, in a sentence")


class MinotaurParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    target_coords: Coords | None = Field(None, description="PATHFIND: the cell to reach")


class MinotaurAction(BaseModel):
    """The Minotaur's WSAP action with typed params."""

    model_config = ConfigDict(extra="forbid")
    action: Literal["PATHFIND", "JUMP", "WAIT", "CHASE"]
    params: MinotaurParams
    reasoning: str = Field(description="why, in a sentence")


SCHEMAS: dict[str, type[BaseModel]] = {"user": UserAction, "minotaur": MinotaurAction}


class Lesson(BaseModel):
    """A model's own reflection on a finished game (Reflexion)."""

    model_config = ConfigDict(extra="forbid")
    lesson: str = Field(min_length=1, max_length=600, description="two sentences: what went wrong or what "
                                                                  "worked, and what to do differently next time")


# Mistral's tekken tokenizer counts 2.5 to 2.8 of our prompts' characters a token (bench/llm_bench.py);
# the maps and tables tokenise far worse than prose. 2.25 leaves a margin for other tokenizers.
CHARS_PER_TOKEN = 2.25


def estimate_tokens(text: str) -> int:
    """A cautious estimate of ``text``'s tokens, to keep prompts within the context."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)
