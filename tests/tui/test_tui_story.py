"""A game's story and the ends of a session: the game-over screen saves a plain-text summary next to
the replay, the same text `labyrinth replay FILE --summary` prints; quitting tells the shell where the
game was saved and how to go on; one date format everywhere; one footer entry a key."""

from __future__ import annotations

import io
import os

import pytest
from textual.widgets import OptionList

from labyrinth.saves.games import PLAYER, list_games
from labyrinth.saves.paths import replays_dir
from labyrinth.tui.app import LabyrinthApp, told_where
from labyrinth.tui.cli import main
from labyrinth.tui.dates import local_time
from labyrinth.tui.relaunch import again_command
from labyrinth.tui.screens.game_over import QUIET_S, GameOverScreen
from labyrinth.tui.screens.saved_games import SavedGamesScreen
from labyrinth.tui.screens.title import NewGame

from .test_tui import SIZE, halt_until_over, wait_for
from .test_tui_travel import enter

pytestmark = pytest.mark.slow

TINY = NewGame(5, "tiny", "normal", PLAYER, "builtin", learning=False)


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


async def test_the_game_over_screen_writes_the_story_that_replay_summary_prints_and_s_says_where(clock, capsys):
    app = LabyrinthApp(TINY, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await enter(pilot, "look")
        await halt_until_over(pilot, app.screen.session)
        over = app.screen
        assert isinstance(over, GameOverScreen)
        (replay,) = replays_dir().glob("*.jsonl")
        written = replay.with_suffix(".txt")
        await wait_for(pilot, written.exists)  # no key asked for it, as DCSS writes a morgue every game
        assert written.stat().st_mode & 0o777 == 0o666 & ~umask()  # a file to share, as other tools' outputs
        clock.advance(QUIET_S)
        await wait_for(pilot, lambda: over.ready)
        await pilot.press("s")
        assert any(n.message == f"Saved in {written}" for n in app._notifications)
    assert main(["replay", str(replay), "--summary"]) == 0
    printed = capsys.readouterr().out
    assert written.read_text() == printed
    assert "Outcome: caught by the Minotaur after" in printed and "\nLevel 100:\n" in printed and "@" in printed
    assert "> look" in printed and "The RED STONE hums" in printed and printed.rstrip().endswith("You die.")


async def test_quitting_tells_the_shell_where_the_game_is_saved():
    app = LabyrinthApp(TINY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await enter(pilot, "look")
        await pilot.press("ctrl+q")
        await pilot.pause()
    (saved,), _ = list_games()
    assert app.saved_on_leaving == [saved.path]
    out = io.StringIO()
    told_where(app.saved_on_leaving, out)
    assert f"saved in {saved.path}" in out.getvalue() and f"run `{again_command()}` and choose" in out.getvalue()


async def test_saved_games_and_replays_say_when_in_one_format_and_the_footer_names_quit_once():
    app = LabyrinthApp(TINY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await enter(pilot, "look")
        await pilot.press("ctrl+t")  # saved, to the title
        await pilot.pause()
        footer = [binding.description for _, binding, _, _ in app.screen.active_bindings.values() if binding.show]
        assert footer.count("quit") == 2  # q and ctrl+q, one action: the footer shows it once
        assert len({b.action for _, b, _, _ in app.screen.active_bindings.values() if b.description == "quit"}) == 1
        (saved,), _ = list_games()
        app.push_screen(SavedGamesScreen())
        await pilot.pause()
        listed = str(app.screen.query_one("#save-list", OptionList).get_option_at_index(0).prompt)
        assert listed.startswith(local_time(saved.saved_at) + "  ") and "T" not in listed.split()[1]
