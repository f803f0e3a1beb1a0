"""WSAP agents written by others, both ways round.

Our game for their agents: the seed's own examples construct as written, and a
minimal agent written from the seed's text alone (it reads ``ActionSpace.actions``,
``Terrain.direction`` and ``Entity.name``, answers in the message's shapes, falls back
on ``noop``) plays whole games through both our adapters, in the reference
implementation's episode loop. Their game for our agent: the LLM agent plays the
Orchard (tests/wsap_foreign.py), a game written from the seed, through each real SDK
client against a local stub model, its schema and prompt built from the Orchard's
action space, a bad reply and a failed provider answered with noop, never raised."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.llm_agent import FAILURES_BEFORE_REPLACEMENT, LLMAgent
from labyrinth.agents.llm.providers.base import Reply, action_response
from labyrinth.agents.llm.providers.errors import ProviderError
from labyrinth.agents.llm.providers.openai import strict_schema
from labyrinth.agents.llm.wsap_messages import parse_action
from labyrinth.agents.registry import make_transport
from labyrinth.agents.wsap.adapters import make_adapter
from labyrinth.engine.wsap import (
    Action,
    ActionDef,
    ActionResult,
    ActionSpace,
    Effect,
    Entity,
    Event,
    GameAdapter,
    Goal,
    Location,
    Observation,
    ParamDef,
)
from labyrinth.saves.providers import PROVIDERS
from tests.stubs import CHAT_PATHS, WIRE, conversation_text, wire
from tests.wsap_foreign import ORCHARD_ACTIONS, OrchardAdapter

# --- the seed's own examples, as written ------------------------------------------------------


def test_the_seeds_examples_construct_as_written():
    direction = ParamDef("direction", "left|right")
    assert (direction.name, direction.description, direction.type, direction.optional) == \
        ("direction", "left|right", "string", False)
    assert ParamDef("mode", "dormant|suspend|despawn", optional=True).optional
    assert ParamDef("slot", "1-10", "integer").type == "integer"  # the reference's third: the type
    with pytest.raises(TypeError):
        ParamDef("slot", "1-10", "integer", True)  # the reference's fourth means "required", the seed's "optional"
    move = ActionDef("move", "Move in direction", [ParamDef("direction", "left|right")], [], "movement")
    jack_out = ActionDef(name="jack_out", description="Leave this avatar and return to menu/nexus",
                         parameters=[ParamDef("mode", "dormant|suspend|despawn", optional=True)],
                         preconditions=["Not in combat", "Not falling", "Safe location"], category="meta")
    space = ActionSpace(actions=[ActionDef("noop", "Do nothing", [], [], "wait"), move, jack_out,
                                 ActionDef("jump", "Jump upward")])
    assert space.action_names() == ["noop", "move", "jack_out", "jump"]
    assert space.get_action("MOVE") is move and space.get_action("fly") is None
    assert space.actions[-1].category == "general" and space.actions[-1].parameters == []

    obs = Observation(
        status={"health": 9, "food": 8, "drink": 7, "energy": 9},
        inventory={"wood": 3, "stone": 1},
        location=Location((32, 32), "surface", "Standing on grass"),
        nearby_entities=[
            Entity("tree", None, 1, "north", None, True, "A tree to the north"),
            Entity("zombie", None, 5, "east", "hostile", False, "Zombie approaching from east"),
        ],
    )
    assert (obs.step, obs.time_of_day, obs.nearby_terrain, obs.recent_events) == (0, None, [], [])
    assert "- A tree to the north\n- Zombie approaching from east" in obs.to_text()
    assert obs.to_dict() == obs.to_structured() and json.loads(json.dumps(obs.to_dict()))["inventory"]["wood"] == 3
    result = ActionResult(success=True, message="move_left: executed", observation=obs)
    assert (result.reward, result.achievements, result.done) == (0.0, [], False)
    danger = Event("Took damage! Health: 5", "danger")
    assert (danger.description, danger.type, Event("It rains").type) == ("Took damage! Health: 5", "danger", "info")
    assert Location((1.0, 2.0)) == Location((1.0, 2.0), None, "")
    assert Goal("wood", "Collect 10 wood").type == "main" and Effect("poisoned", "losing health", 3).duration == 3
    assert Action("noop") == Action("noop", {}, None)


# --- our game for an agent written from the seed ------------------------------------------------


class SeedAgent:
    """A WSAP agent written from the seed's text alone: it picks any action, fills a parameter
    named "direction" from the passable terrain and one named "target" from what is near, hands
    the params over flat or as the whole reply object of the seed's message format in turn, and
    after a failed action does nothing (``noop``) once. It keeps count of what it sent and how
    each went."""

    def __init__(self, seed: int) -> None:
        self.rng, self.seed = random.Random(seed), seed

    def initialize(self, game_desc: str, action_space: ActionSpace) -> None:
        self.actions = list(action_space.actions)

    def reset(self) -> None:
        self.last, self.failed, self.sent, self.went = None, False, 0, Counter()

    def decide(self, observation: Observation) -> Action:
        self.sent += 1
        if self.failed:
            self.last = ("noop", "noop")
            return Action("noop", reasoning="the last action failed")
        chosen = self.rng.choice(self.actions)
        params = {}
        for param in chosen.parameters:
            choices = ([t.direction for t in observation.nearby_terrain if t.passable] if param.name == "direction"
                       else [e.name for e in observation.nearby_entities if e.interactable and e.name]
                       if param.name == "target" else [])
            if choices:
                params[param.name] = self.rng.choice(choices)
        form = "nested" if self.sent % 2 else "flat"
        self.last = (form, chosen.name if params else "")
        whole = {"action": chosen.name, "params": params, "reasoning": "exploring"}
        return Action(chosen.name, whole if form == "nested" else params, "exploring")

    def reflect(self, result: ActionResult) -> None:
        self.failed = not result.success
        self.went[(*self.last, result.success)] += 1

    def plan(self, goals: list[Goal]) -> list[str]:
        return [g.description for g in goals]


def run_episode(adapter: GameAdapter, agent, max_steps: int) -> tuple[ActionResult, int]:
    """The reference implementation's episode loop (ai_village wsap/agent.py), without its prints."""
    agent.initialize(adapter.game_description, adapter.action_space)
    observation = adapter.reset()
    agent.reset()
    for step in range(max_steps):
        action = agent.decide(observation)
        result = adapter.act(action)
        agent.reflect(result)
        observation = result.observation
        if result.done:
            break
    return result, step + 1


