"""What a person sees while models wait, through Pilot: a quota wait counted down
(the hot seat's hint, the spectator's agent panel) on the screen's clock, and the
opening, where the Minotaur gets ready while the keys stay the game's. Agents here
are the built-in ones dressed as models: their waits are set by the test, never
waited for real."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from textual.widgets import Input, Static

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.pacing import Waiting
from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.opening import OpeningScreen
from labyrinth.tui.screens.spectate import SpectateScreen
from labyrinth.tui.screens.title import NewGame
from tests.stubs import FakeClock, Model, Stub
from tests.tui.test_tui import SIZE, opened, type_line, wait_for

pytestmark = pytest.mark.slow


class Held:
    """A built-in agent dressed as a model: it blocks, its plan and decisions wait for the test's
    gates (bounded, so that a failing test cannot hang the suite), and ``waiting`` is what the test sets."""

    blocking = True

    def __init__(self, agent, name: str = "gemini/test") -> None:
        self.agent, self.name = agent, name
        self.waiting: Waiting | None = None
        self.plan_gate, self.decide_gate = threading.Event(), threading.Event()
        self.plan_gate.set()
        self.decide_gate.set()

    def __getattr__(self, name: str):
        return getattr(self.agent, name)

    # The rest of what a model's agent answers (agents.base.ModelPlayer): it makes no real call.
    patience_s, failure, replacement, last_exchange = 30.0, None, None, None

    @property
    def transport(self):
        return SimpleNamespace(name=self.name, timeout_s=self.patience_s, waiting=self.waiting)

    def held_s(self) -> float:
        return 0.0

    def count_calls_in(self, stats, usable=None) -> None:
        """Its calls are none: nothing to count."""

    def lesson(self, what_happened: str) -> str | None:
        return None

    def plan(self, goals):
        self.plan_gate.wait(timeout=30)
        return ["Listen first."]

    def decide(self, observation):
        self.decide_gate.wait(timeout=30)
        return self.agent.decide(observation)


def held_agents(monkeypatch) -> dict[str, Held]:
    """Sessions get Held agents, whatever kind they ask for; the dict holds the latest of each role."""
    from labyrinth.tui import session

    made, held = session.make_agent, {}

    def make(role, kind, seed, *args, **kwargs):
        held[role] = Held(made(role, "builtin", seed, *args, **kwargs))
        return held[role]

    monkeypatch.setattr(session, "make_agent", make)
    monkeypatch.setenv("GEMINI_API_KEY", "k")  # the form's check: the provider is configured
    return held


def quota(transport: FakeClock, seconds: float) -> Waiting:
    """A quota wait of ``seconds`` from now on the transport's clock (not the screen's)."""
    return Waiting("gemini is rate-limited", transport.monotonic() + seconds, transport)


async def test_the_hot_seat_counts_a_quota_wait_down_on_the_screens_clock(monkeypatch, clock):
    held = held_agents(monkeypatch)
    app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "gemini"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, GameScreen))
        screen, minotaur, transport = app.screen, held["minotaur"], FakeClock(start=5000.0)
        hint = screen.query_one("#hint", Static)
        minotaur.decide_gate.clear()
        await type_line(pilot, "look")
        assert "The Minotaur is thinking... 0.0 s" in str(hint.render())
        minotaur.waiting = quota(transport, 47.3)
        clock.advance(1.0)
        await wait_for(pilot, lambda: "Gemini is rate-limited: waiting 47 s" in str(hint.render()))
        clock.advance(10.0)  # the screen's clock moves; the transport's need not, it was read once
        await wait_for(pilot, lambda: "Gemini is rate-limited: waiting 37 s" in str(hint.render()))
        minotaur.waiting = None  # the wait is over: the model is asked
        await wait_for(pilot, lambda: "The Minotaur is thinking... 11.0 s" in str(hint.render()))
        minotaur.decide_gate.set()
        await wait_for(pilot, lambda: screen.thinking is None)
        assert screen.session.game.state.turn == 1 and "waiting" not in str(hint.render())


async def test_the_spectator_sees_which_agent_waits_out_a_quota(monkeypatch, clock):
    held = held_agents(monkeypatch)
    app = LabyrinthApp(NewGame(7, "small", "normal", "gemini", "gemini"), clock=clock, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, SpectateScreen))
        screen, user, transport = app.screen, held["user"], FakeClock()
        panel = screen.query_one("#agents")
        user.decide_gate.clear()
        user.waiting = quota(transport, 20.0)
        screen.action_step()
        await wait_for(pilot, lambda: "Gemini is rate-limited: waiting 20 s" in str(panel.render()))
        clock.advance(5.0)
        await wait_for(pilot, lambda: "Gemini is rate-limited: waiting 15 s" in str(panel.render()))
        text = str(panel.render())
        assert text.count("waiting") == 1 and "thinking..." in text.split("as the Minotaur", 1)[1]  # the other thinks
        user.waiting = None
        user.decide_gate.set()
        await wait_for(pilot, lambda: not screen.stepping)
        assert screen.session.match.turns == 1 and "waiting" not in str(panel.render())


async def test_the_opening_keeps_the_keys_and_plays_what_was_typed_ahead(monkeypatch, clock):
    from labyrinth.tui import session

    made, plans = session.make_agent, threading.Event()

    def make(role, kind, seed, *args, **kwargs):
        agent = Held(made(role, "builtin", seed, *args, **kwargs))
        agent.plan_gate = plans
        return agent

    monkeypatch.setattr(session, "make_agent", make)
    monkeypatch.setenv("GEMINI_API_KEY", "k")
    app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "gemini"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: opened(app, OpeningScreen))
        opening = app.screen
        assert "The Minotaur is getting ready" in str(opening.query_one("#opening-title", Static).render())
        assert app.focused.id == "command"
        clock.advance(2.0)
        await wait_for(pilot, lambda: "Asking gemini for a plan... 2.0 s" in
                       str(opening.query_one("#opening-wait", Static).render()))
        await type_line(pilot, "look")
        await type_line(pilot, "q")  # a letter typed, as on the game screen: the app goes on
        await type_line(pilot, "halt")
        await pilot.press(*"move north")  # not entered yet
        await pilot.pause()
        assert app.is_running and app.screen is opening and [said for said, _ in opening.typed_ahead] == ["look",
                                                                                                        "halt"]
        assert "look, halt" in str(opening.query_one("#opening-typed", Static).render())
        plans.set()
        await wait_for(pilot, lambda: opened(app, GameScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.session.game.state.turn == 2 and screen.thinking is None)
        command = screen.query_one("#command", Input)
        assert command.value == "move north" and command.history == ["look", "halt"]
        assert screen.session.minotaur.plan == ["Listen first."]
        assert [type(s).__name__ for s in app.screen_stack] == ["Backdrop", "GameScreen"]  # the title: once left


async def test_a_hanging_endpoint_holds_the_opening_no_longer_than_the_calls_deadline():
    stub = Stub(Model("gemini", {1: "hang"}))  # the plan's request hangs for 60 s
    settings = ProviderSettings("gemini", "gemini-test", stub.url, api_key="k", timeout_s=1.0)
    try:
        app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "gemini", {"gemini": settings}))
        shown: list[str] = []  # the opening may come and go between two polls on a loaded machine: its push is kept
        push = app.push_screen
        app.push_screen = lambda screen, *args, **kwargs: shown.append(type(screen).__name__) or push(screen, *args,
                                                                                                      **kwargs)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: opened(app, GameScreen), seconds=20)
            assert shown[:2] == ["OpeningScreen", "GameScreen"]
            minotaur = app.screen.session.minotaur
            assert minotaur.plan == [] and "did not answer within 1 s" in minotaur.agent.last_exchange["error"]
    finally:
        stub.close()
