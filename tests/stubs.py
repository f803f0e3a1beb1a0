"""Local stub HTTP servers that speak each LLM API's wire format, so the real SDK
clients can be tested without the internet.

A Stub records every request and answers from a scripted queue, or else from a
``respond(request)`` function; a reply is (status, payload, headers), where the
header "_delay" makes it answer late (to test timeouts), "_trickle" sends the body
one byte every so many seconds (a per-read timeout never trips) and "_chunked" sends
it in chunks, its length unsaid. ``Model`` plays a simple but legal game as either
role and injects faults on a schedule, ``Steady`` the same whatever order its requests
come in; ``PerMinuteQuota`` answers 429 as Gemini does once a minute's requests are spent,
on a ``FakeClock`` that the client's waits move.
"""

from __future__ import annotations

import json
import re
import threading
import time
import zlib
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from typing import Any

from labyrinth.agents.builtin.naive import Waiter
from labyrinth.agents.llm.providers.limits import REPLY_TOKENS
from labyrinth.saves.providers import PROVIDERS

StubReply = tuple[int, Any, dict | None]
CHUNK_BYTES = 64 << 10  # a chunked answer's chunk


class Stub:
    def __init__(self, respond: Callable[[dict], StubReply] | None = None) -> None:
        self.requests: list[dict] = []
        self.replies: list[StubReply] = []
        self.respond = respond
        self._lock = threading.Lock()
        self.closing = threading.Event()  # ends the late and trickling answers
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else headers and body wait out a 40 ms delayed ACK per reply

            def log_message(self, *args) -> None:
                pass

            def _handle(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n) if n else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode()
                request = {"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body,
                           "time": time.monotonic()}
                with stub._lock:
                    stub.requests.append(request)
                    status, payload, headers = stub._next(request)
                headers = dict(headers or {})
                delay, trickle = headers.pop("_delay", 0), headers.pop("_trickle", 0)
                chunked = headers.pop("_chunked", False)
                if delay and stub.closing.wait(delay):
                    return
                data = payload if isinstance(payload, (bytes, str)) else json.dumps(payload)
                data = data.encode() if isinstance(data, str) else data
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header(*(("Transfer-Encoding", "chunked") if chunked else ("Content-Length", str(len(data)))))
                for key, value in headers.items():
                    self.send_header(key, str(value))
                self.end_headers()
                if chunked:
                    self._send_chunks(data)
                    return
                if not trickle:
                    self.wfile.write(data)
                    return
                for i in range(len(data)):
                    if stub.closing.wait(trickle):
                        return
                    self.wfile.write(data[i:i + 1])
                    self.wfile.flush()

            def _send_chunks(self, data: bytes) -> None:
                for at in range(0, len(data), CHUNK_BYTES):
                    chunk = data[at:at + CHUNK_BYTES]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")

            do_POST = do_GET = _handle

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address) -> None:
                pass  # a client that timed out has hung up on a late reply: expected

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def _next(self, request: dict) -> StubReply:
        if self.replies:
            return self.replies.pop(0) if len(self.replies) > 1 or self.respond else self.replies[0]
        return self.respond(request)

    def reply(self, status: int, payload: Any, headers: dict | None = None) -> Stub:
        self.replies.append((status, payload, headers))
        return self

    def close(self) -> None:
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()


# --- each API's answer around a model's text --------------------------------------

def gemini_answer(text: str | None, tokens_in: int, tokens_out: int) -> dict:
    if text is None:
        return {"candidates": [], "usageMetadata": {"promptTokenCount": tokens_in}}
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": tokens_in, "candidatesTokenCount": tokens_out,
                              "totalTokenCount": tokens_in + tokens_out},
            "modelVersion": "gemini-2.5-flash"}


def mistral_answer(text: str | None, tokens_in: int, tokens_out: int) -> dict:
    return {"id": "c", "object": "chat.completion", "model": "mistral-small-latest", "created": 0,
            "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out,
                      "total_tokens": tokens_in + tokens_out},
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text or ""}}]}


def ollama_answer(text: str | None, tokens_in: int, tokens_out: int) -> dict:
    return {"model": "qwen3:8b", "created_at": "2026-11-21T00:00:00Z", "done": True, "done_reason": "stop",
            "message": {"role": "assistant", "content": text or ""},
            "prompt_eval_count": tokens_in, "eval_count": tokens_out}