@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_an_agent_written_from_the_seed_plays_whole_games_in_either_role(role):
    adapter = make_adapter(role, seed=6, preset="tiny", max_turns=60)
    agent = SeedAgent(6)
    last, acts = run_episode(adapter, agent, max_steps=1000)
    assert last.done and adapter.done and acts < 1000
    played = sum(n for (_, _, ok), n in agent.went.items() if ok)
    assert adapter.turns == played > 0  # every accepted action, noop too, is one turn of the game
    assert agent.went[("noop", "noop", True)] > 0 and not agent.went[("noop", "noop", False)]  # noop: never refused
    for form in ("nested", "flat"):
        assert sum(n for (f, _, ok), n in agent.went.items() if f == form and ok) > 0
    if role == "user":  # parameters in both shapes reached the game
        assert agent.went[("nested", "move", True)] > 0 and agent.went[("flat", "move", True)] > 0


@pytest.mark.parametrize("role, noop", [("user", "LOOK"), ("minotaur", "WAIT")])
def test_noop_is_each_roles_quietest_action_and_plays_a_turn(role, noop):
    adapter = make_adapter(role, seed=3, preset="small", opponent="builtin")
    for turn, action in enumerate([Action("noop"), Action("NOOP", {"anything": 1}), Action(" Noop ")], start=1):
        result = adapter.act(action)
        assert result.success and adapter.turns == turn
        mine = adapter.history[-1][0 if role == "user" else 1]
        assert (mine.command if role == "user" else mine.action) == noop


