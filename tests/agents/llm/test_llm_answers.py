"""Answers that can never be valid, text a model writes without end, and the accounting of
every call, through the real SDKs against local stub servers that answer as each public
API does: a blocked prompt, a SAFETY or MAX_TOKENS stop with no text, empty content and a
Qwen3 <think> cut by the token limit lead to replacement with their reason on record; a
megabyte of reasoning never grows a prompt past the context or the replay past a few
kilobytes a turn; plan and lesson calls count in the side's tokens."""

from __future__ import annotations

import json

import pytest

from labyrinth.agents.learning.memory_manager import match_reflections
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.llm_agent import ANSWER_KEPT_CHARS, FAILURES_BEFORE_REPLACEMENT, NOTE_CHARS
from labyrinth.agents.llm.providers.base import estimate_tokens
from labyrinth.agents.llm.providers.limits import CONTEXT_TOKENS, REPLY_TOKENS
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.saves.replays import ReplayWriter
from tests.stubs import CHAT_PATHS, Model, Stub, estimate, openai_answer, wire

THOUGHT = "<think>" + "Let me weigh every passage once more. " * 40  # cut by the token limit: never closed


def gemini_unusable(kind: str) -> dict:
    usage = {"usageMetadata": {"promptTokenCount": 900, "candidatesTokenCount": 300, "totalTokenCount": 1200}}
    return {"blocked": {"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
                        "usageMetadata": {"promptTokenCount": 900}},
            "safety": {"candidates": [{"finishReason": "SAFETY", "index": 0,
                                       "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT",
                                                          "probability": "HIGH", "blocked": True}]}], **usage},
            "max_tokens": {"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS"}], **usage},
            "empty": {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]},
                                      "finishReason": "STOP"}], **usage},
            "think": {"candidates": [{"content": {"role": "model", "parts": [{"text": THOUGHT}]},
                                      "finishReason": "MAX_TOKENS"}], **usage}}[kind]


def mistral_unusable(kind: str) -> dict:
    text, finish = {"max_tokens": ("", "length"), "empty": ("", "stop"), "think": (THOUGHT, "length")}[kind]
    return {"id": "c", "object": "chat.completion", "model": "m", "created": 0,
            "usage": {"prompt_tokens": 900, "completion_tokens": 300, "total_tokens": 1200},
            "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": text}}]}


def ollama_unusable(kind: str) -> dict:
    text, finish = {"max_tokens": ("", "length"), "empty": ("", "stop"), "think": (THOUGHT, "length")}[kind]
    return {"model": "qwen3:8b", "created_at": "2026-11-21T00:00:00Z", "done": True, "done_reason": finish,
            "message": {"role": "assistant", "content": text}, "prompt_eval_count": 900, "eval_count": 300}


def openai_unusable(kind: str) -> dict:
    text, finish = {"max_tokens": (None, "length"), "empty": ("", "stop"), "think": (THOUGHT, "length"),
                    "content_filter": ('{"action": "CH', "content_filter")}[kind]
    return openai_answer(text, 900, 300, finish)


UNUSABLE = {"gemini": gemini_unusable, "mistral": mistral_unusable, "ollama": ollama_unusable,
            "openai": openai_unusable}
CASES = [("gemini", "blocked", "PROHIBITED_CONTENT"), ("gemini", "safety", "SAFETY"),
         ("gemini", "max_tokens", "MAX_TOKENS"), ("gemini", "empty", "empty"), ("gemini", "think", "MAX_TOKENS"),
         *((p, k, why) for p in ("mistral", "ollama", "openai")
           for k, why in (("max_tokens", "length"), ("empty", "empty"), ("think", "length"))),
         ("openai", "content_filter", "content_filter")]


pytestmark = pytest.mark.usefixtures("quick_backoff")


def providers(provider: str, url: str) -> dict[str, ProviderSettings]:
    return {provider: ProviderSettings(provider, f"test-{provider}-model", url, api_key="sk-faults-key",
                                       timeout_s=2)}


def is_chat(provider: str, request: dict) -> bool:
    return request["path"].endswith(CHAT_PATHS[provider])


def decisions_answered(provider: str, change):
    """A stand-in model whose plan is sound and whose decisions ``change(n, reply)`` rewrites
    (n counts decisions from 1)."""
    model = Model(provider)

    def respond(request: dict):
        status, payload, headers = model(request)
        if not is_chat(provider, request) or model.chats == 1:
            return status, payload, headers
        return change(model.chats - 1, (status, payload, headers))
    return respond


