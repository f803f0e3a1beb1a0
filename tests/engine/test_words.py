"""Words, not enum values: the Minotaur panel, errors and hints say things as a player reads them;
the panel's direction is the log's; the status bar shows where the player stands (issue 14)."""

import dataclasses
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import Static

from labyrinth.engine import Game
from labyrinth.engine.cells import RAMP_UP
from labyrinth.engine.constants import JUMP_COOLDOWN_TICKS, TICKS_PER_SECOND
from labyrinth.engine.items import LANTERN
from labyrinth.engine.presets import PRESETS
from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.command_parser import NotACommand, parse_command
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.widgets.cue_panel import CuePanel, cue_words
from labyrinth.tui.widgets.narrative import NarrativeLog
from labyrinth.tui.widgets.status_bar import StatusBar, fit, status_parts

from ..scenes import WAIT, find_cell, scene
from ..tui.test_tui import type_line

ENUM_WORDS = ("NONE", "CHASING", "PARALYZED", "paralyzed", "VANISHED", "RE_ENTRY", "_")


# --- errors in words ------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, raw, words", [
    ("move north 101", '{"command": "MOVE", "direction": "NORTH", "steps": 101}', "steps must be 1 to 100 (got 101)"),
    (None, '{"command": "HALT", "steps": 0}', "steps must be 1 to 100 (got 0)"),  # typed, seconds: test_command_parser
    (None, '{"command": "HALT", "steps": "x"}', 'steps must be a whole number from 1 to 100 (got "x")'),
    (None, '{"command": "MOVE", "direction": "NORTH", "speed": 3}', "speed must be 1 or 2 (got 3)"),
    (None, '{"command": "FLY"}', 'command must be MOVE, HALT, LOOK, GRAB or USE (got "FLY")'),
    (None, '{"command": "MOVE", "direction": "NOTH"}', "direction must be NORTH, SOUTH, EAST, WEST, UP RAMP or DOWN"),
    (None, '{"direction": "NORTH"}', "command is required"),
    (None, '{"command": "LOOK", "colour": "red"}', "colour is not a known field"),
])
def test_validation_errors_say_what_is_allowed_in_words(typed, raw, words):
    """The same words typed, as JSON on the command line, and from gsm (the response's message)."""
    lines = [raw] if typed is None else [typed, raw]
    for line in lines:
        with pytest.raises(NotACommand) as refused:
            parse_command(line)
        assert words in refused.value.hint and "Input should" not in refused.value.hint
    message = Game.new(1, "tiny").step(raw, WAIT).response.environment.message
    assert words in message and "Input should" not in message and "Field required" not in message


@pytest.mark.parametrize("line", ["rest 5", "rest", "sleep 3", "jump", "dance"])
def test_a_word_that_is_no_command_is_told_the_commands_not_mended_into_a_direction(line):
    with pytest.raises(NotACommand) as refused:
        parse_command(line)
    hint = refused.value.hint
    assert "is not a command" in hint and "'halt 5'" in hint and "did you mean" not in hint
    assert "west" not in hint and "'up'" not in hint


@pytest.mark.parametrize("line, meant", [("esat 3", "east 3"), ("nrth", "north"), ("mvoe north", "move north"),
                                         ("hlat 2", "halt 2"), ("move nrth", "move north")])
def test_a_typo_keeps_its_first_letter_and_is_mended(line, meant):
    with pytest.raises(NotACommand) as refused:
        parse_command(line)
    assert f"did you mean '{meant}'" in refused.value.hint


# --- the panel's direction is the log's ------------------------------------------------------------

DIRECTION = re.compile(r" from (?:the )?([A-Z-]+|above|below)")


def _log_cue_direction(text: str) -> str | None:
    """Where the log's sound cue (its last line) says the hoofbeats come from."""
    found = DIRECTION.search(text.splitlines()[-1])
    return found.group(1) if found else None


@given(dx=st.integers(-16, 16), dy=st.integers(-16, 16), dz=st.integers(-2, 2),
       frozen=st.sampled_from([0, 1, LANTERN.effect_ticks]), out_of_time=st.sampled_from([0, 3, 12]))
