"""One action vocabulary: the JSON schema sent to the models allows exactly the actions the
game accepts (engine.actions, the one check of an agent's action), and the WSAP action
spaces and the typed-command parser's tables cover exactly the schemas' names.

The schema's instances are generated from the schema itself, branch by branch, by a small
generator that knows every keyword the schema uses (a test fails if it grows another)."""

from __future__ import annotations

import itertools
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labyrinth.agents.llm.providers.base import SCHEMAS
from labyrinth.engine.commands import BadInput
from labyrinth.engine.items import ItemName
from labyrinth.engine.schemas import (
    MINOTAUR_PARAMS,
    USER_PARAMS,
    Command,
    Direction,
    MinotaurAction,
    MinotaurDecision,
    UserInput,
)
from labyrinth.engine.wsap import Action
from labyrinth.engine.wsap.action_schema import action_schema
from labyrinth.engine.wsap.actions import MINOTAUR_ACTIONS, USER_ACTIONS, to_minotaur_decision, to_user_input
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.tui.command_parser import DIRECTIONS, SPEEDS, TARGETS, VERBS, parse_command

TO_ENGINE = {"user": to_user_input, "minotaur": to_minotaur_decision}
# Every keyword the schema may use: those Gemini's response_json_schema reads (no "const", no "$ref"),
# which Mistral's strict json_schema and Ollama's format read too.
KEYWORDS = {"anyOf", "type", "enum", "minimum", "maximum", "properties", "required", "additionalProperties",
            "description"}


def schema_of(role: str) -> dict:
    """The JSON schema of the role's action space (the models are sent its lowercase names)."""
    return action_schema(ROLES[role].actions)


