"""The JSON schema of a WSAP action, sent to the models, for any game's action space;
and each role's actions as WSAP parameters, derived from the schemas' one definition
(``USER_PARAMS`` / ``MINOTAUR_PARAMS`` and the fields of UserInput / MinotaurDecision),
so the action spaces, the schema and the check of an action can never disagree.

The JSON schema has one branch per action (``anyOf`` of objects), each with a one-value
``enum`` for the action and only that action's parameters, ``additionalProperties: false``
and ``required`` where the action needs it: for our game it allows what ``engine.wsap.actions``
accepts, in canonical spelling (a parameter's exact schema travels in its ParamDef). It
keeps to what every provider reads: Gemini's ``response_json_schema`` (``anyOf``, ``enum``,
``minimum``/``maximum``, ``additionalProperties``, ``required``; no ``const``), Mistral's
strict ``json_schema`` and Ollama's ``format``; references are inlined.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel

from ..schemas import MINOTAUR_PARAMS, USER_PARAMS, MinotaurDecision, Param, UserInput
from .types import ActionSpace, ParamDef

REASONING = {"type": "string", "description": "why, in a sentence"}
_ANNOTATIONS = ("title", "default", "description")  # pydantic's words for people, not constraints

ROLES: dict[str, tuple[type[BaseModel], str, dict[str, tuple[Param, ...]]]] = {
    "user": (UserInput, "command", USER_PARAMS),
    "minotaur": (MinotaurDecision, "action", MINOTAUR_PARAMS),
}


@cache
def _model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s whole JSON schema, generated once (only read here): pydantic does not keep it, and the
    action spaces ask for it once a parameter at every start (start-up)."""
    return model.model_json_schema()


def field_schema(model: type[BaseModel], field: str) -> tuple[dict[str, Any], bool]:
    """The JSON schema of one field of ``model`` (references inlined, no null), and whether null is accepted."""
    whole = _model_schema(model)
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
    """The WSAP parameters of one of the role's actions: type, allowed values and exact JSON
    schema from the model's field (null allowed where the engine takes it for "left out")."""
    model, _, table = ROLES[role]
    defs = []
    for param in table[action]:
        schema, nullable = field_schema(model, param.field)
        exact = {"anyOf": [schema, {"type": "null"}]} if nullable and not param.required else schema
        defs.append(ParamDef(param.field, param.meaning, schema.get("type", "object"), options=schema.get("enum"),
                             optional=not param.required, default=param.default, json_schema=exact))
    return defs


def params_schema(parameters: list[ParamDef]) -> dict[str, Any]:
    """The JSON schema of one action's params: only its parameters."""
    required = [p.name for p in parameters if not p.optional]
    return {"type": "object", "properties": {p.name: p.value_schema() for p in parameters},
            **({"required": required} if required else {}), "additionalProperties": False}


def action_schema(space: ActionSpace) -> dict[str, Any]:
    """The JSON schema of an action of ``space`` as the seed's message format writes it
    (``{"action", "params", "reasoning"}``): one branch per action."""
    branches = [{"type": "object",
                 "properties": {"action": {"type": "string", "enum": [a.name]},
                                "params": params_schema(a.parameters), "reasoning": REASONING},
                 "required": ["action", "params", "reasoning"], "additionalProperties": False}
                for a in space.actions]
    return {"anyOf": branches}
