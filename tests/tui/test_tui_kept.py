"""What the game keeps for the player, through Pilot: the title menu's place after another screen (on
Continue when a game was just left), and the commands typed (up-arrow history) across a save and Continue."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, Select

from labyrinth.saves.games import PLAYER, list_games
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.replays import ReplaysScreen
from labyrinth.tui.screens.title import NewGame, TitleScreen

from .test_tui import GAME, SIZE, type_line

pytestmark = pytest.mark.slow


async def test_the_title_menu_keeps_its_place_after_another_screen():
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu-list", OptionList)
        assert menu.highlighted == 0
        while menu.highlighted_option is None or menu.highlighted_option.id != "replays":
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplaysScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert menu.highlighted_option is not None and menu.highlighted_option.id == "replays"
        await pilot.press("down", "enter")  # the next entry, as the player expects: Leaderboard
        await pilot.pause()
        assert type(app.screen).__name__ == "LeaderboardScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert menu.highlighted_option is not None and menu.highlighted_option.id == "leaderboard"
        menu.highlighted = [option.id for option in menu.options].index("play")
        await pilot.press("enter")
        await pilot.pause()
        await type_line(pilot, "look")
        await pilot.press("ctrl+t")  # a game left for the title: Continue, which holds it, is highlighted
        await pilot.pause()
        assert menu.highlighted_option is not None and menu.highlighted_option.id == "continue"


async def test_the_typed_commands_come_back_after_continue():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for line in ("look", "halt 2", "nrth"):  # a typo is recalled too: it is what was typed
            await type_line(pilot, line)
        await pilot.press("ctrl+t")
        await pilot.pause()
        menu = app.screen.query_one("#menu-list", OptionList)
        assert menu.highlighted_option is not None and menu.highlighted_option.id == "continue"  # the game just left
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        command = app.screen.query_one("#command", Input)
        assert app.focused is command and command.value == ""
        recalled = []
        for _ in range(3):
            await pilot.press("up")
            recalled.append(command.value)
        assert recalled == ["nrth", "halt 2", "look"]
        await pilot.press("enter")  # 'look' again, from the history
        await pilot.pause()
        session = app.screen.session
        assert session.game.state.turn == 3 and session.match.played[-1][0].command == "LOOK"


async def test_a_game_left_before_its_first_turn_says_there_is_nothing_to_continue():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+t")  # no turn played: nothing is saved, and the player is told so
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert list_games()[0] == []
        assert any(n.message == "No turn was played, so there is no game to continue." for n in app._notifications)
        assert app.screen.query_one("#menu-list", OptionList).options[0].id != "continue"


async def test_the_title_form_starts_from_the_last_games_ground_difficulty_and_minotaur():
    app = LabyrinthApp(NewGame(5, "tiny", "hard", PLAYER, "wait", learning=False))  # as `labyrinth play` starts one
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_line(pilot, "look")
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        chosen = {name: app.screen.query_one(f"#{name}", Select).value for name in ("preset", "difficulty", "minotaur")}
        assert chosen == {"preset": "tiny", "difficulty": "hard", "minotaur": "wait"}
        assert app.screen.query_one("#user", Select).value == PLAYER  # who plays is asked anew
