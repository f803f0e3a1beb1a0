"""Any OpenAI-compatible endpoint (OpenAI itself, vLLM, llama.cpp's server, LM Studio,
SGLang, OpenRouter, Groq, Together, DeepSeek) through the official `openai` SDK.

The SDK retries twice on its own and times out per read: its retries are turned off
(ours wait out quotas and keep one deadline) and so is its environment (the base URL
and key are always given, so OPENAI_BASE_URL and OPENAI_API_KEY are read once, in
agents/llm/config.py, with the flags and the config file). A server of one's own needs no
key, but the SDK insists on one: a placeholder is sent.

Structured output asks for the most the endpoint takes: a strict `json_schema` (its
dialect: the root an object, every property required, no length bounds, so the
actions' one schema is reshaped here, not written again), else `json_object`, else
plain text (the prompt asks for JSON in any case). An endpoint that refuses a format
with a 400 naming `response_format` is asked again at once in the next, and that one is
kept for the rest of the match. The sampling settings (temperature, the answer's
max_tokens, a reasoning effort) are sent as the model takes them (openai_dialect.py): a
reasoning model gets `max_completion_tokens` with room to think, an effort and no
temperature, known by its name or learned from its endpoint's 400 and asked again at
once, neither counted as a failure. The SDK reads a 200 without checking it: a body that
is not a chat completion is ForeignReply. A reply stopped by the length limit with no
text, or withheld by a content filter, carries its finish reason and no text: the agent
counts it as an answer without an action. A reasoning model's `reasoning_content` is
not the answer: only `content` is; its hidden reasoning is counted from the usage's
`completion_tokens_details.reasoning_tokens` (already inside `completion_tokens`).
Every reply says what its request sent (the body but its messages and format, the
format's mode, the settings left out: openai_dialect.left_out) and the `model` the
endpoint says answered.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import json
import threading
from functools import partial
from typing import Any

from labyrinth.engine.commands import excerpt

from ..config import ProviderSettings
from .base import STRICT_SCHEMA, Reply, ResponseSchema, Sent, json_kind, listed_check
from .bounds import event_hooks
from .openai_dialect import dialect, learn, left_out, refused_in
from .pacing import SYSTEM_CLOCK, Clock, Waiting
from .retry import Caller, Failure, ForeignReply, http_errors, http_failure, transport_failure
from .sdk_imports import imported
from .tls import shared_ssl_context

NO_KEY = "no-key-needed"  # sent to a server of one's own when no key is set: the SDK refuses to start without
FORMATS = ("json_schema", "json_object", "text")  # the response formats tried, the most useful first
OUTPUT_MODES = {"json_schema": STRICT_SCHEMA, "json_object": "json_object", "text": "text"}  # as recorded
FOLDED = "folded into the first user message"  # where the system text goes for a model that takes none
WITHHELD = "content_filter"  # the finish reason of an answer a filter withheld: any text it has is not the answer
LISTING_SHOWN_CHARS = 80  # the most shown of what came where a model listing belongs
STRICT_DROPPED = ("minLength", "maxLength")  # bounds strict mode refuses; the game checks what it reads anyway


class Refused(Exception):
    """A 400 refusing a part of the request that can be left out: ``what`` is "response_format" (the
    format asked for) or what openai_dialect.refused_in names (a parameter, the system message)."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(message)
        self.what = what


CLIENTS_PER_ENDPOINT = 32  # shared SDK clients an endpoint's transports take turns with (see shared_client)
_CLIENTS: dict[tuple[str, str, float], list[Any]] = {}
_TAKEN: dict[tuple[str, str, float], int] = {}  # transports given a client so far, per endpoint
_CLIENTS_LOCK = threading.Lock()


def shared_client(openai: Any, key: str, where: str, timeout_s: float) -> Any:
    """An SDK client for an endpoint, key and timeout, shared with other transports of this process.
    A client is thread-safe and keeps a pool of connections, but its pool is scanned whole on every
    request, so hundreds of connections in one pool cost more than the request: the transports take
    turns among a few clients, which verify with the process's one certificate store
    (tls.shared_ssl_context). Each reads at most bounds.MAX_BODY_BYTES of an answer."""
    known = (where, hashlib.sha256(key.encode()).hexdigest(), timeout_s)  # the key itself is not kept here
    with _CLIENTS_LOCK:
        if not _CLIENTS:
            atexit.register(_close_clients)
        clients = _CLIENTS.setdefault(known, [])
        turn = _TAKEN[known] = _TAKEN.get(known, 0) + 1
        if len(clients) < CLIENTS_PER_ENDPOINT:
            http = openai.DefaultHttpxClient(base_url=where, timeout=timeout_s, verify=_ssl_context(),
                                             event_hooks=event_hooks())
            clients.append(openai.OpenAI(api_key=key, base_url=where, timeout=timeout_s, max_retries=0,
                                         http_client=http))
        return clients[(turn - 1) % len(clients)]


