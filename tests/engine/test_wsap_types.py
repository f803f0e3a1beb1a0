"""Conformance of engine.wsap and agents.wsap_messages to the WSAP v0.1 seed:
every type with the seed's fields, the roster's rules, the adapter protocols,
JSON-ready observations, the exact message layout, and tolerant reply parsing."""

import json
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labyrinth.agents.llm.wsap_messages import (
    ActionParseError,
    parse_action,
    step_message,
    system_message,
)
from labyrinth.engine import Game
from labyrinth.engine.wsap import (
    Action,
    ActionDef,
    ActionResult,
    ActionSpace,
    AgentMessage,
    Avatar,
    AvatarGameAdapter,
    AvatarRoster,
    AvatarSpec,
    AvatarState,
    DeathEvent,
    EmbodiedObservation,
    Entity,
    Event,
    GameAdapter,
    Goal,
    HistoryEntry,
    JackInResult,
    JackOutResult,
    Location,
    Memory,
    Observation,
    ParamDef,
    RespawnOption,
    Terrain,
    Tool,
    to_plain,
)
from labyrinth.engine.wsap.perception import MinotaurPerception, UserPerception


def _observation(**extra):
    return dict(
        status={"health": 9}, inventory={"wood": 3}, location=Location((32, 32), "surface", "Standing on grass"),
        nearby_entities=[Entity("tree", None, 1, "north", None, True, "A tree to the north")],
        nearby_terrain=[Terrain("water", "east", False)], active_effects=[],
        current_goals=[Goal("wood", "Collect 10 wood", "main", "3/10 wood collected")],
        recent_events=[Event("A zombie hit you", "hit", 6)], step=7, **extra)


def _avatar(avatar_id="a1", state=AvatarState.BOUND, name="Kestrel"):
    return Avatar(avatar_id, "crafter", "agent-7" if state is AvatarState.BOUND else None, state, name,
                  (1.0, 2.0), {"hair": "red"}, 80.0, 100.0, {"wood": 3}, {"hand": "pickaxe"},
                  "2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", 3600, 1, (0.0, 0.0))


def _embodied():
    return EmbodiedObservation(**_observation(), avatar=_avatar(), facing="north", stance="standing",
                               velocity=(0.0, 1.0), vision_range=12.0, vision_cone=90.0, hearing_range=20.0)


SEED_FIELDS = {
    HistoryEntry: ["step", "observation", "action", "result"],
    Memory: ["facts", "plans", "history"],
    AgentMessage: ["sender", "content", "type"],
    Tool: ["name", "description", "parameters"],
    Avatar: ["avatar_id", "game_id", "bound_agent", "state", "name", "position", "appearance", "health",
             "max_health", "inventory", "equipment", "created_at", "last_active", "total_playtime",
             "death_count", "respawn_point"],
    AvatarSpec: ["name", "appearance", "spawn_location", "starting_loadout", "skill_bonuses"],
    JackInResult: ["success", "avatar", "message", "bonuses_applied", "initial_observation"],
    JackOutResult: ["success", "avatar_state", "message", "session_stats"],
    DeathEvent: ["avatar_id", "cause", "killer", "location", "timestamp", "items_dropped", "xp_lost",
                 "respawn_options"],
    RespawnOption: ["id", "type", "location", "cost", "penalties", "description"],
    AvatarRoster: ["agent_id", "game_id", "avatars", "active_avatar_id", "max_avatars"],
}


@pytest.mark.parametrize("cls", list(SEED_FIELDS), ids=lambda c: c.__name__)
def test_each_type_has_the_seeds_fields_in_order(cls):
    assert [f.name for f in fields(cls)] == SEED_FIELDS[cls]


