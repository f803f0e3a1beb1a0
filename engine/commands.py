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


EXCERPT_CHARS = 40  # of a value or a field name echoed in a message: enough to recognise it, never a giant one
PROBLEMS_SHOWN = 5  # problems listed in one message; the rest are counted


class BadInput(ValueError):
    """Input that is not a valid command; ``str()`` is the message for the sender."""


def excerpt(value: object, limit: int | None = EXCERPT_CHARS) -> str:
    """``value`` as JSON on one printable line (escapes and bidi controls written as \\u...), cut to
    ``limit`` characters with its full length said: what was sent, recognisable but never echoed in full."""
    try:
        shown = json.dumps(value, default=str)
    except RecursionError:
        return "a value nested too deeply to show"
    except ValueError:  # Python writes an integer of at most 4,300 digits
        return "a number too long to show"
    return shown if limit is None else shorten(shown, limit)


def shorten(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` whole if short, else its start and its full length: sent text is recognised, never echoed."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def describe_errors(exc: ValidationError) -> str:
    """Pydantic's errors as one line: where, what is wrong, what was sent (in short)."""
    errors = exc.errors(include_url=False)
    parts = []
    for err in errors[:PROBLEMS_SHOWN]:
        where = shorten(json.dumps(".".join(str(p) for p in err["loc"]))[1:-1]) or "input"  # a key is sent text too
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            parts.append(f"{where}: unknown field")
        elif err["type"] in ("missing", "model_type", "value_error"):
            parts.append(f"{where}: {msg}")
        else:
            parts.append(f"{where}: {msg} (got {excerpt(err.get('input'))})")
    if len(errors) > PROBLEMS_SHOWN:
        parts.append(f"and {len(errors) - PROBLEMS_SHOWN:,} more problems")
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
