"""The `openai` provider (any OpenAI-compatible endpoint) through the real openai SDK against a
local stub that speaks the chat-completions wire format: the strict schema it derives from the
actions' one definition, the step down to json_object and plain text when an endpoint refuses
a format, the fault schedule the other providers meet (a quota's rate-limit headers, a 5xx, an
empty answer, the length limit, a content filter, a 401 that echoes the key, a body that is not
a chat completion), doctor's token-free check, and its settings (flags, environment, [openai])."""

from __future__ import annotations

import argparse
import io
import json
from dataclasses import replace

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.config import provider_settings as resolve
from labyrinth.agents.llm.llm_agent import FAILURES_BEFORE_REPLACEMENT, LLMAgent
from labyrinth.agents.llm.providers.base import LESSON, SCHEMAS
from labyrinth.agents.llm.providers.errors import ProviderError
from labyrinth.agents.llm.providers.openai import NO_KEY, OpenAITransport, strict_schema
from labyrinth.agents.llm.providers.secrets import REDACTED
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.engine.wsap.action_schema import action_schema
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.config import config_path
from labyrinth.saves.providers import PROVIDERS
from labyrinth.tui.commands.doctor import run as doctor
from labyrinth.tui.commands.provider_options import add_provider_options, provider_settings
from tests.stubs import FakeClock, Model, Stub, openai_answer, openai_error

KEY = "sk-proj-canary-0f3e9b2d7a41"
ASK = ("You are the Minotaur.", [("user", "Step 1. Where do you go? Respond with JSON.")])
WAIT = '{"action": "WAIT", "params": {}, "reasoning": "listen"}'


pytestmark = pytest.mark.usefixtures("quick_backoff")


def openai(url: str, clock: FakeClock | None = None, key: str | None = KEY, timeout_s: float = 5.0):
    settings = ProviderSettings("openai", "test-openai-model", url + "/v1", api_key=key, timeout_s=timeout_s)
    return OpenAITransport(settings, clock) if clock else OpenAITransport(settings)


def complete(transport, schema=SCHEMAS["minotaur"]):
    return transport.complete(*ASK, schema)


def formats(stub: Stub) -> list[str]:
    """The response_format type of each chat request ("text": none was sent)."""
    return [(r["body"].get("response_format") or {"type": "text"})["type"] for r in stub.requests
            if r["path"] == "/v1/chat/completions"]


def objects(node):
    """Every object schema within ``node``."""
    if isinstance(node, list):
        for item in node:
            yield from objects(item)
    elif isinstance(node, dict):
        if node.get("type") == "object":
            yield node
        for value in node.values():
            yield from objects(value)


# --- the strict schema ----------------------------------------------------------

@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_the_strict_schema_is_one_object_that_requires_every_property_and_takes_every_action(role):
    game = action_schema(ROLES[role].actions)
    strict = strict_schema(SCHEMAS[role].json)
    assert strict["type"] == "object" and "anyOf" not in strict  # OpenAI refuses a root anyOf
    for node in objects(strict):
        assert node["additionalProperties"] is False and node["required"] == list(node["properties"])
    names = [b["properties"]["action"]["enum"][0] for b in game["anyOf"]]
    assert strict["properties"]["action"] == {"type": "string", "enum": names}
    params = strict["properties"]["params"]["anyOf"]
    for branch in game["anyOf"]:  # each action's params, required in full, are one of the options
        own = branch["properties"]["params"]
        assert {**own, "required": list(own["properties"])} in params
    assert strict["properties"]["reasoning"] == game["anyOf"][0]["properties"]["reasoning"]
    assert SCHEMAS[role].json == game  # the game's schema is left as it was


def test_the_lessons_strict_schema_drops_the_length_bounds_strict_mode_refuses():
    strict = strict_schema(LESSON.json)
    assert strict["required"] == ["lesson"] and "maxLength" not in json.dumps(strict)
    assert "maxLength" in json.dumps(LESSON.json)  # the lesson is still checked at 600 characters when read


# --- formats --------------------------------------------------------------------

def test_an_endpoint_that_refuses_schemas_is_asked_for_json_objects_for_the_rest_of_the_match(stub):
    stub.respond = Model("openai", refuses=("json_schema",))
    transport = openai(stub.url)
    for _ in range(3):
        assert json.loads(complete(transport).text)["action"] == "CHASE"
    assert formats(stub) == ["json_schema", "json_object", "json_object", "json_object"]


