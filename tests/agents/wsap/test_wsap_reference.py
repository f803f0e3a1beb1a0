"""Our LLM agent plays a game written against the WSAP reference implementation's own types
(tests/wsap_reference_game.py: ``ParamDef.required``, options as strings), through the real
OpenAI SDK against a local stub model, in the reference's episode loop."""

from __future__ import annotations

import json

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.llm_agent import LLMAgent
from labyrinth.agents.registry import make_transport
from tests.agents.wsap.test_wsap_conformance import run_episode
from tests.stubs import Stub, openai_answer
from tests.wsap_reference_game import FERRY_ACTIONS, FerryAdapter


def branches(schema: dict) -> dict[str, dict]:
    return {b["properties"]["action"]["enum"][0]: b["properties"]["params"] for b in schema["anyOf"]}


def test_an_action_space_of_the_references_types_reads_as_ours():
    agent = LLMAgent("player", make_transport(ProviderSettings("openai", "m", "http://127.0.0.1:9/v1")), seed=1)
    agent.initialize(FerryAdapter.game_description, FERRY_ACTIONS)  # crashed: 'ParamDef' has no 'optional'
    params = branches(agent.schema.json)
    assert params["row"]["properties"]["strokes"]["type"] == "integer"
    assert params["row"]["properties"]["strokes"]["enum"] == [1, 2, 3]  # "1", "2", "3" read as the type says
    assert params["row"]["required"] == ["strokes"]  # required=True: needed
    assert "required" not in params["shout"] and params["shout"]["properties"]["word"]["enum"] == ["hello", "help"]
    assert "strokes (integer): one of 1, 2, 3" in agent.system and "word (string, optional)" in agent.system
    assert not agent.home and "explorer" not in agent.system  # another game: no persona of ours


def test_the_llm_agent_plays_a_game_of_the_references_types_to_its_end():
    def model(request: dict):
        if not request["path"].endswith("/chat/completions"):
            return 404, {}, None
        last = request["body"]["messages"][-1]["content"]
        if "Before the game starts" in last:
            text = {"action": "rest", "params": {}, "reasoning": "Row steadily.\nKeep an eye on the tide."}
        else:
            text = {"action": "row", "params": {"strokes": 2}, "reasoning": "two strokes a step"}
        return 200, openai_answer(json.dumps(text), 40, 12), None

    stub = Stub(model)
    try:
        agent = LLMAgent("player", make_transport(ProviderSettings("openai", "m", stub.url + "/v1", timeout_s=5)),
                         seed=1, game_name=FerryAdapter.name)
        ferry = FerryAdapter()
        last, steps = run_episode(ferry, agent, max_steps=20)
        plan = agent.plan([])
    finally:
        stub.close()
    assert last.done and last.success and "far bank" in last.message and steps == 3
    assert ferry.heard == [{"name": "row", "parameters": {"strokes": 2}}] * 3 and agent.failure is None
    assert plan == ["Row steadily.", "Keep an eye on the tide."]
    sent = stub.requests[-2]["body"]["response_format"]["json_schema"]["schema"]  # OpenAI's strict form of it
    row = sent["properties"]["params"]["anyOf"][0]["properties"]["strokes"]
    assert (row["type"], row["enum"]) == ("integer", [1, 2, 3])
