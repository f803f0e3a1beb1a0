"""Mistral (the User's model) through `mistralai`.

The client now lives in `mistralai.client`; its server URL takes no /v1; it
waits five minutes unless told otherwise and never retries: the timeout is
ours and so are the retries. Structured output is a strict `json_schema`
response format sent through `chat.complete`, so the raw text is kept and
checked by the agent rather than `chat.parse` raising bare JSON or
validation errors.

The model's temperature and answer budget are its settings', and its reasoning
effort is sent when its contestant gives one (the API takes OpenAI's words). The
Magistral models think before they answer, in `thinking` chunks of the content
that are not the answer (only its text chunks are read), within the same
max_tokens: a Magistral model, or one given an effort, gets its thinking's room
on top. The API does not count thinking apart, so no reasoning tokens are
reported (they are inside the tokens out). A reply says what its request sent (the
parameters beside the conversation and the format) and the `model` the API says answered.
"""

from __future__ import annotations

import functools
import json
import weakref
from typing import TYPE_CHECKING, Any

from ..config import ProviderSettings
from .base import STRICT_SCHEMA, Reply, ResponseSchema, Sent, api_word, listed_check, token_budget
from .bounds import event_hooks
from .pacing import SYSTEM_CLOCK, Clock, Waiting
from .retry import ERROR_CHARS, Caller, Failure, ForeignReply, http_errors, http_failure, transport_failure
from .sdk_imports import IMPORT_LOCK, imported
from .tls import shared_ssl_context

OUTPUT_MODE = STRICT_SCHEMA

if TYPE_CHECKING:  # the SDK is imported when a transport is made: `import agents` works without it
    from mistralai.client.models import (
        BaseModelCard,
        ChatCompletionRequestMessageTypedDict,
        FTModelCard,
        UnknownModelListData,
    )

# The SDK loads most of its parts on first use (its packages' module __getattr__, a client's `chat`): those a
# chat request, its answer and its errors reach are loaded with it, not by the first requests' threads at once.
# The chat's module (with what it imports, the models its request and answer take) and every name of its errors
# and utils (a few small modules). tests/agents/llm/first_calls.py's `late` shows what is missing, if anything.
EAGER_MODULES = ("mistralai.client", "mistralai.client.chat", "httpx2")
EAGER_PACKAGES = ("mistralai.client.errors", "mistralai.client.utils")


@functools.cache
def load_sdk() -> None:
    """The SDK with what it would load on first use (above), its HTTP library and what its failures are
    told by, imported once under the one import lock (sdk_imports): when a transport is first made or,
    before a run's matches start, by registry.load_providers. Not at this module's import: `import
    agents` works without the SDK."""
    http_errors()
    with IMPORT_LOCK:
        imported(*EAGER_MODULES)
        for package in map(imported, EAGER_PACKAGES):
            for name in package.__all__:
                getattr(package, name)


