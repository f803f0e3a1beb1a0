"""Faults a real key meets, through the real google-genai, mistralai, ollama and openai
clients against local stub servers: quota answers (Gemini's wait in the body,
Retry-After, OpenAI's and Mistral's rate-limit headers) waited out within the
call's deadline and never counted towards replacement, the shared pace of
--llm-rpm, a server that trickles or hangs (one deadline per request, whatever
the SDK's per-read timeout), and Ollama's `[]` and `null`. Time is a FakeClock
that the waits move: no test waits out a quota for real."""

from __future__ import annotations

import argparse
import json
import math
import time

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.config import provider_settings as resolve
from labyrinth.agents.llm.llm_agent import LLMAgent
from labyrinth.agents.llm.providers.base import SCHEMAS
from labyrinth.agents.llm.providers.errors import ProviderError, QuotaError
from labyrinth.agents.llm.providers.pacing import LongWait, Pace, long_waits_to
from labyrinth.agents.llm.providers.retry import HOLD_BUDGET_FACTOR, QUOTA_WAIT_S, call_deadline_s, patience_s
from labyrinth.agents.match.runner import Match
from labyrinth.agents.match.side import SideStats
from labyrinth.agents.registry import make_agent, transport_class
from labyrinth.saves.config import ConfigError
from labyrinth.saves.providers import PROVIDERS
from labyrinth.tui.commands.provider_options import add_provider_options, provider_settings
from tests.stubs import CHAT_PATHS, WIRE, FakeClock, Model, PerMinuteQuota, Stub, gemini_quota, quota_match, stub_url

TRANSPORTS = {provider: transport_class(provider) for provider in PROVIDERS}  # every row's
ASK = ("You are the Minotaur.", [("user", "Step 1. Where do you go?")])


def transport(provider: str, url: str, clock: FakeClock | None = None, timeout_s: float = 30.0,
              rpm: float | None = None, hold_s: float = QUOTA_WAIT_S):
    settings = ProviderSettings(provider, f"test-{provider}-model", url, api_key="k", timeout_s=timeout_s, rpm=rpm,
                                hold_s=hold_s)
    return TRANSPORTS[provider](settings, clock) if clock else TRANSPORTS[provider](settings)


def complete(t):
    return t.complete(*ASK, SCHEMAS["minotaur"])


def chats(stub: Stub, provider: str) -> list[dict]:
    return [r for r in stub.requests if r["path"].endswith(CHAT_PATHS[provider])]


def answer(provider: str) -> tuple[int, dict, None]:
    return 200, WIRE[provider][0]('{"action": "WAIT", "params": {}, "reasoning": "r"}', 5, 5), None


def test_geminis_quota_wait_is_read_from_the_body_waited_out_and_shown_while_it_runs(stub):
    clock = FakeClock()
    stub.reply(429, gemini_quota(47.3, 10)).reply(*answer("gemini"))
    gemini = transport("gemini", stub.url, clock)
    agent = LLMAgent("minotaur", gemini, 1)
    seen = []
    sleep = clock.sleep
    clock.sleep = lambda s: (seen.append((agent.waiting, clock.monotonic())), sleep(s))
    assert json.loads(complete(gemini).text)["action"] == "WAIT"
    assert clock.slept == [pytest.approx(47.3)]  # "Please retry in 47.3s", the longer of the two it gave
    (waiting, at), = seen
    assert waiting.saying(waiting.left_s(at)) == "gemini is rate-limited: waiting 47 s"
    assert waiting.left_s(at) == pytest.approx(47.3) and waiting.clock is clock  # on the transport's clock
    assert agent.waiting is None and len(chats(stub, "gemini")) == 2  # over once the wait is


@pytest.mark.parametrize(("headers", "waited"), [
    ({"Retry-After": "3"}, 3.0),
    ({"retry-after-ms": "1500"}, 1.5),
    ({"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "20s",
      "x-ratelimit-remaining-tokens": "9000", "x-ratelimit-reset-tokens": "6m0s"}, 20.0),  # the exhausted one
    ({"x-ratelimit-reset-requests": "1m2.5s", "x-ratelimit-reset-tokens": "20ms"}, 62.5),
    ({"ratelimitbysize-limit": "500000", "ratelimitbysize-remaining": "0", "ratelimitbysize-reset": "28"}, 28.0),
])
@pytest.mark.parametrize("provider", ["mistral", "ollama", "openai"])
def test_rate_limit_headers_say_how_long_to_wait(provider, headers, waited, stub):
    clock = FakeClock()
    stub.reply(429, WIRE[provider][1](429, "rate limited"), headers).reply(*answer(provider))
    assert json.loads(complete(transport(provider, stub.url, clock)).text)["action"] == "WAIT"
    assert clock.slept == [pytest.approx(waited)] and len(chats(stub, provider)) == 2


