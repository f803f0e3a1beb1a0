"""What a side's record says was sent is what went on the wire: each transport's request as the
stand-in logged it (through the real SDKs), after any refusal (a reasoning model known by its name,
an endpoint that refuses a temperature or a response format), with the settings left out and why,
the model the API says answered and the prompt's version; the fingerprint of what was sent tells
apart requests, not asked settings."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.llm_agent import PROMPT_VERSION
from labyrinth.agents.llm.providers.base import DEFAULT_EFFORT, THINKING_TOKENS
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.saves.results_db import ResultsDB
from labyrinth.tui.cli import main
from tests.stubs import CHAT_PATHS, Model, ReasoningModel, Stub, openai_refusal, wire

pytestmark = pytest.mark.usefixtures("quick_backoff")

CONVERSATION = {"messages", "response_format", "contents", "systemInstruction", "format", "stream",
                "tools"}  # the conversation, the format, and what an SDK adds of its own (Ollama's empty tools)
BASE = {"openai": "/v1"}  # what each provider's base URL adds to the stub's


def settings(provider: str, stub: Stub, model: str = "", **sampling) -> ProviderSettings:
    return ProviderSettings(provider, model or f"test-{provider}-model", stub.url + BASE.get(provider, ""),
                            api_key="k-sent-record", timeout_s=5.0, **sampling)


def answered_bodies(stub: Stub, provider: str, answered: list[int]) -> list[dict]:
    """The chat requests the stand-in answered with a 200 (``answered``: their numbers, 0-based)."""
    chats = [r for r in stub.requests if r["path"].endswith(CHAT_PATHS[provider])]
    return [chats[n]["body"] for n in answered]


def minotaur_match(stub: Stub, provider_settings: ProviderSettings, turns: int = 3) -> Match:
    agent = make_agent("minotaur", provider_settings.provider, 1, {provider_settings.provider: provider_settings})
    return Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=turns)


class Answering:
    """A stand-in that remembers which chat requests it answered with a 200."""

    def __init__(self, respond, provider: str = "openai") -> None:
        self.respond, self.provider, self.chats, self.answered = respond, provider, 0, []

    def __call__(self, request: dict):
        status, payload, headers = self.respond(request)
        if request["path"].endswith(CHAT_PATHS[self.provider]):
            if status == 200:
                self.answered.append(self.chats)
            self.chats += 1
        return status, payload, headers


def refusing_temperature(model: Model):
    """An OpenAI-compatible endpoint whose model refuses any temperature with OpenAI's 400, and takes all else."""
    def respond(request: dict):
        body = request["body"]
        if request["path"].endswith(CHAT_PATHS["openai"]) and "temperature" in body:
            return 400, openai_refusal("temperature", body["temperature"]), None
        return model(request)
    return respond


def test_a_reasoning_model_known_by_its_name_is_recorded_as_asked_without_a_temperature(stub):
    stub.respond = seen = Answering(ReasoningModel(Model("openai")))
    asked = settings("openai", stub, "o4-mini", temperature=0.0)
    result = minotaur_match(stub, asked).play()
    stats = result.minotaur
    (body,) = {json.dumps({k: v for k, v in b.items() if k not in CONVERSATION}, sort_keys=True)
               for b in answered_bodies(stub, "openai", seen.answered)}
    sent = json.loads(body)
    assert sent == {"model": "o4-mini", "max_completion_tokens": 300 + THINKING_TOKENS[DEFAULT_EFFORT],
                    "reasoning_effort": DEFAULT_EFFORT}  # what the stand-in logged: no temperature
    assert stats.sent == [{"parameters": sent, "output": "json_schema (strict)", "calls": stats.calls}]
    assert stats.dropped == {"temperature": "not sent: a reasoning model takes none"}
    assert stats.model_versions == ["gpt-4o-mini"] and stats.prompt_version == PROMPT_VERSION  # as the API says
    record = stats.record(json.dumps(asked.public()))
    assert json.loads(record.settings)["temperature"] == 0.0  # the asked settings stay what the key is made of
    assert json.loads(record.sent)["requests"][0]["parameters"] == sent and record.sent_setup
    assert record.sent_setup != asked.setup


def test_an_endpoint_that_refuses_json_schema_is_recorded_as_asked_for_json_object(stub):
    stub.respond = seen = Answering(Model("openai", refuses=("json_schema",)))
    result = minotaur_match(stub, settings("openai", stub)).play()
    formats = {b["response_format"]["type"] for b in answered_bodies(stub, "openai", seen.answered)}
    assert formats == {"json_object"}
    (request,) = result.minotaur.sent
    assert request["output"] == "json_object" and request["calls"] == result.minotaur.calls
    assert result.minotaur.dropped == {}