@pytest.mark.parametrize(("provider", "kind", "reason"), CASES)
def test_an_answer_that_can_never_be_valid_counts_towards_replacement_with_its_reason(provider, kind, reason,
                                                                                       tmp_path):
    stub = Stub(decisions_answered(provider, lambda n, reply: (200, UNUSABLE[provider](kind), None)))
    try:
        agents = {"user": make_agent("user", "builtin", 4), "minotaur": make_agent("minotaur", provider, 4,
                                                                                    providers(provider, stub.url))}
        with ReplayWriter(tmp_path) as writer:
            result = Match(agents["user"], agents["minotaur"], seed=4, preset="tiny", max_turns=9,
                           recorder=writer).play()
    finally:
        stub.close()
    stats = result.minotaur
    assert (stats.invalid, stats.provider_errors, stats.replaced) == (FAILURES_BEFORE_REPLACEMENT, 0, True)
    assert len([r for r in stub.requests if is_chat(provider, r)]) == 1 + FAILURES_BEFORE_REPLACEMENT  # then not asked
    turns = [json.loads(line) for line in writer.path.read_text().splitlines()]
    turns = [t for t in turns if t["type"] == "turn"]
    whys = [t["fallback"]["minotaur"] for t in turns[:FAILURES_BEFORE_REPLACEMENT]]
    assert all(reason in why for why in whys), whys[0]  # the real reason, on screen and in the replay
    if reason != "empty":
        (exchange,) = turns[0]["exchanges"]["minotaur"]
        assert reason in (exchange["finish_reason"], exchange["blocked"])
    assert all(not t["fallback"]["minotaur"] for t in turns[FAILURES_BEFORE_REPLACEMENT:])  # the builtin plays


def test_an_unusable_answer_between_good_ones_is_forgiven():
    stub = Stub(decisions_answered("ollama", lambda n, reply: (200, ollama_unusable("think"), None)
                                   if n % 4 else reply))  # 3 unusable, 1 good, ...
    try:
        minotaur = make_agent("minotaur", "ollama", 4, providers("ollama", stub.url))
        result = Match(make_agent("user", "builtin", 4), minotaur, seed=4, preset="tiny", max_turns=12).play()
    finally:
        stub.close()
    assert not result.minotaur.replaced and result.minotaur.invalid >= 6


