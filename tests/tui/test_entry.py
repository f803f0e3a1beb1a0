"""The command's start-up (labyrinth_tui/entry.py): the modules a command goes on to import load with the
garbage collector paused, as cli's own do, and the collector is back before the command runs."""

import gc
from contextlib import contextmanager

from labyrinth.tui import cli
from labyrinth.tui.commands import APP
from labyrinth.tui.entry import collector_paused


def test_the_collector_is_paused_while_modules_load_and_back_after():
    assert gc.isenabled()
    try:
        with collector_paused():
            assert not gc.isenabled()
            kept = [[]]  # alive when the block ends: frozen, never walked again
        assert gc.isenabled() and gc.get_freeze_count() > 0 and kept
    finally:
        gc.unfreeze()


def test_play_and_the_title_load_the_app_inside_the_loading_and_run_after_it(monkeypatch):
    """The command runs once the loading is over; what it loaded there is the app (the title's, when no
    command is named); a command that names no module loads nothing there."""
    said: list[str] = []

    @contextmanager
    def loading():
        said.append("loading")
        yield
        said.append("loaded")

    imported: list[str] = []
    monkeypatch.setattr(cli, "import_module", lambda name: imported.append(name))
    monkeypatch.setattr("labyrinth.tui.commands.play.run", lambda args: said.append("play") or 0)
    monkeypatch.setattr("labyrinth.tui.app.run", lambda: said.append("title") or 0)
    assert cli.main(["play", "--seed", "1"], loading=loading) == 0
    assert cli.main([], loading=loading) == 0
    assert said == ["loading", "loaded", "play", "loading", "loaded", "title"] and imported == [APP, APP]
    assert cli.parser_for(["gsm"]).parse_args(["gsm"]).loads == ()


def test_the_command_turns_pydantics_plugin_search_off_unless_the_user_set_it(monkeypatch):
    """The entry sets PYDANTIC_DISABLE_PLUGINS before anything imports pydantic; a value the user gave, even
    an empty one (plugins on), is kept."""
    from labyrinth.tui import entry

    seen: list[str | None] = []
    monkeypatch.setattr(cli, "main", lambda loading: seen.append(entry.os.environ.get("PYDANTIC_DISABLE_PLUGINS")) or 0)
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    assert entry.main() == 0
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "")
    assert entry.main() == 0
    assert seen == ["__all__", ""]