def openai_answer(text: str | None, tokens_in: int, tokens_out: int, finish: str = "stop") -> dict:
    """A chat completion as OpenAI (and vLLM, llama.cpp, LM Studio) send it; a reasoning model's
    thoughts come in `reasoning_content`, beside the answer."""
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4o-mini",
            "system_fingerprint": "fp_1",
            "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out,
                      "total_tokens": tokens_in + tokens_out},
            "choices": [{"index": 0, "finish_reason": finish, "logprobs": None,
                         "message": {"role": "assistant", "content": text, "refusal": None,
                                     "reasoning_content": "Let me think about the ways out first."}}]}


def gemini_quota(retry_s: float, per_minute: int) -> dict:
    """Gemini's 429 for a spent per-minute quota: the wait is in the body only, as RetryInfo's
    whole seconds and, to the millisecond, in the message."""
    return {"error": {
        "code": 429, "status": "RESOURCE_EXHAUSTED",
        "message": "You exceeded your current quota, please check your plan and billing details. For more "
                   "information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota "
                   "exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, "
                   f"limit: {per_minute}, model: gemini-2.5-flash\nPlease retry in {retry_s:.6f}s.",
        "details": [
            {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [
                {"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                 "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "quotaValue": str(per_minute)}]},
            {"@type": "type.googleapis.com/google.rpc.Help",
             "links": [{"description": "Learn more about Gemini API quotas",
                        "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{int(retry_s)}s"}]}}


def gemini_error(status: int, message: str) -> dict:
    return {"error": {"code": status, "message": message, "status": "RESOURCE_EXHAUSTED" if status == 429 else
                      "UNAVAILABLE"}}


def mistral_error(status: int, message: str) -> dict:
    return {"object": "error", "message": message, "type": "rate_limited" if status == 429 else "server_error"}


def ollama_error(status: int, message: str) -> dict:
    return {"error": message}


def openai_error(status: int, message: str, param: str | None = None) -> dict:
    return {"error": {"message": message, "type": "requests" if status == 429 else "invalid_request_error",
                      "param": param, "code": "rate_limit_exceeded" if status == 429 else None}}


WIRE = {"gemini": (gemini_answer, gemini_error), "mistral": (mistral_answer, mistral_error),
        "ollama": (ollama_answer, ollama_error), "openai": (openai_answer, openai_error)}
CHAT_PATHS = {"gemini": ":generateContent", "mistral": "/v1/chat/completions", "ollama": "/api/chat",
              "openai": "/chat/completions"}  # under the base URL, which holds OpenAI's /v1
# How each API says how long a quota lasts: OpenAI (and the gateways copying it) in rate-limit headers
QUOTA_HEADERS = {"openai": {"x-ratelimit-limit-requests": "500", "x-ratelimit-remaining-requests": "0",
                            "x-ratelimit-reset-requests": "1s", "x-ratelimit-remaining-tokens": "199000",
                            "x-ratelimit-reset-tokens": "300ms"}}


WIRES = {"google.genai": "gemini", "mistralai.client": "mistral", "ollama": "ollama", "openai": "openai"}  # SDK: API


def wire(provider: str) -> str:
    """The API whose requests and answers a provider's calls follow: its SDK's, by its row (saves.providers),
    so that a provider row of an SDK already here (an OpenAI-compatible preset) needs no stand-in of its own."""
    return WIRES[PROVIDERS[provider].sdk]


API_ROOTS = {"openai": "/v1"}  # where each API's routes start under its server (an OpenAI base URL holds /v1)


def stub_url(stub: Stub, provider: str) -> str:
    """The base URL that reaches ``provider``'s API at the stand-in ``stub``."""
    return stub.url + API_ROOTS.get(wire(provider), "")


def conversation_text(provider: str, body: dict) -> tuple[str, str]:
    """The system text and the last user message of a chat request, in any of the four formats."""
    if wire(provider) == "gemini":
        system = body["systemInstruction"]["parts"][0]["text"]
        last = body["contents"][-1]["parts"][0]["text"]
    else:
        system = body["messages"][0]["content"]
        last = body["messages"][-1]["content"]
    return system, last


def estimate(text: str) -> int:
    return len(text) // 4 + 1


class Model:
    """A stand-in model: a legal action for the role the prompt is about, or the fault
    scheduled for that request number (1-based, counting chat requests only)."""

    def __init__(self, provider: str, faults: dict[int, str] | None = None, timeout_s: float = 0.5,
                 minotaur_action: str = "CHASE", delay_s: float = 0.0, refuses: tuple[str, ...] = ()) -> None:
        self.provider, self.faults, self.timeout_s = provider, faults or {}, timeout_s
        self.wire = wire(provider)  # the API it answers as
        self.minotaur_action, self.delay_s = minotaur_action, delay_s  # delay_s: how long each answer takes
        self.refuses = refuses  # the OpenAI response_format types this endpoint answers with a 400
        self.chats = 0

    def __call__(self, request: dict) -> StubReply:
        answer, error = WIRE[self.wire]
        if not request["path"].endswith(CHAT_PATHS[self.wire]):
            return self._catalogue(request["path"])
        self.chats += 1
        system, last = conversation_text(self.provider, request["body"])
        tokens_in = estimate(json.dumps(request["body"]))
        fault = self.faults.get(self.chats)
        refused = (request["body"].get("response_format") or {}).get("type")
        if refused in self.refuses:
            return 400, openai_error(400, f"Invalid parameter: 'response_format' of type '{refused}' is not "
                                          "supported with this model.", "response_format"), None
        if fault == "429":
            return 429, error(429, "quota exceeded, slow down"), QUOTA_HEADERS.get(self.wire, {"Retry-After": "1"})
        if fault in ("length", "content_filter"):  # OpenAI's: out of tokens before any text, or withheld
            return 200, openai_answer(None if fault == "length" else '{"action": "CH', tokens_in, REPLY_TOKENS,
                                      fault), None
        if fault == "503":
            return 503, "upstream connect error", None
        if fault == "trickle":  # a byte every 0.05 s: each read is quick, the whole answer takes seconds
            return 200, answer(self._action(system, last), tokens_in, 20), {"_trickle": 0.05}
        if fault == "hang":
            return 200, answer(self._action(system, last), tokens_in, 20), {"_delay": 60}
        if fault in ("[]", "null"):
            return 200, fault, None
        if fault == "slow":
            return 200, answer(self._action(system, last), tokens_in, 20), {"_delay": self.timeout_s * 2}
        thinking = {"_delay": self.delay_s} if self.delay_s else None
        text = {"garbage": "Hmm, I think I will go north, probably!!",
                "empty": None,
                "wrong schema": json.dumps({"action": "FLY", "params": {"wings": 2}, "reasoning": "up and away"}),
                "think": "<think>The exit... maybe {\"action\": \"JUMP\"}?</think>\n" + self._action(system, last),
                }.get(fault) if fault else self._action(system, last)
        return 200, answer(text, tokens_in, estimate(text or "")), thinking

    def _catalogue(self, path: str) -> StubReply:
        """The model listings `labyrinth doctor` asks for (each SDK insists on some fields)."""
        if self.wire == "gemini" and path.startswith("/v1beta/models/"):
            return 200, {"name": "models/" + path.rsplit("/", 1)[1], "inputTokenLimit": 1048576}, None
        if self.wire == "mistral" and path == "/v1/models":
            return 200, {"object": "list", "data": [{"id": m, "object": "model", "created": 0, "owned_by": "mistralai",
                                                     "type": "base", "capabilities": {"completion_chat": True}}
                                                    for m in ("mistral-small-latest", "test-mistral-model")]}, None
        if self.wire == "openai" and path.endswith("/models"):
            return 200, {"object": "list", "data": [{"id": m, "object": "model", "created": 0, "owned_by": "system"}
                                                    for m in ("gpt-4o-mini", "test-openai-model")]}, None
        if self.wire == "ollama" and path == "/api/tags":
            return 200, {"models": [{"model": "qwen3:8b", "name": "qwen3:8b", "size": 5, "digest": "d",
                                     "modified_at": "2026-11-01T00:00:00Z"}]}, None
        return 404, WIRE[self.wire][1](404, f"no route {path}"), None

    def _action(self, system: str, prompt: str) -> str:
        if prompt.startswith("The game is over."):
            return json.dumps({"lesson": "I was careless at the crossings. Next time I listen before each move."})
        if "Before the game starts" in prompt:
            return json.dumps({"action": "WAIT" if "You are the Minotaur" in system else "LOOK", "params": {},
                               "reasoning": "Listen first.\nThen move along the passages."})
        if "You are the Minotaur" in system:
            return json.dumps({"action": self.minotaur_action, "params": {}, "reasoning": "hunt"})
        ways = re.search(r"ways out: ([A-Z ,]+)\.", prompt)
        if not ways:
            return json.dumps({"action": "LOOK", "params": {}, "reasoning": "where am I?"})
        options = [w.strip() for w in ways.group(1).split(",")]
        direction = self._way(options, prompt)
        return json.dumps({"action": "MOVE", "params": {"direction": direction, "steps": 3, "speed": 1},
                           "reasoning": f"try {direction.lower()}"})

    def _way(self, options: list[str], prompt: str) -> str:
        """The way out the user takes: by the request's number, so that one match's moves vary turn by turn."""
        return options[self.chats % len(options)]


class Steady(Model):
    """A Model whose way out is a function of the prompt alone, not of how many requests came before: matches
    played at once ask in whatever order their threads reach the stub, and with a shared count their moves (and
    so the games) would change from run to run. The benchmarks that print a digest of the games use this one."""

    def _way(self, options: list[str], prompt: str) -> str:
        return options[zlib.crc32(prompt.encode()) % len(options)]


class FakeClock:
    """Monotonic time that only sleeping moves: the client waits on it (``sleep`` advances it at
    once) and a quota stub counts its minutes on it, so no test waits real seconds."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now, self.slept = start, []
        self._lock = threading.Lock()

    def monotonic(self) -> float:
        with self._lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.slept.append(seconds)
            self.now += max(seconds, 0.0)


class PerMinuteQuota:
    """A per-minute request quota in front of ``model`` (chat requests only), as Gemini's free tier
    keeps it: more than ``per_minute`` requests within 60 s of ``clock`` get Gemini's 429, with the
    time until the oldest of them leaves the window."""

    def __init__(self, model: Model, per_minute: int, clock: FakeClock) -> None:
        self.model, self.per_minute, self.clock = model, per_minute, clock
        self.served: list[float] = []  # when each request the model answered arrived
        self.refused: list[float] = []

    def __call__(self, request: dict) -> StubReply:
        if not request["path"].endswith(CHAT_PATHS[self.model.wire]):
            return self.model(request)
        now = self.clock.monotonic()
        window = [t for t in self.served if now - t < 60.0]
        if len(window) >= self.per_minute:
            self.refused.append(now)
            return 429, gemini_quota(window[0] + 60.0 - now, self.per_minute), None
        self.served.append(now)
        return self.model(request)


def quota_match(stub: Stub, rpm: float | None, turns: int = 60) -> tuple[int, PerMinuteQuota, FakeClock, Any]:
    """A ``turns``-turn match, a Gemini Minotaur (through the real SDK, behind a 10-a-minute quota on
    ``stub``) against the built-in user on tiny, paced at ``rpm``: the last turn the model was asked
    and answered, the quota (what it served and refused), the clock, the match."""
    from labyrinth.agents.llm.config import ProviderSettings
    from labyrinth.agents.llm.llm_agent import LLMAgent
    from labyrinth.agents.llm.providers.gemini import GeminiTransport
    from labyrinth.agents.match.runner import Match
    from labyrinth.agents.registry import make_agent

    clock = FakeClock()
    stub.respond = quota = PerMinuteQuota(Model("gemini", minotaur_action="WAIT"), 10, clock)
    settings = ProviderSettings("gemini", "gemini-2.5-flash", stub.url, api_key="k", timeout_s=30, rpm=rpm)
    agent = LLMAgent("minotaur", GeminiTransport(settings, clock), 1)
    match = Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=turns)
    last_asked = 0
    while match.outcome is None:
        match.play_turn()
        if agent.last_exchange and agent.last_exchange["reply"] is not None:
            last_asked = match.turns
    return last_asked, quota, clock, match


# --- reasoning models -------------------------------------------------------------

def openai_refusal(parameter: str, value: Any = None) -> dict:
    """OpenAI's 400 body for a parameter a reasoning model does not take: max_tokens and
    reasoning_effort (o1-mini, o1-preview) are unsupported, a temperature but 1 an unsupported
    value, and so is a system message for o1-mini and o1-preview."""
    if parameter == "temperature":
        message, code = (f"Unsupported value: 'temperature' does not support {value} with this model. Only the "
                         "default (1) value is supported."), "unsupported_value"
    elif parameter == "system":
        parameter, code = "messages[0].role", "unsupported_value"
        message = "Unsupported value: 'messages[0].role' does not support 'system' with this model."
    else:
        message, code = f"Unsupported parameter: '{parameter}' is not supported with this model.", \
            "unsupported_parameter"
        if parameter == "max_tokens":
            message += " Use 'max_completion_tokens' instead."
    return {"error": {"message": message, "type": "invalid_request_error", "param": parameter, "code": code}}


class ReasoningModel:
    """An OpenAI reasoning model in front of ``model`` (an "openai" Model): a chat request carrying
    max_tokens or a temperature but 1 (or, for ``first_o1``, o1-mini's way, a reasoning_effort or a
    system message) gets OpenAI's 400 for it, one thing at a time; an answer's usage counts
    ``reasoning_tokens`` of hidden reasoning inside its completion tokens, as OpenAI's does."""

    def __init__(self, model: Model, reasoning_tokens: int = 192, first_o1: bool = False) -> None:
        self.model, self.reasoning_tokens, self.first_o1 = model, reasoning_tokens, first_o1
        self.refused: list[str] = []  # what each refused request was refused for

    def __call__(self, request: dict) -> StubReply:
        body = request["body"]
        if not request["path"].endswith(CHAT_PATHS["openai"]):
            return self.model(request)
        refused = "max_tokens" if "max_tokens" in body else \
            "temperature" if body.get("temperature", 1) != 1 else None
        if self.first_o1 and refused is None:
            refused = "reasoning_effort" if "reasoning_effort" in body else \
                "system" if body["messages"][0]["role"] == "system" else None
        if refused:
            self.refused.append(refused)
            return 400, openai_refusal(refused, body.get("temperature")), None
        status, payload, headers = self.model(request)
        if status == 200 and isinstance(payload, dict) and isinstance(payload.get("usage"), dict):
            usage = payload["usage"]
            usage["completion_tokens"] += self.reasoning_tokens
            usage["total_tokens"] += self.reasoning_tokens
            usage["completion_tokens_details"] = {"reasoning_tokens": self.reasoning_tokens,
                                                  "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
        return status, payload, headers


def with_thoughts(answer: dict, thoughts: int) -> dict:
    """A Gemini answer whose model thought first: the thinking's tokens are counted apart from the
    answer's (thoughtsTokenCount, outside candidatesTokenCount) and inside the total."""
    usage = answer["usageMetadata"]
    usage["thoughtsTokenCount"] = thoughts
    usage["totalTokenCount"] = usage.get("totalTokenCount", 0) + thoughts
    return answer


class ModelStandIn(Waiter):
    """A rule agent dressed as a model's agent (agents.base.ModelPlayer), for the code that asks a model's
    agent what its calls did: its lesson and its wait are given, its calls are none."""

    def __init__(self, lesson: Callable[[str], str | None] = lambda asked: None, waiting: Any = None) -> None:
        super().__init__(0)
        self.name, self.blocking, self.given_lesson, self.waiting = "stand-in/model", True, lesson, waiting
        self.transport: Any = SimpleNamespace(name="stand-in/model", timeout_s=5.0, waiting=waiting)
        self.patience_s, self.failure, self.replacement = 5.0, None, None
        self.last_exchange: dict[str, Any] | None = None

    def held_s(self) -> float:
        return 0.0

    def count_calls_in(self, stats: Any, usable: Callable[..., object] | None = None) -> None:
        """Its calls are none: nothing to count."""

    def lesson(self, what_happened: str) -> str | None:
        return self.given_lesson(what_happened)