def test_a_quota_wait_longer_than_the_call_may_wait_fails_at_once_and_holds_back_later_calls(stub):
    clock = FakeClock()
    stub.reply(429, gemini_quota(3600.0, 250))  # a day's quota spent: every request is refused
    gemini = transport("gemini", stub.url, clock)
    with pytest.raises(QuotaError, match=r"gemini is rate-limited: a wait of 3600 s is too long") as caught:
        complete(gemini)
    assert caught.value.wait_s == pytest.approx(3600.0) and clock.slept == []
    with pytest.raises(QuotaError):
        complete(gemini)
    assert len(chats(stub, "gemini")) == 1  # the next call knew better than to ask


def test_a_quota_never_leads_to_replacement(stub):
    clock = FakeClock()
    stub.reply(429, gemini_quota(3600.0, 250))
    agent = LLMAgent("minotaur", transport("gemini", stub.url, clock), 1)
    match = Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=8)
    result = match.play()
    stats = result.minotaur
    assert (stats.provider_errors, stats.fallbacks, stats.exceptions, stats.replaced) == (1 + 8, 8, 0, False)  # plan
    assert agent.failures == 0 and agent.replacement is None and "rate-limited" in agent.last_exchange["error"]


def test_against_ten_requests_a_minute_the_model_is_asked_every_turn(stub, monkeypatch):
    real_sleep, long_sleeps = time.sleep, []
    monkeypatch.setattr(time, "sleep", lambda s: (s >= 1 and long_sleeps.append(s), real_sleep(min(s, 0.1))))
    last_asked, quota, clock, match = quota_match(stub, rpm=None)
    assert match.turns == 60 and last_asked == 60
    stats = match.stats["minotaur"]
    assert (stats.fallbacks, stats.provider_errors, stats.replaced) == (0, 0, False)
    assert len(quota.served) == 61 and len(quota.refused) == 5  # the plan and 60 turns; at most one 429 a minute
    assert quota.served[10:20] == pytest.approx([1060.0 + 6 * n for n in range(10)])  # resumed 6 s apart, not at once
    assert clock.monotonic() - 1000.0 == pytest.approx(360.0)  # six minutes waited, on the fake clock
    assert long_sleeps == []  # and none of it on the real one


def test_a_pace_of_ten_a_minute_never_meets_the_quota(stub):
    last_asked, quota, clock, match = quota_match(stub, rpm=10)
    assert last_asked == 60 and quota.refused == [] and match.stats["minotaur"].fallbacks == 0
    assert all(b - a == pytest.approx(6.0) for a, b in zip(quota.served, quota.served[1:], strict=False))
    assert clock.monotonic() - 1000.0 == pytest.approx(360.0)  # 61 starts, 6 s apart: no faster than the quota


def test_calls_held_by_a_quota_resume_spread_over_its_window_not_all_at_once():
    clock = FakeClock()
    pace = Pace("gemini", clock)
    for _ in range(21):  # a burst: 21 calls at once, the server took 20 of them and refused the last
        assert pace.slot(latest=math.inf)[1]
    pace.hold(30.0)  # then a 429: wait 30 s
    slot, taken = pace.slot(latest=1010.0)  # a call that may wait 10 s at most: not reserved
    assert not taken and slot.start == 1030.0 and slot.reason == "gemini is rate-limited"  # what a front shows
    starts = [pace.slot(latest=math.inf)[0].start for _ in range(25)]
    assert starts[:20] == pytest.approx([1030.0 + 30.0 / 20 * n for n in range(20)])  # 20 in a window of 30 s
    assert starts[20:] == pytest.approx([1060.0] * 5)  # the window over, as fast as answered again


def test_a_429_to_the_first_request_of_a_window_costs_its_wait_once(stub):
    """The quota was spent before our first request (another process, an earlier run): its 429 asks
    for 30 s. After those, the quota's window is new: the calls go as fast as they are answered, not
    one a window (which made that one 429 cost the next call a second 30 s, and count twice)."""
    clock = FakeClock()
    stub.respond = quota = PerMinuteQuota(Model("gemini"), 10, clock)
    quota.served = [970.0] * 10  # spent 30 s ago
    gemini = transport("gemini", stub.url, clock)
    for _ in range(10):
        complete(gemini)
    assert quota.refused == [1000.0] and quota.served[10:] == [1030.0] * 10
    calls = gemini.calls
    assert (calls.quota_waits, calls.quota_wait_s, calls.pace_waits) == (1, pytest.approx(30.0), 0)


