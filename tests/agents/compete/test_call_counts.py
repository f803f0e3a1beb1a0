"""A model's calls add up: every call (the opening plan, each decision, a re-ask, the lesson after
the game) lands in exactly one of answered, invalid, provider errors and timeouts, on every health
line of a tournament whose stand-in fails in every way it can; and a model's latency is its
answered calls' time only."""

from __future__ import annotations

import json
import re
from typing import ClassVar

import pytest

from labyrinth.saves.results_db import ResultsDB
from labyrinth.tui.cli import main
from tests.stubs import CHAT_PATHS, Model, Stub, openai_answer, openai_error

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("quick_backoff")]

TIMEOUT_S = 0.4
HEALTH = re.compile(r"^labyrinth tournament: (?P<name>\S+)(?: NEVER ANSWERED \(.*?\))?: (?P<requests>\d+) requests "
                    r"\((?P<plans>\d+) plans, (?P<lessons>\d+) lessons\): (?P<answered>\d+) answered, "
                    r"(?P<invalid>\d+) invalid, (?P<provider_errors>\d+) provider errors, (?P<timeouts>\d+) timeouts;")
PARTS = ("answered", "invalid", "provider_errors", "timeouts")


class Faulty:
    """``model`` behind an endpoint that fails in every way, by the chat request's number (1-based, over
    all the matches): a 429 whose wait fits the hold, 503s given up after three tries and one that is
    tried again, garbage, an empty answer, one past the timeout, one cut off by its length, a 400 and a
    body that is not a completion; and the first lesson asked for answers no lesson."""

    FAULTS: ClassVar[dict[int, str]] = {2: "429", 3: "503", 4: "503", 5: "503", 7: "garbage", 8: "empty", 9: "slow",
                                        10: "length", 11: "400", 12: "[]", 14: "503", 19: "garbage", 23: "slow"}

    def __init__(self, model: Model) -> None:
        self.model, self.chats, self.lessons = model, 0, 0

    def __call__(self, request: dict):
        if not request["path"].endswith(CHAT_PATHS["openai"]):
            return self.model(request)
        self.chats += 1
        fault = self.FAULTS.get(self.chats)
        if request["body"]["messages"][-1]["content"].startswith("The game is over."):
            self.lessons += 1
            fault = "garbage" if self.lessons == 1 else None
        status, answer, headers = self.model(request)
        return {"429": (429, openai_error(429, "Rate limit reached for requests"), {"retry-after-ms": "50"}),
                "503": (503, openai_error(503, "The server is overloaded"), {"Retry-After": "0"}),
                "garbage": (200, openai_answer("Hmm, north, probably!!", 100, 9), None),
                "empty": (200, openai_answer("", 100, 0), None),
                "slow": (status, answer, {"_delay": 2 * TIMEOUT_S}),
                "length": (200, openai_answer(None, 100, 300, "length"), None),
                "400": (400, openai_error(400, "Invalid 'messages': too long"), None),
                "[]": (200, "[]", None)}.get(fault or "", (status, answer, headers))


def test_every_health_line_of_a_faulty_tournament_adds_up_with_the_plans_in_their_column(capsys, monkeypatch):
    stub = Stub(Faulty(Model("openai", timeout_s=TIMEOUT_S)))
    monkeypatch.setenv("OPENAI_BASE_URL", stub.url + "/v1")
    try:
        code = main(["tournament", "--users", "openai/a", "--minotaurs", "openai/b", "--games", "2",
                     "--concurrency", "1", "--preset", "tiny", "--max-turns", "6", "--learn", "both",
                     "--llm-timeout", str(TIMEOUT_S), "--json"])
        out, err = capsys.readouterr()
    finally:
        stub.close()
    assert code in (0, 3), err
    lines = [found.groupdict() for line in err.splitlines() if (found := HEALTH.match(line))]
    assert sorted(line["name"] for line in lines) == ["openai/a", "openai/b"]
    for line in lines:
        assert int(line["requests"]) == sum(int(line[part]) for part in PARTS), line
    health = json.loads(out)["health"]
    for h in health:
        assert h["requests"] == sum(h[part] for part in PARTS)
        assert h["plan_calls"] == h["matches"]  # one opening plan a match, in its own column
    assert [h["matches"] for h in health] == [2, 2]
    rows = ResultsDB().matches()
    sides = [side for row in rows for side in (row.user_side, row.minotaur_side) if side.model]
    for side in sides:
        assert side.calls == side.answered + side.invalid + side.provider_errors + side.timeouts
        assert side.plan_calls == 1 and side.lesson_calls <= 1
    totals = {part: sum(getattr(side, part) for side in sides) for part in (*PARTS, "lesson_calls")}
    assert totals["timeouts"] >= 1 and totals["provider_errors"] >= 3 and totals["invalid"] >= 4
    assert totals["lesson_calls"] >= 1 and totals["answered"] > 0
    chats = len([r for r in stub.requests if r["path"].endswith("/chat/completions")])
    assert sum(side.calls for side in sides) < chats  # a call tried again, or held by the 429, is one call


def test_a_models_latency_is_its_answered_calls_not_its_failures_nor_the_builtin_that_replaced_it(capsys,
                                                                                                 monkeypatch):
    model = Model("openai", delay_s=0.1)  # every answer takes 0.1 s at least

    def answers_three_then_fails_fast(request: dict):
        if request["path"].endswith("/chat/completions") and model.chats >= 3:
            return 400, openai_error(400, "Invalid 'messages': too long"), None
        return model(request)

    stub = Stub(answers_three_then_fails_fast)
    monkeypatch.setenv("OPENAI_BASE_URL", stub.url + "/v1")
    try:
        code = main(["arena", "--user", "openai/slow", "--minotaur", "wait", "--games", "1", "--preset", "tiny",
                     "--max-turns", "12", "--no-memory", "--json"])
        out, err = capsys.readouterr()
    finally:
        stub.close()
    data = json.loads(out)
    assert code == 3 and data["replaced"]["user"] == 1, err  # five fast failures in a row: the builtin played on
    assert data["answered"]["user"] == 3 and data["provider_errors"]["user"] == 5  # the plan, two turns; then five
    assert data["answer_s"]["user"] >= 3 * 0.1
    assert data["mean_latency_s"]["user"] >= 0.1  # not diluted by the failures' milliseconds or the builtin's turns
    (health,) = data["health"]
    assert health["answer_s"] / health["answered"] >= 0.1 and "s an answer" in err
