"""Keys that never surprise, through Pilot: the game-over buttons answer Enter, Space and a click;
a letter typed on the map goes to the command line; the log scrolls by keyboard, re-wraps on a
resize and has a history view; in the hot seat, commands typed while the model thinks queue."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual import events
from textual.widgets import Button, Input, Static

from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.game_over import QUIET_S, GameOverScreen
from labyrinth.tui.screens.history import HistoryScreen
from labyrinth.tui.screens.title import NewGame, TitleScreen
from labyrinth.tui.widgets.minimap import Minimap
from labyrinth.tui.widgets.narrative import BATCH, NarrativeLog
from tests.tui.test_tui import GAME, SIZE, halt_until_over, opened, type_line, wait_for
from tests.tui.test_tui_waits import held_agents

pytestmark = pytest.mark.slow

TINY = NewGame(5, "tiny", "normal", PLAYER, "builtin")


@pytest.mark.parametrize("button, how", [("new", "enter"), ("title", "space"), ("quit", "click")])
async def test_every_game_over_button_chooses_by_enter_space_or_click(clock, button, how):
    app = LabyrinthApp(TINY, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await halt_until_over(pilot, session)
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert [str(b.label) for b in over.query(Button)] == ["New game (n)", "Title (t)", "Quit (q)", "Story (s)"]
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


def log_words(log) -> list[str]:
    return " ".join(line.text for line in log.lines).split()


def holds(words: list[str], part: list[str]) -> bool:
    """Whether ``part`` appears in ``words``, whole and in order."""
    return any(words[i:i + len(part)] == part for i in range(len(words) - len(part) + 1))


async def test_a_letter_typed_on_the_map_goes_to_the_command_line():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session, command = app.screen.session, app.screen.query_one("#command", Input)
        await pilot.press("escape")
        assert isinstance(app.focused, Minimap)
        for char in "m n 3":  # m is no map key: the whole line arrives, no letter moves (n, space: keys),
            app.post_message(events.Key("space" if char == " " else char, char))  # even those already on their way
        await pilot.pause()
        assert app.focused is command and command.value == "m n 3" and session.game.state.turn == 0
        await pilot.press("enter")
        await pilot.pause()
        assert session.game.state.turn == 1 and session.match.played[-1][0].command == "MOVE"


async def test_page_keys_scroll_the_log_while_typing_and_take_ramps_on_the_map():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        session, log, hint = screen.session, screen.query_one(NarrativeLog), screen.query_one("#hint", Static)
        for _ in range(12):
            await type_line(pilot, "look")
        await pilot.pause()
        bottom, turn = log.scroll_y, session.game.state.turn
        assert bottom > 0 and bottom == log.max_scroll_y
        await pilot.press("pageup")
        assert log.scroll_y < bottom and session.game.state.turn == turn and "ramp" not in str(hint.render())
        paged = log.scroll_y
        await pilot.press("shift+down")
        assert log.scroll_y == paged + 1
        await pilot.press("shift+up", "pagedown")
        assert log.scroll_y == bottom and app.focused.id == "command"
        await pilot.press("escape", "pageup")  # on the map: a ramp, and there is none here
        assert str(hint.render()) == "No ramp leads up here." and session.game.state.turn == turn


async def test_the_log_keeps_its_end_in_view_when_its_height_changes_until_the_player_scrolls_up():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(NarrativeLog)
        for _ in range(12):
            await type_line(pilot, "look")
        await pilot.resize_terminal(SIZE[0], SIZE[1] - 6)  # a shorter log, as wide: nothing is wrapped again
        await pilot.pause()
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        await pilot.press("pageup")  # reading back: the view stays where the player put it
        paged = log.scroll_y
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert log.scroll_y == paged < log.max_scroll_y
        await type_line(pilot, "look")  # a new entry: the end again
        assert log.scroll_y == log.max_scroll_y


async def test_ctrl_o_shows_the_whole_games_messages():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.screen
        for line in ("look", "halt 2", "m n 3"):
            await type_line(pilot, line)
        await pilot.press("ctrl+o")
        await pilot.pause()
        history = app.screen
        assert isinstance(history, HistoryScreen)
        shown = history.query_one(NarrativeLog)
        assert shown.entries == game.query_one(NarrativeLog).entries and app.focused is shown
        words = log_words(shown)
        assert holds(words, ["look"]) and holds(words, ["halt", "2"]) and holds(words, ["m", "n", "3"])
        assert shown.size.width > game.query_one(NarrativeLog).size.width  # the whole screen's width
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game


async def test_the_log_wraps_again_when_the_terminal_shrinks_and_grows():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for line in ("halt 2", "look"):
            await type_line(pilot, line)
        log = app.screen.query_one(NarrativeLog)
        said = log.entries[-2].plain.split()  # the look's words, as the log tells them (the place folded)
        entries, width, first = len(log.entries), log.scrollable_content_region.width, [s.text for s in log.lines]
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        narrow = log.scrollable_content_region.width
        assert narrow < width and len(log.lines) > len(first) and len(log.entries) == entries
        assert all(line.cell_length <= narrow for line in log.lines) and holds(log_words(log), said)
        await pilot.resize_terminal(200, 60)
        await pilot.pause()
        assert max(line.cell_length for line in log.lines) > width  # a long line, cut no more
        assert holds(log_words(log), said) and log.scroll_y == log.max_scroll_y
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert [s.text for s in log.lines] == first


async def test_commands_typed_while_a_model_minotaur_thinks_queue_and_play_in_order(monkeypatch, clock):
    held = held_agents(monkeypatch)
    app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "gemini"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, GameScreen))
        screen, minotaur = app.screen, held["minotaur"]
        assert "vs gemini/test" in str(screen.query_one(NarrativeLog).border_title)
        hint, command = screen.query_one("#hint", Static), screen.query_one("#command", Input)
        minotaur.decide_gate.clear()
        await type_line(pilot, "look")
        assert screen.thinking is not None and app.focused is command and not command.disabled
        await type_line(pilot, "halt 2")
        await type_line(pilot, "m n 2")
        assert "next: halt 2, m n 2" in str(hint.render()) and screen.session.game.state.turn == 0
        minotaur.decide_gate.set()
        await wait_for(pilot, lambda: screen.session.game.state.turn == 3 and screen.thinking is None)
        assert [c.command for c, *_ in screen.session.match.played] == ["LOOK", "HALT", "MOVE"]
        assert app.focused is command and "next" not in str(hint.render())


async def test_a_long_log_wraps_again_newest_first_then_whole():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(NarrativeLog)
        for i in range(3 * BATCH):  # a thousand turns' worth of entries, each wrapped at this width
            log.write(Text(f"entry {i}: " + "words to wrap " * 10))
        await pilot.resize_terminal(60, 24)
        await wait_for(pilot, lambda: not log.unwrapped)
        width = log.scrollable_content_region.width
        assert [s.text for s in log.lines] == [s.text for e in log.entries for s in log._wrap(e, width)]
        assert log.scroll_y == log.max_scroll_y and all(s.cell_length <= width for s in log.lines)