def test_names_are_read_in_any_case_and_params_flat_or_nested():
    moves = [Action("move", {"direction": "NORTH", "steps": 2}), Action("MOVE", {"direction": "north", "steps": 2}),
             Action("Move", {"params": {"direction": "NORTH", "steps": 2}}),
             Action("move", {"action": "move", "params": {"direction": "NORTH", "steps": 2}, "reasoning": "go"})]
    states = []
    for action in moves:
        adapter = make_adapter("user", seed=5, preset="small", opponent="wait")
        assert adapter.act(action).success
        states.append(adapter.game.state.digest())
    assert len(set(states)) == 1
    odd = make_adapter("user", seed=5, preset="small", opponent="wait").act(
        Action("move", {"params": {"direction": "NORTH"}, "colour": "red"}))  # not the message's shape: taken flat
    assert not odd.success and 'move takes no "colour"' in odd.message


def test_a_reply_may_write_its_params_flat():
    assert parse_action('{"action": "move", "direction": "left", "reasoning": "apples"}') == \
        Action("move", {"direction": "left"}, "apples")
    assert parse_action('{"action": "look", "params": {}, "thought": "hmm"}') == Action("look", {}, None)


# --- a game of others for our LLM agent ------------------------------------------------------------

FAULTS = {3: "garbage", 5: "fly", 7: "503", 8: "503", 9: "503"}  # chat requests, 1-based; 1 is the plan
PLAN = "Walk to the nearest apple.\nPick it, then the other."


class Picker:
    """A stand-in model for the Orchard: it walks to the first apple the step message names and
    picks it, its params nested or flat in turn; or the fault scheduled for that request."""

    def __init__(self, provider: str) -> None:
        self.provider, self.chats = provider, 0

    def __call__(self, request: dict):
        answer, error = WIRE[self.provider]
        if not request["path"].endswith(CHAT_PATHS[self.provider]):
            return 404, error(404, "no such route"), None
        self.chats += 1
        fault = FAULTS.get(self.chats)
        if fault == "503":
            return 503, error(503, "upstream connect error"), None
        _, prompt = conversation_text(self.provider, request["body"])
        if fault == "garbage":
            text = "Hmm, the apples are probably to the left!!"
        elif fault == "fly":
            text = json.dumps({"action": "fly", "params": {}, "reasoning": "over the trees"})
        elif "Before the game starts" in prompt:
            text = json.dumps({"action": "noop", "params": {}, "reasoning": PLAN})
        elif "- An apple here" in prompt:
            text = json.dumps({"action": "pick", "params": {}, "reasoning": "it is here"})
        else:
            way = re.search(r"- An apple \d+ cells to the (left|right)", prompt).group(1)
            text = json.dumps({"action": "move", "params": {"direction": way}, "reasoning": "towards it"}
                              if self.chats % 2 else {"action": "move", "direction": way, "reasoning": "towards it"})
        return 200, answer(text, 100, 20), None


def sent_schema(provider: str, body: dict) -> dict:
    """The JSON schema a request asks the reply to follow, in the provider's own field."""
    if wire(provider) == "gemini":
        return body["generationConfig"]["responseJsonSchema"]
    if wire(provider) == "ollama":
        return body["format"]
    return body["response_format"]["json_schema"]["schema"]


