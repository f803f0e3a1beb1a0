"""The rest of the game screen a roguelike player expects, through Pilot: spectate's `o` fits the
whole level at 80x24, spectate's footer keeps quit and help, a resumed game leaves one replay, the
Replays screen lists games a player can read (a word typed on the map: test_tui_typing_on_map.py)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import OptionList
from textual.widgets._footer import FooterKey

from labyrinth.engine import UserInput
from labyrinth.engine.presets import PRESETS
from labyrinth.saves.games import PLAYER
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replays import VERSION, read_replay
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.replay_player import ReplayPlayerScreen
from labyrinth.tui.screens.replays import ReplaysScreen
from labyrinth.tui.screens.title import NewGame
from labyrinth.tui.session import PlaySession
from labyrinth.tui.widgets.map_glyphs import HALVES, ITEM_GLYPHS
from labyrinth.tui.widgets.minimap import Minimap
from labyrinth.tui.widgets.time_words import clock
from tests.tui.test_map import drawn
from tests.tui.test_tui import SIZE, choose, halt_until_over, type_line

pytestmark = pytest.mark.slow

WATCHED = NewGame(4, "small", "normal", "builtin", "builtin")
TINY = NewGame(5, "tiny", "normal", PLAYER, "builtin")


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


@pytest.fixture
def utc(monkeypatch):
    """Times shown in the player's zone are UTC here, whatever the machine's."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def recorded_games() -> tuple[Path, Path]:
    """A finished game (caught, standing still) and one left after a turn, as the TUI records them."""
    finished = PlaySession(5, "tiny", learning=False)
    while not finished.over:
        finished.play(UserInput(command="HALT", steps=100))
    left = PlaySession(6, "tiny", "hard", learning=False)
    left.play(UserInput(command="LOOK"))
    left.leave()
    return replays_of(5), replays_of(6)


def replays_of(seed: int) -> Path:
    (path,) = replays_dir().glob(f"*-seed{seed}-*.jsonl")
    return path


async def test_the_replays_list_says_when_how_and_who_newest_first_and_names_broken_files(utc):
    finished, left = recorded_games()
    older = finished.with_name("older.jsonl")
    header, rest = finished.read_text().split("\n", 1)
    older.write_text(header.replace('"created_at":"', '"created_at":"2020-01-02T03:04:05Z","was":"') + "\n" + rest)
    broken = {"empty.jsonl": "", "garbage.jsonl": "not json\n", "cut.jsonl": header,  # no complete line
              "future.jsonl": header.replace(f'"version":{VERSION}', '"version":9') + "\n",
              "miscounted.jsonl": header + "\n" + '{"type":"final","turns":3,"outcome":"DEATH","game_time":1,'
                                  '"stats":{"user":{},"minotaur":{}}}\n'}
    for name, text in broken.items():
        (replays_dir() / name).write_text(text)
    (replays_dir() / "folder.jsonl").mkdir()
    app = LabyrinthApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "replays")
        screen = app.screen
        assert isinstance(screen, ReplaysScreen)
        listed = screen.query_one("#replay-list", OptionList)
        shown = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert len(shown) == 3 + len(broken) + 1
        def when(path: Path) -> str:
            started = read_replay(path).header.created_at
            return f"{started[:10]} {started[11:16]}"

        replay = read_replay(finished)
        played = (f"{when(finished)}  caught · {replay.end.turns} turns · "
                  f"time {clock(replay.end.game_time)}\ntiny, seed 5, normal\nyou vs the built-in Minotaur")
        unfinished = f"{when(left)}  unfinished · 1 turn played\ntiny, seed 6, hard\nyou vs the built-in Minotaur"
        latest = [played, unfinished] if read_replay(finished).header.created_at > read_replay(
            left).header.created_at else [unfinished, played]  # started in the same second: by name
        assert shown[:3] == [*latest, played.replace(when(finished), "2020-01-02 03:04")]
        problems = dict(line.split("\n") for line in shown[3:])
        assert sorted(problems) == sorted([*broken, "folder.jsonl"])
        assert all(why.startswith("cannot be read: ") for why in problems.values())
        assert "version 9" in problems["future.jsonl"] and "3 turns" in problems["miscounted.jsonl"]
        assert "directory" in problems["folder.jsonl"]
        listed.focus()
        listed.highlighted = shown.index(next(s for s in shown if s.startswith("garbage.jsonl")))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and "cannot be read" in str(screen.query_one("#replay-body").render())
        listed.highlighted = shown.index(played)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayPlayerScreen) and app.screen.session.replay.path == finished
