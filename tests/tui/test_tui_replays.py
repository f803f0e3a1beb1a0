"""Replays you can watch, driven through Textual's Pilot: every game played or watched in the TUI
is recorded, and the Replays screen plays one back on the map, stepped by hand or played on a
clock the test moves."""

import pytest
from textual.widgets import OptionList

from labyrinth.saves.games import PLAYER
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replays import first_mismatch, read_replay
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.playback import SPEEDS
from labyrinth.tui.screens.replay_player import ReplayPlayerScreen
from labyrinth.tui.screens.replays import ReplaysScreen
from labyrinth.tui.screens.title import NewGame, TitleScreen
from labyrinth.tui.widgets.minimap import Minimap

from .test_tui import GAME, SIZE, choose, halt_until_over, type_line, wait_for

pytestmark = pytest.mark.slow


def replays() -> list:
    return sorted(replays_dir().glob("*.jsonl"))


async def test_a_game_played_in_the_tui_leaves_a_replay_that_plays_again(clock):
    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "builtin"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await halt_until_over(pilot, session)
    (path,) = replays()
    replay = read_replay(path)
    assert replay.header.user_agent == PLAYER and replay.end is not None and replay.end.outcome == "DEATH"
    assert len(replay.turns) == session.match.turns and first_mismatch(replay) is None


async def test_a_game_left_for_the_title_leaves_its_replay_so_far_and_a_watched_match_its_own():
    app = LabyrinthApp(GAME, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for line in ("look", "move north", "halt 3"):
            await type_line(pilot, line)
        await pilot.press("ctrl+t")
        await pilot.pause()
        (played,) = replays()
        assert len(read_replay(played).turns) == 3 and read_replay(played).end is None
        app.start(NewGame(4, "small", "normal", "builtin", "builtin"))
        await pilot.pause()
        await pilot.press("n", "n")
        await pilot.pause()
    watched = [path for path in replays() if path != played]
    assert len(watched) == 1 and len(read_replay(watched[0]).turns) == 2


async def test_a_game_left_before_its_first_turn_leaves_no_replay_and_no_save():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen) and replays() == []
        assert app.screen.query_one("#menu-list", OptionList).get_option_at_index(0).id == "play"


async def open_player(pilot, app) -> ReplayPlayerScreen:
    await choose(pilot, app, "replays")
    assert isinstance(app.screen, ReplaysScreen)
    app.screen.query_one(OptionList).highlighted = 0
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, ReplayPlayerScreen)
    return app.screen


async def test_the_player_steps_back_and_forth_and_plays_on_the_clock(clock):
    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "builtin"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        played = app.screen.session
        for line in ("look", "move north", "halt 3", "halt 2", "look", "halt 1"):
            await type_line(pilot, line)
        game = played.match.game
        assert game.state.turn == 6
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        screen = await open_player(pilot, app)
        s = screen.session
        assert s.at == 0 and s.length == 6 and screen.sub_title == "paused"
        assert screen.query_one(Minimap).view.user == s.game.state.user
        await pilot.press("right")
        await pilot.press("n")
        await pilot.pause()
        assert s.at == 2 and s.game.state.turn == 2
        second = s.game.state
        await pilot.press("right", "left")
        await pilot.pause()
        assert s.at == 2 and s.game.state == second  # back a turn: the same game as before
        await pilot.press("space")
        assert screen.timer is not None and screen.sub_title == "playing"
        clock.advance(SPEEDS[screen.speed] * 2)  # two turns are due
        await wait_for(pilot, lambda: s.at == 4)
        await pilot.press("plus")  # faster
        clock.advance(SPEEDS[screen.speed] * 5)  # more than is left: it plays to the end and pauses
        await wait_for(pilot, lambda: s.at == 6 and screen.timer is None)
        assert s.game.state == game.state and screen.sub_title == "paused"
        assert screen.query_one(Minimap).view.user == game.state.user
        await pilot.press("o")
        assert screen.omniscient
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ReplaysScreen)
