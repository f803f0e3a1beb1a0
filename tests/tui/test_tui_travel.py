"""Look mode and travel, driven through Pilot against a Minotaur that always waits (so nothing but
the test moves it): `x` puts a cursor on the map that keys and clicks move and a line describes;
Enter walks the known way there a leg a turn; a typed `travel <` finds the nearest known ramp up;
a danger met on the way stops the travel at once. And a resumed game opens with its history."""

from __future__ import annotations

import dataclasses

import pytest
from textual.widgets import Input, Static

from labyrinth.saves.games import PLAYER, list_games
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.widgets.cue_panel import CuePanel
from labyrinth.tui.widgets.game_map import GameMap
from labyrinth.tui.widgets.narrative import NarrativeLog

from .test_tui import SIZE, wait_for

pytestmark = pytest.mark.slow

STILL = NewGame(7, "tiny", "normal", PLAYER, "wait", learning=False)  # the user starts at (200, 200, 100)
START = (200, 200, 100)
CORNER = (204, 198, 100)  # east 4 then south 2 from the start: a way with a bend (labyrinth world --preset tiny)


async def enter(pilot, line: str) -> None:
    """A command entered whole (the typing itself is tested elsewhere, and a key at a time costs time)."""
    pilot.app.screen.query_one("#command", Input).value = line
    await pilot.press("enter")
    await pilot.pause()


def hint(app) -> str:
    return str(app.screen.query_one("#hint", Static).render())


def log_words(app) -> str:
    return " ".join(" ".join(line.text for line in app.screen.query_one(NarrativeLog).lines).split())


async def walk_to_the_corner(pilot) -> None:
    for line in ("move east 4", "move south 2"):
        await enter(pilot, line)
    assert pilot.app.screen.session.game.state.user == CORNER


async def test_look_mode_moves_a_cursor_says_what_is_known_and_esc_leaves():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen, game_map = app.screen, app.screen.query_one(GameMap)
        await pilot.press("escape", "x")
        assert screen.looking and game_map.cursor == START
        assert hint(app).startswith("x 200 y 200 level 100: you are here")
        await pilot.press("right", "d")  # arrows and WASD move the cursor, not the player
        assert game_map.cursor == (202, 200, 100) and "passage" in hint(app) and screen.session.game.state.turn == 0
        await pilot.press("shift+up", "k")  # a leap of five, then vi's up
        assert game_map.cursor == (202, 206, 100) and "unknown: not seen yet" in hint(app)
        await pilot.press("escape")
        assert not screen.looking and game_map.cursor is None and app.focused is game_map
        await pilot.press("semicolon")  # NetHack's key too
        assert screen.looking
        await pilot.press("q")
        assert not screen.looking


async def test_enter_on_a_cell_no_known_way_reaches_keeps_examining_and_esc_clears_the_line():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape", "x", "shift+up", "enter")  # five cells north: not seen yet
        screen = app.screen
        assert screen.looking and "No way you know leads to x 200 y 205 level 100" in hint(app)
        assert screen.session.game.state.turn == 0
        await pilot.press("escape")
        assert not screen.looking and hint(app) == ""  # no stale line left under the map


async def test_a_click_looks_at_a_cell_and_a_second_click_travels_there():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen, game_map = app.screen, app.screen.query_one(GameMap)
        f = game_map.frame
        target = (202, 200, 100)
        at = ((target[0] - f.left) * f.scale + 1, (f.top - target[1]) * f.tall // f.stack)
        await pilot.click(GameMap, offset=(at[0] + 1, at[1] + 1))  # the map's border is a cell wide
        assert screen.looking and game_map.cursor == target
        await pilot.click(GameMap, offset=(at[0] + 1, at[1] + 1))
        await wait_for(pilot, lambda: screen.travel is None and screen.session.game.state.user == target)
        assert not screen.looking and "You arrive at x 202 y 200 level 100." in hint(app)


async def test_travel_walks_the_known_way_a_leg_a_turn():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await walk_to_the_corner(pilot)
        await enter(pilot, "travel 200 200")  # the level: the player's
        await wait_for(pilot, lambda: screen.travel is None)
        session = screen.session
        assert session.game.state.user == START and session.game.state.turn == 4  # two walks, two legs back
        assert [(u.direction, u.steps) for u, _ in session.match.played[2:]] == [("NORTH", 2), ("WEST", 4)]
        await enter(pilot, "travel <")  # the ramp up it saw at the start is out of sight: none known
        assert "no way to a ramp up" in hint(app) and session.game.state.turn == 4


async def test_a_danger_on_the_way_stops_the_travel_at_once():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await walk_to_the_corner(pilot)
        session = screen.session
        assert session.response.minotaur_cue.proximity == "FAINT"
        session.game.state = dataclasses.replace(session.game.state, minotaur=(197, 200, 100))  # CLOSE once north
        await enter(pilot, "travel 200 200 100")
        await wait_for(pilot, lambda: screen.travel is None)
        assert session.game.state.turn == 3 and session.game.state.user == (204, 200, 100)  # one leg, not two
        assert "Travel stopped: the Minotaur sounds close." in log_words(app)


async def test_a_resumed_game_opens_with_its_history_and_the_stones_bearings():
    app = LabyrinthApp(NewGame(7, "tiny", "normal", PLAYER, "builtin", learning=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for line in ("look", "move east 2", "halt 2"):
            await enter(pilot, line)
        told = log_words(app)
        await pilot.press("ctrl+q")
        await pilot.pause()
    (saved,), _ = list_games()
    again = LabyrinthApp()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        again.resume(saved)
        await wait_for(pilot, lambda: isinstance(again.screen, GameScreen))
        await pilot.pause()
        resumed = log_words(again)
        for words in ("The BLUE STONE hums to the NORTH-WEST, on this level.", "You hold still for 2 s."):
            assert words in told and words in resumed
        assert resumed.startswith("You wake in the dark heart") and resumed.count("> ") == 3
        cue = again.screen.query_one(CuePanel)
        assert "stones 0:01: R" in str(cue.render())
        await pilot.pause()
        assert cue.content_size.height == 3  # a line each: shown before its width was known, fitted after