def with_reasoning(provider: str, chars: int, decisions: range):
    """A change for decisions_answered: the action's reasoning made ``chars`` long in ``decisions``."""
    def change(n: int, reply):
        status, payload, headers = reply
        if n not in decisions:
            return reply
        message = payload["message"] if wire(provider) == "ollama" else payload["choices"][0]["message"]
        action = json.loads(message["content"])
        action["reasoning"] = f"thought {n}: " + "because " * (chars // 8)
        message["content"] = json.dumps(action)
        return status, payload, headers
    return change


@pytest.mark.parametrize("provider", ["ollama", "mistral"])
@pytest.mark.parametrize(("chars", "decisions"), [(1_000_000, range(1, 3)),  # refused unread (ANSWER_CHARS)
                                                  (19_000, range(1, 9))])  # read, and kept as notes
def test_a_megabyte_of_reasoning_never_overflows_a_prompt_or_the_replay(provider, chars, decisions, tmp_path):
    stub = Stub(decisions_answered(provider, with_reasoning(provider, chars, decisions)))
    try:
        user = make_agent("user", provider, 6, providers(provider, stub.url))
        with ReplayWriter(tmp_path) as writer:
            Match(user, make_agent("minotaur", "wait", 6), seed=6, preset="tiny", max_turns=8,
                  recorder=writer).play()
    finally:
        stub.close()
    requests = [r["body"]["messages"] for r in stub.requests if is_chat(provider, r)]
    assert len(requests) == 9  # the plan and every turn: nothing was replaced
    sizes = [sum(estimate_tokens(m["content"]) for m in messages) for messages in requests]
    assert max(sizes) <= CONTEXT_TOKENS - REPLY_TOKENS  # our own estimate, the one the budget is kept with
    kept = [m["content"] for messages in requests for m in messages if m["role"] == "assistant"]
    assert kept and all(len(text) <= ANSWER_KEPT_CHARS + 40 for text in kept)  # the history's answers, cut
    notes = requests[-1][-1]["content"].split("Your notes so far: ", 1)
    if chars < 20_000:  # read: kept as notes, each cut to NOTE_CHARS
        assert len(notes[1].split("\n\n", 1)[0]) <= 3 * (NOTE_CHARS + 40)
    size = writer.path.stat().st_size
    assert size < 90_000, size  # a few kilobytes a turn, whatever the model wrote (8 MB were sent)


def test_a_prompt_that_alone_overflows_the_context_is_cut_to_fit():
    from labyrinth.agents.llm.llm_agent import LLMAgent

    class Silent:
        name, timeout_s = "stub/none", 1.0

    agent = LLMAgent("user", Silent(), 1)
    agent.system = "S" * 4000
    turns = agent._fit([("user", "old"), ("assistant", "old"), ("user", "start " + "x" * 50_000 + " QUESTION?")])
    assert len(turns) == 1 and turns[0][1].endswith("QUESTION?") and turns[0][1].startswith("[... the start")
    assert estimate_tokens(agent.system) + estimate_tokens(turns[0][1]) <= CONTEXT_TOKENS - REPLY_TOKENS


def test_every_call_plan_decisions_and_lesson_counts_in_the_sides_tokens():
    model = Model("mistral")
    stub = Stub(model)
    try:
        user = make_agent("user", "mistral", 3, providers("mistral", stub.url))
        match = Match(user, make_agent("minotaur", "wait", 3), seed=3, preset="tiny", max_turns=5, digest=True)
        result = match.play()
        before = result.user.tokens_in
        reflections = match_reflections(match)  # the lesson: a call after the last turn
    finally:
        stub.close()
    chats = [r for r in stub.requests if is_chat("mistral", r)]
    assert any(r.source == "model" for r in reflections)
    assert len(chats) == 1 + 5 + 1  # plan, five decisions, the lesson
    assert result.user.tokens_in == sum(estimate(json.dumps(r["body"])) for r in chats)  # the stub's usage fields
    assert result.user.tokens_in > before and result.user.calls == 7 and result.user.answer_s > 0
    assert (result.user.plan_calls, result.user.lesson_calls, result.user.answered) == (1, 1, 7)


@pytest.mark.parametrize(("model", "listed", "present"), [("qwen3", "qwen3:latest", True),
                                                         ("qwen3:latest", "qwen3:latest", True),
                                                         ("qwen3", "qwen3:8b", False),
                                                         ("library/qwen3", "library/qwen3:latest", True)])
def test_doctor_takes_an_untagged_model_for_its_latest_tag(model, listed, present):
    from labyrinth.agents.registry import make_transport

    stub = Stub().reply(200, {"models": [{"model": listed, "name": listed, "size": 5, "digest": "d",
                                          "modified_at": "2026-11-01T00:00:00Z"}]})
    try:
        verdict = make_transport(ProviderSettings("ollama", model, stub.url, timeout_s=2)).check()
    finally:
        stub.close()
    assert (f"{model} present" in verdict) == present and ("NOT pulled" in verdict) != present


@pytest.mark.parametrize("provider", ["gemini", "mistral", "ollama", "openai"])
@pytest.mark.parametrize("answer", [{"hello": "world"}, {"object": "list"}, [], "<html><body>Welcome</body></html>"])
def test_doctor_finds_no_api_in_a_server_that_answers_something_else(provider, answer):
    """Any JSON a server sends may read, in an SDK, as a record or a listing of nothing: doctor's check
    is a failure that says what came, never "ok" (Gemini's was, against any JSON object)."""
    from labyrinth.agents.llm.providers.errors import ProviderError
    from labyrinth.agents.registry import make_transport

    html = isinstance(answer, str)
    stub = Stub().reply(200, answer, {"Content-Type": "text/html"} if html else None)
    try:
        with pytest.raises(ProviderError) as failed:
            make_transport(ProviderSettings(provider, "m", stub.url, api_key="k-doctor", timeout_s=2)).check()
    finally:
        stub.close()
    said = str(failed.value)
    if isinstance(answer, dict):  # read by the SDK as a record or listing of nothing: what it lacks is said
        assert "sent a reply that is not its API's: ForeignReply (" in said and " belongs)" in said, said