def test_each_type_constructs_and_serialises_to_json():
    option = RespawnOption("bed", "bed", (3.0, 4.0), None, ["lose_xp"], "Wake in your bed")
    values = [
        Memory(["a village to the north"], ["craft a pickaxe"],
               [HistoryEntry(6, "a tree to the north", Action("move_north"), "You moved north")]),
        AgentMessage("agent-7", "wood here", "broadcast"),
        Tool("calculator", "Does sums", [ParamDef("expression", "string")]),
        AvatarSpec(),
        JackInResult(True, _avatar(), "Welcome back", {"scanner": True}, Observation(**_observation())),
        JackOutResult(True, AvatarState.DORMANT, "Sleeping", {"playtime": 60}),
        DeathEvent("a1", "fall", None, (5.0, 6.0), "2025-01-02T00:00:00Z", {"wood": 3}, 10.0, [option]),
        AvatarRoster("agent-7", "crafter", [_avatar()], "a1"),
    ]
    for value in values:
        assert json.loads(json.dumps(to_plain(value))) == to_plain(value)
    assert to_plain(values[5])["avatar_state"] == "dormant"


def test_the_seeds_defaults():
    spec = AvatarSpec()
    assert (spec.name, spec.appearance, spec.spawn_location, spec.starting_loadout, spec.skill_bonuses) == \
        (None, {}, "safe", "default", {})
    assert AvatarSpec().appearance is not spec.appearance  # a fresh dict each, not one shared
    assert Memory() == Memory([], [], [])
    assert AvatarRoster("agent-7", "crafter", [], None).max_avatars == 3
    assert [s.value for s in AvatarState] == ["unbound", "bound", "dormant", "suspended", "destroyed"]


def test_the_roster_finds_the_active_and_dormant_avatars_and_counts_the_living():
    bound, sleeping, dead = _avatar("a1"), _avatar("a2", AvatarState.DORMANT), _avatar("a3", AvatarState.DESTROYED)
    roster = AvatarRoster("agent-7", "crafter", [bound, sleeping, dead], "a1")
    assert roster.get_active() is bound
    assert roster.get_dormant() == [sleeping]
    assert roster.can_create_new()  # two alive of three: the dead one does not count
    roster.avatars.append(_avatar("a4", AvatarState.SUSPENDED))
    assert not roster.can_create_new()
    assert AvatarRoster("agent-7", "crafter", [bound], None).get_active() is None
    assert AvatarRoster("agent-7", "crafter", [bound], "gone").get_active() is None


def test_an_embodied_observation_puts_the_avatar_block_first():
    embodied = _embodied()
    assert isinstance(embodied, Observation)
    assert embodied.to_text() == ("=== AVATAR: Kestrel ===\nHealth: 80.0/100.0\nPosition: (1.0, 2.0)\n"
                                  "Facing: north | Stance: standing\n" + Observation(**_observation()).to_text())


def test_observations_are_json_ready_with_lists_for_tuples_and_values_for_enums():
    data = json.loads(json.dumps(_embodied().to_structured()))
    assert data["avatar"]["state"] == "bound"
    assert data["avatar"]["position"] == [1.0, 2.0] and data["velocity"] == [0.0, 1.0]
    assert data["location"]["coordinates"] == [32, 32]
    assert data["nearby_entities"][0]["type"] == "tree" and data["step"] == 7
    assert data == _embodied().to_structured()  # a JSON round trip changes nothing


def test_the_games_own_observations_are_json_ready():
    game = Game.new(1)
    for observation in (UserPerception(game.world).observe(game.opening()),
                        MinotaurPerception(game.world).observe(game.opening())):
        assert json.loads(json.dumps(observation.to_structured())) == observation.to_structured()


class _Adapter:
    """The least a game needs to be a GameAdapter."""

    game_description = "A test game."
    action_space = ActionSpace([ActionDef("noop", "Do nothing", [], [], "wait")])

    def observe(self):
        return Observation(**_observation())

    def act(self, action):
        return ActionResult(True, "Nothing happens", 0.0, [], False, self.observe())

    def reset(self):
        return self.observe()


