"""OpenAI's reasoning models through the real openai SDK against a stub that refuses, with
OpenAI's own 400s, what they refuse (max_tokens, a temperature but 1; o1-mini's system message
and effort): a model known by its name is asked right from its first request; any other name
learns from the 400s within its first call, plays its match itself (no fallback, no replacement)
and is asked right by every later match of the process; the hidden reasoning is counted in the
side's stats and in `labyrinth arena --json`."""

from __future__ import annotations

import json
import threading

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.base import DEFAULT_EFFORT, MODEL_EFFORT, SCHEMAS, THINKING_TOKENS
from labyrinth.agents.llm.providers.errors import ProviderError
from labyrinth.agents.llm.providers.openai import OpenAITransport
from labyrinth.agents.llm.providers.openai_dialect import Dialect, by_name, dialect, refused_in
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.tui.cli import main
from tests.stubs import Model, ReasoningModel, Stub, openai_error, openai_refusal

KEY = "sk-reasoning-canary-5e1d9c"
ASK = ("You are the Minotaur.", [("user", "Step 1. Where do you go? Respond with JSON.")])
SAMPLING = ("max_tokens", "max_completion_tokens", "temperature", "reasoning_effort")
REASONING_BUDGET = 300 + THINKING_TOKENS[DEFAULT_EFFORT]  # the answer's REPLY_TOKENS and the low effort's room
ASKED_RIGHT = {"max_completion_tokens": REASONING_BUDGET, "reasoning_effort": DEFAULT_EFFORT}


pytestmark = pytest.mark.usefixtures("quick_backoff")


def settings(stub: Stub, model: str, **sampling) -> ProviderSettings:
    return ProviderSettings("openai", model, stub.url + "/v1", api_key=KEY, timeout_s=5.0, **sampling)


def sampling(stub: Stub) -> list[dict]:
    """What each chat request asked for: its budget, temperature and effort."""
    return [{k: r["body"][k] for k in SAMPLING if k in r["body"]} for r in stub.requests
            if r["path"] == "/v1/chat/completions"]


def minotaur_match(stub: Stub, model: str) -> Match:
    agent = make_agent("minotaur", "openai", 1, {"openai": settings(stub, model)})
    return Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=5)


# --- known by name --------------------------------------------------------------

@pytest.mark.parametrize("model", ["o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-nano-2025-08-07", "gpt-5.1",
                                   "gpt-5.2-codex", "openai/o4-mini", "OpenAI/GPT-5-mini", "o4-mini-high"])
def test_a_reasoning_model_is_known_by_its_name_dated_suffixed_or_behind_a_gateway(model):
    assert by_name(model) == Dialect(frozenset({"max_tokens", "temperature"}))


@pytest.mark.parametrize("model", ["o1-mini", "o1-preview-2024-09-12", "openai/o1-mini"])
def test_the_first_o1_models_are_known_to_take_no_system_message_and_no_effort(model):
    assert by_name(model).refused == {"max_tokens", "temperature", "reasoning_effort", "system"}


@pytest.mark.parametrize("model", ["gpt-4o-mini", "gpt-5-chat-latest", "openai/gpt-oss-20b", "gpt-50", "olmo-2",
                                   "deepseek-reasoner", "o"])
def test_other_names_are_asked_as_chat_models(model):
    assert by_name(model) == Dialect()


@pytest.mark.parametrize(("refused", "effort", "asked"), [
    ((), None, {"max_tokens": 300, "temperature": 0.7}),  # a chat model
    ((), "medium", {"max_tokens": 300 + THINKING_TOKENS["medium"], "reasoning_effort": "medium", "temperature": 0.7}),
    (("max_tokens", "temperature"), None, ASKED_RIGHT),
    (("max_tokens", "temperature", "reasoning_effort"), "high",  # it thinks at its own effort
     {"max_completion_tokens": 300 + THINKING_TOKENS[MODEL_EFFORT]}),
])
def test_a_model_is_asked_with_room_to_think_when_it_thinks_and_without_what_it_refuses(refused, effort, asked):
    settings = ProviderSettings("openai", "m", None, reasoning_effort=effort)
    assert Dialect(frozenset(refused)).sampling(settings) == asked


def test_a_known_reasoning_model_is_asked_right_from_its_first_request_and_its_reasoning_counted(stub):
    stub.respond = model = ReasoningModel(Model("openai"))
    result = minotaur_match(stub, "o4-mini").play()
    assert model.refused == [] and result.minotaur.fallbacks == 0 and result.minotaur_agent == "openai/o4-mini"
    assert sampling(stub) == [ASKED_RIGHT] * result.minotaur.calls
    assert result.minotaur.reasoning_tokens == 192 * result.minotaur.answered > 0
    assert result.minotaur.tokens_out > result.minotaur.reasoning_tokens  # the answers' tokens, and the reasoning


def test_an_o1_mini_gets_its_system_text_ahead_of_the_first_user_message_and_no_effort(stub):
    stub.respond = model = ReasoningModel(Model("openai", minotaur_action="WAIT"), first_o1=True)
    reply = OpenAITransport(settings(stub, "o1-mini")).complete(*ASK, SCHEMAS["minotaur"])
    assert json.loads(reply.text)["action"] == "WAIT" and model.refused == []
    messages = stub.requests[0]["body"]["messages"]
    assert messages == [{"role": "user", "content": "You are the Minotaur.\n\nStep 1. Where do you go? Respond with "
                                                    "JSON."}]
    assert sampling(stub) == [{"max_completion_tokens": 300 + THINKING_TOKENS[MODEL_EFFORT]}]  # its own effort's room


# --- learned from the endpoint --------------------------------------------------

