"""Each role's actions as WSAP parameters and as the JSON schema sent to the models,
derived from the schemas' one definition (``USER_PARAMS`` / ``MINOTAUR_PARAMS`` and the
fields of UserInput / MinotaurDecision), so the three can never disagree.

The JSON schema has one branch per action (``anyOf`` of objects), each with a one-value
``enum`` for the action and only that action's parameters, ``additionalProperties: false``
and ``required`` where the action needs it: it allows what ``engine.actions`` accepts, in
canonical spelling. It keeps to what every provider reads: Gemini's ``response_json_schema``
(``anyOf``, ``enum``, ``minimum``/``maximum``, ``additionalProperties``, ``required``; no
``const``), Mistral's strict ``json_schema`` and Ollama's ``format``; references are inlined.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..schemas import MINOTAUR_PARAMS, USER_PARAMS, MinotaurDecision, Param, UserInput
from .types import ParamDef

REASONING = {"type": "string", "description": "why, in a sentence"}
_ANNOTATIONS = ("title", "default", "description")  # pydantic's words for people, not constraints

ROLES: dict[str, tuple[type[BaseModel], str, dict[str, tuple[Param, ...]]]] = {
    "user": (UserInput, "command", USER_PARAMS),
    "minotaur": (MinotaurDecision, "action", MINOTAUR_PARAMS),
}


def field_schema(model: type[BaseModel], field: str) -> tuple[dict[str, Any], bool]:
    """The JSON schema of one field of ``model`` (references inlined, no null), and whether null is accepted."""
    whole = model.model_json_schema()
    definitions = whole.get("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return inline(definitions[node["$ref"].rsplit("/", 1)[-1]])
        return {key: inline(value) if key != "properties" else {name: inline(sub) for name, sub in value.items()}
                for key, value in node.items() if key not in _ANNOTATIONS}

    node = inline(whole["properties"][field])
    options = node.pop("anyOf", None)
    if options is None:
        return node, False
    kept = [option for option in options if option != {"type": "null"}]
    return {**node, **kept[0]} if len(kept) == 1 else {**node, "anyOf": kept}, len(kept) < len(options)


def param_defs(role: str, action: str) -> list[ParamDef]:
    """The WSAP parameters of one action: type and allowed values from the model's field."""
    model, _, table = ROLES[role]
    defs = []
    for param in table[action]:
        schema, _ = field_schema(model, param.field)
        defs.append(ParamDef(param.field, schema.get("type", "object"), param.meaning, schema.get("enum"),
                             optional=not param.required, default=param.default))
    return defs


def params_schema(role: str, action: str) -> dict[str, Any]:
    """The JSON schema of one action's params: only its parameters, null where the engine takes it."""
    model, _, table = ROLES[role]
    properties, required = {}, []
    for param in table[action]:
        schema, nullable = field_schema(model, param.field)
        if param.required:
            required.append(param.field)
        elif nullable:
            schema = {"anyOf": [schema, {"type": "null"}]}
        properties[param.field] = {**schema, "description": param.meaning}
    return {"type": "object", "properties": properties, **({"required": required} if required else {}),
            "additionalProperties": False}


def action_schema(role: str) -> dict[str, Any]:
    """The JSON schema of the role's WSAP action: one branch per action."""
    _, _, table = ROLES[role]
    branches = [{"type": "object",
                 "properties": {"action": {"type": "string", "enum": [name]}, "params": params_schema(role, name),
                                "reasoning": REASONING},
                 "required": ["action", "params", "reasoning"], "additionalProperties": False}
                for name in table]
    return {"anyOf": branches}