def test_an_endpoint_that_refuses_both_formats_is_asked_in_plain_text_and_a_match_goes_on(stub):
    stub.respond = Model("openai", refuses=("json_schema", "json_object"))
    agent = make_agent("minotaur", "openai", 1,
                       {"openai": ProviderSettings("openai", "m", stub.url + "/v1", api_key=KEY)})
    result = Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=5).play()
    assert result.minotaur.fallbacks == 0 and result.minotaur.provider_errors == 0
    assert formats(stub)[:3] == ["json_schema", "json_object", "text"] and set(formats(stub)[3:]) == {"text"}


def test_another_400_is_a_provider_error_and_keeps_the_format(stub):
    stub.reply(400, openai_error(400, "This model's maximum context length is 4096 tokens.", "messages"))
    transport = openai(stub.url)
    with pytest.raises(ProviderError, match="openai answered HTTP 400: This model's maximum context length"):
        complete(transport)
    assert formats(stub) == ["json_schema"] and transport.format == 0  # not retried, not stepped down


# --- the fault schedule ---------------------------------------------------------

def test_a_quota_answer_is_waited_out_as_its_rate_limit_headers_say(stub):
    clock = FakeClock()
    stub.respond = Model("openai", {1: "429"})  # the exhausted requests' reset is 1s, the tokens' 300ms
    assert json.loads(complete(openai(stub.url, clock)).text)["action"] == "CHASE"
    assert clock.slept == [pytest.approx(1.0)] and len(formats(stub)) == 2


def test_a_500_is_tried_again_and_the_answer_used(stub):
    stub.reply(500, openai_error(500, "The server had an error while processing your request."))
    stub.reply(200, openai_answer(WAIT, 40, 12))
    reply = complete(openai(stub.url))
    assert json.loads(reply.text)["action"] == "WAIT" and (reply.tokens_in, reply.tokens_out) == (40, 12)
    assert len(formats(stub)) == 2


def test_the_answer_is_the_content_never_a_reasoning_models_thoughts(stub):
    stub.reply(200, openai_answer(WAIT, 40, 12))  # it carries reasoning_content too
    reply = complete(openai(stub.url))
    assert reply.text == WAIT and reply.finish_reason == "stop"


@pytest.mark.parametrize(("fault", "finish"), [("empty", "stop"), ("length", "length"),
                                               ("content_filter", "content_filter")])
def test_an_answer_with_no_text_says_why_it_stopped_and_holds_no_action(fault, finish, stub):
    stub.respond = Model("openai", {1: fault})
    reply = complete(openai(stub.url))
    assert reply.text == "" and reply.finish_reason == finish  # a filter's partial text is not the answer
    agent = LLMAgent("minotaur", openai(stub.url), 1)
    stub.respond = Model("openai", {n: fault for n in range(1, 30)})
    match, exchanges = Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=6), []
    while match.outcome is None:
        match.play_turn()
        exchanges += [agent.last_exchange] if agent.last_exchange else []  # none once the builtin plays
    stats = match.stats["minotaur"]
    assert (stats.invalid, stats.exceptions, stats.replaced) == (1 + FAILURES_BEFORE_REPLACEMENT, 0, True)  # the plan
    assert len(exchanges) == FAILURES_BEFORE_REPLACEMENT and all(e["reply"] == "" for e in exchanges)
    assert all(e.get("finish_reason") == (None if finish == "stop" else finish) for e in exchanges)


def test_a_401_that_echoes_the_key_is_a_provider_error_tried_once_and_the_key_redacted(stub):
    stub.reply(401, openai_error(401, f"Incorrect API key provided: {KEY}. You can find your API key at "
                                      "https://platform.openai.com/account/api-keys."))
    with pytest.raises(ProviderError, match="openai answered HTTP 401: Incorrect API key provided") as caught:
        complete(openai(stub.url))
    assert len(formats(stub)) == 1 and KEY not in str(caught.value) and REDACTED in str(caught.value)


@pytest.mark.parametrize("body", ["[]", "null", {"unexpected": "shape"}])
def test_a_200_that_is_not_a_chat_completion_is_a_provider_error(body, stub):
    stub.reply(200, body)
    with pytest.raises(ProviderError, match="openai at .* sent a reply that is not its API's: ForeignReply"):
        complete(openai(stub.url))


