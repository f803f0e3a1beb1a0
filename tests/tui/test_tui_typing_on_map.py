"""A word typed while the map has focus plays at most its first key, through Pilot: typed at a person's
pace (the screen's clock moved by hand between keys) or in one burst (keys already on their way when the
command line took the focus), the command line gets the word whole; a map key pressed on its own still
plays at once, and one held as a word's next letter plays once the word does not come."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input, Static

from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.keymap import remapped
from labyrinth.tui.player_settings import PlayerSettings
from labyrinth.tui.widgets.game_map import GameMap
from labyrinth.tui.widgets.minimap import Minimap
from labyrinth.tui.word_start import WORD_PACE_S, goes_on, whole, whole_word
from tests.tui.test_tui import GAME, SIZE, wait_for

pytestmark = pytest.mark.slow

HUMAN_S = 0.2  # between two keys of a word typed by a person (60 words a minute); WORD_PACE_S is longer
WALKED = {"north": "walk north 1", "east": "walk east 1", "west": "walk west 1"}
# The words of the issue, typed on the map (vi-keys, WASD and arrows all walk): what plays, what is typed.
WORDS = [
    ("walk", [WALKED["north"]], "walk"),  # w walks; 'a' (west) waits as walk's next letter, 'l' makes it a word
    ("use", [], "use"),  # u (vi's diagonal) plays nothing; 's' (south) waits, 'e' makes it a word
    ("up", [], "up"),  # u plays nothing, 'p' is no key: typed, and 'u' put back
    ("down", [WALKED["east"]], "down"),  # d walks east; 'o' (autoexplore) waits as down's next letter
    ("look", [WALKED["east"]], "look"),  # l walks east; LOOK is f
    ("west", [WALKED["north"]], "west"),  # w walks; 'e' is no key and may be east, until 's'
    ("w 2", [WALKED["north"]], "w 2"),  # the space (halt) waits after a whole command, the count makes it one
    ("grab red stone", ["grab"], "grab red stone"),
]


def spy_on_turns(screen) -> list[str]:
    """The commands the screen is asked to play from now on, as the log says them (a move into a known
    wall too, which plays nothing: what matters is which keys acted)."""
    said: list[str] = []
    play = screen.play

    def spied(words, user) -> bool:
        said.append(words)
        return play(words, user)

    screen.play = spied
    return said


async def on_the_map(pilot, keys: str, gap: float = 0.0) -> tuple[list[str], str]:
    """Press ``keys`` with the map focused, the app's clock moved ``gap`` seconds between two (0: a burst):
    the commands they played, and the command line's text."""
    app, clock = pilot.app, pilot.app.clock
    screen, command = app.screen, app.screen.query_one("#command", Input)
    command.value = ""
    if not isinstance(app.focused, Minimap):
        await pilot.press("escape")
    assert isinstance(app.focused, Minimap)
    said = spy_on_turns(screen)
    for key in keys:
        await pilot.press("space" if key == " " else key)
        clock.advance(gap)
    await pilot.pause()
    return said, command.value


def posted_at_once(app, keys: str) -> None:
    """``keys`` all sent to the map before it reads the first, as the app forwards a burst read at once from
    the terminal: those after the letter that moved the focus to the command line are on their way."""
    game_map = app.screen.query_one(GameMap)
    for char in keys:
        game_map.post_message(events.Key({" ": "space", "\r": "enter"}.get(char, char), char))


