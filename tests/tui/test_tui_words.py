"""Every screen a player meets, at 80x24, says things in the game's words (issue 41): no outcome as the
code names it (DEATH, ESCAPED, TIMEOUT), no agent as the registry names it (builtin), no id, no
snake_case name; and nothing a player needs is cut (a footer entry or a title ends in a whole word).
What the terminal shows is read as Textual's own screenshot reads it, as text."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

import pytest
from rich.console import Console
from textual.widgets import Input, Select

from labyrinth.engine import UserInput
from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game_over import GameOverScreen
from labyrinth.tui.screens.help import HELP
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.session import PlaySession

from .test_evidence_words import RAW
from .test_tui import choose
from .test_tui_danger import log_words

pytestmark = pytest.mark.slow

SIZE = (80, 24)
INTERNAL = re.compile(r"\b(?:DEATH|ESCAPED|TIMEOUT|builtin)\b|\b[0-9a-f]{8}-[0-9a-z]|\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
# What may hold such a word and is still the game's words: a path (the data directory's files), a command to
# type (`labyrinth tournament --users builtin`).
NOT_WORDS = re.compile(r"\S*/\S*|`[^`]*`")
CUT = re.compile(r"\w…|\w\.\.\.")  # a word cut short by the end of its room


def screen_text(app) -> str:
    """The terminal's text now, the screens below a dialog too (as Textual's export_screenshot renders it)."""
    console = Console(width=SIZE[0], height=SIZE[1], file=io.StringIO(), record=True, force_terminal=True,
                      legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


async def shown(pilot, where: str) -> str:
    """The screen's text, checked: no internal word, no footer entry cut."""
    await pilot.pause()
    await pilot.pause()
    text = screen_text(pilot.app)
    found = INTERNAL.findall(NOT_WORDS.sub(" ", text))
    assert not found, f"{where}: {found}\n{text}"
    footer = footer_of(text)
    assert not CUT.search(footer) and not re.search(r"\w▏", footer), f"{where}: the footer is cut\n{text}"
    return text


def footer_of(text: str) -> str:
    """The screen's last line, its footer, without the space around it."""
    return text.rstrip("\n").splitlines()[-1].strip()


def finished_game() -> None:
    """A tiny game the Minotaur won, recorded and remembered (both roles reflect on it)."""
    session = PlaySession(5, "tiny")
    while not session.over:
        session.play(UserInput(command="HALT", steps=100))


async def test_the_title_memory_replays_and_a_replay_say_outcomes_and_agents_in_words():
    finished_game()
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, "title")  # the new-game form names its agents in words: "the built-in Minotaur"
        await choose(pilot, app, "memory")
        assert footer_of(await shown(pilot, "memory")).startswith("esc")  # its own keys, not the title's below
        await pilot.press("down")
        text = await shown(pilot, "memory, the other reflection")
        assert "You got caught after 5 turns" in text
        await pilot.press("escape")
        await choose(pilot, app, "replays")
        text = await shown(pilot, "replays")
        assert "you vs the built-in Minotaur" in text and "p play" not in footer_of(text)
        await pilot.press("enter")
        await pilot.press(*["right"] * 6)
        await shown(pilot, "a replay, played to its end")
        told = log_words(app)
        assert "Match over: the user got caught after 5 turns." in told and told.count("You die.") == 1


