"""The map is the screen: it grows with the terminal, takes the whole screen on a key, draws the
hunting ground's edge, the trail walked and where the user is when looking at other levels, and
every glyph it can draw is in the help's legend. In spectate, `o` shows the whole level."""

import dataclasses

import pytest

from labyrinth.engine.presets import PRESETS
from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.help import HELP
from labyrinth.tui.screens.spectate import SpectateScreen
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.widgets.map_frame import MARGIN
from labyrinth.tui.widgets.map_glyphs import EDGE, HERE, LEGEND, TRAIL, USER
from labyrinth.tui.widgets.minimap import Minimap

TINY = NewGame(3, "tiny", "normal", PLAYER, "builtin")
SMALL = NewGame(7, "small", "normal", PLAYER, "builtin")
WATCHED = NewGame(4, "small", "normal", "builtin", "builtin")


def drawn(game_map: Minimap) -> list[str]:
    return [game_map.render_line(y).text for y in range(game_map.size.height)]


async def typed(pilot, *lines: str) -> None:
    for line in lines:
        await pilot.press(*line, "enter")
        await pilot.pause()


async def test_the_map_grows_with_the_terminal_and_everything_fits_at_80_by_24():
    shown = []
    for size in ((80, 24), (120, 40), (200, 60)):
        app = LabyrinthApp(NewGame(7, "standard", "normal", PLAYER, "builtin"))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            frame = screen.query_one(Minimap).frame
            shown.append(frame.columns * frame.rows)
            for part in ("#map", "#log", "#cue", "#status", "#command"):  # each on screen, none squeezed out
                region = screen.query_one(part).region
                assert region.width >= 20 and region.height >= 1, part
                assert region.right <= size[0] and region.bottom <= size[1], part
            if size == (80, 24):  # the standard ground does not fit: the view stops at its edge, wastes no line
                ground = PRESETS["standard"]
                assert ground.x0 - 1 <= frame.left and frame.left + frame.columns <= ground.x0 + ground.width + 1
                assert frame.top <= ground.y0 + ground.height and frame.top - frame.rows >= ground.y0 - 2
            if size == (200, 60):
                assert frame.columns >= 60 and frame.rows >= 45  # was 23 cells wide at any size
                assert screen.query_one("#log").region.width <= 72  # a readable measure, not 150 columns
    assert shown[0] < shown[1] < shown[2]


async def test_f2_gives_the_map_the_whole_screen_and_back():
    app = LabyrinthApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        game_map = screen.query_one(Minimap)
        narrow = game_map.region.width
        await pilot.press("f2")
        await pilot.pause()
        assert not screen.query_one("#side").display and game_map.region.width == 120 > narrow
        assert app.focused.id == "command"  # typing goes on meanwhile
        await pilot.press("f2")
        await pilot.pause()
        assert screen.query_one("#side").display and game_map.region.width == narrow


async def test_the_trail_and_the_grounds_edge_are_drawn():
    app = LabyrinthApp(TINY)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        session, game_map = screen.session, screen.query_one(Minimap)
        for way in ("n", "e", "s", "w"):  # walk where the passages let
            if way.upper()[0] in "".join(d[0] for d in session.response.environment.visible_paths):
                await typed(pilot, way)
        user = session.game.state.user
        trail = [p for p in session.mapped.walked if p != user and session.mapped.seen.get(p) == 1 and p[2] == user[2]]
        assert trail, "the user walked somewhere"
        marks = game_map._marks(game_map.view, user[2])
        assert all(game_map.glyph(game_map.view, p, marks) is TRAIL for p in trail)
        lines = drawn(game_map)
        assert sum(TRAIL.text.strip() in line for line in lines) >= 1
        ground = PRESETS["tiny"]  # 16 x 16: it fits, so the whole edge is in view, a ring of 18 x 18
        full = EDGE.text * (ground.width + 2)
        assert sum(full in line for line in lines) == 2  # north and south
        assert sum(line.count(EDGE.text) == 2 for line in lines) == ground.height  # west and east
        assert sum(USER.text in line for line in lines) == 1


async def test_looking_at_another_level_marks_where_you_are():
    app = LabyrinthApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        game_map = screen.query_one(Minimap)
        await pilot.press("escape", "left_square_bracket")
        await pilot.pause()
        x, y, z = screen.session.game.state.user
        assert game_map.level == z + 1 and f"you are on {z}" in str(game_map.border_title)
        assert game_map.glyph(game_map.view, (x, y, z + 1), game_map._marks(game_map.view, z + 1)) is HERE
        lines = drawn(game_map)
        assert sum(line.count(HERE.text) for line in lines) == 1 and not any(USER.text in line for line in lines)