def test_an_unknown_reasoning_model_learns_in_its_first_call_plays_its_match_and_later_matches_ask_right(stub):
    stub.respond = model = ReasoningModel(Model("openai"))
    first = minotaur_match(stub, "acme-thinker-7").play()
    assert model.refused == ["max_tokens", "temperature"]  # both in the first call, which was answered
    stats = first.minotaur
    assert (stats.fallbacks, stats.invalid, stats.provider_errors, stats.replaced) == (0, 0, 0, False)
    assert first.minotaur_agent == "openai/acme-thinker-7" and stats.calls == first.turns + 1  # the plan, each turn
    asked = sampling(stub)
    assert asked[:2] == [{"max_tokens": 300, "temperature": 0.7},
                         {"max_completion_tokens": REASONING_BUDGET, "temperature": 0.7, "reasoning_effort": "low"}]
    assert asked[2:] == [ASKED_RIGHT] * stats.calls
    assert stats.reasoning_tokens == 192 * stats.calls
    stub.requests.clear()
    second = minotaur_match(stub, "acme-thinker-7").play()  # another match, its own transport
    assert model.refused == ["max_tokens", "temperature"] and second.minotaur.fallbacks == 0
    assert sampling(stub) == [ASKED_RIGHT] * second.minotaur.calls  # from its first request


def test_what_an_o1_mini_under_another_name_refuses_is_learned_one_refusal_at_a_time(stub):
    stub.respond = model = ReasoningModel(Model("openai", minotaur_action="WAIT"), first_o1=True)
    reply = OpenAITransport(settings(stub, "azure-deployment-o1m")).complete(*ASK, SCHEMAS["minotaur"])
    assert json.loads(reply.text)["action"] == "WAIT"
    assert model.refused == ["max_tokens", "temperature", "reasoning_effort", "system"]
    assert stub.requests[-1]["body"]["messages"][0]["role"] == "user"
    assert dialect(stub.url + "/v1", "azure-deployment-o1m") == by_name("o1-mini")  # remembered for the run


def test_matches_at_once_learn_together_and_each_is_answered(stub):
    stub.respond = model = ReasoningModel(Model("openai", minotaur_action="WAIT"))
    transports = [OpenAITransport(settings(stub, "shared-thinker")) for _ in range(12)]
    replies: list = []
    threads = [threading.Thread(target=lambda t=t: replies.append(t.complete(*ASK, SCHEMAS["minotaur"])))
               for t in transports]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(replies) == 12 and all(json.loads(r.text)["action"] == "WAIT" for r in replies)
    assert set(model.refused) == {"max_tokens", "temperature"} and len(model.refused) <= 2 * 12
    before = len(model.refused)
    transports[0].complete(*ASK, SCHEMAS["minotaur"])
    assert len(model.refused) == before and sampling(stub)[-1] == ASKED_RIGHT


def test_a_contestants_effort_and_budget_are_what_a_reasoning_model_is_asked_with(stub):
    stub.respond = ReasoningModel(Model("openai"))
    transport = OpenAITransport(settings(stub, "gpt-5", max_tokens=200, reasoning_effort="high"))
    transport.complete(*ASK, SCHEMAS["minotaur"])
    assert sampling(stub) == [{"max_completion_tokens": 200 + THINKING_TOKENS["high"], "reasoning_effort": "high"}]


def test_a_400_that_is_not_a_refused_parameter_is_a_provider_error_and_nothing_is_learned(stub):
    stub.reply(400, openai_error(400, "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, "
                                      "but got 2.5 instead.", "temperature"))
    with pytest.raises(ProviderError, match="HTTP 400: Invalid 'temperature'"):
        OpenAITransport(settings(stub, "strict-chat")).complete(*ASK, SCHEMAS["minotaur"])
    assert len(stub.requests) == 1 and dialect(stub.url + "/v1", "strict-chat") == Dialect()


@pytest.mark.parametrize(("refused", "body", "found"), [
    ("max_tokens", {"max_tokens": 300}, "max_tokens"),
    ("temperature", {"temperature": 0.7}, "temperature"),
    ("reasoning_effort", {"reasoning_effort": "low"}, "reasoning_effort"),
    ("system", {}, "system"),
    ("max_tokens", {"max_completion_tokens": 300}, None),  # not asked for: not this request's refusal
])
def test_openais_refusals_name_what_to_leave_out_of_the_request_that_carried_it(refused, body, found):
    messages = [{"role": "system" if refused == "system" else "user", "content": "x"}]
    error = openai_refusal(refused, 0.7)["error"]  # as the SDK keeps it: the body's "error" object
    assert refused_in(error, {"messages": messages, **body}) == found
    without_param = {**error, "param": None}  # a gateway that keeps only the message
    assert refused_in(without_param, {"messages": messages, **body}) == found


# --- the whole match from the command line --------------------------------------

def test_the_arena_plays_an_unknown_reasoning_model_with_no_fallback(stub, monkeypatch, capsys):
    stub.respond = model = ReasoningModel(Model("openai"))
    monkeypatch.setenv("OPENAI_BASE_URL", stub.url + "/v1")  # a server of one's own: no key
    code = main(["arena", "--user", "openai/lab-thinker", "--minotaur", "wait", "--preset", "tiny",
                 "--max-turns", "5", "--games", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 2 and data["replaced"]["user"] == 0
    assert {k: data[k]["user"] for k in ("fallbacks", "invalid", "provider_errors", "exceptions")} == \
        {"fallbacks": 0, "invalid": 0, "provider_errors": 0, "exceptions": 0}
    assert data["calls"]["user"] >= 2 and data["tokens_out"]["user"] >= 192 * data["calls"]["user"]
    assert model.refused == ["max_tokens", "temperature"]  # learned in the first match's first call, once
    assert {r["body"]["model"] for r in stub.requests} == {"lab-thinker"}
