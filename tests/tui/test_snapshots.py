"""Snapshots of the main screens with a fixed seed: a change to how the game
looks shows up here. Update on purpose with `pytest --snapshot-update`."""

import pytest
from textual.widgets import Input

from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.title import NewGame

pytestmark = pytest.mark.slow

GAME = NewGame(11, "small", "normal", PLAYER, "builtin")
TINY = NewGame(7, "tiny", "normal", PLAYER, "builtin")


async def _steady(pilot) -> None:
    """No blinking cursor, no pending work: the same picture every time."""
    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


def test_title_screen(snap_compare):
    assert snap_compare(LabyrinthApp(), terminal_size=(120, 40), run_before=_steady)


def test_game_screen_after_a_few_turns(snap_compare):
    async def play(pilot):
        await _steady(pilot)
        for line in ("look", "e", "s", "w 2", "look"):
            await pilot.press(*line, "enter")
        await _steady(pilot)

    assert snap_compare(LabyrinthApp(GAME), terminal_size=(120, 40), run_before=play)


def test_game_screen_fits_80_by_24(snap_compare):
    async def play(pilot):
        await _steady(pilot)
        await pilot.press(*"look", "enter")
        await _steady(pilot)

    assert snap_compare(LabyrinthApp(GAME), terminal_size=(80, 24), run_before=play)


def test_spectate_screen(snap_compare):
    async def watch(pilot):
        await pilot.pause()
        screen = pilot.app.screen
        for _ in range(25):  # no timer plays a turn meanwhile: the same turns every time
            screen.action_step()
        await _steady(pilot)

    app = LabyrinthApp(NewGame(4, "small", "normal", "builtin", "builtin"), autoplay=False)
    assert snap_compare(app, terminal_size=(120, 40), run_before=watch)


def test_help_screen(snap_compare):
    async def help_(pilot):
        await _steady(pilot)
        await pilot.press("f1")
        await _steady(pilot)

    assert snap_compare(LabyrinthApp(GAME), terminal_size=(120, 40), run_before=help_)


def test_look_mode_at_80_by_24(snap_compare):
    """The cursor on the map (x), and the line that says what is known of its cell."""
    async def look(pilot):
        await _steady(pilot)
        await pilot.press(*"look", "enter", "escape", "right", "x", "left", "left", "up")
        await _steady(pilot)

    assert snap_compare(LabyrinthApp(TINY), terminal_size=(80, 24), run_before=look)


def test_full_map_keeps_the_threat_on_a_line(snap_compare):
    """F2: the map on the whole screen, the Minotaur's sound and the stones' bearings under it."""
    async def full(pilot):
        await _steady(pilot)
        await pilot.press(*"look", "enter", "f2")
        await _steady(pilot)

    assert snap_compare(LabyrinthApp(TINY), terminal_size=(120, 40), run_before=full)


def test_a_small_level_is_drawn_big_on_a_big_terminal(snap_compare):
    async def walk(pilot):
        await _steady(pilot)
        await pilot.press(*"e 2", "enter")
        await _steady(pilot)

    assert snap_compare(LabyrinthApp(TINY), terminal_size=(200, 60), run_before=walk)