def test_the_panel_says_the_direction_the_log_says(dx, dy, dz, frozen, out_of_time):
    game = scene(preset="standard")
    x, y, z = game.state.user
    minotaur = (x + dx, y + dy, z + dz)
    if not game.world.is_open(minotaur):
        return
    game.state = dataclasses.replace(game.state, minotaur=minotaur, paralysis=frozen, jump_left=out_of_time)
    response = game.step({"command": "LOOK"}, WAIT).response
    panel = cue_words(response).plain.splitlines()[0]
    in_panel = DIRECTION.search(panel)
    assert (in_panel.group(1) if in_panel else None) == _log_cue_direction(response.raw_text_output)
    assert not any(word in panel for word in ENUM_WORDS)


# --- the panel and the status bar in a game --------------------------------------------------------

def _text(widget: Static) -> str:
    return str(widget.render())


@pytest.mark.slow
async def test_a_frozen_minotaur_is_told_in_words_with_its_countdowns(clock):
    app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "builtin", learning=False), clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen.session.game
        left, cooldown = 90 * TICKS_PER_SECOND, JUMP_COOLDOWN_TICKS // 2
        game.state = dataclasses.replace(game.state, paralysis=left, jump_cooldown=cooldown)
        await type_line(pilot, "halt 3")  # three seconds later
        panel = _text(app.screen.query_one(CuePanel))
        assert "frozen 1:27 · jump in 4:57" in panel  # at 80 columns, on one line
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        panel = _text(app.screen.query_one(CuePanel))
        assert "frozen by the lantern: 1:27" in panel and "can jump again in 4:57" in panel
        assert "can jump at any moment" not in panel and "now" not in panel
        assert not any(word in panel for word in ENUM_WORDS), panel
        assert "paralyzed for 87 s more" in app.screen.session.response.raw_text_output  # the log's own count

        game.state = dataclasses.replace(game.state, jump_cooldown=0)
        await type_line(pilot, "halt 1")  # frozen, though its jump is ready: it cannot jump now
        panel = _text(app.screen.query_one(CuePanel))
        assert "frozen by the lantern: 1:26" in panel and "can jump once it is free" in panel

        game.state = dataclasses.replace(game.state, paralysis=2, jump_cooldown=0)
        await type_line(pilot, "halt 1")  # the lantern's hold ends: it hunts, and may jump at once
        panel = _text(app.screen.query_one(CuePanel))
        assert "hunting" in panel and "can jump at any moment" in panel and "frozen" not in panel


async def test_the_status_bar_shows_the_place_and_keeps_the_level_at_80_columns(clock):
    app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "builtin", learning=False), clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_line(pilot, "look")
        bar = app.screen.query_one(StatusBar)
        x, y, z = app.screen.session.game.state.user
        shown = _text(bar)
        assert f"x {x} y {y} level {z}" in shown and "lantern" in shown and len(shown) <= bar.content_size.width
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        ground = PRESETS["small"]
        shown = _text(bar)
        assert f"x {x} ({ground.x0}-{ground.x0 + ground.width - 1})" in shown
        assert f"level {z} ({ground.z0}-{ground.z0 + ground.levels - 1})" in shown and "█" in shown


@pytest.mark.parametrize("width", [78, 60, 40, 20])
def test_the_status_bar_fits_any_width_and_the_level_is_the_last_thing_cut(width):
    game = Game.new(3, "large")
    game.state = dataclasses.replace(game.state, timers={"LANTERN": 700 * TICKS_PER_SECOND}, items=())
    line = fit(status_parts(game.view()[0], PRESETS["large"]), width)
    assert line.cell_len <= width or line.plain.startswith("level")
    assert "level 100" in line.plain or width < len("level 100")


async def test_climbing_a_ramp_is_not_logged_as_a_collision(clock):
    app = LabyrinthApp(NewGame(11, "standard", "normal", PLAYER, "builtin", learning=False), clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.screen.session.game
        ramp = find_cell(game, RAMP_UP)
        game.state = dataclasses.replace(game.state, user=ramp)
        await type_line(pilot, "look")  # the player learns where it stands: on a ramp up
        await type_line(pilot, "up")
        assert game.state.user[2] == ramp[2] + 1
        log = "\n".join("".join(segment.text for segment in line) for line in app.screen.query_one(NarrativeLog).lines)
        assert "You climb the ramp" in log and "collision" not in log.lower()
