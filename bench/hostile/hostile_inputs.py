"""Hostile inputs for bench/hostile/hostile.py, every one drawn from a seeded generator so
a run can be repeated exactly: typed text, model replies, `gsm` lines, WSAP
actions and the contents of files on disk.

Each generator yields ``(label, value)``: the label says in a few words what kind
of input it is, for the report of what broke.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from typing import Any

# Characters Python's str.isdigit() accepts but int() refuses or reads differently:
# superscripts, circled numbers, other scripts' digits, mathematical digits.
UNICODE_DIGITS = "²³¹①②⑨⓪❶٣۴߅३৯੭૬୫௮౪೩൧๓໔༣၅႗០᠔᥆᧓᪃᭓᮱᱃᱕꘤꣕꤁꧓꧳꩓꯹０𝟙𝟡𝟵🯷"
HUGE_DIGITS = 5000  # more than int() reads from text (4,300 digits) and than a line of JSON should hold
DEEP = 100_000  # nesting levels: far beyond the recursion limit
VERBS = ("move north", "halt", "m n", "run east", "walk w", "grab red", "use lantern", "look", "h", "up")
DIRECTIONS = ("NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP")
WRONG_VALUES: tuple[Any, ...] = (None, [], {}, True, -1, 0, "", "x" * 300, [[[[]]]], {"a": {"b": {}}}, 3.5)
# JSON tokens that json.dumps will not write but a hostile file or line can hold.
RAW_NUMBERS = ("1e999", "-1e999", "9" * HUGE_DIGITS, "NaN", "Infinity", "-0", "1e-999", "123456789" * 40)


def rng_for(seed: int, purpose: str) -> random.Random:
    """One generator per way in, so adding inputs to one leaves the others as they were."""
    return random.Random(f"{seed}:hostile:{purpose}")


def random_text(rng: random.Random, longest: int = 60) -> str:
    """Any unicode text: control characters, bidi overrides, emoji, other planes (no lone surrogates)."""
    pools = [(0x00, 0x7F), (0x80, 0x2FF), (0x200B, 0x206F), (0x2460, 0x24FF), (0x0600, 0x06FF),
             (0x1F300, 0x1FAFF), (0x1D7CE, 0x1D7FF), (0xE000, 0xF8FF), (0x10000, 0x10FFFF)]
    out = []
    for _ in range(rng.randint(0, longest)):
        low, high = rng.choice(pools)
        code = rng.randint(low, high)
        out.append(chr(code if not 0xD800 <= code <= 0xDFFF else 0xFFFD))
    return "".join(out)


def typed_commands(seed: int, count: int) -> Iterator[tuple[str, str]]:
    """Lines typed at the TUI's command prompt."""
    rng = rng_for(seed, "typed")
    fixed = [("unicode digit", f"halt {d}") for d in UNICODE_DIGITS[:8]]
    fixed += [("unicode digit", f"move north {d}") for d in UNICODE_DIGITS[8:16]]
    fixed += [("huge count", f"halt {'9' * HUGE_DIGITS}"), ("huge count", f"move north {'1' * 4301}"),
              ("huge count", f"m n {'7' * 20000} run"), ("deep JSON", "{" + '"command":{' * 2000),
              ("deep JSON", "{" + "[" * DEEP),
              ("huge JSON number", '{"command":"HALT","steps":' + "9" * HUGE_DIGITS + "}"),
              ("JSON 1e999", '{"command":"HALT","steps":1e999}'), ("JSON NaN", '{"command":"MOVE","steps":NaN}'),
              ("blank", ""), ("blank", " \t "), ("control", "\x1b[2J\x1b]0;pwned\x07halt"), ("bidi", "halt \u202e5")]
    yield from fixed
    for _ in range(max(0, count - len(fixed))):
        kind = rng.randrange(4)
        if kind == 0:
            yield "random text", random_text(rng)
        elif kind == 1:
            yield "verb + random", f"{rng.choice(VERBS)} {random_text(rng, 8)}"
        elif kind == 2:
            digits = "".join(rng.choice(UNICODE_DIGITS + "0123456789") for _ in range(rng.randint(1, 6)))
            yield "verb + mixed digits", f"{rng.choice(VERBS)} {digits}"
        else:
            yield "JSON-looking", "{" + random_text(rng, 30)