def _ssl_context() -> Any:
    """The certificate store of the SDK's HTTP library, shared (tls.py)."""
    try:
        import httpx2 as http  # the SDK's HTTP library (openai 3), imported here as the SDK is
    except ImportError:
        import httpx as http  # type: ignore[no-redef]  # openai 2's: the same module under its older name
    return shared_ssl_context(http)


def _close_clients() -> None:
    """Close the shared clients' connections while the interpreter can still run their code (left to
    the garbage collector at exit, each complains that its socket was never closed)."""
    with _CLIENTS_LOCK:
        for clients in _CLIENTS.values():
            for client in clients:
                client.close()
        _CLIENTS.clear()


@functools.cache
def load_sdk() -> None:
    """The SDK, its HTTP library and what its failures are told by, imported once under the one import
    lock (sdk_imports): when a transport is first made or, before a run's matches start, by
    registry.load_providers. Not at this module's import: `import agents` works without the SDK."""
    http_errors()
    imported("openai", "httpx2")


class OpenAITransport:
    def __init__(self, settings: ProviderSettings, clock: Clock = SYSTEM_CLOCK) -> None:
        load_sdk()
        import openai  # loaded: only looked up

        self.openai, self.settings, self.timeout_s = openai, settings, settings.timeout_s
        self.name = settings.player
        self.where = settings.endpoint
        self.client = shared_client(openai, settings.api_key.reveal() if settings.api_key else NO_KEY, self.where,
                                    settings.timeout_s)
        self.format = 0  # the index in FORMATS of the format this endpoint takes, for the rest of the match
        self.strict: tuple[ResponseSchema, dict[str, Any]] | None = None  # a schema and its strict form, made once
        self.calls = Caller("openai", self.where, settings.timeout_s, settings.rpm, clock, settings.hold_s)

    @property
    def waiting(self) -> Waiting | None:
        return self.calls.waiting

    def complete(self, system: str, turns: list[tuple[str, str]], schema: ResponseSchema) -> Reply:
        while True:  # each refusal leaves one thing out for good, so this ends
            asked, how = self.format, dialect(self.where, self.settings.model)
            response_format = self._response_format(schema)
            body = {"model": self.settings.model, "messages": how.messages(system, turns),
                    **how.sampling(self.settings), **({"response_format": response_format} if response_format else {})}
            sent = self._sent(body)
            try:
                return self.calls(partial(self._ask, body, sent), self._classify, sent)
            except Refused as refused:
                if refused.what == "response_format":
                    self.format = max(self.format, asked + 1)  # another call may have stepped down already
                else:
                    learn(self.where, self.settings.model, refused.what)

    def _sent(self, body: dict[str, Any]) -> Sent:
        """What ``body`` sends: its parameters (all but the conversation and the format), the format's
        mode, where the system text went, and the contestant's settings it leaves out."""
        parameters = {key: value for key, value in body.items() if key not in ("messages", "response_format")}
        mode = OUTPUT_MODES[(body.get("response_format") or {}).get("type", "text")]
        folded = not body["messages"] or body["messages"][0]["role"] != "system"
        return Sent(parameters, mode, left_out(self.settings, parameters), FOLDED if folded else None)

    def _response_format(self, schema: ResponseSchema) -> dict[str, Any] | None:
        kind = FORMATS[self.format]
        if kind == "json_schema":
            if self.strict is None or self.strict[0] is not schema:  # an agent asks with one schema all match
                self.strict = (schema, strict_schema(schema.json))
            return {"type": kind, "json_schema": {"name": schema.name, "schema": self.strict[1], "strict": True}}
        return {"type": kind} if kind == "json_object" else None

    def _ask(self, body: dict[str, Any], sent: Sent) -> Reply:
        try:
            # The SDK's post, as chat.completions.create sends it, without create's walk over every key of
            # the body and schema against its typed parameters (some 3 ms of CPU a request), and read as the
            # JSON it parsed, without building a ChatCompletion of it (about 1 ms): a tournament's hundreds
            # of matches at once would spend a whole core on these.
            r = self.client.post("/chat/completions", body=body, cast_to=object)
        except self.openai.BadRequestError as exc:
            if refused := refused_in(exc.body, body):
                raise Refused(refused, str(exc)) from None
            if self.format + 1 < len(FORMATS) and "response_format" in _error_text(exc):
                raise Refused("response_format", str(exc)) from None
            raise
        return _reply(r, sent)

    def _classify(self, exc: Exception) -> Failure | None:
        openai = self.openai
        if isinstance(exc, openai.APIStatusError):
            body = exc.body if isinstance(exc.body, dict) else None
            detail = (body or {}).get("message") or exc.message
            return http_failure("openai", exc.status_code, str(detail), exc.response.headers, body)
        if isinstance(exc, openai.APIConnectionError):  # the SDK's wrapper of httpx's timeouts and refusals
            return transport_failure("openai", exc.__cause__ or exc, self.timeout_s, self.where) or \
                Failure(f"openai is not reachable at {self.where}: {type(exc).__name__}")
        return transport_failure("openai", exc, self.timeout_s, self.where)

    def close(self) -> None:
        """Nothing of its own to close: its client is shared with the process's other transports
        (shared_client), at most CLIENTS_PER_ENDPOINT of them, and closed at exit."""

    def check(self) -> str:
        """A cheap call for `labyrinth doctor`: the models the endpoint serves (GET /models, no tokens spent),
        read as the JSON it is, as a chat's answer is: a server that is not an OpenAI-compatible API may
        answer anything, which the SDK's listing would read as none."""
        names = self.calls.once(lambda: _listed(self.client.get("/models", cast_to=object)), self._classify)
        return listed_check(names, self.settings.model)


