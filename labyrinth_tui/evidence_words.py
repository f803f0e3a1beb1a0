"""A reflection's evidence (the numbers agents/learning/game_digest.py keeps) in the game's words, for the
Memory screen: a sentence for each thing the log knows and nothing for what it does not (a null); places
as every screen names them (``place_words``), choices and what followed as the behaviour lessons word them.
The log itself keeps its keys and values (older logs must still load): only the reading changes. A key this
build does not write, or a value not of the shape it writes (an edited log), is said plainly: its name in
words, its values without JSON's quotes, brackets and nulls. Every line is ``printable``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from labyrinth.agents.learning.behaviour_lessons import Book, did_words
from labyrinth.agents.learning.game_digest import JUMP_PAYOFF_S
from labyrinth.agents.learning.memory_manager import lesson_words, times_words
from labyrinth.engine.event_words import from_words
from labyrinth.engine.geometry import place_words
from labyrinth.engine.items import STONES
from labyrinth.saves.experience import POSITION_KEYS
from labyrinth.saves.results_terms import ROLE_WORDS

from .terminal_text import printable

USER = f"the {ROLE_WORDS['user']}"  # both roles' lines say the same of each side
THE_USER, THE_MINOTAUR = f"The {ROLE_WORDS['user']}", f"The {ROLE_WORDS['minotaur']}"


def evidence_lines(evidence: Mapping[str, Any]) -> list[str]:
    """The evidence as lines of words, in the log's order; a key with nothing to say (null) says nothing."""
    lines = []
    for key, value in evidence.items():
        try:
            said = SAID[key](value) if key in SAID else None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # not the shape this build writes
            said = None
        if said is None:
            said = [f"{named(key)}: {worded(value, key)}"] if value is not None else []
        lines += [printable(line) for line in said]
    return lines


def named(key: str) -> str:
    """A name of the evidence in words: 'ramps_taken' is 'ramps taken', 'time_s' 'time (s)'."""
    return f"{key.removesuffix('_s')} (s)".replace("_", " ") if key.endswith("_s") else key.replace("_", " ")


def worded(value: object, key: str = "") -> str:
    """A value the evidence holds, plainly: a place as the game names it, yes and no, items between
    commas, a nested object's names in words and its nulls left out."""
    if key in POSITION_KEYS and isinstance(value, list | tuple) and len(value) == 3:  # the log checks it is a cell
        return place_words(value)
    if isinstance(value, dict):
        said = ", ".join(f"{named(str(k))}: {worded(v, str(k))}" for k, v in value.items() if v is not None)
        return f"({said})" if said else "none"
    if isinstance(value, list | tuple):
        return ", ".join(worded(item) for item in value if item is not None) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _text(value: object) -> str:
    """A text the sentence needs; any other value (an edited log's) is not the shape this build writes."""
    if not isinstance(value, str):
        raise TypeError("not a text")
    return value


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not a whole number")
    return value