def model_replies(seed: int, count: int) -> Iterator[tuple[str, str]]:
    """What a model might answer a WSAP step with."""
    rng = rng_for(seed, "replies")
    fixed = [("deep JSON", '{"action": "MOVE", "params": ' + "[" * DEEP), ("deep JSON", "{" * DEEP),
             ("deep JSON", '{"action":' + '{"a":' * 5000 + "1" + "}" * 5000 + "}"),
             ("huge number", '{"action": "MOVE", "params": {"steps": ' + "9" * HUGE_DIGITS + "}}"),
             ("huge number", '{"action": ' + "9" * HUGE_DIGITS + "}"),
             ("1e999", '{"action": "MOVE", "params": {"steps": 1e999, "direction": "NORTH"}}'),
             ("NaN", '{"action": "HALT", "params": {"steps": NaN}}'),
             ("think", "<think>" + "{" * 1000), ("think", "</think></think>{}"),
             ("empty", ""), ("fences", "```json\n{\"action\": \"LOOK\"}\n```" * 3),
             ("wrong types", '{"action": ["MOVE"], "params": "north"}'),
             ("wrong types", '{"name": null, "parameters": 5, "reasoning": {"a": 1}}'),
             ("giant", '{"action": "LOOK", "reasoning": "' + "x" * 2_000_000 + '"}')]
    yield from fixed
    for _ in range(max(0, count - len(fixed))):
        params = {rng.choice(["direction", "steps", "speed", "target", random_text(rng, 5)]): _hostile_value(rng)}
        reply = {"action": rng.choice([*DIRECTIONS, "MOVE", "HALT", "LOOK", "GRAB", "USE", "PATHFIND", "CHASE",
                                       random_text(rng, 10)]), "params": params}
        text = _dumps(reply)
        cut = rng.randrange(4)
        if cut == 0:
            text = text[:rng.randrange(len(text) + 1)]
        elif cut == 1:
            text = random_text(rng, 40) + text + random_text(rng, 40)
        yield "mutated reply", text


def wsap_actions(seed: int, count: int) -> Iterator[tuple[str, tuple[str, Any, Any]]]:
    """(name, params, reasoning) of a WSAP Action as a caller builds it, types unchecked."""
    rng = rng_for(seed, "wsap")
    names = ["MOVE", "HALT", "LOOK", "GRAB", "USE", "PATHFIND", "JUMP", "WAIT", "CHASE", "move", "", " ", "\x00"]
    for _ in range(count):
        params: Any = {rng.choice(["direction", "steps", "speed", "target", "target_coords", "x"]):
                       _python_hostile(rng) for _ in range(rng.randint(0, 3))}
        if rng.random() < 0.1:
            params = rng.choice(WRONG_VALUES)
        name: Any = rng.choice(names) if rng.random() < 0.9 else rng.choice(WRONG_VALUES)
        yield "action", (name, params, rng.choice([None, "why", 5, random_text(rng, 20)]))


def _python_hostile(rng: random.Random) -> Any:
    return rng.choice([float("inf"), float("-inf"), float("nan"), 10 ** 5000, -(10 ** 20), 0, 1, 100, 101, 2, 1.5,
                       True, None, "NORTH", "north", "RED STONE", "x" * 100_000, [1, 2, 3], [1e308, -1e308, 0],
                       [10 ** 400, 0, 0], {"x": 1}, random_text(rng, 10), b"bytes", object()])


def _hostile_value(rng: random.Random) -> Any:
    return rng.choice([*RAW_NUMBERS, *WRONG_VALUES, "NORTH", 3, [0, 0, 0]])


def _dumps(value: Any) -> str:
    """JSON, with the RAW_NUMBERS strings written as bare tokens (what json.dumps refuses to write)."""
    text = json.dumps(value, ensure_ascii=False)
    for raw in RAW_NUMBERS:
        text = text.replace(json.dumps(raw), raw)
    return text


