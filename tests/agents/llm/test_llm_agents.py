"""The LLM agents through the real google-genai, mistralai, ollama and openai clients,
against local stub servers that speak each API's wire format: full matches,
what every request carries, faults on a schedule, a provider that stays down,
and no key in any file written."""

from __future__ import annotations

import itertools
import json
import socket
import threading
from collections.abc import Callable

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.llm_agent import CONTEXT_TOKENS, REPLY_TOKENS
from labyrinth.agents.llm.providers.base import SCHEMAS
from labyrinth.agents.llm.providers.openai import strict_schema
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import ProviderNotConfigured, make_agent
from labyrinth.saves.providers import PROVIDERS
from labyrinth.saves.replays import ReplayWriter, first_mismatch, read_replay
from tests.stubs import CHAT_PATHS, Model, Stub, conversation_text, wire

KEY = "sk-test-7c1f0e9a-never-write-me"
ROLES = ("user", "minotaur")
FAULTS = {3: "garbage", 5: "empty", 7: "wrong schema", 9: "429", 11: "503", 13: "503", 14: "503", 15: "503",
          17: "slow", 19: "think"}  # request numbers; 1 is the plan


pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("quick_backoff")]


TIMEOUT_S = 1.5  # long enough for a stub's prompt answer on a busy machine; the "slow" fault takes twice as long


def settings(provider: str, url: str, timeout_s: float = TIMEOUT_S) -> dict[str, ProviderSettings]:
    return {provider: ProviderSettings(provider, f"test-{provider}-model", url, api_key=KEY, timeout_s=timeout_s)}


def llm_match(provider: str, role: str, url: str, seed: int = 5, **options) -> Match:
    providers = settings(provider, url)
    other = "minotaur" if role == "user" else "user"
    agents = {role: make_agent(role, provider, seed, providers), other: make_agent(other, "builtin", seed)}
    return Match(agents["user"], agents["minotaur"], seed=seed, preset="tiny", **options)


def chats(stub: Stub, provider: str) -> list[dict]:
    return [r for r in stub.requests if r["path"].endswith(CHAT_PATHS[provider])]


