"""Each transport asks its model with the model's own settings (a contestant's temperature and
answer budget, not one hard-coded pair), through the real SDKs against stubs of each API; and
the thinking each API knows of: Gemini's by generation (a budget for 2.5, a level for 3) with its
thoughts counted, Mistral's Magistral models and a given effort, Ollama's think levels."""

from __future__ import annotations

import json

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.base import DEFAULT_EFFORT, MODEL_EFFORT, SCHEMAS, THINKING_TOKENS
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent, make_transport
from tests.stubs import CHAT_PATHS, Model, gemini_answer, wire, with_thoughts

ASK = ("You are the Minotaur.", [("user", "Step 1. Where do you go? Respond with JSON.")])
WAIT = '{"action": "WAIT", "params": {}, "reasoning": "listen"}'
BASE = {"openai": "/v1"}  # what each provider's base URL adds to the stub's


def settings(provider: str, url: str, model: str = "", **sampling) -> ProviderSettings:
    return ProviderSettings(provider, model or f"test-{provider}-model", url + BASE.get(provider, ""), api_key="k",
                            timeout_s=5.0, **sampling)


def asked(stub, provider: str) -> dict:
    """The last chat request's temperature and budget, wherever its API keeps them."""
    body = [r for r in stub.requests if r["path"].endswith(CHAT_PATHS[provider])][-1]["body"]
    if wire(provider) == "gemini":
        config = body["generationConfig"]
        return {"temperature": config["temperature"], "budget": config["maxOutputTokens"],
                "thinking": config["thinkingConfig"]}
    if wire(provider) == "ollama":
        return {"temperature": body["options"]["temperature"], "budget": body["options"]["num_predict"],
                "think": body["think"]}
    return {"temperature": body["temperature"], "budget": body["max_tokens"],
            "effort": body.get("reasoning_effort")}


@pytest.mark.parametrize("provider", ["gemini", "mistral", "ollama", "openai"])
def test_each_transport_asks_with_the_contestants_temperature_and_budget(provider, stub):
    stub.respond = Model(provider)
    transport = make_transport(settings(provider, stub.url, temperature=0.2, max_tokens=123))
    transport.complete(*ASK, SCHEMAS["minotaur"])
    got = asked(stub, provider)
    assert (got["temperature"], got["budget"]) == (0.2, 123)
    default = make_transport(settings(provider, stub.url))
    default.complete(*ASK, SCHEMAS["minotaur"])
    assert (asked(stub, provider)["temperature"], asked(stub, provider)["budget"]) == (0.7, 300)


@pytest.mark.parametrize(("model", "thinking", "room"), [
    ("gemini-2.5-flash", {"thinking_budget": 0}, 0),  # thinking off
    ("gemini-2.5-pro", {"thinking_budget": 128}, 128),  # the least the Pro models take
    ("gemini-3-pro-preview", {"thinking_level": "LOW"}, THINKING_TOKENS[DEFAULT_EFFORT]),  # no budget beside it
    ("models/gemini-3.1-flash", {"thinking_level": "LOW"}, THINKING_TOKENS[DEFAULT_EFFORT]),
])
def test_gemini_thinks_as_little_as_its_generation_allows_with_room_for_it_in_the_budget(model, thinking, room, stub):
    stub.respond = Model("gemini")
    make_transport(settings("gemini", stub.url, model, max_tokens=200)).complete(*ASK, SCHEMAS["minotaur"])
    assert asked(stub, "gemini") == {"temperature": 0.7, "budget": 200 + room, "thinking": thinking}


def test_geminis_thoughts_are_counted_in_the_tokens_out_and_as_reasoning(stub):
    stub.reply(200, with_thoughts(gemini_answer(WAIT, 40, 12), 90))
    reply = make_transport(settings("gemini", stub.url, "gemini-3-pro-preview")).complete(*ASK, SCHEMAS["minotaur"])
    assert (reply.tokens_in, reply.tokens_out, reply.reasoning_tokens) == (40, 12 + 90, 90)


def test_a_gemini_minotaurs_thinking_is_in_its_sides_stats(stub):
    model = Model("gemini", minotaur_action="WAIT")

    def thinking_first(request: dict):
        status, payload, headers = model(request)
        return status, with_thoughts(payload, 50) if "usageMetadata" in payload else payload, headers

    stub.respond = thinking_first
    agent = make_agent("minotaur", "gemini", 1, {"gemini": settings("gemini", stub.url)})
    stats = Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=4).play().minotaur
    assert stats.fallbacks == 0 and stats.reasoning_tokens == 50 * stats.answered > 0
    assert stats.tokens_out > stats.reasoning_tokens


@pytest.mark.parametrize(("model", "effort", "budget"), [
    ("mistral-small-latest", None, 300),
    ("magistral-small-2509", None, 300 + THINKING_TOKENS[MODEL_EFFORT]),  # it thinks at its own effort
    ("magistral-medium-latest", "low", 300 + THINKING_TOKENS["low"]),
    ("mistral-medium-latest", "high", 300 + THINKING_TOKENS["high"]),
])
def test_mistral_gives_a_thinking_model_room_and_sends_a_contestants_effort(model, effort, budget, stub):
    stub.respond = Model("mistral")
    make_transport(settings("mistral", stub.url, model, reasoning_effort=effort)).complete(*ASK, SCHEMAS["minotaur"])
    assert asked(stub, "mistral") == {"temperature": 0.7, "budget": budget, "effort": effort}


def test_mistrals_thinking_chunks_are_not_the_answer(stub):
    answer = {"id": "c", "object": "chat.completion", "model": "magistral-small-2509", "created": 0,
              "usage": {"prompt_tokens": 30, "completion_tokens": 400, "total_tokens": 430},
              "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": [
                  {"type": "thinking", "thinking": [{"type": "text", "text": 'Maybe {"action": "JUMP"}?'}]},
                  {"type": "text", "text": WAIT}]}}]}
    stub.reply(200, answer)
    reply = make_transport(settings("mistral", stub.url, "magistral-small-2509")).complete(*ASK, SCHEMAS["minotaur"])
    assert json.loads(reply.text)["action"] == "WAIT" and reply.tokens_out == 400


@pytest.mark.parametrize(("effort", "think", "budget"), [
    (None, False, 300), ("none", False, 300), ("minimal", "low", 300 + THINKING_TOKENS["low"]),
    ("medium", "medium", 300 + THINKING_TOKENS["medium"]),
])
def test_ollama_thinks_only_when_a_contestant_gives_an_effort_and_then_with_room(effort, think, budget, stub):
    stub.respond = Model("ollama")
    make_transport(settings("ollama", stub.url, "gpt-oss:20b", reasoning_effort=effort)).complete(*ASK,
                                                                                               SCHEMAS["minotaur"])
    assert asked(stub, "ollama") == {"temperature": 0.7, "budget": budget, "think": think}
