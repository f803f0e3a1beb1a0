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
from typing import get_args

from pydantic import ValidationError

from labyrinth.engine import BadInput, UserInput, parse
from labyrinth.engine.commands import describe_errors, shorten
from labyrinth.engine.constants import MAX_STEPS, WORLD_SIZE
from labyrinth.engine.items import ITEMS, STONES, USABLE, ItemName
from labyrinth.engine.schemas import USER_PARAMS, Direction


def _either(words: list[str]) -> str:
    """'a, b or c'."""
    return " or ".join([", ".join(words[:-1]), words[-1]] if words[1:] else words)


def _words(direction: str) -> tuple[str, ...]:
    """What a person types for a direction: its first word, and a compass point's initial too."""
    first = direction.split()[0].lower()
    return (first, first[0]) if " " not in direction else (first,)


# The parser's tables, derived from the schemas' names (engine/schemas.py): each command is typed as its
# own name, a direction as its first word (a compass point by its initial too), an item as its first
# word; the last words of the names ("stone", "ramp") may be typed and mean nothing more.
_NAMES_WORDS = [name.split() for name in (*get_args(Direction), *get_args(ItemName))]
DIRECTIONS = {word: name for name in get_args(Direction) for word in _words(name)}
TARGETS = {item.word: item.name for item in ITEMS}
# Other words a person types for the same things, keyed by the schemas' names and values.
ALIASES = {"MOVE": ("m", "go"), "LOOK": ("l",), "GRAB": ("g", "take", "get"), "USE": ("u",),
           "HALT": ("h", "wait", "stay")}
SPEED_WORDS = {1: ("walk", "slow", "crawl"), 2: ("run", "fast")}
SPEED_VERBS = {1: ("walk", "w", "crawl"), 2: ("run", "r")}  # 'run east': a MOVE at that speed
VERBS = {**{word: (command, None) for command in USER_PARAMS for word in (command.lower(), *ALIASES[command])},
         **{word: ("MOVE", speed) for speed, words in SPEED_VERBS.items() for word in words}}
SPEEDS = {word: speed for speed, words in SPEED_WORDS.items() for word in words}
FILLER = {*(words[-1].lower() for words in _NAMES_WORDS if len(words) > 1),
          "the", "steps", "step", "to", "s", "seconds", "sec", "around"}  # 'look around', as a player types it
EXAMPLES = ["move north 10", "run east", "walk west 3", "up", "down", "look", "grab red stone", "grab lantern",
            "use lantern", "halt 5"]
# Every word the parser knows, for suggestions of what a typo meant; a line starts with a verb or a direction.
KNOWN = sorted({*VERBS, *DIRECTIONS, *SPEEDS, *TARGETS, *FILLER} - {"s"})
FIRST_WORDS = sorted({*VERBS, *DIRECTIONS})
_COMMAND_WORDS = ", ".join(command.lower() for command in USER_PARAMS)  # 'move, look, grab, use, halt'

# The words hints offer: 'north, south, east, west, up or down'; 'red, blue or yellow (stone), or lantern'.
_DIRECTION_WORDS = _either([word for word, name in DIRECTIONS.items() if word == name.split()[0].lower()])
# What each command that takes an item can be given: GRAB any item, USE only what can be used (the lantern).
_TARGET_WORDS = {"GRAB": f"{_either([word for word, name in TARGETS.items() if name in STONES])} (stone), or "
                          f"{_either([word for word, name in TARGETS.items() if name not in STONES])}",
                 "USE": _either([word for word, name in TARGETS.items() if name in USABLE])}
ONE_WAY = "One direction at a time: e.g. 'north 5', then 'east 3'."  # a line naming two
MAX_COORDINATE = WORLD_SIZE  # a coordinate of the cube is below it: typed, it has at most its digits
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
    words = text.lower().replace(",", " ").split()  # commas part words, as spaces do
    if not words:  # nothing typed, or only commas
        raise NotACommand(f"Type a command, e.g. {', '.join(EXAMPLES[:4])}; or press ? for help.")
    if text.startswith("{"):
        try:
            return parse(UserInput, text)
        except BadInput as exc:
            raise NotACommand(str(exc)) from None
    first = words[0]
    if first in DIRECTIONS and not any(w in DIRECTIONS for w in words[1:]):
        command, speed, rest = "MOVE", None, words  # 'w', 'w 3', 'north 5': a move that way
    elif first in DIRECTIONS and first not in VERBS:  # 'north south', 'n e 3'
        raise NotACommand(ONE_WAY)
    elif first in VERBS:
        command, speed = VERBS[first]
        rest = words[1:]
    elif _mend(first, FIRST_WORDS) is None:  # 'rest 5' is no typo of 'west 5': say what the commands are
        raise NotACommand(f"{_quoted(first)} is not a command; to wait, type 'halt 5'. Commands: {_COMMAND_WORDS}, "
                          f"run, walk, travel, explore, or a direction ('north 5'); ? for help.")
    else:
        raise NotACommand(_hint(words, f"{_quoted(first)} is not a command"))
    takes = {param.field for param in USER_PARAMS[command]}
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
        elif "direction" in takes and word in DIRECTIONS and "direction" not in fields:
            fields["direction"] = DIRECTIONS[word]
        elif "direction" in takes and word in DIRECTIONS:  # 'move north east'
            raise NotACommand(ONE_WAY)
        elif "speed" in takes and word in SPEEDS:
            fields["speed"] = SPEEDS[word]
        elif "target" in takes and word in TARGETS:
            fields["target"] = TARGETS[word]
        elif "target" in takes and word not in FILLER:
            raise NotACommand(f"{_quoted(word)} is nothing to {command.lower()}: name {_TARGET_WORDS[command]}.")
        elif word not in FILLER and not takes:  # 'look n'
            raise NotACommand(f"{command} takes nothing more: type '{command.lower()}'.")
        elif word not in FILLER and takes == {"steps"}:  # 'halt north': a HALT's count is of seconds
            raise NotACommand(f"{command} takes a number of seconds and nothing else: e.g. '{command.lower()} 5'.")
        elif word not in FILLER:
            raise NotACommand(_hint(words, f"{_quoted(word)} does not fit a {command}"))
    if "direction" in takes and "direction" not in fields:
        raise NotACommand(f"Move where? Add a direction: {_DIRECTION_WORDS} (e.g. 'move north 5').")
    if "steps" not in takes and "steps" in fields:
        raise NotACommand(f"{command} takes no number: try '{command.lower()}'.")
    try:
        return UserInput.model_validate(fields)
    except ValidationError as exc:
        said = describe_errors(exc, UserInput)  # a HALT's count is of seconds, which the schema calls steps
        raise NotACommand(said.replace("steps", "seconds", 1) if command == "HALT" else said) from None


