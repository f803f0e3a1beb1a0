"""Every screen a player meets, at 80x24, says things in the game's words (issue 41): no outcome as the
code names it (DEATH, ESCAPED, TIMEOUT), no agent as the registry names it (builtin), no id, no
snake_case name; and nothing a player needs is cut (a footer entry or a title ends in a whole word).
What the terminal shows is read as Textual's own screenshot reads it, as text."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from textual.widgets import Input, Select

from labyrinth.engine import UserInput
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game_over import GameOverScreen
from labyrinth.tui.screens.help import HELP
from labyrinth.tui.screens.title import HUMAN, NewGame
from labyrinth.tui.session import PlaySession

from .test_tui import choose
from .test_tui_danger import log_words

pytestmark = pytest.mark.slow

SIZE = (80, 24)
INTERNAL = re.compile(r"\b(?:DEATH|ESCAPED|TIMEOUT|builtin)\b|\b[0-9a-f]{8}-[0-9a-z]|\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
# What may hold such a word and is still the game's words: a path (the data directory's files), a command to
# type (`labyrinth tournament --users builtin`), the dim lesson evidence's JSON values.
NOT_WORDS = re.compile(r"\S*/\S*|`[^`]*`")
CUT = re.compile(r"\w…|\w\.\.\.")  # a word cut short by the end of its room


def screen_text(app) -> str:
    """The terminal's text now, the screens below a dialog too (as Textual's export_screenshot renders it)."""
    console = Console(width=SIZE[0], height=SIZE[1], file=io.StringIO(), record=True, force_terminal=True,
                      legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


async def shown(pilot, where: str) -> str:
    """The screen's text, checked: no internal word, no footer entry cut."""
    await pilot.pause()
    await pilot.pause()
    text = screen_text(pilot.app)
    found = INTERNAL.findall(NOT_WORDS.sub(" ", text))
    assert not found, f"{where}: {found}\n{text}"
    footer = footer_of(text)
    assert not CUT.search(footer) and not re.search(r"\w▏", footer), f"{where}: the footer is cut\n{text}"
    return text


def footer_of(text: str) -> str:
    """The screen's last line, its footer, without the space around it."""
    return text.rstrip("\n").splitlines()[-1].strip()


def finished_game() -> None:
    """A tiny game the Minotaur won, recorded and remembered (both roles reflect on it)."""
    session = PlaySession(5, "tiny")
    while not session.over:
        session.play(UserInput(command="HALT", steps=100))


async def test_the_title_memory_replays_and_a_replay_say_outcomes_and_agents_in_words():
    finished_game()
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, "title")  # the new-game form names its agents in words: "the built-in Minotaur"
        await choose(pilot, app, "memory")
        assert footer_of(await shown(pilot, "memory")).startswith("esc")  # its own keys, not the title's below
        await pilot.press("down")
        text = await shown(pilot, "memory, the other reflection")
        assert "You got caught after 5 turns" in text
        await pilot.press("escape")
        await choose(pilot, app, "replays")
        text = await shown(pilot, "replays")
        assert "you vs the built-in Minotaur" in text and "p play" not in footer_of(text)
        await pilot.press("enter")
        await pilot.press(*["right"] * 6)
        await shown(pilot, "a replay, played to its end")
        told = log_words(app)
        assert "Match over: the user got caught after 5 turns." in told and told.count("You die.") == 1


async def test_a_game_its_help_and_its_end_say_things_in_words():
    app = LabyrinthApp(NewGame(5, "tiny", "normal", HUMAN, "builtin", learning=False))
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, "the game, typing")
        await pilot.press("escape")
        footer = footer_of(await shown(pilot, "the game, on the map"))
        assert "o explore" in footer and "v lantern" in footer  # the lantern, rarely used but in danger, stays
        await pilot.press("x")
        await shown(pilot, "examining")
        await pilot.press("escape")
        assert not INTERNAL.findall(NOT_WORDS.sub(" ", HELP))  # read, not shown: its Markdown takes seconds to lay out
        session = app.screen.session
        command = app.screen.query_one("#command", Input)
        command.focus()
        while not session.over:
            command.value = "halt 100"
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "The Minotaur caught you." in await shown(pilot, "game over")


async def test_watching_two_agents_and_the_leaderboard_say_who_plays_in_words():
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#preset", Select).value = "tiny"
        await choose(pilot, app, "spectate")
        await pilot.press("n", "n")
        await shown(pilot, "spectating")
        agents = str(app.screen.query_one("#agents").render())
        assert "the built-in user" in agents and "the built-in Minotaur" in agents
        await pilot.press("escape")
        await choose(pilot, app, "leaderboard")
        await shown(pilot, "the leaderboard")