@pytest.mark.parametrize("provider", list(PROVIDERS))
@pytest.mark.parametrize("role", ROLES)
def test_a_full_match_under_scheduled_faults_counts_the_right_fallbacks(provider, role, stub, tmp_path):
    stub.respond = Model(provider, FAULTS, timeout_s=TIMEOUT_S)
    with ReplayWriter(tmp_path / "replays") as writer:
        match = llm_match(provider, role, stub.url, max_turns=25, recorder=writer)
        result = match.play()
    stats = getattr(result, role)
    assert result.outcome in ("ESCAPED", "DEATH", "TIMEOUT") and result.turns >= 14
    assert (stats.invalid, stats.provider_errors, stats.timeouts, stats.exceptions, stats.replaced) == \
        (3, 1, 1, 0, False)  # the slow reply is a timeout, the three 503s one provider error
    assert stats.calls == stats.answered + stats.invalid + stats.provider_errors + stats.timeouts
    assert (stats.plan_calls, stats.lesson_calls, stats.late_turns) == (1, 0, 0)
    turns = [line for line in map(json.loads, writer.path.read_text().splitlines()) if line["type"] == "turn"]
    replaced = [t["fallback"][role] for t in turns if t["fallback"][role]]
    reasons = [why for why in replaced if "ERRORs in a row" not in why]  # not the agent's fault: the game's
    assert len(reasons) == 5 and stats.fallbacks == len(replaced)
    assert reasons[0].startswith(f"not a valid {role} action") and "JSON" in reasons[0]  # garbage
    assert "empty" in reasons[1]  # an empty answer (Gemini: no candidates at all)
    assert reasons[2].startswith('Unknown action "FLY": choose one of')  # wrong schema: checked once, by the game
    assert "HTTP 503" in reasons[3] and "3 tries" in reasons[3]  # three 503s in a row: given up
    assert f"did not answer within {TIMEOUT_S:g} s" in reasons[4]  # the slow reply
    requests = chats(stub, provider)
    retried_429 = requests[9]["time"] - requests[8]["time"]
    assert retried_429 >= 0.9  # Retry-After: 1 was honoured
    assert stats.tokens_in > 0 and stats.tokens_out > 0  # from the usage fields
    replay = read_replay(writer.path)
    assert first_mismatch(replay) is None
    assert role in json.loads(writer.path.read_text().splitlines()[0])["system_prompts"]
    assert match.plans[role] == ["Listen first.", "Then move along the passages."]


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_every_request_carries_the_system_prompt_the_schema_and_the_key(provider, stub):
    stub.respond = Model(provider)
    llm_match(provider, "minotaur", stub.url, max_turns=3).play()
    requests = chats(stub, provider)
    assert len(requests) == 4  # the plan, then one per turn
    schema = SCHEMAS["minotaur"].json
    for request in requests:
        body, headers = request["body"], {k.lower(): v for k, v in request["headers"].items()}
        system = conversation_text(provider, body)[0]
        assert "You are the Minotaur" in system and "\npathfind [movement]: " in system
        if wire(provider) == "gemini":
            assert request["path"] == "/v1beta/models/test-gemini-model:generateContent"
            assert body["generationConfig"]["responseJsonSchema"] == schema
            assert body["generationConfig"]["responseMimeType"] == "application/json"
            assert headers["x-goog-api-key"] == KEY
        elif wire(provider) == "mistral":
            assert request["path"] == "/v1/chat/completions"
            assert body["response_format"]["type"] == "json_schema"
            assert body["response_format"]["json_schema"]["schema"] == schema
            assert body["response_format"]["json_schema"]["name"] == "MinotaurAction"
            assert headers["authorization"] == f"Bearer {KEY}"
        elif wire(provider) == "openai":
            assert request["path"] == "/chat/completions"  # under the base URL, which is the stub's root here
            assert body["model"] == "test-openai-model" and body["max_tokens"] == REPLY_TOKENS
            assert body["response_format"] == {"type": "json_schema", "json_schema": {
                "name": "MinotaurAction", "schema": strict_schema(schema), "strict": True}}
            assert headers["authorization"] == f"Bearer {KEY}" and headers["x-stainless-retry-count"] == "0"
        else:
            assert body["format"] == schema and body["think"] is False and body["options"]["num_ctx"] == 4096
    assert "Step 2" in conversation_text(provider, requests[-1]["body"])[1]


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_a_provider_that_stays_down_is_replaced_by_the_builtin_agent(provider):
    with socket.socket() as probe:  # a port nobody listens on: every connection is refused
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    match = llm_match(provider, "user", url, max_turns=12)
    result = match.play()
    assert result.user.provider_errors == 1 + 5 and result.user.replaced  # the plan's call, then five decisions
    assert result.user_agent == f"{provider}/test-{provider}-model (replaced by builtin)"
    # The 5 failed turns were the fallback's; the 7 after were the built-in user's own, none raised.
    assert result.turns == 12 and (result.user.fallbacks, result.user.exceptions) == (5, 0)
    assert match.plans["user"] == []  # no plan from a provider that never answered


@pytest.mark.parametrize("provider", list(PROVIDERS))
@pytest.mark.parametrize("body", ["<html>Bad gateway</html>", {"unexpected": "shape"}])
def test_a_reply_that_is_not_the_apis_is_a_provider_error_and_leads_to_replacement(provider, body, stub):
    stub.reply(200, body)  # every request, the plan's too
    result = llm_match(provider, "minotaur", stub.url, max_turns=7).play()
    stats = result.minotaur
    if wire(provider) == "gemini" and isinstance(body, dict):  # read as a reply without candidates: an empty answer
        assert (stats.invalid, stats.provider_errors, stats.replaced) == (1 + 5, 0, True)  # the plan's too; unusable:
        # as bad as failing
    else:  # the SDK cannot read it (not JSON, fields missing): the provider failed
        assert (stats.provider_errors, stats.exceptions, stats.replaced) == (1 + 5, 0, True)  # the plan, 5 decisions
    assert result.minotaur_agent.endswith("(replaced by builtin)") and stats.fallbacks == 5


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_no_key_is_written_anywhere(provider, stub, tmp_path):
    stub.respond = Model(provider, {2: "garbage", 4: "503", 5: "503", 6: "503"})
    with ReplayWriter(tmp_path / "replays") as writer:
        result = llm_match(provider, "minotaur", stub.url, max_turns=8, recorder=writer).play()
    (tmp_path / "result.json").write_text(json.dumps(result.to_dict()))
    assert KEY in json.dumps(stub.requests)  # it was sent where it belongs
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written and not [p for p in written if KEY in p.read_text(errors="replace")]
    assert KEY not in repr(settings(provider, stub.url))