def test_a_refused_connection_is_a_provider_error_naming_the_endpoint():
    with pytest.raises(ProviderError, match=r"openai is not reachable at http://127\.0\.0\.1:9/v1"):
        complete(openai("http://127.0.0.1:9"))


# --- settings and doctor --------------------------------------------------------

def test_the_endpoint_model_and_key_come_from_flags_environment_and_the_config_file():
    parser = argparse.ArgumentParser()
    add_provider_options(parser)
    args = parser.parse_args(["--openai-model", "qwen2.5-7b-instruct", "--openai-url", "http://127.0.0.1:8000/v1"])
    s = provider_settings(args, ["openai"])["openai"]
    assert (s.model, s.endpoint, s.api_key, s.configured) == ("qwen2.5-7b-instruct", "http://127.0.0.1:8000/v1",
                                                              None, True)  # a server of one's own needs no key
    env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": "https://openrouter.ai/api/v1",
           "LABYRINTH_OPENAI_MODEL": "deepseek/deepseek-chat"}
    s = resolve("openai", None, env, {"openai": {"model": "from-file", "base_url": "http://file/v1"}})
    assert (s.model, s.endpoint, s.api_key.reveal(), s.key_source) == ("deepseek/deepseek-chat",
                                                                       "https://openrouter.ai/api/v1", KEY,
                                                                       "OPENAI_API_KEY")
    s = resolve("openai", None, {}, {"openai": {"model": "from-file", "api_key": KEY, "rpm": 3}})
    assert (s.model, s.endpoint, s.key_source, s.rpm) == ("from-file", PROVIDERS["openai"].url, "config file", 3.0)
    default = resolve("openai", None, {}, {})
    assert (default.model, default.endpoint, default.configured) == ("gpt-4o-mini", "https://api.openai.com/v1",
                                                                     False)  # OpenAI's own API needs a key


def test_without_a_key_a_placeholder_is_sent_and_never_shown(stub):
    stub.reply(200, openai_answer(WAIT, 1, 1))
    transport = openai(stub.url, key=None)
    complete(transport)
    assert stub.requests[0]["headers"]["authorization"] == f"Bearer {NO_KEY}"
    assert NO_KEY not in repr(vars(transport))  # only the SDK's client holds it
    out = io.StringIO()
    parser = argparse.ArgumentParser()
    parser.add_argument("--offline", action="store_true")
    add_provider_options(parser)
    doctor(parser.parse_args(["--offline", "--openai-url", stub.url + "/v1"]), out=out)
    assert f"openai   model gpt-4o-mini, endpoint {stub.url}/v1, no key" in out.getvalue()
    assert NO_KEY not in out.getvalue()


@pytest.mark.parametrize(("model", "verdict"), [("gpt-4o-mini", "available"), ("gpt-9", "not in the list")])
def test_doctor_lists_the_models_and_says_whether_the_configured_one_is_there(model, verdict, stub, monkeypatch):
    stub.respond = Model("openai")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    config_path().parent.mkdir(parents=True)
    config_path().write_text(f'[openai]\nmodel = "{model}"\nbase_url = "{stub.url}/v1"\n')
    out = io.StringIO()
    parser = argparse.ArgumentParser()
    parser.add_argument("--offline", action="store_true")
    add_provider_options(parser)
    doctor(parser.parse_args([]), out=out)
    assert f"check ok: 2 models; {model} {verdict}" in out.getvalue() and KEY not in out.getvalue()
    assert [(r["method"], r["path"]) for r in stub.requests] == [("GET", "/v1/models")]  # no tokens spent


def test_a_provider_row_of_the_openai_sdk_names_its_players_by_its_own_name():
    """An OpenAI-compatible preset (a row of its own that the openai SDK speaks to) names its players by the
    row, not 'openai/...'."""
    from labyrinth.agents.llm.providers.openai import OpenAITransport

    settings = ProviderSettings("openai", "m1", "http://127.0.0.1:9/v1", api_key="k")
    assert OpenAITransport(settings).name == "openai/m1"
    assert OpenAITransport(replace(settings, provider="openrouter")).name == "openrouter/m1"
