"""Autoexplore, driven through Pilot against a Minotaur that always waits (so nothing but the test moves
it): `o` on the map (or `explore` typed) walks a leg a turn to the nearest place not seen yet and
stops on the Minotaur's sight, its sound rising, a stone or the lantern or a ramp first seen (those
three as [options] explore_stops keeps them), a key, or when nothing is left, naming every reason a leg
gave, the danger first; keys typed ahead of a stop are dropped. It will not start, nor go on, while the
Minotaur is in sight or heard close (the keys typed ahead of that refusal dropped too). And the way it
picks reads only the player's map."""

from __future__ import annotations

import dataclasses

import pytest
from textual.widgets import Input, Static

from labyrinth.engine import UserInput
from labyrinth.engine.cells import CRAWLWAY, FLOOR, RAMP_DOWN, RAMP_UP, ROCK
from labyrinth.engine.presets import PRESETS
from labyrinth.saves.games import PLAYER
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.explore import NOTHING_LEFT, Exploring, exploring_leg
from labyrinth.tui.player_settings import PlayerOptions, PlayerSettings
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.session import PlaySession
from labyrinth.tui.travel import Leg

from .test_tui_danger import burst, log_words

pytestmark = pytest.mark.slow

STILL = NewGame(7, "tiny", "normal", PLAYER, "wait", learning=False)  # the user starts at (200, 200, 100)
FAR = (120, 120, 100)  # out of the ground and of hearing: nothing of the Minotaur stops a walk
AHEAD = (200, 204, 100)  # up the corridor the first leg walks north: in sight at its end
CLOSE_BY = (195, 200, 100)  # five steps west of the start: CLOSE, out of sight (and still so two steps north)
VERY_CLOSE_BY = (197, 200, 100)  # three steps west: VERY CLOSE, out of sight
BY_THE_RAMP = (212, 198, 100)  # CLOSE only from where the tenth leg ends, which shows the first ramp up
SIZE = (80, 24)
GROUND = PRESETS["tiny"]


async def explore(pilot, key: str = "o", turns: int = 200) -> str:
    """Press ``key`` on the map and let the autoexplore run until it ends; the log's last line about it."""
    screen = pilot.app.screen
    await pilot.press(key)
    for _ in range(turns * 4):
        if screen.travel is None:
            break
        await pilot.pause()
    assert screen.travel is None
    return last_said(pilot.app)


def last_said(app) -> str:
    """The log's last line about an autoexplore."""
    words = log_words(app)
    at = max(words.rfind("Exploring stopped:"), words.rfind("Explored:"))
    return words[at:words.index(".", at) + 1]


async def opened(pilot, minotaur=FAR):
    """The game screen, its Minotaur put at ``minotaur``, the map focused."""
    await pilot.pause()
    session = pilot.app.screen.session
    session.game.state = dataclasses.replace(session.game.state, minotaur=minotaur)
    await pilot.press("escape")
    return session


async def test_it_stops_when_the_minotaur_sounds_close_and_drops_the_keys_typed_ahead():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        session = await opened(pilot, (192, 202, 100))  # where it starts: FAINT, CLOSE once north
        burst(app, "o    ")  # spaces halt: typed ahead while it walks
        for _ in range(20):
            await pilot.pause()
        assert app.screen.travel is None and session.game.state.turn == 1
        words = log_words(app)
        assert "Exploring stopped: the Minotaur sounds close." in words
        assert "Keys typed ahead were dropped: the Minotaur sounds close." in words


async def test_it_stops_when_the_minotaur_comes_into_sight_and_will_not_start_then():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        session = await opened(pilot, AHEAD)
        assert await explore(pilot) == "Exploring stopped: the Minotaur is in sight."
        assert session.known.sees
        turn = session.game.state.turn
        await pilot.press("o")
        await pilot.pause()
        assert session.game.state.turn == turn and "Not while the Minotaur is in sight: move by hand." in str(
            app.screen.query_one("#hint", Static).render())


async def test_it_stops_at_each_ramp_stone_and_lantern_first_seen_and_ends_when_nothing_is_left():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        session = await opened(pilot)
        stops, seen = [], set()
        while not stops or stops[-1] != NOTHING_LEFT:
            stops.append(await explore(pilot))
            assert len(stops) < 20
            if stops[-1].startswith(sight := "Exploring stopped: you see "):  # one leg may show more than one
                seen |= set(stops[-1].removeprefix(sight).removesuffix(".").split(" and "))
        for found in seen - {"a ramp up", "a ramp down"}:  # as it came into view, taken not
            item = found.removeprefix("the ")
            assert item in session.mapped.items and item not in session.game.state.inventory
        assert {"a ramp up", "a ramp down", "the YELLOW STONE", "the LANTERN", "the BLUE STONE"} <= seen
        world, seen = session.game.world, session.mapped.seen
        ground_level = {(x, y, 100) for x in range(GROUND.x0, GROUND.x0 + GROUND.width)
                        for y in range(GROUND.y0, GROUND.y0 + GROUND.height)}
        assert all(cell in seen for cell in ground_level if world.cell(*cell) != ROCK)  # every open cell of it
        assert session.game.state.user[2] == 100 and not session.game.state.inventory
        turn, told = session.game.state.turn, log_words(app).count(NOTHING_LEFT)
        await pilot.press("o")  # nothing left: nothing played, and the hint and the log say so
        assert session.game.state.turn == turn and NOTHING_LEFT in str(app.screen.query_one("#hint", Static).render())
        assert log_words(app).count(NOTHING_LEFT) == told + 1


@pytest.mark.parametrize("minotaur, proximity, heard", [(CLOSE_BY, "CLOSE", "close"),
                                                        (VERY_CLOSE_BY, "VERY CLOSE", "VERY CLOSE")])
