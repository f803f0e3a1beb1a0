"""A reflection's evidence in the game's words (evidence_words.py): every key a game writes said as a
sentence, places as the game names them, nulls left out; any evidence the log accepts worded, never a crash."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.learning.memory_manager import lesson_words
from labyrinth.tui.evidence_words import evidence_lines
from tests.agents.learning.test_memory import played

# What the log says that a player should not read: its outcomes, nulls, booleans, JSON's brackets and
# quotes, snake_case keys, a strategy's "choice=arm", a cell as a list.
RAW = re.compile(r"\b(?:DEATH|ESCAPED|TIMEOUT|null|None|True|False|true|false)\b|[\[\]{}\"=]|\b[a-z]+_[a-z_]+\b")


def test_a_whole_games_evidence_is_said_in_words_the_same_for_both_roles():
    for seed, ended in ((100, "was caught at x 201 y 196 level 99"), (2, "escaped at x 196 y 218 level 101")):
        user, minotaur = played(seed)  # 100: a flight after a whine and a jump that paid off; 2: three stones
        said = {r.role: evidence_lines(r.evidence) for r in (user, minotaur)}
        for lines in said.values():
            assert not [line for line in lines if RAW.search(line)], lines
            assert f"The user {ended} at" in "\n".join(lines)
        common = [line for line in said["user"] if not line.startswith("  ") and line != "What followed each choice:"]
        assert all(line in said["minotaur"] for line in common)  # the same game, told alike in both rows
    assert "After the whine at 322.5 s (heard from the SOUTH-EAST), the user walked 4 steps SOUTH-EAST from " \
           "x 202 y 202 level 101." in evidence_lines(played(100)[0].evidence)


def test_a_strategy_and_what_followed_it_are_said_as_the_lessons_say_them():
    strategy = {"guarding": "as built", "jumping": "after a face-to-face"}
    lines = evidence_lines({"behaviour": [{"when": "game", "did": f"{c}={a}", "led_to": "DEATH"} for c, a in
                                          strategy.items()], "strategy": strategy, "escape": None,
                            "lantern_held_s": None, "death": {"position": [202, 196, 100], "time_s": 14.5,
                                                              "how": "shared a cell with the Minotaur",
                                                              "seconds_after_whine": None, "ran": False,
                                                              "lantern_held": False, "stones": 0,
                                                              "after_jump": False}})
    assert lines == [
        "What followed each choice:",
        "  Over a whole game, choosing 'as built' for guarding led to a catch in 1 of 1 cases.",
        "  Over a whole game, choosing 'after a face-to-face' for jumping led to a catch in 1 of 1 cases.",
        "Strategy played: choosing 'as built' for guarding, choosing 'after a face-to-face' for jumping.",
        ("The user was caught at x 202 y 196 level 100 at 14.5 s (shared a cell with the Minotaur), walking, "
         "without a lantern, holding 0 of 3 stones.")]


def test_an_older_logs_lessons_read_in_todays_words():
    assert lesson_words("STRATEGIC REVISION: caught at (202, 196) level 100 at 14.5 s, walking. Next: avoid "
                        "that spot.") == "Caught at x 202 y 196 level 100 at 14.5 s, walking. Next: avoid that spot."
    assert lesson_words("WHAT WORKED: caught the intruder at (202, 196) level 100 at 14.5 s, by the hunt (seen 1x, "
                        "heard 0x); no jump.") == ("Caught the intruder at x 202 y 196 level 100 at 14.5 s, by the "
                                                   "hunt (seen once, heard 0 times); no jump.")
    assert lesson_words("I ran [0x1b] at WHAT WORKED: x") == "I ran [0x1b] at WHAT WORKED: x"  # a model's own words


KEYS = st.sampled_from(["behaviour", "stones", "death", "escape", "flights", "jumps", "ramps_taken", "strategy",
                        "heard", "from_events", "time_s", "how", "ran", "did", "when", "led_to", "stone", "other"])
SAID_NULL = re.compile(r"\bnull\b|\bNone\b")
LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20).filter(
    lambda text: not SAID_NULL.search(text))  # a text that says null itself is no null said
EVIDENCE = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3) |
                        st.dictionaries(KEYS, inner, max_size=4), max_leaves=12)


@settings(max_examples=300)
@given(evidence=st.dictionaries(KEYS, EVIDENCE, max_size=4))
def test_any_evidence_is_worded_without_a_null_never_a_crash(evidence):
    """An edited log's evidence, of any shape under the game's own keys: each line is words (printable),
    and a null is never said."""
    for line in evidence_lines(evidence):
        assert "\n" not in line and "\x1b" not in line and not SAID_NULL.search(line)