def keywords(schema: Any) -> set[str]:
    if isinstance(schema, list):
        return set().union(*map(keywords, schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    found = set(schema) | keywords([v for k, v in schema.items() if k not in ("properties", "enum")])
    return found | keywords(list(schema.get("properties", {}).values()))


def instances(schema: dict) -> st.SearchStrategy:
    """Any JSON value ``schema`` allows, for the keywords in KEYWORDS."""
    if "anyOf" in schema:
        return st.one_of([instances(branch) for branch in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema["type"]
    if kind == "integer":
        return st.integers(schema.get("minimum", -10**6), schema.get("maximum", 10**6))
    if kind == "string":
        return st.text(max_size=30)
    if kind == "null":
        return st.none()
    assert kind == "object" and schema.get("additionalProperties") is False, schema
    required, properties = set(schema.get("required", ())), schema["properties"]
    fields = {name: instances(sub) if name in required else st.one_of(st.just(...), instances(sub))
              for name, sub in properties.items()}
    return st.fixed_dictionaries(fields).map(lambda d: {k: v for k, v in d.items() if v is not ...})


def allows(schema: dict, value: Any) -> bool:
    """Whether ``value`` is an instance of ``schema`` (the keywords in KEYWORDS; true is not 1)."""
    if "anyOf" in schema and not any(allows(branch, value) for branch in schema["anyOf"]):
        return False
    if "enum" in schema and not any(value == e and type(value) is type(e) for e in schema["enum"]):
        return False
    kind = schema.get("type")
    if kind is not None and not {"integer": type(value) is int, "string": isinstance(value, str),
                                 "null": value is None, "object": isinstance(value, dict)}[kind]:
        return False
    if kind == "integer" and not schema.get("minimum", value) <= value <= schema.get("maximum", value):
        return False
    if kind == "object":
        properties = schema.get("properties", {})
        if set(schema.get("required", ())) - set(value):
            return False
        if schema.get("additionalProperties") is False and set(value) - set(properties):
            return False
        return all(allows(properties[k], v) for k, v in value.items() if k in properties)
    return True


def accepts(role: str, reply: dict) -> bool:
    """Whether the game takes the action (engine.actions: the one check on the way in)."""
    try:
        TO_ENGINE[role](Action(reply["action"], reply["params"], reply["reasoning"]))
    except BadInput:
        return False
    return True


@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_the_schema_uses_only_keywords_every_provider_reads(role):
    assert keywords(schema_of(role)) <= KEYWORDS
    assert SCHEMAS[role].json == schema_of(role)


@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_one_branch_per_action_with_only_its_params(role):
    table = USER_PARAMS if role == "user" else MINOTAUR_PARAMS
    branches = schema_of(role)["anyOf"]
    assert [b["properties"]["action"]["enum"] for b in branches] == [[name.lower()] for name in table]
    for branch, (name, params) in zip(branches, table.items(), strict=True):
        assert branch["additionalProperties"] is False and branch["required"] == ["action", "params", "reasoning"]
        shown = branch["properties"]["params"]
        assert list(shown["properties"]) == [p.field for p in params] and shown["additionalProperties"] is False
        assert shown.get("required", []) == [p.field for p in params if p.required]


@given(st.data())
@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_every_action_the_schema_allows_the_game_accepts(role, data):
    schema = schema_of(role)
    branch = data.draw(st.sampled_from(schema["anyOf"]))  # each branch drawn on its own
    reply = data.draw(instances(branch))
    assert allows(schema, reply)
    assert accepts(role, reply), reply


# Candidates in the schemas' canonical spelling: valid, out of range, of the wrong kind, foreign to the action.
VALUES = {
    "direction": [*get_args(Direction), "SIDEWAYS", None, 3],
    "steps": [1, 7, 100, 0, 101, -3, None, True, "SIDEWAYS"],
    "speed": [1, 2, 0, 3, None, True],
    "target": [*get_args(ItemName), "SWORD", None, 7],
    "target_coords": [{"x": 200, "y": 200, "z": 100}, {"x": -1, "y": 5, "z": 0}, {"x": 1, "y": 2},
                      {"x": 1, "y": 2, "z": 3, "w": 4}, {"x": "east", "y": 1, "z": 1}, None, "here"],
    "colour": ["red"],
}
NAMES = {"user": [*map(str.lower, USER_PARAMS), "fly", "chase"],
         "minotaur": [*map(str.lower, MINOTAUR_PARAMS), "dance", "look"]}


@given(st.data())
@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_the_schema_allows_exactly_what_the_game_accepts(role, data):
    name = data.draw(st.sampled_from(NAMES[role]))
    fields = data.draw(st.lists(st.sampled_from(sorted(VALUES)), unique=True, max_size=4))
    params = {field: data.draw(st.sampled_from(VALUES[field])) for field in fields}
    reply = {"action": name, "params": params, "reasoning": "because"}
    assert allows(schema_of(role), reply) == accepts(role, reply), reply


@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_every_valid_combination_of_the_game_is_allowed_by_the_schema(role):
    table = USER_PARAMS if role == "user" else MINOTAUR_PARAMS
    accepted = 0
    for name, params in table.items():
        options = [[...] + VALUES[p.field] for p in params]
        for values in itertools.product(*options):
            reply = {"action": name.lower(),
                     "params": {p.field: v for p, v in zip(params, values, strict=True) if v is not ...},
                     "reasoning": ""}
            assert allows(schema_of(role), reply) == accepts(role, reply), reply
            accepted += accepts(role, reply)
    assert accepted > (100 if role == "user" else 1)  # the sample holds many actions the game takes


@pytest.mark.parametrize("role, reply", [
    ("minotaur", {"action": "chase", "params": {"target_coords": {"x": 1, "y": 2, "z": 3}}, "reasoning": "go"}),
    ("user", {"action": "look", "params": {"direction": "NORTH"}, "reasoning": "see"}),
    ("user", {"action": "halt", "params": {"speed": 1}, "reasoning": "rest"}),
    ("user", {"action": "move", "params": {"steps": 3}, "reasoning": "no direction"}),
    ("minotaur", {"action": "pathfind", "params": {}, "reasoning": "nowhere"}),
])
def test_a_parameter_foreign_to_the_action_or_a_missing_one_is_refused_by_the_schema_and_the_game(role, reply):
    assert not allows(schema_of(role), reply)
    assert not accepts(role, reply)


def test_the_one_definition_names_the_schemas_enums_and_fields():
    assert set(USER_PARAMS) == set(get_args(Command)) and set(MINOTAUR_PARAMS) == set(get_args(MinotaurAction))
    assert {p.field for ps in USER_PARAMS.values() for p in ps} <= set(UserInput.model_fields) - {"command"}
    assert {p.field for ps in MINOTAUR_PARAMS.values() for p in ps} <= set(MinotaurDecision.model_fields) - {"action"}
    assert USER_ACTIONS.action_names() == [name.lower() for name in USER_PARAMS]
    assert MINOTAUR_ACTIONS.action_names() == [name.lower() for name in MINOTAUR_PARAMS]
    for space, table in ((USER_ACTIONS, USER_PARAMS), (MINOTAUR_ACTIONS, MINOTAUR_PARAMS)):
        for action in space.actions:
            assert [(p.name, not p.optional) for p in action.parameters] == \
                [(p.field, p.required) for p in table[action.name.upper()]]


def test_the_parsers_tables_cover_every_command_direction_target_and_speed():
    assert {command for command, _ in VERBS.values()} == set(get_args(Command))
    assert set(DIRECTIONS.values()) == set(get_args(Direction))
    assert set(TARGETS.values()) == set(get_args(ItemName))
    assert set(SPEEDS.values()) == set(get_args(UserInput.model_fields["speed"].annotation))
    for command in get_args(Command):
        needs = "north" if any(p.required for p in USER_PARAMS[command]) else ""
        assert parse_command(f"{command.lower()} {needs}").command == command
    for word, direction in DIRECTIONS.items():
        assert parse_command(f"move {word}").direction == direction
    for word, item in TARGETS.items():
        assert parse_command(f"grab {word}").target == item
