"""The commands typed are kept with a save (its header's ``history``), so that Continue gives the
command line's up-arrow history back: every released save, which has none, still loads with none;
what a save keeps is bounded and printable, however the file was edited."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from labyrinth.engine import Game
from labyrinth.saves.games import (
    HISTORY_LINE_CHARS,
    HISTORY_LINES,
    SavedGame,
    SaveError,
    list_games,
    load_game,
    save_game,
    saves_dir,
)

FIXTURES = Path(__file__).parent.parent / "fixtures"
SAVES = ("save-ada196d.json", "save-1991e17.jsonl", "save-1f2b261.jsonl", "save-05106cc.jsonl")


def empty_game(history: list[str]) -> SavedGame:
    return SavedGame(None, "2026-11-30T10:00:00Z", 4, "small", "normal", "builtin", [],
                     Game.new(4, "small").state.digest(), "no turn yet", history=history)


@pytest.mark.parametrize("name", SAVES)
def test_a_released_save_without_history_loads_and_lists_with_none(name):
    saves_dir().mkdir(parents=True)
    shutil.copyfile(FIXTURES / name, saves_dir() / name)
    [listed], problems = list_games()
    assert problems == [] and tuple(listed.history) == () and tuple(load_game(saves_dir() / name).history) == ()


def test_the_typed_commands_come_back_from_a_save_listed_or_loaded():
    typed = ["look", "m n 3", "travel <", "halt 2"]
    path = save_game(empty_game(typed))
    [listed], _ = list_games()
    assert list(listed.history) == typed and list(load_game(path).history) == typed
    head = json.loads(path.read_text().partition("\n")[0])
    assert head["history"] == typed
    assert "history" not in json.loads(save_game(empty_game([])).read_text().partition("\n")[0])  # none: no key


def test_a_save_keeps_the_newest_printable_lines_that_fit():
    long = "m n " + "9" * HISTORY_LINE_CHARS
    typed = [f"halt {n}" for n in range(HISTORY_LINES + 5)] + [long, "look"]
    kept = load_game(save_game(empty_game(typed))).history
    assert list(kept) == [*typed[-HISTORY_LINES - 1:-2], "look"] and len(kept) == HISTORY_LINES


def test_an_edited_history_shows_no_control_character_and_a_wrong_kind_is_a_broken_header():
    path = save_game(empty_game(["look"]))
    head, _, rest = path.read_text().partition("\n")
    path.write_text(json.dumps({**json.loads(head), "history": ["look", "\x1b[2Jboo", "m n\n2"]}) + "\n" + rest)
    assert list(load_game(path).history) == ["look"]
    path.write_text(json.dumps({**json.loads(head), "history": "look"}) + "\n" + rest)
    with pytest.raises(SaveError, match="broken header .history"):
        load_game(path)


def test_a_game_saved_again_keeps_its_history():
    path = save_game(empty_game(["look"]))
    again = save_game(replace(load_game(path), history=["look", "halt 3"]))
    assert again == path and list(load_game(path).history) == ["look", "halt 3"]
