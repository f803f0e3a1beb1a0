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
EMPTY_KEY = '""'  # how a message names a field sent with an empty name


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


# Pydantic's error types a message words itself, as "<field> must be ...".
_BOUNDS = {"greater_than_equal": ("ge", "at least"), "less_than_equal": ("le", "at most"),
           "greater_than": ("gt", "more than"), "less_than": ("lt", "less than")}
_WHOLE_NUMBER = {"int_parsing", "int_type", "int_from_float", "float_parsing", "float_type"}


def describe_errors(exc: ValidationError, model: type[BaseModel] | None = None) -> str:
    """Pydantic's errors as one line of plain words, each "<where> must be ... (got <what was sent>)":
    'steps must be 1 to 100 (got 101)'. ``model`` (the one validated) lends a field's two bounds."""
    errors = exc.errors(include_url=False)
    parts = []
    for err in errors[:PROBLEMS_SHOWN]:
        where = shorten(json.dumps(".".join(str(p) for p in err["loc"]))[1:-1])  # a key is sent text too
        kind, msg = err["type"], err["msg"].removeprefix("Value error, ")
        got = f" (got {excerpt(err.get('input'))})"
        if kind == "extra_forbidden":
            parts.append(f"{where or EMPTY_KEY} is not a known field")
        elif kind == "missing":
            parts.append(f"{where} is required")
        elif kind == "value_error":  # the schemas' own words, already a sentence
            parts.append(f"{where} {msg}" if where else msg)
        elif kind in _BOUNDS or kind in _WHOLE_NUMBER:
            span = _span(model, err["loc"])
            if kind in _BOUNDS:
                key, words = _BOUNDS[kind]
                limit = f"{words} {err['ctx'][key]}"
                parts.append(f"{where} must be {span or limit}{got}")
            else:
                parts.append(f"{where} must be a whole number{f' from {span}' if span else ''}{got}")
        elif kind == "literal_error":
            choices = err["ctx"]["expected"].replace("'", "")  # "'MOVE', 'HALT' or 'LOOK'": the words alone
            parts.append(f"{where} must be {choices}{got}")
        elif kind == "model_type":
            parts.append(f"{where or 'input'} must be a JSON object{got}")
        else:
            parts.append(f"{where or 'input'} {msg.replace('Input should be', 'must be')}{got}")
    if len(errors) > PROBLEMS_SHOWN:
        more = len(errors) - PROBLEMS_SHOWN
        parts.append(f"and {more:,} more problem{'s' if more != 1 else ''}")
    return "; ".join(parts)


def _span(model: type[BaseModel] | None, loc: tuple[int | str, ...]) -> str | None:
    """'1 to 100': a field's lowest and highest allowed values, when the schema gives both."""
    name = loc[0] if len(loc) == 1 else None
    field = model.model_fields.get(name) if model is not None and isinstance(name, str) else None
    if field is None:
        return None
    bounds = {key: getattr(rule, key) for rule in field.metadata for key in ("ge", "le") if hasattr(rule, key)}
    return f"{bounds['ge']} to {bounds['le']}" if len(bounds) == 2 else None


def parse(model: type[M], raw: Any) -> M:
    """Validate ``raw`` (JSON text, bytes, a dict or a model) as ``model``; BadInput otherwise."""
    if isinstance(raw, model):
        return raw
    if not isinstance(raw, (str, bytes, bytearray, dict)):
        raise BadInput(f"Expected a JSON object such as {_EXAMPLES[model]}, got {type(raw).__name__}.")
    if isinstance(raw, (str, bytes, bytearray)):
        raw = without_bom(raw)
    try:
        if isinstance(raw, dict):
            return model.model_validate(raw)
        command = model.model_validate_json(raw)  # one pass in pydantic-core, however deep or long the text
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        if first["type"] == "json_invalid":
            reason = first.get("ctx", {}).get("error", first["msg"])
            raise BadInput(f"Not valid JSON ({reason}). Send one object such as {_EXAMPLES[model]}.") from None
        if first["type"] == "model_type" and not first["loc"]:
            raise BadInput(f"Expected a JSON object such as {_EXAMPLES[model]}, "
                           f"got {type(first['input']).__name__}.") from None
        raise BadInput(f"Invalid {model.__name__}: {describe_errors(exc, model)}.") from None
    if raw.count(":" if isinstance(raw, str) else b":") != keys_set(command) and \
            (twice := duplicate_key(raw)) is not None:  # valid, so small: a second read costs little
        raise BadInput(f"Invalid {model.__name__}: the field {excerpt(twice)} is given twice; send each field once "
                       f"(which of the two was meant cannot be known).")
    return command


BOM = "\ufeff"  # a byte-order mark: some Windows tools begin a line of text with one


def without_bom(raw: str | bytes | bytearray) -> str | bytes | bytearray:
    """``raw`` without a leading UTF-8 byte-order mark, which says nothing about the command."""
    if isinstance(raw, str):
        return raw.removeprefix(BOM)
    return raw[3:] if raw[:3] == BOM.encode() else raw


def keys_set(model: BaseModel) -> int:
    """How many keys gave ``model`` its values: its fields set, a nested model's own counted too. Every
    key of the text is followed by a colon and (extra="forbid") sets a field of its own, so a text with
    no more colons than that gives no key twice, and the second read (duplicate_key, a third of a
    pipe's line) is spared; a colon inside a string only sends the line to that read."""
    return sum(1 + (keys_set(value) if isinstance(value := getattr(model, name), BaseModel) else 0)
               for name in model.model_fields_set)


def keys_in(value: Any) -> int:
    """How many keys the objects of ``value`` (parsed JSON) hold, nested ones too: as ``keys_set`` counts a
    model's, for a text read into plain data (the pipe's external mode), where a key given twice is kept
    once, so a text with no more colons than this gives no key twice."""
    if isinstance(value, dict):
        return sum(1 + keys_in(item) for item in value.values())
    if isinstance(value, list):
        return sum(keys_in(item) for item in value)
    return 0


def duplicate_key(raw: str | bytes | bytearray) -> str | None:
    """A field name an object of ``raw`` (valid JSON) gives twice, if one does: pydantic-core keeps the
    last value silently, as most JSON readers do, so the standard library's reader is asked."""
    seen_twice: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        names = [name for name, _ in items]
        seen_twice.extend(name for i, name in enumerate(names) if name in names[:i])
        return dict(items)

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):  # not for this reader: the model's own check has spoken
        return None
    return seen_twice[0] if seen_twice else None
