"""Typed commands, forgiving and clear: 'move north 10 run', 'm n 5', 'run east',
'walk w 3', 'up', 'grab red stone', 'halt 5', or raw UserInput JSON.

A line that is not a command gives a one-line hint of what was probably meant,
and nothing happens to the game. Any text at all is one or the other, never an
exception: counts are decimal digits of any script ('halt ５'); '²', '①' and a
number too long for int() are hints like any other typo.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass

from pydantic import ValidationError

from labyrinth.engine import BadInput, UserInput, parse
from labyrinth.engine.commands import describe_errors, shorten
from labyrinth.engine.constants import MAX_STEPS

VERBS = {
    "move": ("MOVE", None), "m": ("MOVE", None), "go": ("MOVE", None),
    "walk": ("MOVE", 1), "w": ("MOVE", 1), "crawl": ("MOVE", 1),
    "run": ("MOVE", 2), "r": ("MOVE", 2),
    "look": ("LOOK", None), "l": ("LOOK", None),
    "grab": ("GRAB", None), "g": ("GRAB", None), "take": ("GRAB", None), "get": ("GRAB", None),
    "use": ("USE", None), "u": ("USE", None),
    "halt": ("HALT", None), "h": ("HALT", None), "wait": ("HALT", None), "stay": ("HALT", None),
}
DIRECTIONS = {"north": "NORTH", "n": "NORTH", "south": "SOUTH", "s": "SOUTH", "east": "EAST", "e": "EAST",
              "west": "WEST", "w": "WEST", "up": "UP RAMP", "down": "DOWN RAMP"}
SPEEDS = {"run": 2, "fast": 2, "walk": 1, "slow": 1, "crawl": 1}
TARGETS = {"red": "RED STONE", "blue": "BLUE STONE", "yellow": "YELLOW STONE", "lantern": "LANTERN"}
FILLER = {"stone", "ramp", "the", "steps", "step", "to", "s", "seconds", "sec"}
EXAMPLES = ["move north 10", "run east", "walk west 3", "up", "down", "look", "grab red stone", "grab lantern",
            "use lantern", "halt 5"]
# Every word the parser knows, for suggestions of what a typo meant.
KNOWN = sorted({*VERBS, *DIRECTIONS, *SPEEDS, *TARGETS, *FILLER} - {"s"})
HINT_WORD_CHARS = 24  # of a typed word quoted in a hint: a pasted page is not echoed whole


@dataclass(frozen=True)
class NotACommand(Exception):
    """A line that is not a command: ``hint`` says, in one line, what was probably meant."""

    hint: str

    def __str__(self) -> str:
        return self.hint


def parse_command(line: str) -> UserInput:
    """The UserInput a typed line means; NotACommand with a hint otherwise."""
    text = line.strip()
    if not text:
        raise NotACommand(f"Type a command, e.g. {', '.join(EXAMPLES[:4])}; or press ? for help.")
    if text.startswith("{"):
        try:
            return parse(UserInput, text)
        except BadInput as exc:
            raise NotACommand(str(exc)) from None
    words = text.lower().replace(",", " ").split()
    first = words[0]
    if first in DIRECTIONS and not any(w in DIRECTIONS for w in words[1:]):
        command, speed, rest = "MOVE", None, words  # 'w', 'w 3', 'north 5': a move that way
    elif first in VERBS:
        command, speed = VERBS[first]
        rest = words[1:]
    else:
        raise NotACommand(_hint(words, f"{_quoted(first)} is not a command"))
    fields: dict = {"command": command}
    if speed:
        fields["speed"] = speed
    for word in rest:
        if word.isdecimal():
            if "steps" in fields:
                raise NotACommand("Two numbers in one command: give one count of steps (or seconds).")
            fields["steps"] = _count(word)
        elif word.isnumeric():  # "²", "①", "¾": digits int() refuses
            raise NotACommand(f"{_quoted(word)} is not a number the game reads: type the count with the "
                              f"digits 0-9 (e.g. 'halt 2').")
        elif command == "MOVE" and word in DIRECTIONS and "direction" not in fields:
            fields["direction"] = DIRECTIONS[word]
        elif command == "MOVE" and word in SPEEDS:
            fields["speed"] = SPEEDS[word]
        elif command in ("GRAB", "USE") and word in TARGETS:
            fields["target"] = TARGETS[word]
        elif command in ("GRAB", "USE") and word not in FILLER:
            raise NotACommand(f"{_quoted(word)} is nothing to {command.lower()}: name red, blue or yellow (stone), "
                              f"or lantern.")
        elif word not in FILLER:
            raise NotACommand(_hint(words, f"{_quoted(word)} does not fit a {command}"))
    if command == "MOVE" and "direction" not in fields:
        raise NotACommand("Move where? Add a direction: north, south, east, west, up or down (e.g. 'move north 5').")
    if command in ("LOOK", "GRAB", "USE") and "steps" in fields:
        raise NotACommand(f"{command} takes no number: try '{command.lower()}'.")
    try:
        return UserInput.model_validate(fields)
    except ValidationError as exc:
        raise NotACommand(describe_errors(exc)) from None


def _count(word: str) -> int:
    """A word of decimal digits (any script) as a count; too many digits for any count is a hint,
    before int() would refuse them (more than 4,300) or the hint would echo them all."""
    significant = "".join(str(unicodedata.decimal(digit)) for digit in word).lstrip("0") or "0"
    if len(significant) > len(str(MAX_STEPS)):
        raise NotACommand(f"{_quoted(word)} is too big a number: a count of steps (or seconds) goes from 1 "
                          f"to {MAX_STEPS}.")
    return int(significant)


def _quoted(word: str) -> str:
    """A typed word as a hint quotes it: whole if short, else its start and its length."""
    return f"'{shorten(word, HINT_WORD_CHARS)}'"


def _hint(words: list[str], problem: str) -> str:
    """``problem`` and the line as it was probably meant, each unknown word mended."""
    mended = []
    for word in words:
        if word in KNOWN or word.isdecimal():
            mended.append(word if len(word) <= HINT_WORD_CHARS else f"{word[:HINT_WORD_CHARS]}...")
            continue
        close = difflib.get_close_matches(word, KNOWN, n=1, cutoff=0.6)
        mended.append(close[0] if close else "?")
    guess = " ".join(mended)
    if "?" in mended:
        return f"{problem}. Try e.g. {', '.join(EXAMPLES[:5])} (? for help)."
    return f"{problem}: did you mean '{guess}'?"


def suggestions() -> list[str]:
    """Whole commands the command line can complete as one types."""
    moves = [f"{verb} {direction}" for verb in ("move", "run", "walk") for direction in
             ("north", "south", "east", "west")]
    return [*moves, "up", "down", "look", "grab red stone", "grab blue stone", "grab yellow stone",
            "grab lantern", "use lantern", "halt 5", "help"]