@pytest.mark.parametrize("provider", ("gemini", "mistral", "openai"))  # openai: at OpenAI's own endpoint
def test_a_provider_without_a_key_says_how_to_configure_it(provider):
    with pytest.raises(ProviderNotConfigured, match="API_KEY"):
        make_agent("minotaur", provider, 1)


@pytest.mark.parametrize("role", ROLES)
def test_the_biggest_request_of_a_400_turn_match_fits_the_context(role, stub):
    stub.respond = Model("ollama", minotaur_action="WAIT")  # nobody is caught: the match runs its 400 turns
    providers = settings("ollama", stub.url)
    user = make_agent("user", "ollama" if role == "user" else "random", 11, providers)
    minotaur = make_agent("minotaur", "ollama" if role == "minotaur" else "wait", 11, providers)
    match = Match(user, minotaur, seed=11, preset="small", max_turns=400)
    agent, biggest = (user if role == "user" else minotaur), 0
    while match.outcome is None:
        match.play_turn()
        biggest = max(biggest, agent.last_exchange["prompt_tokens_estimate"])
    assert match.turns == 400 and match.stats[role].fallbacks == 0
    assert biggest <= CONTEXT_TOKENS - REPLY_TOKENS


def test_both_roles_are_asked_at_once_each_turn():
    both_asking = threading.Barrier(2, timeout=5)  # no wall clock read: a turn's two answers wait for each other

    def together(model: Model, path: str) -> Callable[[dict], object]:
        turns = itertools.count()  # the first chat is the plan, asked alone

        def respond(request: dict) -> object:
            if request["path"].endswith(path) and next(turns):
                both_asking.wait()  # asked one after the other, the first waits past its timeout: a fallback
            return model(request)
        return respond

    user_stub = Stub(together(Model("mistral"), CHAT_PATHS["mistral"]))
    minotaur_stub = Stub(together(Model("gemini"), CHAT_PATHS["gemini"]))
    try:
        providers = {**settings("mistral", user_stub.url, timeout_s=5), **settings("gemini", minotaur_stub.url, 5)}
        match = Match(make_agent("user", "mistral", 2, providers), make_agent("minotaur", "gemini", 2, providers),
                      seed=2, preset="tiny", max_turns=3)
        match.play()
        assert match.turns == 3 and [(match.stats[role].answered, match.stats[role].fallbacks) for role in ROLES] == \
            [(4, 0), (4, 0)]  # the plan and three turns each, every turn's pair answered together
    finally:
        user_stub.close()
        minotaur_stub.close()


def test_a_failing_model_minotaur_is_replaced_by_one_that_plays_the_games_difficulty():
    """The built-in agent that takes over plays by the difficulty the seat told the model agent, and
    plays the turns after it took over itself: only the model's failed turns are the fallback's."""
    from labyrinth.agents.builtin.builtin_minotaur import TACTICS
    from labyrinth.agents.builtin.naive import RandomWalker
    from labyrinth.agents.llm.llm_agent import FAILURES_BEFORE_REPLACEMENT, LLMAgent
    from labyrinth.agents.llm.providers.errors import ProviderError

    class Down:
        name, timeout_s = "down/model", 1.0

        def complete(self, system, turns, schema):
            raise ProviderError("down is not reachable")

    minotaur = LLMAgent("minotaur", Down(), seed=1)
    after = 5  # the turns the replacement plays (seed 1: the random walker is not caught before they are over)
    match = Match(RandomWalker(1), minotaur, seed=1, preset="tiny", difficulty="hard",
                  max_turns=FAILURES_BEFORE_REPLACEMENT + after)  # a user agent in the user's seat: it plays its own
    result = match.play()
    assert minotaur.replacement is not None and minotaur.replacement.tactics == TACTICS["hard"]
    assert result.turns == FAILURES_BEFORE_REPLACEMENT + after and result.user.fallbacks == 0
    stats = result.minotaur  # the model's failed turns were the fallback's; the replacement's raised nothing
    assert (stats.fallbacks, stats.exceptions, stats.decisions) == (FAILURES_BEFORE_REPLACEMENT, 0, result.turns)
