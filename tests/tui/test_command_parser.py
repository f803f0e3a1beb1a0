"""The typed-command parser: any text at all is a UserInput or a one-line hint (NotACommand),
never another exception: unicode digits, numbers too long for int(), raw JSON included."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from labyrinth.engine import UserInput
from labyrinth.engine.constants import MAX_STEPS
from labyrinth.engine.items import ITEM_ORDER, USABLE
from labyrinth.tui.command_parser import (
    EXAMPLES,
    HINT_WORD_CHARS,
    VERBS,
    NotACommand,
    parse_command,
    typed,
)

WORDS = [*VERBS, "north", "n", "up", "down", "run", "red", "stone", "lantern", "steps"]
digits = st.text(st.sampled_from("0123456789"), min_size=1, max_size=6000)  # beyond int()'s 4,300 digits
unicode_digits = st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=8)
word = st.one_of(st.sampled_from(WORDS), digits, unicode_digits, st.text(min_size=1, max_size=12))
lines = st.one_of(
    st.text(),
    st.lists(word, min_size=1, max_size=5).map(" ".join),
    st.builds(lambda steps: f'{{"command": "HALT", "steps": {steps}}}', digits | unicode_digits | st.text()),
)


def hint(line: str) -> str:
    with pytest.raises(NotACommand) as refused:
        parse_command(line)
    return refused.value.hint


@given(lines)
@example(",")  # only a comma: no word at all (it once raised IndexError)
@example(" , ,")
def test_any_text_is_a_command_or_a_one_line_hint(line):
    try:
        command = parse_command(line)
    except NotACommand as refused:
        assert refused.hint and "\n" not in refused.hint
    else:
        assert isinstance(command, UserInput)


@pytest.mark.parametrize("line, words", [
    ("halt ²", ["'²' is not a number", "0-9"]),
    ("move north ①", ["'①' is not a number", "0-9"]),
    ("halt ¾", ["'¾' is not a number"]),
    pytest.param("halt " + "9" * 5000, ["too big", f"1 to {MAX_STEPS}", "5,000 characters"], id="halt-5000-digits"),
    pytest.param("move north " + "1" * 4301, ["too big", f"1 to {MAX_STEPS}"], id="move-4301-digits"),
    ("halt 101", ["seconds must be 1 to 100 (got 101)"]),
    ("halt 0", ["seconds must be 1 to 100 (got 0)"]),
])
def test_numbers_the_game_cannot_read_are_named_in_the_hint(line, words):
    said = hint(line)
    for part in words:
        assert part in said


def test_a_long_word_is_quoted_as_an_excerpt():
    said = hint("halt " + "9" * 5000)
    assert "9" * (HINT_WORD_CHARS + 1) not in said and len(said) < 200
    assert len(hint("dance" * 1000)) < 300
    assert len(hint("mvoe north " + "5" * 5000)) < 300  # the line as probably meant, shortened too


@pytest.mark.parametrize("line, steps", [("halt 007", 7), ("halt ５", 5), ("move north ٣", 3),
                                         pytest.param("halt " + "0" * 5000 + "42", 42, id="halt-5000-zeros-42")])
def test_decimal_digits_of_any_script_and_leading_zeros_are_counts(line, steps):
    assert parse_command(line).steps == steps


def test_a_blank_line_suggests_commands():
    assert EXAMPLES[0] in hint("   ")


_DIRECTIONS = st.sampled_from(["NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP"])
_STEPS = st.integers(1, MAX_STEPS)
_COMMANDS = st.one_of(
    st.builds(lambda d, n, v: UserInput(command="MOVE", direction=d, steps=n, speed=v), _DIRECTIONS,
              st.none() | _STEPS, st.sampled_from([1, 2])),
    st.builds(lambda n: UserInput(command="HALT", steps=n), st.none() | _STEPS),
    st.just(UserInput(command="LOOK")),
    st.builds(lambda t: UserInput(command="GRAB", target=t),
              st.sampled_from([None, *ITEM_ORDER])),
    st.builds(lambda t: UserInput(command="USE", target=t), st.sampled_from([None, *USABLE])),
)


@given(_COMMANDS)
def test_a_command_typed_out_reads_back_as_itself(command):
    """What the spectate log shows for an agent's turn is what a person would type for it."""
    assert parse_command(typed(command)) == command


@pytest.mark.parametrize(("line", "said"), [
    ("look n", "LOOK takes nothing more: type 'look'."),
    ("halt north", "HALT takes a number of seconds and nothing else: e.g. 'halt 5'."),
    ("north south", "One direction at a time"),
    ("move north east", "One direction at a time"),
    ("use foo", "'foo' is nothing to use: name lantern."),  # only the lantern can be used: no stone offered
    ("grab foo", "'foo' is nothing to grab: name red, blue or yellow (stone), or lantern."),
    ("xyzzy", "travel, explore"),  # the unknown word's hint names the screen's commands too
])
def test_a_line_of_known_words_in_the_wrong_place_is_told_what_fits(line, said):
    """A line whose words are all known never gets its own words back as "did you mean": it is told what the
    command takes instead."""
    assert said in hint(line) and "did you mean" not in hint(line)


@pytest.mark.parametrize(("line", "command"), [
    ("look around", UserInput(command="LOOK")),
    ("grab the red stone", UserInput(command="GRAB", target="RED_STONE")),
    ("halt 5 seconds", UserInput(command="HALT", steps=5)),
    ("run north 3 steps", UserInput(command="MOVE", direction="NORTH", steps=3, speed=2)),
])
def test_a_command_said_as_a_player_says_it_is_read(line, command):
    assert parse_command(line) == command
