"""Gemini (the Minotaur's model) through `google-genai`.

The SDK's default API version is v1 and it never retries: the version is
pinned to v1beta and retries are ours. A quota answer (429) carries its wait in
the body only (RetryInfo's retryDelay, "Please retry in 47.3s"), which the SDK
keeps in the error's `details`. Structured output goes in
`response_json_schema`; the SDK's `parsed` comes back None, silently, whenever
the reply is not the schema's JSON, so the agent checks the raw text instead.
The model's temperature and answer budget are its settings'. Thinking is kept to
the least that plays: Gemini 2.5 takes a `thinking_budget` (0, none, where the
model allows it; 128, the Pro models' least), Gemini 3 and later a `thinking_level`
instead (the two may not be sent together; "low"). Thinking tokens count against
`max_output_tokens`, so the budget is the answer's plus the thinking's room; the
API reports them apart (`thoughts_token_count`, outside `candidates_token_count`),
so they are added to the reply's tokens out and counted as its reasoning tokens.
A contestant's `reasoning_effort` is OpenAI's word and is not read here (a reply's Sent says
so). A reply says what its request sent: the model and the config's sampling and thinking, as
the SDK was given them, and the `modelVersion` the API says answered.
"""

from __future__ import annotations

import functools
import re
import weakref
from typing import TYPE_CHECKING

from labyrinth.engine.commands import shorten

from ..config import ProviderSettings
from .base import DEFAULT_EFFORT, THINKING_TOKENS, Reply, ResponseSchema, Sent, api_word
from .bounds import event_hooks
from .pacing import SYSTEM_CLOCK, Clock, Waiting
from .retry import Caller, Failure, ForeignReply, http_errors, http_failure, transport_failure
from .sdk_imports import IMPORT_LOCK, imported
from .tls import shared_ssl_context

if TYPE_CHECKING:  # the SDK is imported when a transport is made: `import agents` works without it
    from google.genai.types import Model, ThinkingConfig

API_VERSION = "v1beta"
PRO_THINKING_TOKENS = 128  # the 2.5 Pro models cannot turn thinking off; 128 is their least
LEVELS_FROM = 3  # the first generation that takes a thinking_level rather than a budget
GENERATION = re.compile(r"gemini-(\d+)")
NAME_CHARS = 80  # the most shown of the name the API gives a model
SENT = {"temperature", "max_output_tokens", "thinking_config"}  # the config's fields a reply's Sent keeps
OUTPUT_MODE = "response_json_schema"
EFFORT_UNREAD = "not sent: Gemini is asked for its least thinking"  # why a contestant's effort is left out
DRY_KEY = "no-key: a client made to load the SDK, never used"


@functools.cache
def load_sdk() -> None:
    """The SDK, its types and errors and what its failures are told by, imported once under the one import
    lock (sdk_imports): when a transport is first made or, before a run's matches start, by
    registry.load_providers. Not at this module's import: `import agents` works without the SDK."""
    http_errors()
    with IMPORT_LOCK:
        genai = imported("google.genai", "google.genai.types", "google.genai.errors")
        genai.Client(api_key=DRY_KEY).close()  # what making a client loads (google.auth's async credentials)


