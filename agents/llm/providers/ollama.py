"""Ollama (the WSAP reference backend, qwen3:8b by default) through the `ollama` SDK.

The SDK waits forever unless given a timeout and never retries: both are done
here, and an httpx hook keeps the headers (a quota's wait), which the SDK's
ResponseError drops, and refuses a 200 whose body is `[]` or `null`.
A key (OLLAMA_API_KEY, for a hosted Ollama) is sent only when its settings hold one: the SDK
reads OLLAMA_API_KEY from the environment on its own, which would give the provider's key to a
contestant with an endpoint of its own, so each request carries exactly the key it was given.
Structured output goes in `format`. The model's temperature and answer budget
(`num_predict`) are its settings'. `think` is off (Qwen3 would write a <think>
block first, which the agent's reply parser drops if it comes anyway) unless the
contestant gives a reasoning effort: then it is Ollama's level of that name
(minimal, which Ollama lacks, is low; none keeps it off) and `num_predict` gets
the thinking's room on top. Ollama returns the thinking apart from the answer,
which alone is read; its `eval_count` holds both and is not split, so no
reasoning tokens are reported. A reply says what its request sent (the model, its
options and think) and the `model` the server says answered.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import weakref
from types import ModuleType
from typing import TYPE_CHECKING, Literal

from ..config import ProviderSettings

if TYPE_CHECKING:
    import httpx  # the SDK's HTTP library
    from ollama import ListResponse
from .base import THINKING_TOKENS, Reply, ResponseSchema, Sent, json_kind
from .bounds import event_hooks
from .limits import CONTEXT_TOKENS
from .pacing import SYSTEM_CLOCK, Clock, Waiting
from .retry import Caller, Failure, ForeignReply, http_errors, http_failure, transport_failure
from .sdk_imports import IMPORT_LOCK
from .tls import shared_ssl_context

OPTIONS = {"top_p": 0.9, "repeat_penalty": 1.1, "num_ctx": CONTEXT_TOKENS}  # set, so that a server
# configured otherwise cannot cut prompts; the temperature and num_predict are the model's settings
# An effort as Ollama's think.
THINK_LEVELS: dict[str, Literal["low", "medium", "high"]] = {"minimal": "low", "low": "low", "medium": "medium",
                                                            "high": "high"}
OUTPUT_MODE = "format: JSON schema"


class _Hooks:
    """The client's event hooks and what they keep, apart from the transport: the transport's finalizer
    (its close) holds the client, and a client whose hooks held the transport would keep the transport,
    and its connection open, for good."""

    def __init__(self, authorization: str | None) -> None:
        self.authorization = authorization
        self.headers: dict[str, str] = {}  # the last answer's (a quota's wait), which ResponseError drops

    def authorize(self, request: httpx.Request) -> None:
        """The request with the key this transport was given, or none: never one the SDK found in the
        environment."""
        request.headers.pop("authorization", None)
        if self.authorization:
            request.headers["authorization"] = self.authorization

    def check_answer(self, response: httpx.Response) -> None:
        """Keep the headers; a 200 whose body is JSON but no object (`[]`, `null`) is ForeignReply
        (the SDK would raise a bare TypeError on it)."""
        self.headers = dict(response.headers)
        if response.status_code != 200:
            return
        try:
            body = json.loads(response.read())
        except ValueError:
            return  # not JSON at all: the SDK says so
        if not isinstance(body, dict):
            raise ForeignReply(f"{json_kind(body)} where an object belongs")


class OllamaTransport:
    def __init__(self, settings: ProviderSettings, clock: Clock = SYSTEM_CLOCK) -> None:
        self.settings, self.where, self.timeout_s = settings, settings.endpoint, settings.timeout_s
        self.name = settings.player
        key = settings.api_key.reveal() if settings.api_key else None
        self.hooks = _Hooks(f"Bearer {key}" if key else None)
        load_sdk()
        import httpx  # the SDK's HTTP library (loaded: only looked up)

        self.client = sdk().Client(host=self.where, timeout=settings.timeout_s,
                                   event_hooks=event_hooks(self.hooks.check_answer, on_request=self.hooks.authorize),
                                   verify=shared_ssl_context(httpx))  # the process's one certificate store
        self.close = weakref.finalize(self, self.client.close)  # base.Transport.close
        level = THINK_LEVELS.get(settings.reasoning_effort or "none")
        self.think: Literal["low", "medium", "high", False] = level if level is not None else False
        room = THINKING_TOKENS[self.think] if self.think else 0
        self.options = {**OPTIONS, "temperature": settings.temperature, "num_predict": settings.max_tokens + room}
        self.sent = Sent({"model": settings.model, "options": self.options, "think": self.think}, OUTPUT_MODE)
        self.calls = Caller("ollama", self.where, settings.timeout_s, settings.rpm, clock, settings.hold_s)

    @property
    def waiting(self) -> Waiting | None:
        return self.calls.waiting

    def complete(self, system: str, turns: list[tuple[str, str]], schema: ResponseSchema) -> Reply:
        messages = [{"role": "system", "content": system}, *({"role": r, "content": t} for r, t in turns)]

        def call() -> Reply:
            r = self.client.chat(model=self.settings.model, messages=messages, format=schema.json,
                                 options=self.options, think=self.think)
            return Reply(r.message.content or "", r.prompt_eval_count, r.eval_count, r.done_reason, sent=self.sent,
                         model_version=r.model)

        return self.calls(call, self._classify, self.sent)

    def _classify(self, exc: Exception) -> Failure | None:
        from ollama import ResponseError

        if isinstance(exc, ResponseError):
            return http_failure("ollama", exc.status_code, str(exc.error), self.hooks.headers)
        return transport_failure("ollama", exc, self.timeout_s, self.where)

    def _listing(self) -> ListResponse:
        """The models listed; ForeignReply for an answer without the listing (the SDK's bare ValidationError)."""
        from pydantic import ValidationError

        try:
            return self.client.list()
        except ValidationError:
            raise ForeignReply("an answer without a models list where Ollama's model listing belongs") from None

    def check(self) -> str:
        """A cheap call for `labyrinth doctor`: the models the server has (no tokens spent)."""
        names = [m.model for m in self.calls.once(self._listing, self._classify).models if m.model is not None]
        have = "present" if _tagged(self.settings.model) in map(_tagged, names) else \
            "NOT pulled (ollama pull " + self.settings.model + ")"
        return f"{len(names)} models; {self.settings.model} {have}"



@functools.cache
def load_sdk() -> None:
    """The SDK and what its failures are told by, imported once under the one import lock (sdk_imports):
    when a transport is first made or, before a run's matches start, by registry.load_providers. Not at
    this module's import: `import agents` works without the SDK."""
    http_errors()
    sdk()


def sdk() -> ModuleType:
    """The `ollama` module, imported without $OLLAMA_HOST, under the one import lock (another thread
    would find it in sys.modules half loaded). Its import builds a default client from that variable,
    and one the client cannot read (``:::``, a port out of range) raises out of the import itself, a
    traceback in place of the line that names the setting. The variable is checked where settings
    are read (agents/llm/config.py), or a flag overrides it; this client is never used."""
    with IMPORT_LOCK:
        if "ollama" not in sys.modules:
            host = os.environ.pop("OLLAMA_HOST", None)
            try:
                import ollama  # noqa: F401 - kept in sys.modules
            finally:
                if host is not None:
                    os.environ["OLLAMA_HOST"] = host
        return sys.modules["ollama"]


def _tagged(model: str) -> str:
    """A model's full name: Ollama serves "qwen3" as "qwen3:latest"."""
    return model if ":" in model.rpartition("/")[2] else f"{model}:latest"