class _AvatarAdapter(_Adapter):
    def list_avatars(self, agent_id): return []
    def create_avatar(self, agent_id, spec): return _avatar()
    def jack_in(self, agent_id, avatar_id): return JackInResult(True, _avatar(), "in", {}, None)
    def jack_out(self, agent_id, mode="dormant"): return JackOutResult(True, AvatarState.DORMANT, "out", {})
    def respawn(self, avatar_id, option): return JackInResult(True, _avatar(), "back", {}, None)
    def handle_death(self, avatar_id): return DeathEvent(avatar_id, "fall", None, (0.0,), "t", {}, 0.0, [])


class _Observer:
    def observe(self):
        return Observation(**_observation())


def test_the_adapter_protocols_check_by_shape():
    assert isinstance(_Adapter(), GameAdapter)
    assert not isinstance(_Adapter(), AvatarGameAdapter)  # no avatar methods
    assert isinstance(_AvatarAdapter(), GameAdapter) and isinstance(_AvatarAdapter(), AvatarGameAdapter)
    assert not isinstance(_Observer(), GameAdapter)


SPACE = ActionSpace([ActionDef("move", "Move in direction", [ParamDef("direction", "", options=["left", "right"])],
                               [], "movement")])


def test_the_system_message_is_the_seeds_layout():
    assert system_message("Crafter", "A 2D survival game.", SPACE) == (
        "You are an agent playing Crafter.\n\nA 2D survival game.\n\nAvailable actions:\n"
        "move [movement]: Move in direction\n  - direction (string): one of left, right\n\n"
        "Your goal is to survive and accomplish objectives. Respond with a JSON action.")


def test_a_learning_injection_is_its_own_paragraph_before_the_goal_line():
    plain = system_message("Crafter", "A 2D survival game.", SPACE)
    taught = system_message("Crafter", "A 2D survival game.", SPACE, "Lessons: drink before you explore.")
    head, goal = plain.rsplit("\n\n", 1)
    assert taught == f"{head}\n\nLessons: drink before you explore.\n\n{goal}"
    assert system_message("Crafter", "A 2D survival game.", SPACE, "  \n") == plain


def test_the_step_message_is_the_observation_then_the_question():
    observation = Observation(**_observation())
    text = observation.to_text()
    assert text.startswith("Step 7\n\nSTATUS:\n")
    headings = ["STATUS:", "INVENTORY:", "LOCATION:", "NEARBY:", "RECENT EVENTS:", "CURRENT GOALS:"]
    assert [text.index(f"\n\n{h}\n") for h in headings] == sorted(text.index(f"\n\n{h}\n") for h in headings)
    assert step_message(observation) == text + (
        '\n\nWhat action do you take? Respond with JSON: {"action": "name", "params": {}, "reasoning": "why"}')


REPLIES = [
    ('{"action": "move", "params": {"direction": "left"}, "reasoning": "wood"}',
     Action("move", {"direction": "left"}, "wood")),
    ('```json\n{"action": "noop", "params": {}}\n```', Action("noop", {}, None)),
    ('I will go left, since {this} is prose.\n{"action": "move", "params": {"direction": "left"}} Done.',
     Action("move", {"direction": "left"}, None)),
    ('<think>maybe {"action": "noop"}? no.</think>\n{"action": "move", "params": {"direction": "right"}}',
     Action("move", {"direction": "right"}, None)),
    ('{"action": "say", "params": {"text": "a } and a { inside", "to": {"id": "bob"}}, "reasoning": "hi"}',
     Action("say", {"text": "a } and a { inside", "to": {"id": "bob"}}, "hi")),
    ('{"name": "move", "parameters": {"direction": "left"}}', Action("move", {"direction": "left"}, None)),
    ('{"thought": {"plan": 1}} then {"action": "noop"}', Action("noop", {}, None)),
    ('{"action": "noop", "params": null, "reasoning": 3}', Action("noop", {}, "3")),
]


