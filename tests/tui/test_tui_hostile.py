"""Hostile text in the running TUI (through Pilot): typed lines the parser cannot read leave the
game running with a hint, and every string from outside (file names, replay headers, lessons,
saves, model text) is shown as the characters it is: no markup acted on, no escape sent."""

import json
import shutil

import pytest
from textual.app import App
from textual.widgets import OptionList, Static

from labyrinth.saves.games import PLAYER
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replays import ReplayWriter
from labyrinth.tui.app import LabyrinthApp
from labyrinth.tui.screens.game import GameScreen
from labyrinth.tui.screens.memory import MemoryScreen
from labyrinth.tui.screens.replay_player import ReplayPlayerScreen
from labyrinth.tui.screens.replays import ReplaysScreen
from labyrinth.tui.screens.saved_games import SavedGamesScreen
from labyrinth.tui.screens.title import NewGame, TitleScreen
from labyrinth.tui.widgets.agent_panel import AgentPanel
from labyrinth.tui.widgets.narrative import NarrativeLog
from tests.saves.test_replays import builtin_match
from tests.tui.test_tui import SIZE, choose, type_line

pytestmark = pytest.mark.slow

ESC_TITLE = "\x1b]0;pwned\x07"  # OSC: sets the terminal's title
HYPERLINK = "\x1b]8;;https://evil.example\x07here\x1b]8;;\x07"  # OSC 8: a hidden link
RED = "\x1b[31mred\x1b[0m"  # CSI: colours
BIDI = "\u202eevil\u202c"  # right-to-left override
QUIT = "[@click=app.quit]quit[/]"  # Textual markup: a click quits the app
MALFORMED = "[@click=app.quit(]x [$nope]y [link=https://evil.example]z"
ACTIVE = {chr(c) for c in [*range(0x20), *range(0x7f, 0xa0)]} | set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068"
                                                                  "\u2069")


def rendered(widget) -> str:
    """What a widget puts on the screen, line by line (as the terminal would get it)."""
    return "\n".join(widget.render_line(y).text for y in range(widget.size.height))


def assert_inert(text: str) -> None:
    """No character that acts on a terminal."""
    assert not ACTIVE & set(text) - {"\n"}, sorted(ACTIVE & set(text))


async def test_unreadable_numbers_typed_into_the_game_give_a_hint_and_the_game_goes_on():
    app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "builtin"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        state = screen.session.game.state
        hint = screen.query_one("#hint", Static)
        for line, words in (("halt ²", "not a number"), ("move north ①", "not a number")):
            await type_line(pilot, line)
            assert app.is_running and app.screen is screen and screen.session.game.state is state
            assert words in str(hint.render()), line
        for pasted, words in (("halt " + "9" * 5000, "too big a number"), ("halt " + ESC_TITLE, "\\x1b]0;pwned\\x07")):
            screen.query_one("#command").value = pasted
            await pilot.press("enter")
            await pilot.pause()
            assert app.is_running and app.screen is screen and screen.session.game.state is state
            assert words in str(hint.render())
            assert_inert(rendered(hint)) and len(str(hint.render())) < 400
        await type_line(pilot, "halt ５")
        assert screen.session.game.state.tick == state.tick + 10  # full-width digits are a count


def hostile_replay(name: str) -> None:
    """A short real replay, its header's agents and lessons hostile, under a hostile file name."""
    with ReplayWriter(replays_dir()) as writer:
        builtin_match(3, writer, max_turns=3).play()
    lines = [json.loads(line) for line in writer.path.read_text().splitlines()]
    lines[0]["agents"]["user"] = QUIT + ESC_TITLE
    lines[0]["lessons"] = {"user": [{"id": BIDI, "text": MALFORMED + HYPERLINK}]}
    lines[1]["fallback"] = {"user": RED + QUIT, "minotaur": None}
    (replays_dir() / name).write_text("".join(json.dumps(line) + "\n" for line in lines))
    writer.path.unlink()


async def test_hostile_replay_names_and_contents_are_words_and_clicking_them_quits_nothing():
    names = [f"1-{QUIT.replace('/', '')}.jsonl", f"2-{MALFORMED.replace('/', '')}.jsonl", f"3-{ESC_TITLE}{BIDI}.jsonl"]
    for name in names:
        hostile_replay(name)
    (replays_dir() / f"4-{MALFORMED.replace('/', '')}{BIDI}.jsonl").write_text("not a replay\n")  # listed by name
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await choose(pilot, app, "replays")
        screen = app.screen
        assert isinstance(screen, ReplaysScreen)
        listing = screen.query_one(OptionList)
        shown = rendered(listing)
        assert "[@click=app.quit]quit[/]\\x1b]0;pwned\\x07 as the user" in shown  # a header's agent
        assert "[$nope]y" in shown and "\\u202e" in shown  # an unreadable file's name
        assert_inert(shown)
        for row in range(len(names)):
            await pilot.click(OptionList, offset=(4, 3 * row + 1))  # on each replay's first line (below the border)
            await pilot.pause()
            player = app.screen
            assert app.is_running and isinstance(player, ReplayPlayerScreen)
            await pilot.press("n")
            await pilot.pause()
            log = player.query_one(NarrativeLog)
            title, body = str(log.border_title), " ".join(" ".join(line.text for line in log.lines).split())
            assert "[@click=app.quit]quit[/]\\x1b]0;pwned\\x07 as the user vs the built-in Minotaur" in log.title_parts
            assert title.startswith("replay: small")  # its parts as far as they fit, as words
            assert " ".join(f"lesson offered to the user: {MALFORMED}".split()) in body  # (the log wraps it)
            assert "[user fallback: \\x1b[31mred\\x1b[0m[@click=app.quit]quit[/]]" in body
            assert_inert(rendered(log))
            assert_inert(title)
            await pilot.press("q")
            await pilot.pause()
            assert app.screen is screen
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