async def test_it_will_not_start_while_the_minotaur_is_heard_close_and_drops_the_keys_typed_ahead(
        minotaur, proximity, heard):
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        session = await opened(pilot, minotaur)
        await pilot.press("space")  # a halt: the hoofbeats are heard
        assert session.response.minotaur_cue.proximity == proximity and not session.known.sees
        burst(app, "o  ")  # the halts typed ahead of the refusal go
        for _ in range(8):
            await pilot.pause()
        refusal = f"Not while the Minotaur sounds {heard}: move by hand."
        assert session.game.state.turn == 1 and app.screen.travel is None
        assert refusal in str(app.screen.query_one("#hint", Static).render())
        assert f"Keys typed ahead were dropped: the Minotaur sounds {heard}." in log_words(app)
        await pilot.press("escape")  # typed, as `o`
        app.screen.query_one("#command", Input).value = "explore"
        await pilot.press("enter")
        await pilot.pause()
        assert session.game.state.turn == 1 and refusal in str(app.screen.query_one("#hint", Static).render())
        await pilot.press(*"halt", "enter")  # a key pressed after the refusal plays
        await pilot.pause()
        assert session.game.state.turn == 2


def test_it_goes_no_further_while_the_minotaur_is_heard_close_though_its_sound_did_not_rise():
    """Begun anyway (the screen refuses it), a leg walked with the hoofbeats CLOSE, as they were, stops it."""
    session = PlaySession(7, "tiny", "normal", "wait", learning=False)
    session.game.state = dataclasses.replace(session.game.state, minotaur=CLOSE_BY)
    session.play(UserInput(command="HALT"))
    exploring = Exploring.begin(session.mapped.seen, session.known, GROUND, session.game.state.user)
    assert exploring is not None and exploring.legs == [Leg("NORTH", 2)]
    result = session.play(exploring.legs[0].command).result
    assert result is not None and session.known.alarm is None  # CLOSE before and after: nothing rose
    assert exploring.check(result, session.known.alarm) == exploring.stopped == "the Minotaur sounds close"


async def test_a_leg_that_brings_the_hoofbeats_close_and_a_ramp_names_both_the_danger_first():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, BY_THE_RAMP)
        assert await explore(pilot) == "Exploring stopped: the Minotaur sounds close, and you see a ramp up."


async def test_the_options_choose_which_finds_stop_it():
    """explore_stops = ["stone"]: the lantern and the ramps come into view without stopping it."""
    app = LabyrinthApp(STILL, settings=PlayerSettings(options=PlayerOptions(explore_stops=("stone",))))
    async with app.run_test(size=SIZE) as pilot:
        session = await opened(pilot)
        stops = [await explore(pilot)]
        while stops[-1] != NOTHING_LEFT:
            stops.append(await explore(pilot))
            assert len(stops) < 10
        assert stops == ["Exploring stopped: you see the YELLOW STONE.", "Exploring stopped: you see the BLUE STONE.",
                         NOTHING_LEFT]
        assert "LANTERN" in session.mapped.items and {RAMP_UP, RAMP_DOWN} <= set(session.mapped.seen.values())


async def test_explore_typed_walks_as_o_does_and_a_key_stops_it():
    app = LabyrinthApp(STILL)
    async with app.run_test(size=SIZE) as pilot:
        session = await opened(pilot)
        burst(app, "oz")  # any key pressed while it walks stops it
        for _ in range(8):
            await pilot.pause()
        assert app.screen.travel is None and last_said(app) == "Exploring stopped: a key was pressed."
        assert session.game.state.turn == 1
        await pilot.press("escape")  # back to the command line
        app.screen.query_one("#command", Input).value = "explore"
        await pilot.press("enter")
        for _ in range(40):
            if app.screen.travel is None and session.game.state.turn > 1:
                break
            await pilot.pause()
        assert last_said(app) == "Exploring stopped: you see a ramp up." and session.game.state.turn > 2
        assert "> move north 2 (explore)" in log_words(app)  # each leg says what played it


def test_the_way_it_picks_reads_only_the_players_map():
    """A corridor known east of the start, its end next to an unseen cell: the leg walks there; the
    unseen cells themselves are never walked, however open the labyrinth is."""
    z, (x0, y0) = 100, (200, 200)
    cells = {(x, y, z): ROCK for x in range(x0 - 1, x0 + 5) for y in (y0 - 1, y0 + 1)}
    cells |= {(x0 - 1, y0, z): ROCK, (x0, y0, z): FLOOR, (x0 + 1, y0, z): CRAWLWAY, (x0 + 2, y0, z): FLOOR,
              (x0 + 3, y0, z): FLOOR}
    assert exploring_leg(cells, (x0, y0, z), GROUND) == Leg("EAST", 3)  # (x0 + 4, y0) is not seen
    cells[(x0 + 4, y0, z)] = ROCK
    assert exploring_leg(cells, (x0, y0, z), GROUND) is None  # all seen: nothing left
    cells[(x0 + 3, y0, z)] = RAMP_UP  # a ramp leads to a level not seen: not this level's to explore
    cells[(x0 + 2, y0, z)] = RAMP_DOWN
    assert exploring_leg(cells, (x0, y0, z), GROUND) is None
    outside = dataclasses.replace(GROUND, x0=x0 + 4)  # an unseen cell beyond the hunting ground is not sought
    del cells[(x0 + 4, y0, z)]
    assert exploring_leg(cells, (x0, y0, z), dataclasses.replace(outside, x0=x0 + 5)) is None
    assert exploring_leg(cells, (x0, y0, z), outside) == Leg("EAST", 3)