def test_one_quota_wait_per_429_and_the_paces_spacing_counted_apart(stub):
    """A 429 asking for 30 s on the user's first call, at a pace of 20 a minute shared with the Minotaur:
    the user's wait is its 429's (one quota wait), every other held start the pace's."""
    clock = FakeClock()
    stub.respond = Model("mistral")
    stub.reply(429, WIRE["mistral"][1](429, "slow down"), {"Retry-After": "30"})
    user, minotaur = (transport("mistral", stub.url, clock, rpm=20) for _ in range(2))
    agent = LLMAgent("user", user, 1)
    agent.count_calls_in(stats := SideStats())
    for t in (user, minotaur, user):
        complete(t)
        if t is user:
            agent._count("decision", None, t.calls.held_s() - stats.quota_wait_s - stats.pace_wait_s + 0.25,
                         "answered")  # as an answered call counts
    assert clock.monotonic() - 1000.0 == pytest.approx(30.0 + 3.0 + 3.0)
    counts = [(t.calls.quota_waits, t.calls.quota_wait_s, t.calls.pace_waits, t.calls.pace_wait_s)
              for t in (user, minotaur)]
    assert counts == [(1, pytest.approx(30.0), 1, pytest.approx(3.0)), (0, 0.0, 1, pytest.approx(3.0))]
    assert (stats.quota_waits, stats.quota_wait_s, stats.pace_waits, stats.pace_wait_s, stats.answer_s) == \
        (1, pytest.approx(30.0), 1, pytest.approx(3.0), pytest.approx(0.5))  # the waits are not the model's time


def test_a_wait_over_ten_seconds_is_announced_once_as_it_starts(stub):
    clock = FakeClock()
    stub.respond = Model("gemini")
    stub.reply(429, gemini_quota(30.0, 10)).reply(429, gemini_quota(10.0, 10))
    agent = LLMAgent("minotaur", transport("gemini", stub.url, clock), 1)
    heard: list[LongWait] = []
    with long_waits_to(heard.append):
        complete(agent.transport)  # waits 30 s, then 10 s: only the first is long
        assert clock.slept == [pytest.approx(30.0), pytest.approx(10.0)]
    assert [w.line() for w in heard] == ["gemini/test-gemini-model (minotaur): gemini is rate-limited: waiting 30 s"]
    stub.reply(429, gemini_quota(30.0, 10))
    complete(agent.transport)
    assert len(heard) == 1  # nobody listens outside the block


@pytest.mark.parametrize("provider", list(TRANSPORTS))
def test_a_server_answering_only_429_within_the_hold_fails_the_call_after_the_hold_budget(provider, stub):
    """Retry-After: 5 for ever, with a hold of 5 s: without a budget every call waited for ever. The
    calls are held at most HOLD_BUDGET_FACTOR holds (15 s) by quota answers alone; then they fail at
    once, saying so and how long the server last asked to wait, until an answer comes."""
    clock = FakeClock()
    stub.reply(429, WIRE[provider][1](429, "quota exceeded"), {"Retry-After": "5"})
    limited = transport(provider, stub_url(stub, provider), clock, hold_s=5)
    with pytest.raises(QuotaError, match=rf"^{provider} has answered nothing but quota answers for 15 s \(calls "
                                         r"are held so at most 15 s\); it last asked for a wait of 5 s$") as caught:
        complete(limited)
    assert HOLD_BUDGET_FACTOR * 5 == 15 and clock.monotonic() - 1000.0 == pytest.approx(15.0)
    assert caught.value.wait_s == pytest.approx(5.0) and len(chats(stub, provider)) == 4  # at 0, 5, 10 and 15 s
    with pytest.raises(QuotaError, match="nothing but quota answers for 15 s"):
        complete(limited)  # held still: fails at once, asking nothing
    assert len(chats(stub, provider)) == 4 and limited.calls.quota_waits == 3
    clock.sleep(5.0)  # the last wait is over: the next call asks again
    stub.replies[:] = [answer(provider)]
    assert json.loads(complete(limited).text)["action"] == "WAIT"
    stub.replies[:] = [(429, WIRE[provider][1](429, "quota exceeded"), {"Retry-After": "5"}), answer(provider)]
    assert json.loads(complete(limited).text)["action"] == "WAIT"  # an answer started the count again


