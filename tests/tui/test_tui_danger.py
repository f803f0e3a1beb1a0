"""Danger drops the keys typed ahead, driven through Pilot: keys already on their way when the
Minotaur's hoofbeats rise to CLOSE (or when the game ends) are not played, nor counted; the log
says so once; a key pressed after that plays. A typed move into a known wall costs nothing."""

from __future__ import annotations

import dataclasses

import pytest
from textual import events
from textual.widgets import Input, Static

from labyrinth.saves.games import PLAYER
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replays import read_replay
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.widgets.narrative import NarrativeLog

from .test_tui import SIZE

pytestmark = pytest.mark.slow

TINY = NewGame(7, "tiny", "normal", PLAYER, "builtin", learning=False)  # the user starts at (200, 200, 100)
CLOSE_BY = (195, 200, 100)  # five steps west down the corridor: CLOSE, out of sight
NEXT_TO = (201, 200, 100)  # a step east: walking into it is death


NAMES = {" ": "space", "\n": "enter", "←": "left"}


def burst(app, keys: str) -> None:
    """Keys typed in one burst: all on their way before the first is played, as a terminal sends them."""
    for key in keys:
        app.post_message(events.Key(NAMES.get(key, key), key if key not in "\n←" else None))


def log_words(app) -> str:
    return " ".join(" ".join(line.text for line in app.screen.query_one(NarrativeLog).lines).split())


@pytest.mark.parametrize("keys, on_the_map", [
    ("    ", True),  # space halts: a printable key
    ("←←←←", True),  # an arrow walks: a key the bindings play
    ("halt\nhalt\nhalt\n", False),  # lines entered on the command line
])
async def test_keys_typed_before_the_hoofbeats_rise_are_dropped_and_the_log_says_so_once(keys, on_the_map):
    app = LabyrinthApp(TINY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        if on_the_map:
            await pilot.press("escape")
        session.game.state = dataclasses.replace(session.game.state, minotaur=CLOSE_BY)
        burst(app, keys)
        await pilot.pause()
        await pilot.pause()
        assert session.game.state.turn == 1 and session.response.minotaur_cue.proximity in ("CLOSE", "VERY CLOSE")
        assert log_words(app).count("Keys typed ahead were dropped: the Minotaur sounds") == 1
        assert app.screen.query_one("#command", Input).value == ""  # no line typed ahead is left to send
        await pilot.press(*(["space"] if on_the_map else [*"halt", "enter"]))  # pressed after the danger: played
        await pilot.pause()
        assert session.game.state.turn == 2


async def test_no_key_pressed_after_the_end_is_played_or_counted(clock):
    app = LabyrinthApp(TINY, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await pilot.press("escape")
        session.game.state = dataclasses.replace(session.game.state, minotaur=NEXT_TO)
        burst(app, "dddd")
        await pilot.pause()
        await pilot.pause()
        assert session.over and session.match.turns == 1  # the three steps after the first: dropped
        session.begin(session.match.played[0][0])  # and a command let through after the end counts nothing
        (path,) = replays_dir().glob("*.jsonl")
        recorded = read_replay(path)
        assert session.figures.turns == recorded.end.turns == len(recorded.turns) == 1


async def test_a_typed_move_into_a_known_wall_costs_nothing():
    app = LabyrinthApp(TINY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        assert "SOUTH" not in session.response.environment.visible_paths
        app.screen.query_one("#command", Input).value = "move south 3"
        await pilot.press("enter")
        assert session.game.state.turn == 0 and str(app.screen.query_one("#hint", Static).render()) == "A wall."
