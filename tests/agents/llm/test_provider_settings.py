"""Provider settings (flags > environment > config file > defaults), the shared
retry rules, and the LLM agent's prompt bookkeeping, without any server."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from labyrinth.agents.llm.config import provider_settings
from labyrinth.agents.llm.llm_agent import LLMAgent
from labyrinth.agents.llm.providers.base import Reply
from labyrinth.agents.llm.providers.errors import ProviderError
from labyrinth.agents.llm.providers.quota import go_duration_s, quota_wait_s, retry_after_s
from labyrinth.agents.llm.providers.retry import Caller, Failure, http_failure
from labyrinth.agents.registry import UnknownContestant, parse_contestant
from labyrinth.engine.wsap.actions import USER_ACTIONS, USER_DESCRIPTION
from labyrinth.saves.config import ConfigError, config_path, read_config
from labyrinth.saves.providers import PROVIDERS
from tests.stubs import FakeClock, gemini_quota, wire


def test_flags_beat_the_environment_which_beats_the_config_file_which_beats_the_defaults():
    config = {"mistral": {"model": "from-file", "base_url": "http://file", "api_key": "file-key", "timeout_s": 9}}
    env = {"LABYRINTH_MISTRAL_MODEL": "from-env", "MISTRAL_API_KEY": "env-key"}
    s = provider_settings("mistral", {"model": "from-flag", "base_url": None}, env, config)
    assert (s.model, s.base_url, s.api_key.reveal(), s.timeout_s) == ("from-flag", "http://file", "env-key", 9.0)
    assert provider_settings("mistral", None, {}, {}).model == PROVIDERS["mistral"].model == "mistral-small-latest"
    assert provider_settings("ollama", None, {}, {}).model == "qwen3:8b"


def test_gemini_takes_either_key_variable_and_never_shows_it():
    s = provider_settings("gemini", None, {"GOOGLE_API_KEY": "g-secret", "GOOGLE_GEMINI_BASE_URL": "http://gw"}, {})
    assert s.api_key.reveal() == "g-secret" and s.base_url == "http://gw" and s.configured
    assert "g-secret" not in repr(s) + str(s) + f"{s.api_key}" + repr(dataclasses.asdict(s))
    with pytest.raises(TypeError):
        json.dumps(dataclasses.asdict(s))  # refused, not written
    assert not provider_settings("gemini", None, {}, {}).configured
    assert provider_settings("ollama", None, {}, {}).configured  # local: no key needed


def test_the_config_file_is_read_from_the_user_config_directory_and_a_broken_one_is_named():
    assert read_config() == {}
    config_path().parent.mkdir(parents=True)
    config_path().write_text('[ollama]\nmodel = "llama3.2"\n')
    assert provider_settings("ollama", None, {}).model == "llama3.2"
    config_path().write_text("[ollama\nmodel = 1\n")
    with pytest.raises(ConfigError, match="config.toml"):
        read_config()
    with pytest.raises(ValueError, match="choose one of gemini, mistral, ollama, openai"):
        provider_settings("anthropic")


def test_retry_after_is_honoured_in_seconds_or_milliseconds_and_dates_fall_back_to_the_backoff():
    assert retry_after_s({"Retry-After": "3"}) == 3.0
    assert retry_after_s({"retry-after-ms": "250"}) == 0.25
    assert retry_after_s({"Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"}) is None
    assert retry_after_s({}) is None


def test_waits_are_read_from_go_durations_rate_limit_headers_and_geminis_body():
    assert [go_duration_s(d) for d in ("1s", "6m0s", "20ms", "1h2m3.5s", "47s", "2.5", "soon", "")] == \
        [1.0, 360.0, 0.02, 3723.5, 47.0, 2.5, None, None]
    assert quota_wait_s({"x-ratelimit-reset-requests": "1s", "x-ratelimit-reset-tokens": "6m0s",
                         "x-ratelimit-remaining-requests": "0", "x-ratelimit-remaining-tokens": "5"}) == 1.0
    assert quota_wait_s({"ratelimitbysize-reset": "28", "Retry-After": "3"}) == 28.0  # the longest
    assert quota_wait_s(None, gemini_quota(47.3, 10)) == pytest.approx(47.3)  # the message's, finer than "47s"
    assert quota_wait_s(None, gemini_quota(47.3, 10)["error"]) == pytest.approx(47.3)
    assert quota_wait_s({"Retry-After": "nan"}, {"error": {"details": "?"}}, "retry soon") is None


def test_a_wait_of_more_digits_than_a_float_holds_is_no_wait():
    """"Please retry in 999...9s" read as inf made every message saying the wait (math.ceil) raise."""
    assert quota_wait_s(None, None, "Please retry in " + "9" * 400 + "s.") is None
    assert quota_wait_s({"Retry-After": "1e300"}, None, "Please retry in " + "9" * 400 + "s.") == 1e300


def test_5xx_are_retried_with_backoff_then_given_up_429s_are_waited_out_and_4xx_are_not_retried():
    clock, calls = FakeClock(), []
    caller = Caller("x", "http://x", 1.0, clock=clock)

    def failing(*statuses, headers=None):
        script = list(statuses)

        def call():
            status = script.pop(0) if len(script) > 1 else script[0]
            calls.append(status)
            if status == 200:
                return "ok"
            raise RuntimeError(status)
        return call, lambda exc: http_failure("x", exc.args[0], "busy", headers)

    with pytest.raises(ProviderError, match=r"x answered HTTP 503: busy \(after 3 tries\)"):
        caller(*failing(503))
    assert calls == [503] * 3 and clock.slept == [0.5, 1.0]
    clock.slept.clear()
    assert caller(*failing(429, 429, 429, 200, headers={"Retry-After": "2"})) == "ok"
    assert clock.slept == [2.0, 2.0, 2.0]  # waited as asked, and not counted as tries
    calls.clear()
    with pytest.raises(ProviderError, match="HTTP 400"):
        caller(*failing(400))
    assert calls == [400]


def test_an_exception_nobody_classified_is_a_bug_and_propagates():
    def call():
        raise KeyError("bug")
    caller = Caller("x", "http://bug", 1.0, clock=FakeClock())
    with pytest.raises(KeyError):
        caller(call, lambda exc: None)
    assert caller(lambda: 7, lambda exc: Failure("never")) == 7


class Scripted:
    """A transport that answers from a list and keeps what it was sent."""

    name, timeout_s = "scripted/model", 1.0

    def __init__(self, *texts: str) -> None:
        self.texts, self.sent = list(texts), []

    def complete(self, system, turns, schema):
        self.sent.append((system, list(turns)))
        return Reply(self.texts.pop(0), 10, 2)


def test_the_agent_keeps_only_recent_turns_and_says_what_was_wrong_with_the_last_answer():
    from labyrinth.agents.match.runner import Match
    from labyrinth.agents.registry import make_agent

    move = '{"action": "LOOK", "params": {}, "reasoning": "look %d"}'
    transport = Scripted("plan", "nonsense", *(move % i for i in range(20)))
    agent = LLMAgent("user", transport, 3)
    match = Match(agent, make_agent("minotaur", "wait", 3), seed=3, preset="tiny", max_turns=12)
    match.play()
    assert match.stats["user"].invalid == 1
    first_after_nonsense = transport.sent[2][1][-1][1]
    assert first_after_nonsense.startswith("NOTE on your last turn: Your answer was not used (not a valid user action")
    assert "Valid actions: move, look, grab, use, halt." in first_after_nonsense
    assert max(len(turns) for _, turns in transport.sent) == 7  # three earlier turns, asked and answered, and now
    assert "Your notes so far: look 7 | look 8 | look 9" in transport.sent[-1][1][-1][1]
    assert transport.sent[-1][0] == agent.system and USER_DESCRIPTION in agent.system
    assert all(a.name in agent.system for a in USER_ACTIONS.actions)


@pytest.mark.parametrize(("model", "problem"), [
    ("m" * 100_000, "is 100,000 characters long (at most 200)"),
    ("gpt 4o", "holds a space, a comma or a character that cannot be shown"),
    ("a,b", "holds a space, a comma"),
    ("tab\there", "holds a space"),
    ("", "is empty"),
])
def test_a_models_name_is_refused_by_one_rule_wherever_it_is_read(model, problem):
    """The flag, the environment, the config file's table and ``provider/model`` say the same problem."""
    places = {"the mistral model from the command line": ({"model": model}, {}, {}),
              "the mistral model from $LABYRINTH_MISTRAL_MODEL": (None, {"LABYRINTH_MISTRAL_MODEL": model}, {}),
              "[mistral] model: the model's name": (None, {}, {"mistral": {"model": model}})}
    for where, (flags, environ, config) in places.items():
        if not model and environ:
            continue  # an empty variable is no setting: the next place's (or the default) is read
        with pytest.raises(ConfigError) as refused:
            provider_settings("mistral", flags, environ, config)
        message = str(refused.value)
        assert f"{where} {problem}" in message and "\n" not in message and len(message) < 300
    with pytest.raises(UnknownContestant) as refused:
        parse_contestant("user", f"mistral/{model}")
    assert problem in str(refused.value) and len(str(refused.value)) < 300
    assert parse_contestant("user", "mistral/mistral-small-latest:2506").model == "mistral-small-latest:2506"


@pytest.mark.parametrize(("url", "said"), [
    ("http://ⓐ.example", "names a host in letters other than ASCII (write an international name in its xn-- form)"),
    ("http://999.1.1.1:8000", "names the host 999.1.1.1, which is no IPv4 address"),
    ("http://01.02.03.04", "which is no IPv4 address"),
    ("http://127.0.0.1:0/v1", "has port 0"),
    (":0", "has port 0"),
])
def test_a_host_the_http_clients_would_refuse_as_they_are_built_is_refused_where_it_is_read(url, said):
    for provider, variable in (("openai", "OPENAI_BASE_URL"), ("ollama", "OLLAMA_HOST")):
        if wire(provider) == "openai" and "://" not in url:
            continue  # a short form is OLLAMA_HOST's only
        with pytest.raises(ConfigError, match=rf"the {provider} endpoint from \${variable} .* {re.escape(said)}"):
            provider_settings(provider, None, {variable: url}, {})
    for fine in ("http://xn--bcher-kva.example", "http://10.0.0.1:8000/v1", "http://[::1]:11434", "http://a.b:1"):
        assert provider_settings("openai", None, {"OPENAI_BASE_URL": fine}, {}).base_url == fine
