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
    if not isinstance(raw, (str, bytes, bytearray, dict)):
        raise BadInput(f"Expected a JSON object such as {_EXAMPLES[model]}, got {type(raw).__name__}.")
    try:
        if isinstance(raw, dict):
            return model.model_validate(raw)
        return model.model_validate_json(raw)  # one pass in pydantic-core, however deep or long the text
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        if first["type"] == "json_invalid":
            reason = first.get("ctx", {}).get("error", first["msg"])
            raise BadInput(f"Not valid JSON ({reason}). Send one object such as {_EXAMPLES[model]}.") from None
        if first["type"] == "model_type" and not first["loc"]:
            raise BadInput(f"Expected a JSON object such as {_EXAMPLES[model]}, "
                           f"got {type(first['input']).__name__}.") from None
        raise BadInput(f"Invalid {model.__name__}: {describe_errors(exc)}.") from None