class GeminiTransport:
    def __init__(self, settings: ProviderSettings, clock: Clock = SYSTEM_CLOCK) -> None:
        load_sdk()
        import httpx  # the SDK's HTTP libraries (loaded: only looked up)
        import httpx2
        from google import genai
        from google.genai import types

        self.settings, self.types, self.timeout_s = settings, types, settings.timeout_s
        self.name = settings.player
        self.where = settings.endpoint
        # The process's one certificate store for its httpx2 clients, and httpx's (certifi's, as the SDK's own)
        # for its websockets (`ssl`, never used: the live API is not called)
        store = shared_ssl_context(httpx2)
        options = types.HttpOptions(base_url=self.where, api_version=API_VERSION,
                                    timeout=int(settings.timeout_s * 1000),  # milliseconds
                                    client_args={"event_hooks": event_hooks(), "verify": store},
                                    async_client_args={"verify": store, "ssl": shared_ssl_context(httpx)})
        self.client = genai.Client(api_key=settings.api_key.reveal() if settings.api_key else None,
                                   http_options=options)
        self.close = weakref.finalize(self, self.client.close)  # base.Transport.close
        self.thinking, self.budget = thinking(settings.model)
        self.calls = Caller("gemini", self.where, settings.timeout_s, settings.rpm, clock, settings.hold_s)

    @property
    def waiting(self) -> Waiting | None:
        return self.calls.waiting

    def complete(self, system: str, turns: list[tuple[str, str]], schema: ResponseSchema) -> Reply:
        types = self.types
        contents = [types.Content(role="model" if role == "assistant" else "user", parts=[types.Part(text=text)])
                    for role, text in turns]
        config = types.GenerateContentConfig(
            system_instruction=system, response_mime_type="application/json",
            response_json_schema=schema.json, temperature=self.settings.temperature,
            max_output_tokens=self.settings.max_tokens + self.budget, thinking_config=self.thinking)
        sent = Sent({"model": self.settings.model, **config.model_dump(mode="json", exclude_none=True, include=SENT)},
                    OUTPUT_MODE, {"reasoning_effort": EFFORT_UNREAD} if self.settings.reasoning_effort else {})

        def call() -> Reply:
            r = self.client.models.generate_content(model=self.settings.model, contents=contents, config=config)
            usage, first = r.usage_metadata, r.candidates[0] if r.candidates else None
            blocked = r.prompt_feedback.block_reason if r.prompt_feedback else None
            thoughts = usage.thoughts_token_count if usage else None
            answer = usage.candidates_token_count if usage else None
            return Reply(r.text or "", usage.prompt_token_count if usage else None,
                         None if answer is None and thoughts is None else (answer or 0) + (thoughts or 0),
                         api_word(first.finish_reason) if first else None, api_word(blocked), reasoning_tokens=thoughts,
                         sent=sent, model_version=r.model_version)

        return self.calls(call, self._classify, sent)

    def _classify(self, exc: Exception) -> Failure | None:
        from google.genai import errors

        if isinstance(exc, errors.APIError):
            headers = getattr(exc.response, "headers", None)
            return http_failure("gemini", exc.code, exc.message or exc.status or "", headers, exc.details)
        return transport_failure("gemini", exc, self.timeout_s, self.where)

    def check(self) -> str:
        """A cheap call for `labyrinth doctor`: the model's record (no tokens spent), which must be one: a
        server that is not Gemini's API may answer any JSON, which the SDK reads as a record of nothing."""
        model = self.calls.once(self._record, self._classify)
        return f"{shorten(str(model.name), NAME_CHARS)} answers (input limit {model.input_token_limit} tokens)"

    def _record(self) -> Model:
        model = self.client.models.get(model=self.settings.model)
        if not isinstance(model.name, str) or not model.name:
            raise ForeignReply("an answer without a model's name where Gemini's model record belongs")
        return model


def thinking(model: str) -> tuple[ThinkingConfig, int]:
    """The least thinking ``model`` plays with, as the SDK's ThinkingConfig, and the tokens it may take
    on top of the answer's: a level for Gemini 3 and later, a budget before (a name without a
    generation, such as an alias, is asked as 2.5 is). Called once the transport has the SDK."""
    from google.genai.types import ThinkingConfig

    generation = GENERATION.search(model)
    if generation and int(generation.group(1)) >= LEVELS_FROM:
        return ThinkingConfig(thinking_level=DEFAULT_EFFORT), THINKING_TOKENS[DEFAULT_EFFORT]
    budget = PRO_THINKING_TOKENS if "pro" in model else 0
    return ThinkingConfig(thinking_budget=budget), budget
