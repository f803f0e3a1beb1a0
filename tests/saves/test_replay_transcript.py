"""`labyrinth replay FILE --transcript`: every prompt and reply of a match's models as JSON lines,
in order (the system text, the opening plan, every turn's calls), with what each request sent and
the model that answered; no key, even one the replay should never have held; and a replay written
before the plan and what was sent were kept still loads and gives what it holds."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.saves.replays import ReplayWriter, first_mismatch, read_replay, transcript
from labyrinth.tui.cli import main
from tests.stubs import Model, Stub, openai_error

pytestmark = pytest.mark.usefixtures("quick_backoff")

KEY = "sk-transcript-canary-4b7e1a"
OLD = Path(__file__).parent.parent / "fixtures" / "replay-before-sent.jsonl"  # written before this release's fields


def transcribed(capsys, path: Path) -> list[dict]:
    assert main(["replay", str(path), "--transcript"]) == 0
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines()]


def test_the_transcript_holds_the_plan_and_every_turns_prompt_and_reply_and_no_key(capsys, tmp_path):
    model, chats = Model("openai"), []

    def echoing_the_key_once(request: dict):
        chats.append(request)
        if request["path"].endswith("/chat/completions") and 3 <= len(chats) <= 5:  # the second decision's 3 tries
            return 503, openai_error(503, f"upstream refused the key {KEY}"), {"Retry-After": "0"}
        return model(request)

    stub = Stub(echoing_the_key_once)
    settings = ProviderSettings("openai", "gpt-4o-mini", stub.url + "/v1", api_key=KEY, timeout_s=5.0)
    try:
        with ReplayWriter(tmp_path) as writer:
            Match(make_agent("user", "openai", 1, {"openai": settings}), make_agent("minotaur", "builtin", 1), seed=1,
                  preset="tiny", max_turns=4, recorder=writer).play()
    finally:
        stub.close()
    assert KEY not in writer.path.read_text()
    lines = transcribed(capsys, writer.path)
    assert KEY not in json.dumps(lines)
    system, plan, *decisions = lines
    assert (system["role"], system["kind"], system["turn"]) == ("user", "system", 0)
    assert system["prompt"] == stub.requests[0]["body"]["messages"][0]["content"]
    first = stub.requests[0]["body"]
    assert (plan["kind"], plan["turn"], plan["outcome"]) == ("plan", 0, "answered")
    assert plan["prompt"].startswith("Before the game starts") and "Listen first." in plan["reply"]
    assert plan["parameters"] == {k: v for k, v in first.items() if k not in ("messages", "response_format")}
    assert (plan["output"], plan["model_version"]) == ("json_schema (strict)", "gpt-4o-mini")
    assert [d["turn"] for d in decisions] == [1, 2, 3, 4] and all(d["kind"] == "decision" for d in decisions)
    asked = [r["body"]["messages"][-1]["content"] for r in stub.requests if r["path"].endswith("/chat/completions")]
    once = [prompt for n, prompt in enumerate(asked) if n == 0 or prompt != asked[n - 1]]  # a call's tries: one
    assert [line["prompt"] for line in (plan, *decisions)] == once
    failed = decisions[1]
    assert failed["reply"] is None and failed["outcome"] == "provider_errors" and "[REDACTED]" in failed["error"]
    assert failed["parameters"] == plan["parameters"]  # what its last try sent
    assert all(d["reply"] and d["tokens_in"] and d["latency_s"] > 0 for d in decisions if d is not failed)


def test_a_replay_written_before_the_plan_and_the_sent_record_loads_verifies_and_gives_its_transcript(capsys):
    replay = read_replay(OLD)
    assert replay.notes == [] and first_mismatch(replay) is None
    assert replay.header.plan_exchanges == {} and set(replay.header.system_prompts) == {"minotaur"}
    lines = list(transcript(replay))
    assert [(line["kind"], line["turn"]) for line in lines] == [("system", 0), ("decision", 1), ("decision", 2),
                                                                 ("decision", 3)]
    assert all(line["parameters"] is None and line["model_version"] is None for line in lines)
    assert lines[2]["reply"].startswith("Hmm") and lines[1]["tokens_in"] == 1054  # as the old file kept them
    assert transcribed(capsys, OLD) == lines


def test_a_key_the_replay_should_not_hold_is_redacted_from_its_transcript(capsys, tmp_path, monkeypatch):
    planted = f"sk-planted-{uuid.uuid4().hex}"  # known to no earlier part of this process
    path = tmp_path / "planted.jsonl"
    path.write_text(OLD.read_text().replace("Hmm, I think I will go north", f"my key is {planted}, north"))
    monkeypatch.setenv("OPENAI_API_KEY", planted)  # what the user's environment holds
    out = json.dumps(transcribed(capsys, path))
    assert planted not in out and "my key is [REDACTED], north" in out


def test_damaged_exchanges_are_left_out_with_a_note_and_the_replay_still_verifies(tmp_path):
    lines = OLD.read_text().splitlines()
    turn = json.loads(lines[1])
    turn["exchanges"] = {"minotaur": "not a list"}
    header = json.loads(lines[0])
    header["plan_exchanges"] = ["not", "by", "role"]
    path = tmp_path / "damaged.jsonl"
    path.write_text("\n".join([json.dumps(header), json.dumps(turn), *lines[2:]]) + "\n")
    replay = read_replay(path)
    assert replay.notes == ["the header's plan_exchanges are not objects by role and are left out",
                            "turn 1's exchanges are not lists of objects by role and are left out"]
    assert first_mismatch(replay) is None and replay.turns[0].exchanges == {}
    assert [line["turn"] for line in transcript(replay)] == [0, 2, 3]