def caught_at_seed_22() -> list:
    """Both roles' reflections on the game of the QA pass (tiny, seed 22, the user caught by the built-in
    Minotaur), as a build before the Memory screen spoke in words wrote them: lessons tagged in capitals,
    places in brackets, the log's nulls."""
    from labyrinth.saves.experience import Reflection

    death = {"position": [202, 196, 100], "time_s": 14.5, "how": "shared a cell with the Minotaur",
             "seconds_after_whine": None, "ran": False, "lantern_held": False, "stones": 0, "after_jump": False}
    game = {"stones": [], "death": death, "escape": None, "flights": [], "jumps": [], "ramps_taken": 0,
            "crawlway_steps": 0, "lantern_uses": 0, "lantern_held_s": None, "sightings": 1, "heard": 0}
    strategy = {"guarding": "as built", "rounds": "as built", "jumping": "after a face-to-face"}
    common = {"game_id": "420ee443", "created_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "outcome": "DEATH", "seed": 22, "preset": "tiny", "turns": 1, "game_time": 15.0}
    return [Reflection.model_validate({
        **common, "id": "420ee443-user", "role": "user", "agent": "you", "evidence": {"behaviour": [], **game},
        "key_reflection": "STRATEGIC REVISION: caught at (202, 196) level 100 at 14.5 s, walking, no lantern, "
                          "0/3 stones. Next: avoid that spot."}), Reflection.model_validate({
        **common, "id": "420ee443-minotaur", "role": "minotaur", "agent": "builtin",
        "evidence": {"behaviour": [{"when": "game", "did": f"{choice}={arm}", "led_to": "DEATH"}
                                   for choice, arm in strategy.items()], **game, "strategy": strategy},
        "key_reflection": "WHAT WORKED: caught the intruder at (202, 196) level 100 at 14.5 s, by the hunt "
                          "(seen 1x, heard 0x); no jump."})]


@pytest.mark.parametrize("size", [SIZE, (120, 40)])
async def test_the_memory_screen_says_both_rows_outcome_and_evidence_alike_in_words(size):
    """The QA pass's repro: the Minotaur's row read `led to: "DEATH"`, `escape: null`, `position: [202, 196,
    100]`, `did: "guarding=as built"` where the user's said "caught"; at 80x24 the list lost its time and
    agent. Now each row's lesson and evidence are words, the catch told alike in both, every column kept."""
    from labyrinth.saves.experience import Experience

    Experience().add(caught_at_seed_22())
    app = LabyrinthApp()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await choose(pilot, app, "memory")
        if size == SIZE:  # the screen's text as the terminal shows it, at the size it is read at
            await shown(pilot, "memory")
        table = app.screen.query_one("#memory-table")
        assert [str(c.label) for c in table.columns.values()] == ["when", "role", "outcome", "game", "agent",
                                                                  "lesson"]
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(2)]
        assert [row[1:5] for row in rows] == [["Minotaur", "caught", "tiny 22", "built-in"],
                                              ["user", "caught", "tiny 22", "you"]]
        bodies = []
        for row in range(2):
            table.move_cursor(row=row)
            await pilot.pause()
            body = str(app.screen.query_one("#memory-body").render())
            evidence = body.split("\nevidence:\n")[1]
            assert not RAW.findall(evidence) and not INTERNAL.findall(body), body
            assert "STRATEGIC" not in body and "WHAT WORKED" not in body and "(202, 196)" not in body
            assert "The user was caught at x 202 y 196 level 100 at 14.5 s (shared a cell with the Minotaur)" \
                in evidence
            bodies.append(body)
        minotaur, user = bodies
        assert minotaur.startswith("The built-in Minotaur caught the user after 1 turn ") and \
            "Caught the intruder at x 202 y 196 level 100 at 14.5 s, by the hunt (seen once, heard 0 times)" in minotaur
        assert "choosing 'as built' for guarding led to a catch in 1 of 1 cases" in minotaur
        assert user.startswith("You got caught after 1 turn ") and "Caught at x 202 y 196 level 100 at 14.5 s" in user


async def test_a_game_its_help_and_its_end_say_things_in_words():
    app = LabyrinthApp(NewGame(5, "tiny", "normal", PLAYER, "builtin", learning=False))
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, "the game, typing")
        await pilot.press("escape")
        footer = footer_of(await shown(pilot, "the game, on the map"))
        assert "o explore" in footer and "v lantern" in footer  # the lantern, rarely used but in danger, stays
        await pilot.press("x")
        await shown(pilot, "examining")
        await pilot.press("escape")
        assert not INTERNAL.findall(NOT_WORDS.sub(" ", HELP))  # read, not shown: its Markdown takes seconds to lay out
        session = app.screen.session
        command = app.screen.query_one("#command", Input)
        command.focus()
        while not session.over:
            command.value = "halt 100"
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "The Minotaur caught you." in await shown(pilot, "game over")


async def test_watching_two_agents_and_the_leaderboard_say_who_plays_in_words():
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#preset", Select).value = "tiny"
        await choose(pilot, app, "spectate")
        await pilot.press("n", "n")
        await shown(pilot, "spectating")
        agents = str(app.screen.query_one("#agents").render())
        assert "the built-in user" in agents and "the built-in Minotaur" in agents
        await pilot.press("escape")
        await choose(pilot, app, "leaderboard")
        await shown(pilot, "the leaderboard")
