"""The TUI with model agents, through Pilot, against stub servers and the real
SDKs: the hot seat keeps the screen live while the Minotaur thinks, a missing
key offers the built-in Minotaur, and two models can be spectated."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

from labyrinth.saves.games import PLAYER, list_games
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.provider_missing import ProviderMissingScreen
from labyrinth.tui.screens.spectate import SpectateScreen
from labyrinth.tui.screens.title import NewGame, TitleScreen
from labyrinth.tui.widgets.minimap import Minimap
from tests.agents.learning.test_memory import EVENTS_LESSONS
from tests.stubs import Model, Stub
from tests.tui.test_tui import SIZE, choose, opened, type_line, wait_for

pytestmark = pytest.mark.slow

KEY = "sk-tui-never-on-disk"


@pytest.fixture
def gemini(monkeypatch):
    stub = Stub(Model("gemini", delay_s=0.6))
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", stub.url)
    yield stub
    stub.close()


class Held:
    """A model whose answers wait until the test lets them go: the Minotaur thinks exactly as long as the
    test says, not as long as a loaded machine happens to take."""

    def __init__(self, respond) -> None:
        self.respond, self.gate, self.answered = respond, threading.Event(), 0

    def __call__(self, request: dict):
        self.gate.wait(timeout=30)  # a bound, so a failing test cannot hang the suite
        self.answered += 1
        return self.respond(request)


def _background_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "labyrinth-background"}


async def test_hot_seat_thinks_in_the_background_while_the_screen_stays_live(gemini, tmp_path, clock):
    app = LabyrinthApp(NewGame(5, "small", "normal", PLAYER, "gemini"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, GameScreen))  # the plan came back
        screen = app.screen
        gemini.respond = held = Held(gemini.respond)
        await type_line(pilot, "look")
        hint = screen.query_one("#hint", Static)
        assert "The Minotaur is thinking... 0.0 s" in str(hint.render())
        command = screen.query_one("#command", Input)
        assert screen.session.game.state.turn == 0 and not command.disabled and app.focused is command  # queues
        clock.advance(2.5)
        await wait_for(pilot, lambda: "thinking... 2.5 s" in str(hint.render()))  # the indicator's next tick
        await pilot.press("escape", "left_square_bracket")  # the map's keys still answer meanwhile
        assert screen.query_one(Minimap).level_offset == 1
        held.gate.set()
        await wait_for(pilot, lambda: screen.thinking is None)
        assert screen.session.game.state.turn == 1 and screen.session.minotaur.stats.decisions == 1
        assert screen.session.minotaur.stats.fallbacks == 0 and "thinking" not in str(hint.render())
        await pilot.press("ctrl+s")
        await pilot.pause()
    chats = [r for r in gemini.requests if r["path"].endswith(":generateContent")]
    assert len(chats) == 2 and "You are the Minotaur" in chats[0]["body"]["systemInstruction"]["parts"][0]["text"]
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".jsonl" for p in written) and not [p for p in written if KEY in p.read_text()]


async def test_hot_seat_without_a_key_offers_the_builtin_minotaur():
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await choose(pilot, app, "hotseat")
        assert isinstance(app.screen, ProviderMissingScreen)
        assert "GEMINI_API_KEY" in str(app.screen.query_one(".problem", Static).render())
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        await choose(pilot, app, "hotseat")
        await pilot.press("enter")  # "Play the built-in Minotaur instead" has the focus
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.session.minotaur_kind == "builtin"


async def test_the_form_offers_every_provider_for_both_roles_and_two_models_can_be_spectated(monkeypatch):
    mistral, ollama = Stub(Model("mistral")), Stub(Model("ollama", {3: "garbage"}))
    monkeypatch.setenv("MISTRAL_API_KEY", KEY)
    monkeypatch.setenv("MISTRAL_BASE_URL", mistral.url + "/v1")  # as the docs give it: the /v1 is dropped
    monkeypatch.setenv("OLLAMA_HOST", ollama.url)
    try:
        app = LabyrinthApp(autoplay=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            user, minotaur = app.screen.query_one("#user", Select), app.screen.query_one("#minotaur", Select)
            for select in (user, minotaur):
                offered = {value for _, value in select._options}
                assert {"builtin", "gemini", "mistral", "ollama"} <= offered
            assert any("gemini (no key)" in str(label) for label, _ in user._options)
            app.screen.query_one("#seed", Input).value = "5"
            user.value, minotaur.value = "mistral", "ollama"
            await choose(pilot, app, "spectate")
            await wait_for(pilot, lambda: opened(app, SpectateScreen))
            screen = app.screen
            for _ in range(4):  # step by hand
                screen.action_step()
                await wait_for(pilot, lambda: not screen.stepping)
            match = screen.session.match
            assert match.turns == 4 and match.stats["minotaur"].invalid == 1
            panel = str(screen.query_one("#agents").render())
            assert "mistral/mistral-small-latest" in panel and "plan: Listen first." in panel
            assert "tokens" in panel and "invalid 1" in panel
    finally:
        mistral.close()
        ollama.close()


async def test_a_second_start_while_the_first_is_opening_is_refused(gemini):
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        background = _background_threads()
        said, notify = [], app.notify  # read as it is given: the notice lasts 2 s, which a loaded machine's
        app.notify = lambda message, **options: (said.append(message), notify(message, **options))  # pause outlasts
        app.start(NewGame(5, "small", "normal", PLAYER, "gemini"))
        app.start(NewGame(6, "small", "normal", PLAYER, "gemini"))
        assert len(_background_threads() - background) == 1  # no second plan asked for
        assert "A game is already starting." in said
        await wait_for(pilot, lambda: opened(app, GameScreen))
        await pilot.pause()
        assert [type(s).__name__ for s in app.screen_stack] == ["Backdrop", "TitleScreen", "GameScreen"]
        assert app.screen.session.seed == 5


async def test_quitting_while_the_minotaur_thinks_does_not_wait_for_its_answer(gemini):
    gemini.respond.delay_s = 0.0
    app = LabyrinthApp(NewGame(5, "small", "normal", PLAYER, "gemini"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, GameScreen))
        gemini.respond = held = Held(gemini.respond)  # the next answer comes only when the test says
        await type_line(pilot, "look")
        await pilot.press("ctrl+s")  # refused while the turn is half played
        await pilot.pause()
        assert app.screen.thinking is not None and not list(Path(os.environ["XDG_DATA_HOME"]).rglob("*.json"))
        await pilot.press("ctrl+q")
    assert app.return_code == 0 and held.answered == 0  # the app is gone; the call is left behind in its thread



async def test_a_stop_signal_while_the_minotaur_thinks_saves_the_game_as_of_its_last_whole_turn(gemini):
    gemini.respond.delay_s = 0.0
    app = LabyrinthApp(NewGame(5, "small", "normal", PLAYER, "gemini"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, GameScreen))
        session = app.screen.session
        await type_line(pilot, "look")
        await wait_for(pilot, lambda: app.screen.thinking is None)
        whole = session.game.state
        gemini.respond = held = Held(gemini.respond)
        await type_line(pilot, "halt 3")
        assert app.screen.thinking is not None and session.game.state is whole  # the turn is half played
        app.stop_by_signal(signal.SIGTERM)
    held.gate.set()
    (saved,), _ = list_games()
    assert app.return_code == 143 and app.saved_on_leaving == [saved.path]
    assert len(saved.turns) == 1 and saved.digest == whole.digest()


async def test_an_answer_that_comes_back_after_the_game_was_left_plays_nothing(gemini):
    """Left (saved, its replay closed: a quit or a stop signal) while the Minotaur thought, the game takes no
    turn from the answer that comes back: its save stays the game as it was left, and so does the game."""
    gemini.respond.delay_s = 0.0
    app = LabyrinthApp(NewGame(5, "small", "normal", PLAYER, "gemini"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, GameScreen))
        session = app.screen.session
        await type_line(pilot, "look")
        await wait_for(pilot, lambda: app.screen.thinking is None)
        gemini.respond = held = Held(gemini.respond)
        background = _background_threads()
        await type_line(pilot, "halt 3")
        asking = _background_threads() - background
        session.leave()  # as quitting does, with the app still running to take the answer
        held.gate.set()
        await wait_for(pilot, lambda: not any(thread.is_alive() for thread in asking))  # handed to the UI thread
        assert held.answered == 1 and session.match.turns == 1 and session.game.state.turn == 1
    (saved,), _ = list_games()
    assert len(saved.turns) == 1

async def test_a_model_minotaurs_own_lesson_replaces_the_events_words_once_it_answers(gemini):
    from labyrinth.saves.experience import Experience

    gemini.respond.delay_s = 0.0
    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "gemini"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, GameScreen))
        session = app.screen.session
        for _ in range(40):
            if session.over:
                break
            await type_line(pilot, "halt 20")
            await wait_for(pilot, lambda: app.screen.thinking is None if isinstance(app.screen, GameScreen) else True)
        assert session.over and len(Experience().read()) == 2  # written at once, whatever the model says
        lessons = app.screen.query_one("#lessons", Static)
        await wait_for(pilot, lambda: "listen before each move" in str(lessons.render()))
    by_role = {r.role: r for r in Experience().read()}
    assert len(by_role) == 2 and by_role["minotaur"].source == "model" and by_role["user"].source == "events"
    assert by_role["minotaur"].evidence["from_events"].startswith(EVENTS_LESSONS)
