"""Every figure the texts quote comes from the constants and the item table's rows: tune a number and the words
follow.

Each check runs in a fresh interpreter whose constants are changed before anything of the
engine is imported, and whose item rows are changed before anything reads them, so that a figure
written by hand anywhere shows up as the old number.
"""

import json
import subprocess
import sys
import textwrap

from labyrinth.engine.figures import (
    CLOSE_RANGE,
    FAINT_RANGE,
    HEAR_WALK_STEPS,
    VERY_CLOSE_RANGE,
    seconds_text,
)

# Doubled or odd values that no text would quote by chance.
TUNED = {"JUMP_COOLDOWN_TICKS": 1126, "JUMP_MIN_TICKS": 6,
         "JUMP_MAX_TICKS": 26, "USER_SIGHT": 3, "MINOTAUR_SIGHT": 7, "HEAR_HIGH_SQ": 29 * 29, "HEAR_LOW_SQ": 30,
         "VERY_CLOSE_SQ": 4 * 4, "CLOSE_SQ": 9 * 9, "FAINT_SQ": 17 * 17, "TICKS_PER_SECOND": 4}
TUNED_ROWS = {"LANTERN": {"effect_ticks": 154, "respawn_ticks": 1378}}  # the item table's numbers, by row

PROBE = """
import importlib.util, json, sys
from pathlib import Path
engine = importlib.util.find_spec("labyrinth.engine")  # imports the namespace, not the engine
path = Path(engine.submodule_search_locations[0]) / "constants.py"
spec = importlib.util.spec_from_file_location("labyrinth.engine.constants", path)
constants = importlib.util.module_from_spec(spec)
spec.loader.exec_module(constants)
for name, value in json.loads(sys.argv[1]).items():
    setattr(constants, name, value)
sys.modules["labyrinth.engine.constants"] = constants
from labyrinth.engine.items import ITEM
for item, tuned in json.loads(sys.argv[2]).items():
    for name, value in tuned.items():
        object.__setattr__(ITEM[item], name, value)  # the very row every reader holds (frozen for everyone else)
"""


def _run(code: str) -> str:
    script = textwrap.dedent(PROBE) + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script, json.dumps(TUNED), json.dumps(TUNED_ROWS)],
                          capture_output=True, text=True, check=True).stdout


def test_the_help_screen_quotes_the_constants():
    help_text = _run("from labyrinth.tui.screens.help import HELP; print(HELP)")
    for figure in ("38.5 s", "344.5 s", "281.5 s", "1.5-6.5 s", "**3 steps**", "**7**", "within 29 steps", "within 5.5",
                   "(10 m)", "(22.5 m)", "(42.5 m)"):
        assert figure in help_text
    for old in ("120 s", "720 s", "600 s", "5-10 s", "24 steps", "within 4.5", "(7.5 m)", "(20 m)", "(37.5 m)"):
        assert old not in help_text


def test_the_event_words_quote_the_constants():
    words = _run("""
        from labyrinth.engine import events as ev, initial_state
        from labyrinth.engine.event_words import minotaur_words, user_words
        s = initial_state(1)
        print(user_words(ev.LanternUsed(0, (0, 0, 0)), s))
        print(minotaur_words(ev.LanternUsed(0, (0, 0, 0)), s))
        print(minotaur_words(ev.MinotaurJumped(0, (0, 0, 0), 26), s))
    """).splitlines()
    assert words == ["You raise the LANTERN: its blaze freezes the Minotaur for 38.5 s, and it burns out.",
                     "A blinding lantern freezes you for 38.5 s!",
                     "You leap out of time for 6.5 s; the cooldown is 281.5 s."]


def test_a_match_counts_game_time_in_the_constants_seconds():
    game_time = _run("""
        from labyrinth.agents.match.runner import Match
        from labyrinth.agents.registry import make_agent
        match = Match(make_agent("user", "builtin", 1), make_agent("minotaur", "wait", 1), seed=1, max_turns=3)
        result = match.play()
        from labyrinth.engine.figures import seconds
        print(result.game_time == seconds(match.game.state.tick), match.game.state.tick > 0)
    """)
    assert game_time.split() == ["True", "True"]


def test_the_figures_read_as_before():
    assert (VERY_CLOSE_RANGE, CLOSE_RANGE, FAINT_RANGE, HEAR_WALK_STEPS) == ("7.5 m", "20 m", "37.5 m", "4.5")
    assert seconds_text(240) == "120 s" and seconds_text(13) == "6.5 s"
