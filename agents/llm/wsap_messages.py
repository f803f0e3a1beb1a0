"""The WSAP "Message Format": the prompts an LLM agent is sent, and the reading
of its JSON reply into an Action.

The texts are the seed's, word for word, with one extension: ``system_message``
may carry a ``learning_injection`` (lessons from earlier games), put in as its
own paragraph just before the closing "Your goal is ..." line, so the standard
prompt is unchanged when there is none.
"""

from __future__ import annotations

import json
import re
from typing import Any

from labyrinth.engine.commands import excerpt
from labyrinth.engine.wsap import Action, ActionSpace, Observation

GOAL_LINE = "Your goal is to survive and accomplish objectives. Respond with a JSON action."
STEP_QUESTION = 'What action do you take? Respond with JSON: {"action": "name", "params": {}, "reasoning": "why"}'
_EXPECTED = 'expected a JSON object like {"action": "name", "params": {}, "reasoning": "why"}'
_NOT_PARAMS = ("action", "name", "reasoning")  # the keys of a reply that are not flat params
ANSWER_CHARS = 20_000  # an answer (after any thoughts) longer than this is refused unread; an action is ~100
OPENING = re.compile(r'\{\s*["}]')  # where a JSON object can begin: '{', then a key or its end
FAILED_DECODES = 64  # the most object openings tried that do not decode, before the search gives up


class ActionParseError(ValueError):
    """A reply that holds no usable action; the message says what was wrong, on one line."""


def system_message(game_name: str, game_description: str, action_space: ActionSpace,
                   learning_injection: str = "") -> str:
    """The system message, sent once per session."""
    paragraphs = [f"You are an agent playing {game_name}.", game_description,
                  f"Available actions:\n{action_space.to_text()}"]
    if learning_injection.strip():
        paragraphs.append(learning_injection.strip())
    return "\n\n".join([*paragraphs, GOAL_LINE])


def step_message(observation: Observation) -> str:
    """The user message of one step: the observation, then the question."""
    return f"{observation.to_text()}\n\n{STEP_QUESTION}"


def parse_action(text: str) -> Action:
    """The action in a model's reply, which may wrap the JSON object in prose or
    ``` fences, or put it after a <think> block; "name" and "parameters" are
    accepted for "action" and "params", and params written flat beside the action
    (``{"action": "move", "direction": "left"}``) when there is no params object.
    Raises ActionParseError otherwise."""
    if not text or not text.strip():
        raise ActionParseError(f"the reply is empty; {_EXPECTED}")
    if "</think>" in text:  # thoughts may hold draft JSON: only what follows them is the answer
        text = text.rsplit("</think>", 1)[1]
    elif "<think>" in text:
        text = text.split("<think>", 1)[0]
        if not text.strip():
            raise ActionParseError(f"the reply ends inside a <think> block, with no answer after it; {_EXPECTED}")
    if len(text) > ANSWER_CHARS:  # not read: an answer is a JSON object and a sentence
        raise ActionParseError(f"the answer is {len(text):,} characters long, more than the {ANSWER_CHARS:,} "
                               f"read; {_EXPECTED}")
    reply = _first_action_object(text)
    name = reply.get("action", reply.get("name"))
    if not isinstance(name, str) or not name.strip():
        raise ActionParseError(f'"action" is {_shown(name)}, not a non-empty string; {_EXPECTED}')
    if "params" in reply or "parameters" in reply:
        params = reply.get("params", reply.get("parameters"))
    else:
        params = {key: value for key, value in reply.items() if key not in _NOT_PARAMS}
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ActionParseError(f'"params" is {_shown(params)}, not an object; {_EXPECTED}')
    reasoning = reply.get("reasoning")
    return Action(name.strip(), params, None if reasoning is None else reasoning if isinstance(reasoning, str)
                  else excerpt(reasoning, limit=None))


def _first_action_object(text: str) -> dict[str, Any]:
    """The first JSON object in ``text`` with an "action" or "name" key. Decoding
    from each place an object can begin (not a regex) handles nested objects and
    braces inside strings; an object decoded whole is skipped whole, so its inner
    objects are not tried. Each failed decode counts the lines before it (for its
    error's line number), so at most FAILED_DECODES are tried: the search stays
    linear in the text's length, whatever the text."""
    decoder, objects, failed = json.JSONDecoder(), 0, 0
    opening = OPENING.search(text)
    while opening:
        at = opening.start()
        try:
            value, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            failed += 1
            if failed == FAILED_DECODES:
                raise ActionParseError(f"none of the first {FAILED_DECODES} JSON objects the reply begins can be "
                                       f"read; {_EXPECTED}") from None
            opening = OPENING.search(text, at + 1)
            continue
        except RecursionError:  # every '{' inside would be as deep: stop here, in linear time
            raise ActionParseError(f"the reply's JSON is nested too deeply to read; {_EXPECTED}") from None
        except ValueError:  # Python reads an integer of at most 4,300 digits
            raise ActionParseError(f"a number in the reply is too long to read; {_EXPECTED}") from None
        objects += 1
        found: dict[str, Any] = value  # decoding from a '{' gives a dict
        if "action" in found or "name" in found:
            return found
        opening = OPENING.search(text, end)
    if objects:
        raise ActionParseError(f'the reply\'s JSON object has no "action" key; {_EXPECTED}')
    raise ActionParseError(f"the reply holds no JSON object; {_EXPECTED}")


def _shown(value: object) -> str:
    """A model's JSON value as it wrote it, in short, to keep the message on one line."""
    return "missing or null" if value is None else excerpt(value)