def write_log(reflections: list[dict]) -> None:
    from labyrinth.saves.experience import log_path

    log_path().parent.mkdir(parents=True, exist_ok=True)
    log_path().write_text(json.dumps({"version": 1, "reflections": reflections}))


def hostile_reflection() -> dict:
    from tests.saves.test_experience import reflection

    fields = reflection(1).model_dump(mode="json")
    # the log refuses a preset that is not one: the free text is in the id, agent, lesson and evidence keys
    return {**fields, "id": f"g1{ESC_TITLE}-user", "agent": QUIT, "preset": "small",
            "key_reflection": f"{MALFORMED} {HYPERLINK} {QUIT}", "evidence": {f"k{RED}": BIDI}}


async def test_hostile_reflections_on_the_memory_screen_are_words():
    write_log([hostile_reflection()])
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await choose(pilot, app, "memory")
        screen = app.screen
        assert isinstance(screen, MemoryScreen) and screen.query_one("#memory-table").row_count == 1
        table, body = rendered(screen.query_one("#memory-table")), rendered(screen.query_one("#memory-body"))
        assert "small 1" in table and "[@click=app.quit(]x" in table
        assert "[@click=app.quit]quit[/] as the user got caught after" in body  # its id is no word of the game
        assert "[$nope]y [link=https://evil.example]z" in body and 'k\\x1b[31mred\\x1b[0m: \\u202eevil\\u202c' in body
        assert_inert(table + body)
        await pilot.click("#memory-body", offset=(2, 3))  # on the lesson's words
        await pilot.pause()
        assert app.is_running and app.screen is screen


async def test_a_hostile_saved_game_is_listed_as_words(tmp_path):
    app = LabyrinthApp(NewGame(7, "small", "normal", PLAYER, "builtin"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_line(pilot, "look")
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.pop_screen()
        from labyrinth.saves.games import saves_dir

        saved = next(saves_dir().glob("*.jsonl"))
        header, *turns = saved.read_text().splitlines(keepends=True)
        header = json.dumps({**json.loads(header), "saved_at": QUIT + ESC_TITLE, "summary": MALFORMED + BIDI})
        saved.write_text("".join([header + "\n", *turns]))
        shutil.copy(saved, saves_dir() / f"{QUIT.replace('/', '')}{RED}.jsonl")
        (saves_dir() / f"broken {QUIT.replace('/', '')}{RED}.jsonl").write_text("{")
        await pilot.pause()
        await choose(pilot, app, "resume")
        screen = app.screen
        assert isinstance(screen, SavedGamesScreen)
        shown = "\n".join(rendered(widget) for widget in screen.query("OptionList, .problem"))
        assert "[@click=app.quit]quit[/]\\x1b]0;pwned\\x07" in shown and "[$nope]y" in shown
        assert "\\x1b[31mred" in shown
        assert_inert(shown)
        await pilot.click(OptionList, offset=(4, 1))
        await pilot.pause()
        assert app.is_running


class PanelApp(App):
    def compose(self):
        yield AgentPanel()


async def test_a_models_plan_and_reasoning_in_the_agent_panel_are_words():
    from types import SimpleNamespace

    from labyrinth.agents.match.side import SideStats
    from labyrinth.engine.wsap import Action

    agent = SimpleNamespace(name=f"ollama/{QUIT}", blocking=True)
    action = Action("HALT", {"steps": 2}, reasoning=f"{HYPERLINK} {MALFORMED}\n{BIDI}")
    side = SimpleNamespace(agent=agent, last_action=action, stats=SideStats())
    app = PanelApp()
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(AgentPanel)
        panel.show({"user": side}, {"user": [f"go {RED}", QUIT]}, {"user": f"- {ESC_TITLE}{MALFORMED}"})
        await pilot.pause()
        shown = rendered(panel)
        assert f"ollama/{QUIT} as the user" in shown
        assert "plan: go \\x1b[31mred\\x1b[0m; [@click=app.quit]quit[/]" in shown
        assert "\\x1b]8;;https://evil.example\\x07here" in shown and "- \\x1b]0;pwned\\x07[@click=app.quit(]x" in shown
        assert_inert(shown)
        await pilot.click(AgentPanel, offset=(8, 0))
        assert app.is_running


async def test_a_hostile_model_name_in_the_config_is_refused_on_the_title_screen(tmp_path):
    """A model's name that cannot be shown breaks the config file (its one rule, model_problem): the
    choices say so, and nothing of the name reaches the screen."""
    from textual.widgets import Select

    config = tmp_path / "config" / "labyrinth" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[mistral]\napi_key = "k"\nmodel = {json.dumps(HYPERLINK + MALFORMED)}\n')
    app = LabyrinthApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        choices = app.screen.query_one("#user", Select)
        choices.focus()
        await pilot.press("enter")
        await pilot.pause()
        listing = choices.query_one(OptionList)
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert "LLM: mistral (config file broken)" in prompts
        assert "evil.example" not in rendered(listing) and "evil.example" not in rendered(app.screen)
        assert_inert(rendered(listing))
        assert app.is_running