def gsm_lines(seed: int, count: int, mode: str, giant: int) -> Iterator[tuple[str, bytes]]:
    """Lines into `labyrinth gsm` in ``mode`` (plain, minotaur or external); none is a valid move."""
    rng = rng_for(seed, f"gsm:{mode}")
    valid = {"plain": {"command": "HALT", "steps": 1}, "minotaur": {"action": "WAIT"},
             "external": {"user": {"command": "HALT", "steps": 1}, "minotaur": {"action": "WAIT"}}}[mode]
    line = _dumps(valid).encode()
    fixed: list[tuple[str, bytes]] = [
        ("blank", b""), ("blank", b"   "), ("blank", b"\t\r"),
        ("broken JSON", line[:-1]), ("broken JSON", b"{"), ("broken JSON", b'{"command": "HALT",}'),
        ("invalid UTF-8", b'{"command": "\xff\xfe"}'), ("NUL", b"\x00" * 10),
        ("deep nesting", b"[" * DEEP), ("deep nesting", b'{"a":' * 20000 + b"1" + b"}" * 20000),
        ("huge number", b'{"command": "HALT", "steps": ' + b"9" * HUGE_DIGITS + b"}"),
        ("huge number", b'{"action": "PATHFIND", "target_coords": [1e999, 0, 0]}'),
        ("huge number", b'{"action": "PATHFIND", "target_coords": [' + b"9" * HUGE_DIGITS + b", 0, 0]}"),
        ("wrong types", b"null"), ("wrong types", b"[]"), ("wrong types", b'"HALT"'), ("wrong types", b"5"),
        ("wrong types", b'{"user": 1, "minotaur": 2}'), ("wrong types", b'{"command": ["MOVE"]}'),
        ("giant line", b'{"command": "HALT", "x": "' + b"x" * giant + b'"}'), ("giant line", b"y" * giant),
        ("giant value", b'{"command": "' + b"x" * giant + b'"}'),
        ("giant value", b'{"action": "' + b"x" * giant + b'"}'),
        ("giant value", b'{"user": {"command": "' + b"x" * giant + b'"}, "minotaur": {"action": "WAIT"}}')]
    yield from fixed
    for _ in range(max(0, count - len(fixed))):
        data = json.loads(line)
        target = data["user"] if mode == "external" and rng.random() < 0.5 else data
        if mode == "external" and target is data:
            target = data["minotaur"]
        target[rng.choice(["command", "action", "steps", "direction", "target_coords", "speed", "extra"])] = \
            _hostile_value(rng)
        text = _dumps(data).encode("utf-8", "surrogatepass")
        if rng.random() < 0.2:
            text = text[:rng.randrange(1, len(text))]
        yield "mutated line", text


def mutated_documents(seed: int, purpose: str, document: Any, count: int) -> Iterator[tuple[str, bytes]]:
    """``document`` (a valid file's JSON) with one leaf or branch made hostile per copy."""
    rng = rng_for(seed, f"file:{purpose}")
    leaves = list(_paths(document))
    for _ in range(count):
        copy = json.loads(json.dumps(document))
        path = rng.choice(leaves)
        value = rng.choice([*RAW_NUMBERS, *WRONG_VALUES, "../../../../etc/passwd", "\x1b[31mred\u202e"])
        _set(copy, path, value)
        yield f"{'.'.join(map(str, path[-2:])) or 'root'} = {str(value)[:12]}", _dumps(copy).encode()


def poisoned_evidence(log: dict[str, Any]) -> Iterator[tuple[str, bytes]]:
    """The experience log with every number in every reflection's evidence (positions, times,
    counts) made hostile: what passes a loose validation and then breaks the game that reads it."""
    for raw in ("1e999", "-1e999", "NaN", "9" * HUGE_DIGITS):
        copy = json.loads(json.dumps(log))
        for reflection in copy.get("reflections", []):
            reflection["evidence"] = _numbers_to(reflection.get("evidence"), raw)
        yield f"evidence numbers = {raw[:8]}", _dumps(copy).encode()


def _numbers_to(value: Any, raw: str) -> Any:
    if isinstance(value, dict):
        return {key: _numbers_to(item, raw) for key, item in value.items()}
    if isinstance(value, list):
        return [_numbers_to(item, raw) for item in value]
    return raw if isinstance(value, int | float) and not isinstance(value, bool) else value


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _paths(item, (*path, index))


def _set(document: Any, path: tuple, value: Any) -> None:
    if not path:
        return
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value


def broken_contents(valid: bytes) -> list[tuple[str, bytes]]:
    """The same few broken files for every kind: cut short, empty, not UTF-8, nested too deep, huge numbers."""
    return [("cut short", valid[: len(valid) // 2]), ("empty", b""), ("not UTF-8", b"\xff\xfe" + valid[2:]),
            ("deep nesting", b"[" * DEEP), ("huge number", b'{"version": ' + b"9" * HUGE_DIGITS + b"}"),
            ("null", b"null"), ("array", b"[]"), ("1e999", b'{"version": 1e999}')]


if __name__ == "__main__":  # a look at what one seed gives
    for label, text in typed_commands(int(sys.argv[1]) if len(sys.argv) > 1 else 1, 40):
        print(label, repr(text[:60]))
