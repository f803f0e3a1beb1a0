"""The TUI driven through Textual's Pilot: typing and keys play the game (the
session's state is checked), every screen opens, a saved game resumes, a
spectated match runs to its end."""

import asyncio
import threading
from datetime import datetime
from functools import partial

import pytest
from textual.widgets import Button, Input, OptionList, Static

from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.dates import local_time, short_time
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.game_over import QUIET_S, GameOverScreen
from labyrinth.tui.screens.help import HelpScreen
from labyrinth.tui.screens.memory import MemoryScreen
from labyrinth.tui.screens.replays import ReplaysScreen
from labyrinth.tui.screens.saved_games import SavedGamesScreen
from labyrinth.tui.screens.spectate import SpectateScreen
from labyrinth.tui.screens.title import NewGame, TitleScreen
from labyrinth.tui.widgets.minimap import Minimap

pytestmark = pytest.mark.slow

GAME = NewGame(7, "small", "normal", PLAYER, "builtin")
SIZE = (120, 40)


async def choose(pilot, app, choice: str) -> None:
    """Pick an entry of the title screen's menu with the keyboard."""
    menu = app.screen.query_one("#menu-list", OptionList)
    menu.focus()
    menu.highlighted = menu.get_option_index(choice)
    await pilot.press("enter")
    await pilot.pause()