@dataclass(frozen=True)
class Travel:
    """A travel typed on the command line (not a command of the game: the screen walks it, a leg a turn):
    to the nearest known ramp up ('<') or down ('>'), to a cell (its level None: the player's), or, to
    ``explore``, to the nearest cell not seen yet, again and again (explore.py)."""

    ramp: str | None = None
    cell: tuple[int, int, int | None] | None = None
    explore: bool = False


TRAVEL_RAMPS = {"<": "<", ">": ">", "up": "<", "down": ">"}
TRAVEL_HINT = ("Travel where? 'travel <' (the nearest ramp up you know), 'travel >' (down), or 'travel X Y LEVEL' "
               "(examining, x or ;, shows a cell's numbers).")


def parse_travel(line: str) -> Travel | None:
    """The travel a typed line asks for ('explore' too); None when the line is no travel; NotACommand
    when it is one that says nowhere to go."""
    words = line.strip().lower().replace(",", " ").split()
    if words[:1] == ["explore"]:
        if words[1:]:
            raise NotACommand("'explore' takes nothing more: it walks to the nearest place you have not seen.")
        return Travel(explore=True)
    if not words or words[0] != "travel":
        return None
    rest = words[1:]
    if len(rest) == 1 and rest[0] in TRAVEL_RAMPS:
        return Travel(ramp=TRAVEL_RAMPS[rest[0]])
    numbers = [word.removeprefix("-") for word in rest]
    if len(rest) in (2, 3) and all(n.isdecimal() and len(n) <= len(str(MAX_COORDINATE)) for n in numbers):
        x, y, *z = (int(word) for word in rest)
        return Travel(cell=(x, y, z[0] if z else None))
    raise NotACommand(TRAVEL_HINT)


def typed(command: UserInput) -> str:
    """The command as a person would type it, which parse_command reads back as the same command:
    'move west 2', 'run north', 'grab red stone', 'halt 3' (an agent's turn shown in the log)."""
    verb = "run" if command.command == "MOVE" and command.speed == 2 else command.command.lower()
    words = [verb, command.direction, command.steps, command.target]
    return " ".join(str(word).lower() for word in words if word is not None)


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
    for at, word in enumerate(words):
        if word in KNOWN or word.isdecimal():
            mended.append(word if len(word) <= HINT_WORD_CHARS else f"{word[:HINT_WORD_CHARS]}...")
            continue
        mended.append(_mend(word, KNOWN if at else FIRST_WORDS) or "?")
    guess = " ".join(mended)
    if "?" in mended or guess == " ".join(words):  # nothing to mend: the words are known, not in that order
        return f"{problem}. Try e.g. {', '.join(EXAMPLES[:5])} (? for help)."
    return f"{problem}: did you mean '{guess}'?"


def _mend(word: str, known: list[str]) -> str | None:
    """The known word a typo most likely meant: a close one with the same first letter, since a slip
    of the fingers seldom changes that ('nrth' is north, 'esat' east; 'rest' is not west)."""
    close = difflib.get_close_matches(word, [k for k in known if k[0] == word[0]], n=1, cutoff=0.6)
    return close[0] if close else None


def suggestions() -> list[str]:
    """Whole commands the command line can complete as one types."""
    compass = [word for word, name in DIRECTIONS.items() if word == name.lower()]
    ramps = [word for word, name in DIRECTIONS.items() if " " in name]
    moves = [f"{verb} {direction}" for verb in ("move", "run", "walk") for direction in compass]
    grabs = [f"grab {name.lower()}" for name in get_args(ItemName)]
    return [*moves, *ramps, "look", *grabs, "use lantern", "halt 5", "travel <", "travel >", "explore", "help"]
