"""The rest of the game screen a roguelike player expects, through Pilot: spectate's `o` fits the
whole level at 80x24, spectate's footer keeps quit and help, a resumed game leaves one replay, the
Replays screen lists games a player can read, and a word typed on the map arrives whole."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.widgets._footer import FooterKey

from labyrinth.engine import UserInput
from labyrinth.engine.presets import PRESETS
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replays import read_replay
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.title import HUMAN, NewGame
from labyrinth.tui.session import PlaySession
from labyrinth.tui.widgets.minimap import HALVES, ITEM_GLYPHS, Minimap
from tests.test_map import drawn
from tests.test_tui import SIZE, choose, halt_until_over, type_line

WATCHED = NewGame(4, "small", "normal", "builtin", "builtin")
TINY = NewGame(5, "tiny", "normal", HUMAN, "builtin")


@pytest.mark.parametrize("size, scale, stack", [((80, 24), 1, 2), ((120, 40), 1, 1), ((200, 60), 2, 1)])
async def test_o_fits_the_whole_small_level_with_both_agents_and_grows_with_the_terminal(size, scale, stack):
    app = LabyrinthApp(WATCHED, autoplay=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        game_map = screen.query_one(Minimap)
        await pilot.press("o")
        await pilot.pause()
        ground, state = PRESETS["small"], screen.session.game.state
        f = game_map.frame
        assert (f.scale, f.stack) == (scale, stack)
        assert f.left < ground.x0 and f.left + f.columns > ground.x0 + ground.width  # every column, and the edge
        assert f.top > ground.y0 + ground.height - 1 and f.top - f.rows < ground.y0 - 1  # every row, and the edge
        text = "\n".join(drawn(game_map))
        z = state.user[2]
        marks = ["@", *(ITEM_GLYPHS[name].text[0] for name, pos in state.items if pos[2] == z)]
        marks += ["M"] if state.minotaur[2] == z else []
        assert all(mark in text for mark in marks), (marks, text)
        assert (HALVES.text in text) == (stack == 2)
        assert ("2 rows a line" in str(game_map.border_title)) == (stack == 2)


@pytest.mark.parametrize("width", [80, 120])
async def test_spectates_footer_fits_with_quit_and_help(width):
    app = LabyrinthApp(WATCHED, autoplay=False)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        keys = list(app.screen.query(FooterKey))
        shown = {key.key for key in keys if key.region.width and key.region.right <= width}
        assert {"ctrl+q", "f1", "space", "n", "o", "a", "escape"} <= shown, shown
        assert all(key.region.right <= width for key in keys)


def replays() -> list:
    return sorted(replays_dir().glob("*.jsonl"))


async def test_a_resumed_game_played_to_its_end_leaves_one_replay_of_it_all(clock):
    app = LabyrinthApp(TINY, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_line(pilot, "halt 1")
        await pilot.press("ctrl+t")  # saved, its replay closed where it stopped
        await pilot.pause()
        (first,) = replays()
        await choose(pilot, app, "continue")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("ctrl+t")  # resumed and left at once: the replay up to the save stays, alone
        await pilot.pause()
        assert replays() == [first]
        await choose(pilot, app, "continue")
        resumed = app.screen.session
        await halt_until_over(pilot, resumed)
        (kept,) = replays()
        replay = read_replay(kept)
        assert kept != first and replay.end is not None and replay.end.outcome == resumed.match.outcome
        assert [(t.user, t.minotaur) for t in replay.turns] == resumed.match.played


def test_an_edited_save_naming_another_games_replay_leaves_it_be():
    other = PlaySession(9, "tiny", learning=False)
    other.play(UserInput(command="HALT", steps=1))
    other.leave()
    (kept,) = replays()
    session = PlaySession(5, "tiny", learning=False)
    session.play(UserInput(command="HALT", steps=1))
    saved = replace(session.to_saved(), replay_file=kept.name)  # another game's replay
    session.leave()
    resumed = PlaySession.resume(saved, learning=False)
    resumed.play(UserInput(command="HALT", steps=1))
    assert kept in replays() and resumed.earlier_replay is None