@pytest.mark.usefixtures("quick_backoff")
@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_our_llm_agent_plays_a_game_of_others_through_each_real_client(provider, stub):
    stub.respond = Picker(provider)
    orchard = OrchardAdapter()
    transport = make_transport(ProviderSettings(provider, f"test-{provider}-model", stub.url, api_key="k",
                                                timeout_s=10))
    agent = LLMAgent("player", transport, seed=0, game_name=orchard.name)
    agent.initialize(orchard.game_description, orchard.action_space)
    assert agent.plan(orchard.observe().current_goals) == PLAN.splitlines()
    observation, decided, results = orchard.reset(), [], []
    agent.reset()
    while not orchard.done:
        action = agent.decide(observation)  # never raises: a bad reply or a failed call gives noop
        decided.append((action, agent.failure))
        result = orchard.act(action)
        agent.reflect(result)
        results.append(result)
        observation = result.observation
    assert not orchard.apples and sum(r.reward for r in results) == 2.0  # it won, both apples

    garbage, fly, down = decided[1], decided[3], decided[5]  # the decisions asked in requests 3, 5 and 7-9
    assert garbage[0].name == "noop" and garbage[0].reasoning.startswith("fallback: not a valid player action")
    assert fly[0].name == "fly" and fly[1] is None and not results[3].success  # the game refuses it, not the agent
    assert down[0].name == "noop" and isinstance(down[1], ProviderError) and "503" in str(down[1])
    assert all(failure is None for _, failure in decided[6:])

    chats = [r["body"] for r in stub.requests if r["path"].endswith(CHAT_PATHS[provider])]
    prompts = [conversation_text(provider, body)[1] for body in chats]
    assert prompts[3].startswith("NOTE on your last turn: Your answer was not used (not a valid player action")
    assert prompts[5].startswith("NOTE on your last turn: Unknown action: fly Valid actions: noop, move, pick.")
    expected = action_response("player", ORCHARD_ACTIONS)
    for body in chats:
        system = conversation_text(provider, body)[0]
        assert system.startswith(f"You are an agent playing Orchard.\n\n{orchard.game_description}\n\n")
        assert "move [movement]: Move one cell in direction\n  - direction (string). left|right" in system
        assert "Labyrinth" not in system and "Minotaur" not in system
        expected_schema = strict_schema(expected.json) if wire(provider) == "openai" else expected.json
        assert sent_schema(provider, body) == expected_schema
    if wire(provider) == "mistral":
        assert chats[0]["response_format"]["json_schema"]["name"] == "PlayerAction"

    agent.reset()  # a new game: nothing of the last one is sent again
    assert not agent.history and not agent.notes and agent.note == "" and agent.failure is None


class Broken:
    """A transport whose model never writes an action."""

    name, timeout_s, waiting = "broken/model", 1.0, None

    def __init__(self) -> None:
        self.systems: list[str] = []

    def complete(self, system, turns, schema):
        self.systems.append(system)
        return Reply("I would rather not say.", 10, 5)


def test_a_foreign_game_gets_no_persona_and_no_built_in_stand_in_whatever_the_role_is_called():
    transport, orchard = Broken(), OrchardAdapter()
    agent = LLMAgent("user", transport, seed=1)  # our role's name, but not our game
    agent.initialize(orchard.game_description, orchard.action_space)
    for _ in range(FAILURES_BEFORE_REPLACEMENT + 2):
        action = agent.decide(orchard.observe())
        assert action.name == "noop" and agent.failure is not None
        orchard.act(action)
    assert agent.replacement is None and agent.name == "broken/model"  # no built-in agent plays the Orchard
    assert transport.systems[0].startswith("You are an agent playing a game.\n\nOrchard is a row")
    assert "explorer" not in transport.systems[0]

    ours = make_adapter("user", seed=1, preset="tiny")
    home = LLMAgent("user", Broken(), seed=1, game_name=ours.name)  # the reference's adapters name their game
    home.initialize(ours.game_description, ours.action_space)
    assert home.system.startswith("You are an agent playing Labyrinth: The Temporal Hunt.\n\n")
    for _ in range(FAILURES_BEFORE_REPLACEMENT):
        ours.act(home.decide(ours.observe()))  # its noops are LOOKs
    assert home.replacement is not None and ours.turns == FAILURES_BEFORE_REPLACEMENT
    assert "You are a careful, quick-witted explorer" in home.system
    home.reset()  # a new game tries the model again
    assert home.replacement is None and home.name == "broken/model"