@pytest.mark.parametrize("gap", [0.0, HUMAN_S], ids=["burst", "human"])
@pytest.mark.parametrize("keys, played, line", WORDS, ids=[keys for keys, _, _ in WORDS])
async def test_a_word_typed_on_the_map_plays_at_most_its_first_key(clock, keys, played, line, gap):
    app = LabyrinthApp(GAME, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert await on_the_map(pilot, keys, gap) == (played, line)
        hint = str(app.screen.query_one("#hint", Static).render())
        assert ("played as map key" in hint) == (len(line) > 1), hint  # 'u' put back is said too
        assert app.focused is app.screen.query_one("#command", Input)


@pytest.mark.parametrize("keys, played, line", WORDS, ids=[keys for keys, _, _ in WORDS])
async def test_a_word_already_on_its_way_to_the_map_reaches_the_command_line(clock, keys, played, line):
    app = LabyrinthApp(GAME, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        said = spy_on_turns(app.screen)
        posted_at_once(app, keys + "\r")  # Enter too: the word is sent as typed
        await pilot.pause()
        sent = [] if line == "walk" else [line]  # 'walk' is refused with a hint (walk where?), the rest sent
        assert said == played + sent and app.screen.query_one("#command", Input).value == ""


async def test_map_keys_pressed_one_by_one_each_play_at_once(clock):
    app = LabyrinthApp(GAME, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        said, _ = await on_the_map(pilot, "wa", gap=2 * WORD_PACE_S)  # north, then west: no word so slowly
        assert said == [WALKED["north"], WALKED["west"]]
        said, _ = await on_the_map(pilot, "gl")  # 'gl' begins no command: grab, walk east, at once
        assert said == ["grab", WALKED["east"]]
        said, typed = await on_the_map(pilot, "ge")  # 'e' may be east: typed as typed, not 'ge'
        assert (said, typed) == (["grab"], "e")


async def test_a_key_held_as_a_words_next_letter_plays_once_the_word_does_not_come(clock):
    app = LabyrinthApp(GAME, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        said, typed = await on_the_map(pilot, "wa")  # quickly: 'a' may begin 'walk'
        game_map = app.screen.query_one(GameMap)
        assert (said, typed) == ([WALKED["north"]], "") and [key.key for key in game_map.held] == ["a"]
        await pilot.pause()
        assert said == [WALKED["north"]]  # the clock has not moved: it waits still
        clock.advance(WORD_PACE_S + 0.01)
        await wait_for(pilot, lambda: said == [WALKED["north"], WALKED["west"]])
        assert game_map.held == [] and app.focused is game_map
        await pilot.press("w", "a", "right")  # another key comes: the held one plays first, then it
        await pilot.pause()
        assert said[2:] == [WALKED["north"], WALKED["west"], WALKED["east"]]


async def test_a_map_key_remapped_onto_a_words_letter_waits_too(clock):
    """With `o` a key of another action (here grab's, autoexplore moved to z), 'look' still plays only its
    first key."""
    keys, problems = remapped({"grab": ["o"], "explore": ["z"]}, {})
    app = LabyrinthApp(GAME, clock=clock, settings=PlayerSettings(keys=keys))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert problems == [] and await on_the_map(pilot, "look") == ([WALKED["east"]], "look")
        assert await on_the_map(pilot, "go", gap=HUMAN_S) == ([], "go")  # 'g' is no key now: typed
        said, _ = await on_the_map(pilot, "lo", gap=2 * WORD_PACE_S)
        assert said == [WALKED["east"], "grab"]


@pytest.mark.parametrize("word, key, character, more", [
    ("w", "a", "a", True), ("w", "x", "x", False), ("wa", "l", "l", True), ("w", "space", " ", True),
    ("wa", "space", " ", False), ("w ", "2", "2", True), ("w ", "w", "w", False), ("g", "o", "o", True),
    ("k", "j", "j", False), ("lo", "o", "o", True), ("u", "s", "s", True), ("w", "enter", None, False),
])
def test_which_keys_may_go_on_a_word_begun_on_the_map(word, key, character, more):
    assert goes_on(word, key, character) == more


@pytest.mark.parametrize("word, sent", [("go", True), ("w ", True), ("wa", False), ("h 5", True), ("lo", False)])
def test_which_words_held_on_the_map_enter_sends(word, sent):
    assert whole(word) == sent


@pytest.mark.parametrize("played, typed, ended, whole_one", [
    ("g", "r", False, None), ("g", "ra", False, "gra"), ("w", "e", False, None), ("w", "es", False, "wes"),
    ("gg", "o", False, "go"), ("wasd", "o", False, "do"), ("", "xq", False, None), ("g", "{", False, None),
    ("us", "e", True, "use"), ("w", "e", True, None), ("g", "e", True, None), ("wal", "k", False, "walk"),
])
def test_which_letters_played_on_the_map_a_typed_word_takes_back(played, typed, ended, whole_one):
    assert whole_word(played, typed, ended) == whole_one


@pytest.mark.parametrize("keys", ["down", "look", "walk"])
async def test_a_burst_whose_first_key_played_says_so_after_that_turns_answer(clock, keys):
    """The word reaches the command line before the turn its first key played is answered (that turn's message
    comes after the keys already on their way): the answer leaves the hint that says which key played."""
    app = LabyrinthApp(GAME, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        posted_at_once(app, keys)
        await pilot.pause()
        assert app.screen.query_one("#command", Input).value == keys
        hint = str(app.screen.query_one("#hint", Static).render())
        assert f"'{keys[0]}' played as map key first" in hint, hint