def _reply(r: Any, sent: Sent) -> Reply:
    """The answer in a chat completion's JSON (as the SDK parsed it: a body it could not read as JSON
    is the text, read here as the SDK reads one into a ChatCompletion), ForeignReply if it is not one;
    ``sent``: what its request sent."""
    if isinstance(r, str):
        try:
            r = json.loads(r)
        except ValueError:
            pass
    if not isinstance(r, dict) or not isinstance(r.get("choices"), list):
        shape = "a chat completion without choices" if isinstance(r, dict) else json_kind(r)
        raise ForeignReply(f"{shape} where a chat completion belongs")
    choice = r["choices"][0] if r["choices"] and isinstance(r["choices"][0], dict) else {}
    finish = choice.get("finish_reason")
    message = choice.get("message")
    content = message.get("content") if isinstance(message, dict) and finish != WITHHELD else None
    usage = found if isinstance(found := r.get("usage"), dict) else {}
    details = found if isinstance(found := usage.get("completion_tokens_details"), dict) else {}
    return Reply(content or "", usage.get("prompt_tokens"), usage.get("completion_tokens"), finish,
                 reasoning_tokens=details.get("reasoning_tokens"),  # a count that is none, Reply drops
                 sent=sent, model_version=r.get("model"))


def _listed(r: Any) -> list[str]:
    """The model ids of a model listing's JSON (as the SDK parsed it, or its text), ForeignReply saying
    what came instead if it is none."""
    if isinstance(r, str):
        try:
            r = json.loads(r)
        except ValueError:
            raise ForeignReply(f"text ({excerpt(r, LISTING_SHOWN_CHARS)}) where a model listing belongs") from None
    data = r.get("data") if isinstance(r, dict) else None
    if not isinstance(data, list):
        shape = json_kind(r) if not isinstance(r, dict) else \
            f"a JSON object with the keys {excerpt(sorted(map(str, r)), LISTING_SHOWN_CHARS)}"
        raise ForeignReply(f"{shape} where a model listing belongs")
    return [m["id"] for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)]


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` as OpenAI's strict mode takes it: a root `anyOf` of objects (one per action) becomes
    one object whose properties take any branch's values (an `enum`'s values joined, other
    differing schemas as `anyOf`); every object requires all its properties (an optional one
    that may be null stays nullable; one that may not must now be given: any of its values is
    valid) and allows no others; STRICT_DROPPED bounds are left out. The game checks every
    action it reads, so a looser schema costs nothing."""
    branches = schema.get("anyOf")
    if branches and all(b.get("type") == "object" for b in branches):
        names = list(dict.fromkeys(name for b in branches for name in b["properties"]))
        schema = {"type": "object", "properties": {name: _joined([b["properties"][name] for b in branches
                                                                   if name in b["properties"]])
                                                    for name in names}}
    strict: dict[str, Any] = _strict(schema)  # an object stays an object
    return strict


def _joined(options: list[dict[str, Any]]) -> dict[str, Any]:
    """One schema for the values any of ``options`` allows."""
    distinct = [o for i, o in enumerate(options) if o not in options[:i]]
    if len(distinct) == 1:
        return distinct[0]
    if all(set(o) == {"type", "enum"} and o["type"] == distinct[0]["type"] for o in distinct):
        return {"type": distinct[0]["type"], "enum": list(dict.fromkeys(v for o in distinct for v in o["enum"]))}
    return {"anyOf": distinct}


def _strict(node: Any) -> Any:
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _strict(value) if key != "properties" else {name: _strict(sub) for name, sub in value.items()}
            for key, value in node.items() if key not in STRICT_DROPPED}
    if node.get("type") == "object":
        node["properties"] = node.get("properties", {})
        node["required"] = list(node["properties"])
        node["additionalProperties"] = False
    return node


def _error_text(exc: Exception) -> str:
    """An error answer's message and `param` (OpenAI names the refused parameter there)."""
    body = getattr(exc, "body", None)
    return " ".join(str(body.get(k) or "") for k in ("param", "message")) if isinstance(body, dict) else str(exc)