class MistralTransport:
    def __init__(self, settings: ProviderSettings, clock: Clock = SYSTEM_CLOCK) -> None:
        load_sdk()
        import httpx2  # the SDK's HTTP library (loaded: only looked up)
        from mistralai.client import Mistral, models

        self.settings, self.models, self.timeout_s = settings, models, settings.timeout_s
        self.name = settings.player
        self.where = settings.endpoint.rstrip("/").removesuffix("/v1")  # the SDK adds /v1
        # Both clients as the SDK's own (the async one is never used), with the process's one certificate store;
        # the one that is used bounded. Given both, the SDK makes none of its own, and closes neither: the one that
        # connects is closed here (base.Transport.close).
        store = shared_ssl_context(httpx2)
        http = httpx2.Client(follow_redirects=True, event_hooks=event_hooks(), verify=store)
        self.client = Mistral(api_key=settings.api_key.reveal() if settings.api_key else "", server_url=self.where,
                              timeout_ms=int(settings.timeout_s * 1000), client=http,
                              async_client=httpx2.AsyncClient(follow_redirects=True, verify=store))
        self.close = weakref.finalize(self, http.close)
        self.calls = Caller("mistral", settings.endpoint, settings.timeout_s, settings.rpm, clock, settings.hold_s)

    @property
    def waiting(self) -> Waiting | None:
        return self.calls.waiting

    def complete(self, system: str, turns: list[tuple[str, str]], schema: ResponseSchema) -> Reply:
        messages: list[ChatCompletionRequestMessageTypedDict] = [{"role": "system", "content": system},
                                                                 *(_message(r, t) for r, t in turns)]
        response_format = self.models.ResponseFormat(type="json_schema", json_schema=self.models.JSONSchema(
            name=schema.name, schema_definition=schema.json, strict=True))
        effort = self.settings.reasoning_effort
        thinks = effort is not None or "magistral" in self.settings.model.lower()
        budget = token_budget(self.settings.max_tokens, effort, thinks)
        parameters: dict[str, Any] = {"model": self.settings.model, "temperature": self.settings.temperature,
                                      "max_tokens": budget,
                                      **({"reasoning_effort": effort} if effort else {})}  # one of the config's EFFORTS
        sent = Sent(parameters, OUTPUT_MODE)

        def call() -> Reply:
            r = self.client.chat.complete(messages=messages, response_format=response_format, **parameters)
            message = r.choices[0].message if r.choices else None
            content = message.content if message is not None else None
            if isinstance(content, list):  # chunks: keep the text ones
                content = "".join(getattr(chunk, "text", "") for chunk in content)
            finish = r.choices[0].finish_reason if r.choices else None
            return Reply(content or "", r.usage.prompt_tokens, r.usage.completion_tokens,
                         api_word(finish), sent=sent,
                         model_version=r.model)

        return self.calls(call, self._classify, sent)

    def _classify(self, exc: Exception) -> Failure | None:
        from mistralai.client import errors

        if isinstance(exc, errors.SDKError):
            return http_failure("mistral", exc.status_code, exc.body or exc.message, dict(exc.headers or {}),
                                _json(exc.body))
        if isinstance(exc, errors.MistralError):  # 422, or a 200 the SDK could not read
            return Failure(f"mistral: {type(exc).__name__}: {' '.join(str(exc)[:ERROR_CHARS].split())[:160]}")
        return transport_failure("mistral", exc, self.timeout_s, self.where)

    def check(self) -> str:
        """A cheap call for `labyrinth doctor`: the models the key can use (no tokens spent)."""
        listed = self.calls.once(self._listing, self._classify)
        names = [name for card in listed if (name := model_id(card)) is not None]
        return listed_check(names, self.settings.model)


    def _listing(self) -> list[BaseModelCard | FTModelCard | UnknownModelListData]:
        """The models listed; ForeignReply for an answer without the listing (a server that is not Mistral's API
        may answer any JSON object, which the SDK reads as a listing of nothing)."""
        listed = self.client.models.list().data
        if listed is None:
            raise ForeignReply("an answer without a data list where Mistral's model listing belongs")
        return listed


def _message(role: str, text: str) -> ChatCompletionRequestMessageTypedDict:
    """One turn of the conversation: the model's own (assistant) or the game's (user)."""
    if role == "assistant":
        return {"role": "assistant", "content": text}
    return {"role": "user", "content": text}


def model_id(card: BaseModelCard | FTModelCard | UnknownModelListData) -> str | None:
    """A listed model's id; one of a kind the SDK does not know keeps only its JSON (None without an id)."""
    from mistralai.client.models import UnknownModelListData

    if isinstance(card, UnknownModelListData):
        found = card.raw.get("id") if isinstance(card.raw, dict) else None
        return found if isinstance(found, str) else None
    return card.id


def _json(text: str | None) -> Any:
    """An error body as JSON, if it is JSON of at most ERROR_CHARS (the SDK keeps it as text)."""
    try:
        return json.loads((text or "")[:ERROR_CHARS])
    except (ValueError, RecursionError):
        return None
