"""Keys that never surprise, through Pilot: the game-over buttons answer Enter, Space and a click;
a letter typed on the map goes to the command line; the log scrolls by keyboard, re-wraps on a
resize and has a history view; in the hot seat, commands typed while the model thinks queue."""

from __future__ import annotations

import pytest
from textual.widgets import Button

from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.game_over import QUIET_S, GameOverScreen
from labyrinth.tui.screens.title import HUMAN, NewGame, TitleScreen
from tests.test_tui import SIZE, halt_until_over, wait_for

TINY = NewGame(5, "tiny", "normal", HUMAN, "builtin")


@pytest.mark.parametrize("button, how", [("new", "enter"), ("title", "space"), ("quit", "click")])
async def test_every_game_over_button_chooses_by_enter_space_or_click(clock, button, how):
    app = LabyrinthApp(TINY, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await halt_until_over(pilot, session)
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert [str(b.label) for b in over.query(Button)] == ["New game (n)", "Title (t)", "Quit (q)"]
        clock.advance(QUIET_S)
        await wait_for(pilot, lambda: over.ready)
        if how == "click":
            await pilot.click(f"#{button}")
        else:
            over.query_one(f"#{button}", Button).focus()
            await pilot.press(how)
        await pilot.pause()
        if button == "new":
            assert isinstance(app.screen, GameScreen) and app.screen.session is not session
        elif button == "title":
            assert isinstance(app.screen, TitleScreen)
    if button == "quit":
        assert not app.is_running