@pytest.mark.parametrize("reply, action", REPLIES)
def test_parse_action_reads_the_json_object_wherever_it_is(reply, action):
    assert parse_action(reply) == action


FAILURES = [
    ("", "the reply is empty"),
    ("   \n", "the reply is empty"),
    ("I think I should go north.", "the reply holds no JSON object"),
    ("{not json at all}", "the reply holds no JSON object"),
    ('{"direction": "left"}', 'has no "action" key'),
    ('{"action": "move", "params": ["left"]}', '"params" is ["left"], not an object'),
    ('{"action": 3, "params": {}}', '"action" is 3, not a non-empty string'),
    ('{"action": "", "params": {}}', '"action" is "", not a non-empty string'),
    ('<think>first I will consider {"action": "noop"', "ends inside a <think> block"),
]


@pytest.mark.parametrize("reply, why", FAILURES)
def test_parse_action_says_what_was_wrong_and_what_is_expected(reply, why):
    with pytest.raises(ActionParseError) as caught:
        parse_action(reply)
    message = str(caught.value)
    assert why in message and '{"action": "name", "params": {}, "reasoning": "why"}' in message
    assert "\n" not in message
    assert isinstance(caught.value, ValueError)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["action", "name", "params", "parameters", "reasoning", "x"]) | st.text(max_size=6), inner, max_size=4),
    max_leaves=20)
NESTING = st.builds(lambda opener, depth, key: f'{{"{key}": ' + opener * depth, st.sampled_from(["[", "{", '{"a":']),
                    st.integers(1, 6000), st.sampled_from(["action", "params", "reasoning"]))
LONG_NUMBERS = st.builds(lambda key, digits: f'{{"action": "noop", "{key}": {digits * "7"}}}',
                         st.sampled_from(["action", "params", "reasoning", "other"]), st.integers(4000, 9000))
REPLY_TEXTS = st.one_of(
    st.text(), st.text(alphabet='{}[]":,.-+eE0123456789 \\actionparmsu<>/thk'),
    st.builds(json.dumps, JSON_VALUES), st.builds(lambda v: json.dumps(v) * 3, JSON_VALUES),
    NESTING, LONG_NUMBERS, st.builds(lambda prose, v, more: f"{prose}{json.dumps(v)}{more}", st.text(max_size=20),
                                     JSON_VALUES, st.text(max_size=20)))


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(REPLY_TEXTS)
def test_parse_action_gives_an_action_or_a_refusal_for_any_text(reply):
    try:
        action = parse_action(reply)
    except ActionParseError as refused:
        assert "\n" not in str(refused) and len(str(refused)) < 400
    else:
        assert isinstance(action, Action) and isinstance(action.name, str) and isinstance(action.parameters, dict)
        assert action.reasoning is None or isinstance(action.reasoning, str)


@pytest.mark.parametrize("reply, why", [
    ('{"action": ' + "[" * 10_000, "nested too deeply"),
    ('{"action": "noop", "reasoning": ' + "9" * 5000 + "}", "too long"),
    ('{"action": ' + "9" * 5000 + "}", "too long"),
])
def test_parse_action_refuses_a_reply_too_deep_or_a_number_too_long_to_read(reply, why):
    with pytest.raises(ActionParseError, match=why):
        parse_action(reply)


def test_parse_action_refuses_an_answer_too_long_to_search_unread():
    # every '{' of such a reply is a failed decode whose error counts the lines before it: quadratic
    with pytest.raises(ActionParseError, match="100,000 characters long, more than the 20,000 read"):
        parse_action("{" * 100_000)
    thoughts = "<think>" + "hmm " * 25_000 + "</think>"  # long thoughts are skipped, not counted
    assert parse_action(thoughts + '{"action": "noop"}') == Action("noop", {}, None)