def _seconds(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError("not a time")
    return f"{value:g} s"


def _counted(count: int, what: str) -> str:
    """'no ramps', '1 ramp', '3 ramps'."""
    return f"{count or 'no'} {what}{'s' * (count != 1)}"


def _listed(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError("not a list")
    return value


def _behaviour(observations: list[dict[str, str]]) -> list[str]:
    book = Book()
    for observation in _listed(observations):
        if isinstance(observation, dict):  # as book_of reads them
            book.add(observation)
    lessons = book.lessons()
    return ["What followed each choice:", *(f"  {lesson.sentence()}" for lesson in lessons)] if lessons else []


def _stones(stones: list[dict[str, Any]]) -> list[str]:
    if not _listed(stones):
        return [f"{THE_USER} took no stone."]
    taken = ", then ".join(f"the {_text(s['stone'])} at {place_words(s['position'])} at {_seconds(s['time_s'])}"
                           for s in stones)
    return [f"{THE_USER} took {taken}."]


def _death(d: dict[str, Any]) -> list[str]:
    whine = d.get("seconds_after_whine")
    details = ["running" if d["ran"] else "walking",
               "with the lantern unused" if d["lantern_held"] else "without a lantern",
               f"holding {_whole(d['stones'])} of {len(STONES)} stones",
               *([f"{_seconds(whine)} after a whine"] if whine is not None else []),
               *(["right after the Minotaur came back into time"] if d.get("after_jump") else [])]
    caught = f"{THE_USER} was caught at {place_words(d['position'])} at {_seconds(d['time_s'])} ({_text(d['how'])})"
    return [f"{caught}, {', '.join(details)}."]


def _escape(e: dict[str, Any]) -> list[str]:
    return [f"{THE_USER} escaped at {place_words(e['position'])} at {_seconds(e['time_s'])}."]


def _flights(flights: list[dict[str, Any]]) -> list[str]:
    return [_flight(f) for f in flights]


def _flight(f: dict[str, Any]) -> str:
    heard = f" (heard{from_words(_text(f['whine_from']))})" if f.get("whine_from") is not None else ""
    went = "ran" if f["ran"] else "walked"
    levels, direction = _whole(f["levels"]), _text(f["direction"])
    climbed = f"{abs(levels)} level{'s' * (abs(levels) != 1)} {'up' if levels > 0 else 'down'}" if levels else ""
    if direction == "STAYED":
        did = "stayed where it was"
    elif direction == "LEVEL":
        did = f"{went} {climbed}"
    else:
        did = f"{went} {_counted(_whole(f['steps']), 'step')} {direction}{f' and {climbed}' if climbed else ''}"
    return f"After the whine at {_seconds(f['time_s'])}{heard}, {USER} {did} from {place_words(f['from'])}."


def _jumps(jumps: list[dict[str, Any]]) -> list[str]:
    return [_jump(j) for j in jumps]


def _jump(j: dict[str, Any]) -> str:
    back = j.get("reentered_s")
    came = f"came back at {_seconds(back)}" if back is not None else "had not come back as the game ended"
    paid = f"it paid off, seeing or catching {USER} within {_seconds(JUMP_PAYOFF_S)}" if j["paid_off"] \
        else "it did not pay off"
    return f"{THE_MINOTAUR} jumped out of time at {place_words(j['position'])} at {_seconds(j['time_s'])} " \
           f"and {came}: {paid}."


def _count(sentence: Callable[[int], str]) -> Callable[[int], list[str]]:
    return lambda count: [sentence(_whole(count))]


def _lantern_held(t: float) -> list[str]:
    return [f"{THE_USER} first held a lantern at {_seconds(t)}."]


def _strategy(strategy: dict[str, str]) -> list[str]:
    played = ", ".join(did_words(f"{_text(choice)}={_text(arm)}") for choice, arm in strategy.items())
    return [f"Strategy played: {played}."] if played else []


def _from_events(text: str) -> list[str]:
    return [f"From the game's events: {lesson_words(text)}"]


SAID: dict[str, Callable[[Any], list[str]]] = {  # each key the game writes (game_digest, memory_manager)
    "behaviour": _behaviour, "stones": _stones, "death": _death, "escape": _escape, "flights": _flights,
    "jumps": _jumps,
    "ramps_taken": _count(lambda n: f"{THE_USER} took {_counted(n, 'ramp')}."),
    "crawlway_steps": _count(lambda n: f"{THE_USER} walked {_counted(n, 'step')} in crawlways."),
    "lantern_uses": _count(lambda n: f"{THE_USER} raised a lantern {times_words(n)}." if n
                           else f"{THE_USER} never raised a lantern."),
    "lantern_held_s": _lantern_held,
    "sightings": _count(lambda n: f"{THE_MINOTAUR} saw {USER} {times_words(n)}." if n
                        else f"{THE_MINOTAUR} never saw {USER}."),
    "heard": _count(lambda n: f"{THE_MINOTAUR} heard {USER} in {_counted(n, 'turn')}."),
    "strategy": _strategy, "from_events": _from_events,
}
