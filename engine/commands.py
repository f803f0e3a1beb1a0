"""Turn raw input (a JSON line, a dict, a model) into a validated command, or a
clear message that names the problem and what is allowed."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .schemas import MinotaurDecision, UserInput

M = TypeVar("M", bound=BaseModel)

_EXAMPLES = {
    UserInput: '{"command": "MOVE", "direction": "NORTH", "steps": 5, "speed": 1}',
    MinotaurDecision: '{"action": "CHASE", "target_coords": null}',
}


class BadInput(ValueError):
    """Input that is not a valid command; ``str()`` is the message for the sender."""


def describe_errors(exc: ValidationError) -> str:
    """Pydantic's errors as one line: where, what is wrong, what was sent."""
    parts = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"]) or "input"
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            parts.append(f"{where}: unknown field")
        elif err["type"] in ("missing", "model_type", "value_error"):
            parts.append(f"{where}: {msg}")
        else:
            parts.append(f"{where}: {msg} (got {json.dumps(err.get('input'), default=str)})")
    return "; ".join(parts)


def parse(model: type[M], raw: Any) -> M:
    """Validate ``raw`` (JSON text, bytes, a dict or a model) as ``model``; BadInput otherwise."""
    if isinstance(raw, model):
        return raw
    if isinstance(raw, (str, bytes, bytearray)):
        try:
            return model.model_validate_json(raw)  # one pass in pydantic-core: the fast path for JSON lines
        except ValidationError as exc:
            if exc.errors()[0]["type"] not in ("json_invalid", "json_type", "model_type"):
                raise BadInput(f"Invalid {model.__name__}: {describe_errors(exc)}.") from None
        try:
            raw = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise BadInput(f"Not valid JSON ({exc}). Send one object such as {_EXAMPLES[model]}.") from None
    if not isinstance(raw, dict):
        raise BadInput(f"Expected a JSON object such as {_EXAMPLES[model]}, got {type(raw).__name__}.")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise BadInput(f"Invalid {model.__name__}: {describe_errors(exc)}.") from None