async def type_line(pilot, text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")
    await pilot.pause()


def opened(app, kind: type) -> bool:
    """Whether the app shows a screen of ``kind`` that is mounted: its widgets, those inside its containers
    too, are mounted and its ``on_mount`` has run. A screen opened from a thread's answer is pushed, then
    composed and mounted over later ticks; Textual's public ``App.is_mounted`` only says it is registered,
    which it is (and its ``#hint`` exists) before the widgets inside its containers do."""
    return isinstance(app.screen, kind) and app.screen._is_mounted


async def wait_for(pilot, condition, seconds: float = 10.0) -> None:
    """Let the app run until ``condition()`` holds (a timer's tick, a thread's answer), failing after ``seconds``."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
        await pilot.pause()
    raise AssertionError("the condition never came true")


async def halt_until_over(pilot, session, turns: int = 60) -> None:
    """Stand still ("halt 100" entered on the command line: the typing itself is tested elsewhere, and a
    key at a time would cost seconds) until the Minotaur ends the game, within ``turns``."""
    for _ in range(turns):
        if session.over:
            break
        pilot.app.screen.query_one("#command", Input).value = "halt 100"
        await pilot.press("enter")
        await pilot.pause()
    assert session.over


async def test_typing_plays_at_once_and_a_typo_changes_nothing():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and app.focused.id == "command"
        await type_line(pilot, "look")
        state = screen.session.game.state
        assert state.turn == 1 and state.tick == 2
        await type_line(pilot, "mvoe north")
        assert screen.session.game.state is state
        assert "did you mean 'move north'" in str(screen.query_one("#hint", Static).render())
        await type_line(pilot, "m n 3")
        assert screen.session.game.state.turn == 2 and screen.session.game.state.user[1] > 200
        await pilot.press("up", "up")
        assert app.focused.value == "mvoe north"  # history


class Watched:
    """The built-in Minotaur, watched: the thread of each ``decide``; ``blocking`` as the test says."""

    def __init__(self, agent, blocking: bool) -> None:
        self.agent, self.blocking, self.name = agent, blocking, agent.name
        self.decided_in: list[threading.Thread] = []

    def __getattr__(self, name: str):
        return getattr(self.agent, name)

    def decide(self, observation):
        self.decided_in.append(threading.current_thread())
        return self.agent.decide(observation)


def watched_minotaur(monkeypatch, blocking: bool) -> None:
    """Sessions get the built-in Minotaur wrapped in Watched."""
    from labyrinth.tui import session

    made = session.make_agent
    monkeypatch.setattr(session, "make_agent", lambda *args, **kwargs: Watched(made(*args, **kwargs), blocking))


async def test_a_refused_command_never_asks_the_minotaur(monkeypatch):
    watched_minotaur(monkeypatch, blocking=False)
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        state, minotaur = session.game.state, session.minotaur.agent
        for _ in range(3):
            await type_line(pilot, "grab red stone")  # no stone here: the game refuses it
        assert session.game.state is state and session.response.status == "ERROR"
        assert minotaur.decided_in == [] and session.match.stats["user"].errors == 3 and session.figures.turns == 0
        assert "grab red stone" in "\n".join(line.text for line in app.screen.query_one("#log").lines)
        await type_line(pilot, "look")
        assert len(minotaur.decided_in) == 1 and session.game.state.turn == 1 and session.figures.turns == 1


async def test_a_blocking_minotaur_decides_off_the_ui_thread_and_the_game_steps_on_it(monkeypatch):
    watched_minotaur(monkeypatch, blocking=True)
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen, ui = app.screen, threading.current_thread()
        game, stepped_in = screen.session.game, []
        step = game.step
        game.step = lambda *args: stepped_in.append(threading.current_thread()) or step(*args)
        await type_line(pilot, "look")
        await wait_for(pilot, lambda: screen.thinking is None)
        await type_line(pilot, "grab red stone")  # refused: the Minotaur is not asked, nothing goes to a thread
        assert game.state.turn == 1 and screen.session.match.stats["user"].errors == 1 and stepped_in == [ui, ui]
        decided_in = screen.session.minotaur.agent.decided_in
        assert len(decided_in) == 1 and decided_in[0] is not ui


async def test_a_minotaur_whose_answer_fails_waits_and_the_hint_says_why(monkeypatch):
    watched_minotaur(monkeypatch, blocking=True)
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.session.minotaur.agent.decide = lambda observation: 1 / 0
        await type_line(pilot, "look")
        await wait_for(pilot, lambda: screen.thinking is None)
        hint = str(screen.query_one("#hint", Static).render())
        assert "the agent failed: ZeroDivisionError" in hint and "it waited" in hint
        assert screen.session.game.state.turn == 1 and screen.session.minotaur.stats.fallbacks == 1


async def test_keys_walk_run_and_take_ramps_once_the_map_has_focus():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await pilot.press("escape")
        assert isinstance(app.focused, Minimap)
        await pilot.press("up")
        assert session.game.state.turn == 1 and session.game.state.tick == 2  # one step north, or a bump: 1 s
        await pilot.press("f")  # LOOK: l walks east (vi-keys)
        assert session.match.played[-1][0].command == "LOOK"
        await pilot.press("shift+up")
        assert session.match.played[-1][0].speed == 2
        turn = session.game.state.turn
        await pilot.press("less_than_sign")
        assert session.game.state.turn == turn  # no ramp here, and the player knows: no turn
        assert str(app.screen.query_one("#hint", Static).render()) == "No ramp leads up here."
        await pilot.press("right_square_bracket")
        assert app.screen.query_one(Minimap).level == session.game.state.user[2] - 1
        await pilot.press("escape")
        assert app.focused.id == "command"


async def test_a_shift_run_stops_at_the_first_junction():
    app = LabyrinthApp(NewGame(3, "small", "normal", PLAYER, "builtin"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        start = session.game.state.user
        await pilot.press("escape", "shift+up")
        played = session.match.played[-1][0]
        assert (played.command, played.steps, played.speed) == ("MOVE", None, 2)  # a run, no count
        env = session.response.environment
        assert (env.stop_reason, env.steps_moved) == ("ARRIVED", 2)
        assert session.game.state.user == (start[0], start[1] + 2, start[2])
        assert "WEST" not in session.game.world.user_exits((start[0], start[1] + 1, start[2]))  # passed none
        assert "WEST" in env.visible_paths
        assert "and stop where passages open to the EAST and WEST" in session.response.raw_text_output


async def test_bumping_a_known_wall_with_a_map_key_costs_no_time():
    app = LabyrinthApp(NewGame(3, "small", "normal", PLAYER, "builtin"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        assert "WEST" not in session.response.environment.visible_paths
        await pilot.press("escape", "left", "shift+left")
        assert session.game.state.tick == 0 and session.game.state.turn == 0
        assert session.response.environment.game_time == 0
        assert str(app.screen.query_one("#hint", Static).render()) == "A wall."
        await pilot.press("right")  # an open way still steps, once
        assert session.game.state.turn == 1 and session.response.environment.steps_moved == 1


async def test_every_screen_opens_from_the_title():
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        for choice, kind in (("help", HelpScreen), ("memory", MemoryScreen), ("resume", SavedGamesScreen),
                             ("replays", ReplaysScreen)):
            await choose(pilot, app, choice)
            assert isinstance(app.screen, kind), choice
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
        app.screen.query_one("#seed", Input).value = "3"
        await choose(pilot, app, "play")
        assert isinstance(app.screen, GameScreen) and app.screen.session.seed == 3


async def test_a_saved_game_resumes_where_it_was():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for line in ("look", "move north", "run east 4", "halt 3"):
            await type_line(pilot, line)
        played = app.screen.session
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        await choose(pilot, app, "resume")
        assert isinstance(app.screen, SavedGamesScreen)
        app.screen.query_one(OptionList).highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        resumed = app.screen.session
        assert isinstance(app.screen, GameScreen) and resumed is not played
        assert resumed.game.state == played.game.state
        assert resumed.mapped.seen == played.mapped.seen
        await type_line(pilot, "look")
        assert resumed.game.state.turn == played.game.state.turn + 1


async def test_a_game_ends_on_the_game_over_screen(clock):
    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "builtin"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await halt_until_over(pilot, session)
        over = app.screen
        assert session.over and isinstance(over, GameOverScreen)
        assert "caught" in str(over.query_one("#headline", Static).render())
        await pilot.press(*"halt 20", "enter", "n")  # the rest of a command typed as the game ended
        await pilot.pause()
        assert app.screen is over and not over.ready and all(b.disabled for b in over.query(Button))
        clock.advance(QUIET_S / 2)
        await pilot.press("t")  # still typing: swallowed, and the quiet moment starts again
        clock.advance(QUIET_S / 2)
        await pilot.press("t")
        await pilot.pause()
        assert app.screen is over and not over.ready
        clock.advance(QUIET_S)  # a quiet moment: the buttons come alive on the next check, without a key
        await wait_for(pilot, lambda: over.ready)
        assert not any(b.disabled for b in over.query(Button)) and app.focused.id == "new"
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_a_spectated_match_plays_on_its_own_and_space_pauses_it():
    app = LabyrinthApp(NewGame(4, "small", "normal", "builtin", "builtin"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        pace = screen.query_one(Minimap)
        assert isinstance(screen, SpectateScreen) and screen.timer is not None
        assert pace.border_subtitle == "▶ playing · 2 turns/s"
        await pilot.press("space", "plus")
        assert screen.timer is None and pace.border_subtitle == "❚❚ paused · 4 turns/s"


async def test_a_spectated_match_without_autoplay_waits_for_the_spectator():
    app = LabyrinthApp(NewGame(4, "small", "normal", "builtin", "builtin"), autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        pace = screen.query_one(Minimap)
        assert screen.timer is None and pace.border_subtitle.startswith("❚❚ paused") and screen.session.match.turns == 0
        await pilot.press("n")
        assert screen.session.match.turns == 1
        await pilot.press("space")
        assert screen.timer is not None and pace.border_subtitle.startswith("▶ playing")


async def test_a_spectated_match_runs_to_its_end():
    app = LabyrinthApp(NewGame(4, "small", "normal", "builtin", "builtin"), autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SpectateScreen)
        for _ in range(400):  # step by hand
            if screen.session.over:
                break
            screen.action_step()
        await pilot.pause()
        assert screen.session.over and screen.session.match.outcome in ("ESCAPED", "DEATH", "TIMEOUT")
        await pilot.press("o")
        assert screen.omniscient
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_ctrl_q_quits_from_anywhere():
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


async def test_a_finished_game_shows_and_keeps_what_was_learned():
    from labyrinth.saves.experience import Experience

    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "builtin"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await halt_until_over(pilot, session)
        await pilot.pause()
        lessons = str(app.screen.query_one("#lessons", Static).render())
        assert "You learned: Caught at x " in lessons and "The Minotaur learned: Caught the intruder at x " in lessons
    log = Experience().read()
    assert [(r.role, r.agent, r.outcome) for r in log] == [("user", "you", "DEATH"), ("minotaur", "builtin", "DEATH")]


async def test_the_memory_screen_lists_filters_and_shows_a_reflection_in_full(monkeypatch):
    from labyrinth.saves.experience import Experience
    from labyrinth.tui.screens import memory
    from tests.saves.test_experience import reflection

    long = "STRATEGIC REVISION: " + "walk on, " * 30 + "the end."  # as an older log tagged a lesson
    today = "2026-11-23T12:00:00Z"  # the screen's today, not the clock's: its short time at 80x24 the time of day
    monkeypatch.setattr(memory, "short_time", partial(short_time, now=datetime.fromisoformat(today).astimezone()))
    Experience().add([reflection(1, created_at=today),
                      reflection(2, role="minotaur", outcome="ESCAPED", created_at=today, seed=2**31 - 1),
                      reflection(3, key_reflection=long, created_at=today)])
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await choose(pilot, app, "memory")
        screen = app.screen
        table = screen.query_one("#memory-table")
        assert isinstance(screen, MemoryScreen) and table.row_count == 3
        body = str(screen.query_one("#memory-body", Static).render())  # newest first, in the game's words
        assert body.startswith("The built-in user got caught after 13 turns") and "seed 3" in body
        first = table.render_line(1).text.rstrip()  # a long lesson fits the table, ending in an ellipsis
        assert first.endswith("…") and "Walk on, walk on" in first and table.max_scroll_x == 0
        await pilot.press("down")
        await pilot.resize_terminal(80, 24)  # narrower: the time is shortened, the lesson keeps room, the row stays
        await pilot.pause()
        await pilot.pause()
        assert [str(c.label) for c in table.columns.values()] == ["when", "role", "outcome", "game", "agent", "lesson"]
        assert [str(cell) for cell in table.get_row_at(1)][:4] == [local_time(today)[-5:], "Minotaur", "escaped",
                                                                   "standard"]  # its seed's ten digits below
        await pilot.resize_terminal(60, 24)  # narrower still: the time, then the game, go
        await pilot.pause()
        await pilot.pause()
        assert [str(c.label) for c in table.columns.values()] == ["role", "outcome", "agent", "lesson"]
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert table.cursor_row == 1 and table.max_scroll_x == 0 and table.render_line(1).text.rstrip().endswith("…")
        assert "The built-in Minotaur let the user escape" in str(screen.query_one("#memory-body", Static).render())
        screen.query_one("#memory-role").value = "minotaur"
        await pilot.pause()
        assert screen.query_one("#memory-table").row_count == 1
        assert "Lesson 2." in str(screen.query_one("#memory-body", Static).render())
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_a_spectated_match_shows_each_agents_lessons_and_adds_its_own():
    from labyrinth.saves.experience import Experience
    from tests.saves.test_experience import reflection

    Experience().add([reflection(4, key_reflection="Caught at the north ramp. Walk.", preset="small")])
    app = LabyrinthApp(NewGame(4, "small", "normal", "builtin", "builtin"), autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        panel = str(screen.query_one("#agents").render())
        assert "lessons from 1 earlier games:" in panel and "Caught at the north ramp. Walk." in panel
        while not screen.session.over:
            screen.action_step()
        await pilot.pause()
        assert "learned:" in "".join(line.text for line in screen.query_one("#log").lines)
    assert len(Experience().read()) == 3


async def test_memory_screen_shows_brackets_as_words():
    from labyrinth.saves.experience import Experience
    from tests.saves.test_experience import reflection

    Experience().add([reflection(1, key_reflection="I waited [/] too long at [red] the ramp.")])
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await choose(pilot, app, "memory")
        assert "I waited [/] too long at [red] the ramp." in str(app.screen.query_one("#memory-body").render())


async def test_no_memory_holds_for_the_next_game_too(clock):
    from labyrinth.saves.experience import Experience

    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "builtin", learning=False), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        await halt_until_over(pilot, session)
        clock.advance(QUIET_S)  # a quiet moment: the next key chooses
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.session is not session
        assert not app.screen.session.learning and app.screen.session.memory.log is None
    assert Experience().read() == []
