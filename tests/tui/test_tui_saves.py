"""No lost games, driven through Textual's Pilot: leaving a game (ctrl+q, back to the title, a
closed terminal) saves it into its one save, which the title offers to continue; a finished game
is not offered; a save can be deleted, once confirmed."""

import asyncio
import os
import signal

import pytest
from textual.widgets import OptionList

from labyrinth.saves.games import PLAYER, list_games, saves_dir
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.saved_games import ConfirmDelete, SavedGamesScreen
from labyrinth.tui.screens.title import TitleScreen
from labyrinth.tui.stop_signals import STOP_SIGNALS

from .test_tui import GAME, SIZE, choose, halt_until_over, type_line

pytestmark = pytest.mark.slow


def saves() -> list:
    return sorted(saves_dir().glob("*.jsonl"))


async def play_a_little(pilot) -> None:
    await pilot.pause()
    for line in ("look", "move north", "halt 3"):
        await type_line(pilot, line)


async def test_ctrl_q_saves_the_game_and_the_next_run_offers_to_continue_it():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await play_a_little(pilot)
        state = app.screen.session.game.state
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0 and len(saves()) == 1
    again = LabyrinthApp()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = again.screen.query_one("#menu-list", OptionList)
        assert menu.get_option_at_index(0).id == "continue" and menu.highlighted == 0
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(again.screen, GameScreen) and again.screen.session.game.state == state


async def test_a_game_has_one_save_however_often_it_is_saved():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await play_a_little(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_line(pilot, "halt 2")
        await pilot.press("ctrl+s")
        await pilot.pause()
        session = app.screen.session
        assert saves() == [session.save_path]
        (saved,), _ = list_games()
        assert saved.digest == session.game.state.digest()
        await pilot.press("ctrl+q")  # the autosave overwrites it too
        await pilot.pause()
    assert saves() == [session.save_path]


async def test_back_to_the_title_keeps_the_game_and_it_resumes_into_the_same_save():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await play_a_little(pilot)
        played = app.screen.session
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen) and saves() == [played.save_path]
        await choose(pilot, app, "continue")
        resumed = app.screen.session
        assert isinstance(app.screen, GameScreen) and resumed is not played
        assert resumed.game.state == played.game.state and resumed.save_path == played.save_path
        await type_line(pilot, "look")
        await pilot.press("ctrl+t")
        await pilot.pause()
        (saved,), _ = list_games()
        assert saves() == [played.save_path] and saved.digest == resumed.game.state.digest()


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_saves_the_game_and_exits_with_its_status(signum):
    """A closed terminal (SIGHUP), or another process asking the game to end (SIGTERM, SIGINT: Ctrl-C is a
    key on the game's screen): the game is saved as quitting saves it, and the app exits through its own
    shutdown with 128 + the signal, the save kept for the shell to be told of."""
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await play_a_little(pilot)
        state = app.screen.session.game.state
        app.stop_by_signal(signum)  # what the event loop calls on the signal
        app.stop_by_signal(signal.SIGTERM)  # a second one while closing changes nothing
        await pilot.pause()
    (saved,), _ = list_games()
    assert app.return_code == 128 + signum and saves() == app.saved_on_leaving == [saved.path]
    assert saved.digest == state.digest() and len(saved.turns) == 3 and saved.summary.startswith("small, seed 7")


async def test_a_real_sigterm_reaches_the_handler_on_the_apps_event_loop():
    """The app that runs on a terminal (``catch_signals``, as ``run`` makes it) hears SIGTERM on its event
    loop: this test's own process is sent one, and the game is saved and the app closed."""
    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    app = LabyrinthApp(GAME, catch_signals=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN, None), \
                "no handler: the signal would end the test run"
            await play_a_little(pilot)
            os.kill(os.getpid(), signal.SIGTERM)
            await pilot.pause()
    finally:
        loop = asyncio.get_running_loop()
        for signum, handler in before.items():
            loop.remove_signal_handler(signum)
            signal.signal(signum, handler)
    assert app.stopped_by == signal.SIGTERM and app.return_code == 143 and len(saves()) == 1


async def test_a_finished_game_is_not_offered(clock):
    from labyrinth.tui.screens.title import NewGame

    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "builtin"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await type_line(pilot, "halt 1")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert len(saves()) == 1
        await halt_until_over(pilot, session)
        assert saves() == []  # its save went with the end of the game
        session.save()  # even a save of the finished game...
        assert len(saves()) == 1 and list_games() == ([], [])  # ...is not offered


async def test_a_save_is_deleted_only_once_confirmed():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await play_a_little(pilot)
        await pilot.press("ctrl+t")
        await pilot.pause()
        await choose(pilot, app, "resume")
        assert isinstance(app.screen, SavedGamesScreen)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDelete)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen) and len(saves()) == 1
        await pilot.press("d", "y")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen) and saves() == []
        assert app.screen.query_one("#save-list", OptionList).option_count == 0
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert app.screen.query_one("#menu-list", OptionList).get_option_at_index(0).id == "play"