def test_an_o1_mini_is_recorded_with_its_system_text_folded_and_no_effort(stub):
    stub.respond = ReasoningModel(Model("openai", minotaur_action="WAIT"), first_o1=True)
    stats = minotaur_match(stub, settings("openai", stub, "o1-mini", reasoning_effort="high")).play().minotaur
    (request,) = stats.sent
    assert request["system"] == "folded into the first user message" and "reasoning_effort" not in request["parameters"]
    assert stats.dropped == {"temperature": "not sent: a reasoning model takes none",
                             "reasoning_effort": "not sent: the model takes none"}


def wire_parameters(provider: str, request: dict) -> dict:
    """A chat request's parameters as the stand-in logged them, by the names its transport gave its SDK."""
    body = request["body"]
    if provider != "gemini":
        return {k: v for k, v in body.items() if k not in CONVERSATION}
    config = body["generationConfig"]
    model = re.search(r"/models/([^:]+):generateContent", request["path"]).group(1)
    return {"model": model, "temperature": config["temperature"], "max_output_tokens": config["maxOutputTokens"],
            "thinking_config": config["thinkingConfig"]}


@pytest.mark.parametrize(("provider", "model", "effort", "version", "output"), [
    ("gemini", "gemini-3-pro-preview", None, "gemini-2.5-flash", "response_json_schema"),
    ("gemini", "gemini-2.5-pro", "high", "gemini-2.5-flash", "response_json_schema"),
    ("mistral", "magistral-small-latest", "medium", "mistral-small-latest", "json_schema (strict)"),
    ("ollama", "qwen3:14b", "minimal", "qwen3:8b", "format: JSON schema"),
    ("openai", "gpt-4o-mini", None, "gpt-4o-mini", "json_schema (strict)"),
])
def test_each_transport_records_the_request_it_sent_and_the_model_that_answered(provider, model, effort, version,
                                                                                 output, stub):
    stub.respond = Model(provider, minotaur_action="WAIT")
    stats = minotaur_match(stub, settings(provider, stub, model, temperature=0.3, reasoning_effort=effort)).play() \
        .minotaur
    logged = [wire_parameters(provider, r) for r in stub.requests if r["path"].endswith(CHAT_PATHS[provider])]
    assert logged and all(found == logged[0] for found in logged)
    assert stats.sent == [{"parameters": logged[0], "output": output, "calls": stats.calls}]
    assert stats.model_versions == [version]  # the stand-in's answer names a model other than the one asked
    assert stats.dropped == ({"reasoning_effort": "not sent: Gemini is asked for its least thinking"}
                             if wire(provider) == "gemini" and effort else {})


@pytest.mark.parametrize("provider", ["gemini", "mistral", "ollama", "openai"])
def test_a_failed_calls_exchange_carries_what_its_last_attempt_sent(stub, provider):
    stub.reply(503, "upstream connect error")
    match = minotaur_match(stub, settings(provider, stub), turns=1)
    match.play()
    exchange = match.sides["minotaur"].plan_exchange
    assert exchange["outcome"] == "provider_errors" and "503" in exchange["error"]
    assert exchange["sent"]["parameters"]["model"] == f"test-{provider}-model" and "model_version" not in exchange
    assert match.result().minotaur.sent == []  # what the side says was sent: the requests the API answered


# --- an endpoint that refuses a temperature: two contestants, one request -----------------

def write_config(text: str) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "labyrinth" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_two_temperatures_a_server_refused_are_one_sent_setup_and_the_health_line_says_why(capsys, stub):
    stub.respond = seen = Answering(refusing_temperature(Model("openai")))
    write_config("".join(f'[contestants.{name}]\nprovider = "openai"\nmodel = "acme-chat"\n'
                         f'base_url = "{stub.url}/v1"\ntemperature = {temperature}\n'
                         for name, temperature in (("cold", 0.0), ("warm", 0.2))))
    code = main(["tournament", "--users", "cold,warm", "--minotaurs", "wait", "--games", "1", "--concurrency", "1",
                 "--preset", "tiny", "--max-turns", "4", "--no-memory", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    bodies = {json.dumps({k: v for k, v in b.items() if k != "messages"}, sort_keys=True)
              for b in answered_bodies(stub, "openai", seen.answered)}
    assert len(bodies) == 1 and "temperature" not in json.loads(bodies.pop())  # byte-identical requests
    rows = {row.user: row for row in ResultsDB().matches()}
    cold, warm = rows["cold"].user_side, rows["warm"].user_side
    assert rows["cold"].user_setup != rows["warm"].user_setup  # asked otherwise: the match's key tells them apart
    assert cold.sent_setup == warm.sent_setup != ""  # sent alike: one contestant by what was sent
    assert cold.dropped == warm.dropped == {"temperature": "refused by the server"}
    assert json.loads(cold.sent)["requests"][0]["parameters"] == {"model": "acme-chat", "max_tokens": 300}
    health = {h["name"]: h for h in json.loads(out)["health"]}
    assert health["cold"]["dropped"] == {"temperature": "refused by the server"}
    lines = [line for line in err.splitlines() if re.search(r"\b(cold|warm): ", line)]
    assert len(lines) == 2 and all(line.endswith("; temperature dropped: refused by the server") for line in lines)
