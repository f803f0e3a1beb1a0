"""The rest of the game screen a roguelike player expects, through Pilot: spectate's `o` fits the
whole level at 80x24, spectate's footer keeps quit and help, a resumed game leaves one replay, the
Replays screen lists games a player can read, and a word typed on the map arrives whole."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from labyrinth.engine.presets import PRESETS
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.widgets.minimap import HALVES, ITEM_GLYPHS, Minimap
from tests.test_map import drawn

WATCHED = NewGame(4, "small", "normal", "builtin", "builtin")


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