def test_a_game_with_a_person_plays_the_fallback_once_the_hold_budget_is_spent(stub):
    """No tournament: the quota answers' QuotaError is the fallback's turn, as a too-long wait is, never a
    failure towards replacement, and the game goes on."""
    clock = FakeClock()
    stub.reply(429, gemini_quota(20.0, 10))  # within QUOTA_WAIT_S, for ever
    agent = LLMAgent("minotaur", transport("gemini", stub.url, clock), 1)
    result = Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=6).play()
    assert result.turns == 6 and (result.minotaur.fallbacks, result.minotaur.replaced) == (6, False)
    # 429s at 0, 20, ... 180 s: the wait asked then would end past HOLD_BUDGET_FACTOR * QUOTA_WAIT_S (195 s)
    assert "nothing but quota answers for 180 s (calls are held so at most 195 s)" in agent.last_exchange["error"]
    assert clock.monotonic() - 1000.0 == pytest.approx(180.0) and len(stub.requests) == 10  # then none at all


def test_one_pace_per_endpoint_is_shared_by_both_roles(stub):
    clock = FakeClock()
    stub.respond = Model("mistral")
    user, minotaur = (transport("mistral", stub.url, clock, rpm=20) for _ in range(2))
    for t in (user, minotaur, user):
        complete(t)
    assert clock.monotonic() - 1000.0 == pytest.approx(6.0)  # three starts, 3 s apart, whoever asked


@pytest.mark.parametrize("provider", list(TRANSPORTS))
@pytest.mark.parametrize("fault", ["trickle", "hang"])
def test_a_trickling_or_hanging_server_cannot_hold_a_call_past_its_deadline(provider, fault, stub):
    stub.respond = Model(provider, {1: fault})
    slow = transport(provider, stub.url, timeout_s=0.5)
    began = time.perf_counter()
    with pytest.raises(ProviderError, match=r"did not answer within 0\.5 s"):
        complete(slow)
    took = time.perf_counter() - began
    assert took < 5  # the deadline and a loaded machine's slack; the trickle would take 10 s and more, the hang 60 s
    assert json.loads(complete(slow).text)["action"] == "CHASE"  # the next request is answered


def test_the_runner_waits_for_a_decision_longer_than_the_call_may_take():
    for timeout_s in (0.5, 2.0, 30.0):
        assert patience_s(timeout_s) > call_deadline_s(timeout_s) >= 3 * timeout_s  # a quota's wait comes on top
    assert LLMAgent("user", transport("ollama", "http://127.0.0.1:9", timeout_s=2), 1).patience_s == patience_s(2)


@pytest.mark.parametrize("body", ["[]", "null"])
def test_an_ollama_200_of_an_empty_list_or_null_is_a_provider_error(body, stub):
    stub.reply(200, body)
    kind = "list" if body == "[]" else "null"
    with pytest.raises(ProviderError, match=f"not its API's: ForeignReply .a JSON {kind}"):
        complete(transport("ollama", stub.url))
    agent = LLMAgent("minotaur", transport("ollama", stub.url, timeout_s=0.5), 1)
    result = Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=6).play()
    assert (result.minotaur.exceptions, result.minotaur.provider_errors, result.minotaur.replaced) == (0, 1 + 5, True)


def test_the_pace_comes_from_llm_rpm_or_the_config_files_rpm():
    parser = argparse.ArgumentParser()
    add_provider_options(parser)
    assert provider_settings(parser.parse_args(["--llm-rpm", "10"]), ["gemini"])["gemini"].rpm == 10.0
    assert provider_settings(parser.parse_args([]), ["gemini"])["gemini"].rpm is None
    assert resolve("gemini", None, {}, {"gemini": {"rpm": 4}}).rpm == 4.0
    for wrong in ("0", "-3", "inf", "nan", "ten"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--llm-rpm", wrong])
    with pytest.raises(ConfigError, match=r"\[gemini\] rpm"):
        resolve("gemini", None, {}, {"gemini": {"rpm": 0}})


def test_a_doctor_check_does_not_wait_out_a_quota(stub):
    clock = FakeClock()
    stub.reply(429, gemini_quota(47.3, 10))
    with pytest.raises(QuotaError, match="gemini answered HTTP 429: You exceeded your current quota") as caught:
        transport("gemini", stub.url, clock).check()
    assert caught.value.wait_s == pytest.approx(47.3) and clock.slept == [] and len(stub.requests) == 1
