"""The player's keys and options, from the config file's [keys] and [options] (as DCSS's .crawlrc): a
remapped key plays on the map (and the help and the footer say it); a wrong entry is one line naming it,
and only it is left out, so that no key does two things and none loses its action; the themes (--theme,
[options] theme) include the game's high-contrast and colour-blind ones, the map drawn in their colours."""

from __future__ import annotations

from textwrap import dedent

import pytest
from rich.style import Style
from textual.widgets import Input, Markdown

from labyrinth.saves.config import config_path, read_config
from labyrinth.tui.app import LabyrinthApp, screen_keys
from labyrinth.tui.cli import parser_for
from labyrinth.tui.keymap import ACTIONS, DEFAULT_KEYS, key_name, remapped
from labyrinth.tui.player_settings import PlayerOptions, PlayerSettings, read_settings
from labyrinth.tui.screens.help import HelpScreen
from labyrinth.tui.themes import theme_names
from labyrinth.tui.widgets.game_map import GameMap
from labyrinth.tui.widgets.map_frame import MARGIN
from labyrinth.tui.widgets.map_glyphs import USER
from labyrinth.tui.widgets.minimap import Minimap
from tests.tui.test_tui import GAME, SIZE

pytestmark = pytest.mark.slow


def config(text: str) -> None:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(dedent(text))


def problems(text: str) -> list[str]:
    """The lines a config file's [keys] and [options] give, without the file's name."""
    config(text)
    return [line.removeprefix(f"{config_path()}: ") for line in read_settings(screen_keys()).problems]


async def on_map(pilot) -> None:
    await pilot.pause()
    await pilot.press("escape")
    assert isinstance(pilot.app.focused, GameMap)


async def test_a_key_remapped_in_the_config_file_plays_on_the_map_and_the_help_says_it():
    config("""
        [keys]
        look = "l"              # LOOK back on l...
        east = ["right", "d"]   # ...which east gives up
        grab = ["g", ",", "p"]
    """)
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await on_map(pilot)
        session = app.screen.session
        footer = [key.key_display for key in app.screen.query("FooterKey")]
        assert "l" in footer and "f" not in footer and "hjkd" in footer  # the ways' letters: east's is d
        await pilot.press("l")
        assert session.match.played[-1][0].command == "LOOK" and session.game.state.turn == 1
        await pilot.press("f")  # no map key now: it starts typing
        await pilot.pause()
        assert app.screen.query_one("#command", Input).value == "f" and session.game.state.turn == 1
        await pilot.press("f1")
        await pilot.pause()
        help_text = app.screen.query_one(Markdown).source
        assert isinstance(app.screen, HelpScreen) and "| `l` | look around: hear the stones | `look` |" in help_text
        assert "| `g` `,` `p` | grab what" in help_text and "| `→` `d` | walk a step east" in help_text