async def test_the_legend_lists_every_glyph_the_map_draws():
    """Every piece of text the map draws, in every view (fog, looking, all-seeing, half width), is a
    glyph of the legend; and the help shows each of them with its meaning."""
    legend = {g.text for g in LEGEND} | {g.text[0] for g in LEGEND}
    app = LabyrinthApp(WATCHED, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        game_map = screen.query_one(Minimap)
        for _ in range(30):
            screen.action_step()
        await pilot.pause()
        seen = set()
        for press in ("", "o", "left_square_bracket", "right_square_bracket", "right_square_bracket", "o"):
            if press:
                await pilot.press(press)
                await pilot.pause()
            scale = game_map.frame.scale  # a segment draws a run of cells drawn alike: cut it into cells
            for y in range(game_map.size.height):
                seen |= {segment.text[i:i + scale] for segment in game_map.render_line(y)
                         for i in range(0, len(segment.text), scale) if segment.text[i:i + scale].strip()}
        assert seen and seen <= legend, seen - legend
    for glyph in LEGEND:
        assert glyph.meaning in HELP and (not glyph.text.strip() or f"`{glyph.text.rstrip()}`" in HELP)


async def test_o_in_spectate_shows_the_whole_level_with_both_agents():
    app = LabyrinthApp(WATCHED, autoplay=False)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SpectateScreen)
        game_map = screen.query_one(Minimap)
        assert game_map.region.x == 0 and game_map.region.width > 120  # map first
        await pilot.press("o")
        await pilot.pause()
        ground, state = PRESETS["small"], screen.session.game.state
        f = game_map.frame
        assert f.left < ground.x0 and f.left + f.columns > ground.x0 + ground.width  # every column of the level
        assert f.top >= ground.y0 + ground.height and f.top - f.rows < ground.y0  # and every row
        text = "\n".join(drawn(game_map))
        assert "@" in text
        if state.minotaur[2] == state.user[2]:
            assert "M" in text
        else:
            assert f"Minotaur on {state.minotaur[2]}" in str(game_map.border_title)
        assert "all-seeing" in str(game_map.border_title)
        await pilot.press("a")  # the agents' panel folds away, and comes back
        await pilot.pause()
        assert not screen.query_one("#agents").display
        await pilot.press("a")
        await pilot.pause()
        assert screen.query_one("#agents").display


def test_a_user_beyond_the_edge_stays_in_view_and_the_cells_there_are_drawn():
    """The maze goes on outside the hunting ground and the user may walk out (rules, section 3)."""
    from labyrinth.tui.widgets.map_frame import MapView, frame
    from labyrinth.tui.widgets.map_glyphs import CELL_GLYPHS

    ground = PRESETS["small"]
    outside = (ground.x0 + 5, ground.y0 + ground.height + 4, ground.z0 + 1)
    view = MapView({outside: 1}, outside, {}, None, False, {outside}, ground)
    for width, height in ((40, 16), (130, 53)):
        f = frame(view, outside[2], width, height)
        assert f.left <= outside[0] < f.left + f.columns and f.top - f.rows < outside[1] <= f.top
    game_map = Minimap()
    game_map.view = view
    beside = (outside[0] + 1, outside[1], outside[2])
    assert game_map.glyph(view, outside, {}) is TRAIL and game_map.glyph(view, beside, {}) is not EDGE
    view.cells[(ground.x0, ground.y0 - 1, outside[2])] = 1  # a known cell on the edge's ring shows itself
    assert game_map.glyph(view, (ground.x0, ground.y0 - 1, outside[2]), {}) is CELL_GLYPHS[1]
    assert game_map.glyph(view, (ground.x0 + 1, ground.y0 - 1, outside[2]), {}) is EDGE


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_the_user_keeps_a_margin_of_cells_on_every_side_or_the_whole_ground_is_in_view(size):
    """The map never lets `@` stand in its edge column with what lies beyond hidden (issue 41): a margin
    of MARGIN cells around it, as an editor's scrolloff, on every size; along an axis where the whole
    ground fits, a user on it sees all of it instead."""
    ground = PRESETS["standard"]
    app = LabyrinthApp(NewGame(7, "standard", "normal", PLAYER, "builtin"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        game_map = app.screen.query_one(Minimap)
        held = dataclasses.replace(game_map.view, walked=())
        xs = (ground.x0 - 10, ground.x0 - 2, ground.x0 - 1, ground.x0, ground.x0 + 2, ground.x0 + ground.width // 2,
              ground.x0 + ground.width - 1, ground.x0 + ground.width, ground.x0 + ground.width + 3)
        ys = (ground.y0 - 6, ground.y0, ground.y0 + 1, ground.y0 + ground.height // 2, ground.y0 + ground.height + 1)
        for user in ((x, y, 100) for x in xs for y in ys):
            game_map.show(dataclasses.replace(held, user=user))
            f = game_map.frame
            for at, first, size_, lo, hi in ((user[0], f.left, f.columns, ground.x0 - 1, ground.x0 + ground.width),
                                            (user[1], f.top - f.rows + 1, f.rows, ground.y0 - 1,
                                             ground.y0 + ground.height)):
                whole = first <= lo <= at <= hi < first + size_
                assert whole or first + MARGIN <= at < first + size_ - MARGIN, (size, user, f)
        if size == (200, 60):  # a big terminal holds the whole standard ground
            assert game_map.frame.columns >= ground.width + 2 and game_map.frame.rows >= ground.height + 2
