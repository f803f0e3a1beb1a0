"""What keeps a key press cheap: widgets that lay the screen out only when their box changes, a footer
rebuilt only when its keys change, and the garbage collector's full passes moved to the player's pauses."""

from __future__ import annotations

import gc
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from labyrinth.engine import Game
from labyrinth.engine.minotaur import routes_ahead
from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.idle_gc import IDLE_S, OLD_THRESHOLD, IdleCollector
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.widgets.fitted import Fitted
from labyrinth.tui.widgets.footer import SteadyFooter
from labyrinth.tui.widgets.status_bar import StatusBar


class Widgets(App):
    CSS = "#auto { height: auto; } #line { height: 1; }"

    def compose(self) -> ComposeResult:
        yield Fitted("one line", id="auto")
        yield StatusBar("status", id="line")


def spy_layouts(widget: Static) -> list[bool]:
    asked: list[bool] = []
    refresh = widget.refresh

    def spying(*regions, layout: bool = False, **kwargs):
        asked.append(layout)
        return refresh(*regions, layout=layout, **kwargs)
    widget.refresh = spying  # type: ignore[method-assign]
    return asked


async def test_a_fitted_widget_lays_out_only_when_its_number_of_lines_changes():
    app = Widgets()
    async with app.run_test(size=(40, 10)) as pilot:
        auto, line = app.query_one("#auto", Fitted), app.query_one("#line", StatusBar)
        auto_layouts, line_layouts = spy_layouts(auto), spy_layouts(line)
        auto.update("other words")
        line.update("a status that says something else")
        assert auto_layouts == [False] and line_layouts == [False]
        auto.update("two\nlines")
        await pilot.pause()
        assert auto_layouts[-1] is True and auto.size.height == 2
        line.update("two\nlines")  # a fixed height: the box never changes
        assert line_layouts[-1] is False
        auto.update("back to one", layout=True)  # the caller's word holds
        assert auto_layouts[-1] is True


class TwoFields(App):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("f5", "toggle", "toggle")]

    def __init__(self) -> None:
        super().__init__()
        self.extra = False

    def compose(self) -> ComposeResult:
        from textual.widgets import Input
        yield Input(id="a")
        yield Input(id="b")
        yield SteadyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True if action != "toggle" else (True if self.extra else None)

    def action_toggle(self) -> None:
        self.extra = not self.extra
        self.refresh_bindings()


async def test_the_footer_is_rebuilt_only_when_the_keys_it_shows_change():
    app = TwoFields()
    async with app.run_test() as pilot:
        footer = app.query_one(SteadyFooter)
        built = []
        compose = footer.compose
        footer.compose = lambda: (built.append(1), (yield from compose()))[1]  # type: ignore[method-assign]
        await pilot.press("tab")  # the app has the focus: the footer is built
        await pilot.pause()
        built.clear()
        await pilot.press("tab")  # focus moves to a field with the same keys: nothing to rebuild
        await pilot.pause()
        assert built == []
        app.extra = True  # the toggle's key now shows enabled rather than disabled
        app.refresh_bindings()
        await pilot.pause()
        assert built == [1]


def test_the_idle_collector_collects_after_a_pause_and_restores_the_settings():
    now, collected = [0.0], []
    before = gc.get_threshold()
    collector = IdleCollector(lambda: now[0], lambda: collected.append(now[0]))
    collector.start()
    try:
        assert gc.get_threshold() == (before[0], before[1], OLD_THRESHOLD)
        collector.tick()
        assert collected == []  # nothing happened since: nothing to collect
        collector.touched()
        now[0] = IDLE_S / 2
        collector.tick()
        assert collected == []  # a gap between two keys, not a pause
        now[0] = IDLE_S
        collector.tick()
        collector.tick()
        assert collected == [IDLE_S]  # once per pause
    finally:
        collector.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


async def test_a_turn_lays_the_game_screen_out_no_more():
    """A walk, a LOOK and a wait on the game screen: the log, the status line, the cue panel and the
    hint change, and the screen is not laid out again for it (it was four layouts a turn)."""
    app = LabyrinthApp(NewGame(7, "tiny", "normal", PLAYER, "builtin"), clock=lambda: 0.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("escape")
        await pilot.pause()
        layouts = []
        refresh_layout = screen._refresh_layout
        screen._refresh_layout = lambda *a, **k: (layouts.append(1), refresh_layout(*a, **k))[1]  # type: ignore[method-assign]
        turns = screen.session.match.turns
        for key in ("f", "space", "space"):
            await pilot.press(key)
            await pilot.pause()
        assert screen.session.match.turns == turns + 3
        assert layouts == []



async def test_the_minotaurs_first_routes_are_found_while_the_opening_is_read():
    """On a wide ground the first search builds the chunks it crosses (80 ms on `full`, five times any
    other turn): it is done between frames once the first one is drawn, so the first key's turn finds it made
    (that this changes no game: tests/engine/test_routes_ahead.py)."""
    fresh = Game.new(7, "small")
    expected = list(routes_ahead(fresh.world, fresh.state))
    app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "builtin"), clock=lambda: 0.0)
    async with app.run_test(size=(120, 40)) as pilot:
        game = app.screen.session.game

        def found() -> bool:
            return all((game.state.minotaur, goal) in game.world.routes for goal in expected)
        for _ in range(100):  # begun WORK_AHEAD_AFTER_S after the first frame, then a route an idle moment
            if found():
                break
            await pilot.pause(0.05)
        assert len(expected) == 4 and found() and game.state.turn == 0