async def test_the_helps_prose_says_the_keys_and_the_shifted_gait_the_config_file_set():
    config("""
        [keys]
        look = "l"
        east = ["right", "d"]
        use = "e"

        [options]
        shift_move = "walk"
    """)
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await on_map(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = " ".join(app.screen.query_one(Markdown).source.split())
        assert "LOOK is `l`, the lantern is `e`." in text and "LOOK is `f`" not in text
        assert "they walk along the corridor (quiet) until something stops you" in text and "they run" not in text
        assert "| `shift+↑` `W` `K` | walk north along the corridor (quiet) | `run-north` |" in text
        assert "run north" not in text


async def test_a_clash_is_one_line_naming_it_and_both_actions_keep_their_keys():
    config("""
        [keys]
        look = "k"
    """)
    app = LabyrinthApp(GAME)
    said = []
    app.notify = lambda message, **kwargs: said.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await on_map(pilot)
        assert said == [(f"{config_path()}: [keys] look: 'k' is north's key too (give north other keys, or look "
                        "another); look keeps 'f'")]
        session = app.screen.session
        await pilot.press("k", "f")  # k walks north, f looks: nothing lost
        await pilot.pause()
        assert [user.command for user, _ in session.match.played] == ["MOVE", "LOOK"]


@pytest.mark.parametrize("text, line", [
    ('[keys]\njump = "j"\n', "[keys] jump: no such map action (they are: north, south,"),
    ('[keys]\nnorth = "ctrl+s"\n',
     "[keys] north: 'ctrl+s' is the game screen's key for save; north keeps '↑', 'w', 'k'"),
    ('[keys]\nnorth = "upp"\n', "[keys] north: 'upp' is no key (write a character"),
    ('[keys]\nnorth = "shift+k"\n', "[keys] north: 'shift+k' is no key"),
    ("[keys]\nnorth = 5\n",
     '[keys] north: give a key or a list of keys, such as ["k", "up"]; north keeps \'↑\', \'w\', \'k\''),
    ("[keys]\nnorth = []\n", "[keys] north: give a key or a list of keys"),
    ('keys = "k"\n', "[keys]: a table of settings"),
    ('[keys]\nsouth = "k"\nnorth = "j"\n', None),  # swapped: no clash once both are read
    ('[keys]\nlook = "q"\n', None),  # q leaves examining only, and LOOK is no key there
    ('[keys]\nwest = "q"\n', "[keys] west: 'q' is leave's key too"),  # examining, west moves the cursor
    ('[keys]\nhalt = "x"\n', "[keys] halt: 'x' is examine's key too"),
    ('[keys]\nnorth = "z"\nsouth = "z"\n', "[keys] south: 'z' is north's key too"),  # the later entry goes
    ('[options]\ntheme = "neon"\n', "[options] theme: 'neon' is no theme (themes: textual-dark,"),
    ("[options]\nmap_margin = -1\n", "[options] map_margin: must be a whole number of cells from 0 to 50"),
    ("[options]\nmap_margin = true\n", "[options] map_margin: must be a whole number"),
    ('[options]\nshift_move = "crawl"\n', "[options] shift_move: must be 'run' or 'walk', not 'crawl'"),
    ("[options]\nvi_keys = true\n",
     "[options] vi_keys: unknown option (known: theme, map_margin, shift_move, explore_stops)"),
    ('[options]\nexplore_stops = ["stone", "minotaur"]\n', ("[options] explore_stops: 'minotaur' is no stop you "
     "may choose (they are stone, lantern, ramp; the Minotaur in sight or heard close always stops it)")),
    ('[options]\nexplore_stops = "stones"\n', "[options] explore_stops: 'stones' is no stop you may choose"),
    ("[options]\nexplore_stops = 5\n", '[options] explore_stops: give a list of stops, such as ["stone", "ramp"]'),
    ("[options]\nexplore_stops = []\n", None),  # only the Minotaur stops it then
    ('[options]\nexplore_stops = ["ramp", "lantern"]\n', None),
    ("[keys\n", "not valid TOML"),
])
def test_a_wrong_entry_is_one_line_naming_it(text, line):
    found = problems(text)
    if line is None:
        assert found == []
    else:
        assert len(found) == 1 and line in found[0] and "\n" not in found[0], found


def test_a_wrong_entry_leaves_out_only_itself_and_the_providers_still_read():
    config("""
        [gemini]
        model = "gemini-2.5-flash"

        [keys]
        look = "l"
        east = "right"
        north = "nope"

        [options]
        map_margin = 7
        theme = 3
        explore_stops = ["ramp", "minotaur"]
    """)
    settings = read_settings(screen_keys())
    assert settings.keys["look"] == ("l",) and settings.keys["north"] == DEFAULT_KEYS["north"]
    assert settings.options == PlayerOptions(map_margin=7) and len(settings.problems) == 3
    assert settings.options.explore_stops == ("stone", "lantern", "ramp")  # every stop, as by default
    assert read_config()["gemini"] == {"model": "gemini-2.5-flash"} and read_config()["keys"]["look"] == "l"


def test_the_keys_every_player_starts_with_clash_nowhere_and_take_no_screen_key():
    keys, found = remapped({}, screen_keys())
    assert keys == DEFAULT_KEYS and found == []
    for action in ACTIONS:
        assert remapped({action.name: list(action.keys)}, screen_keys()) == (DEFAULT_KEYS, [])
    assert {"h", "j", "k", "l", "H", "J", "K", "L", "w", "a", "s", "d"} <= {k for a in ACTIONS for k in a.keys}
    assert [action.name for action in ACTIONS if "o" in action.keys] == ["explore"]  # autoexplore's, as in DCSS


@pytest.mark.parametrize("written, name", [
    ("k", "k"), ("K", "K"), ("<", "less_than_sign"), (",", "comma"), (".", "full_stop"), ("Up", "up"),
    ("shift+up", "shift+up"), ("PageDown", "pagedown"), ("f5", "f5"), ("question_mark", "question_mark"),
    ("ctrl+k", "ctrl+k"), ("", None), ("upp", None), ("shift+k", None), ("ctrl+ctrl+a", None), ("hyper+", None),
])
def test_what_a_key_is_written_as(written, name):
    assert key_name(written) == name


async def test_shift_walks_the_corridor_when_the_options_say_so():
    app = LabyrinthApp(GAME, settings=PlayerSettings(options=PlayerOptions(shift_move="walk")))
    async with app.run_test(size=SIZE) as pilot:
        await on_map(pilot)
        await pilot.press("shift+up")
        played = app.screen.session.match.played[-1][0]
        assert (played.command, played.speed, played.steps) == ("MOVE", 1, None)


async def test_the_map_keeps_the_margin_the_options_set():
    config("[options]\nmap_margin = 9\n")
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await on_map(pilot)
        assert app.screen.query_one(GameMap).margin == 9 != MARGIN


async def test_the_theme_comes_from_the_options_and_the_command_line_wins():
    config('[options]\ntheme = "high-contrast"\n')
    app = LabyrinthApp(GAME)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "high-contrast" and app.settings.options.map_margin == MARGIN
    app = LabyrinthApp(GAME, theme="colour-blind")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "colour-blind"
    assert parser_for(["play", "--theme", "high-contrast"]).parse_args(["play", "--theme", "high-contrast"]).theme \
        == "high-contrast"
    refused = parser_for(["play"]).parse_args(["play", "--theme", "neon"])
    with pytest.raises(SystemExit):
        refused.func(refused)  # checked once parsed: argparse's error, naming every theme


def user_style(game_map: Minimap) -> Style:
    """The style ``@`` is drawn in, on the map's lines."""
    for y in range(game_map.size.height):
        for segment in game_map.render_line(y):
            if "@" in segment.text:
                return segment.style
    raise AssertionError("no @ on the map")


@pytest.mark.parametrize("theme, background", [("colour-blind", "#0072b2"), ("high-contrast", "blue"),
                                               ("nord", USER.style.bgcolor.name)])
async def test_the_map_is_drawn_in_the_themes_colours(theme, background):
    assert theme in theme_names()
    app = LabyrinthApp(GAME, theme=theme)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        style = user_style(app.screen.query_one(Minimap))
        assert style.bgcolor.name == background and style.bold


async def test_the_config_files_problems_are_one_notice_not_one_each_over_the_map():
    said = ("config.toml: [keys] jump: no such map action", "config.toml: [options] theme: 'bogus' is no theme")
    app = LabyrinthApp(GAME, settings=PlayerSettings(problems=said))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        notices = [n for n in app._notifications if n.title == "Config file"]
        assert [n.message for n in notices] == ["\n".join(said)]
