"""A saved game is an unfinished replay: written in the replay format, read by the replay
reader and `labyrinth replay`, resumed into a Match through the one hash check, which names
the first turn of an edited save; older saves still load and resume; a list of long saves
reads their headers only."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from labyrinth.agents.match.resume import resume_into
from labyrinth.agents.match.runner import Match, Outside
from labyrinth.agents.registry import make_agent
from labyrinth.saves import games
from labyrinth.saves.games import (
    HEADER_BYTES,
    OLD_FORMAT_STATE,
    SavedGame,
    SaveError,
    list_games,
    load_game,
    save_game,
    saves_dir,
)
from labyrinth.saves.replays import first_mismatch, read_replay
from labyrinth.tui.commands.replay import show as replay
from tests.fronts import assert_own_play

SEED, PRESET = 4, "small"


def match(seed: int = SEED, user=None) -> Match:
    return Match(user or make_agent("user", "builtin", seed), make_agent("minotaur", "builtin", seed), seed=seed,
                 preset=PRESET, max_turns=None)


def played(turns: int, seed: int = SEED) -> tuple[Match, list]:
    """A builtin-vs-builtin match ``turns`` turns in, and the inputs of each turn."""
    playing = match(seed)
    pairs = []
    for _ in range(turns):
        record = playing.play_turn().record
        pairs.append((record.user, record.minotaur))
    assert playing.outcome is None, "the match ended before the turns the test needs"
    return playing, pairs


def saved(playing: Match, pairs: list, stamp: str = "2026-11-23T10:00:00Z") -> SavedGame:
    return SavedGame(None, stamp, playing.seed, playing.preset, playing.difficulty, "builtin", pairs,
                     playing.game.state.digest(), f"turn {len(pairs)}")


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_save_is_a_readable_unfinished_replay_that_verifies():
    playing, pairs = played(12)
    path = save_game(saved(playing, pairs))
    header, *turns = lines_of(path)
    assert (header["format"], header["version"], header["type"]) == ("labyrinth-replay", 2, "header")
    assert (header["turns"], header["hash"], header["summary"]) == (12, playing.game.state.digest(), "turn 12")
    assert header["agents"] == {"user": "you", "minotaur": "builtin"} and header["max_turns"] is None
    recorded = read_replay(path)
    assert recorded.end is None and recorded.notes == []
    assert [(t.user, t.minotaur) for t in recorded.turns] == pairs
    assert [t["hash"] for t in turns][-1] == playing.game.state.digest()
    assert first_mismatch(recorded) is None
    shown = io.StringIO()
    assert replay(path, False, shown) == 0
    assert "unfinished: no final line, the match stopped after turn 12" in shown.getvalue()
    assert "no turn limit" in shown.getvalue()
    verified = io.StringIO()
    assert replay(path, True, verified) == 0 and verified.getvalue() == "verified: 12 turns, hashes match\n"


def test_a_resumed_save_goes_on_as_the_game_would_have():
    playing, pairs = played(15)
    path, state = save_game(saved(playing, pairs)), playing.game.state
    later = [playing.play_turn().record.result.state.digest() for _ in range(10)]
    resumed = match()
    [listed], problems = list_games()
    assert problems == [] and listed.path == path
    resume_into(resumed, listed)
    assert resumed.turns == 15 and resumed.game.state == state
    assert [resumed.play_turn().record.result.state.digest() for _ in range(10)] == later
    assert_own_play(*playing.stats.values(), *resumed.stats.values())  # the fallback's play would go on alike too


def test_a_listed_save_s_turns_are_a_whole_sequence():
    """A listed save's turns, read when first used, answer every Sequence method: ``count`` too,
    which an attribute of the same name (the number of turns) once hid."""
    playing, pairs = played(6)
    save_game(saved(playing, pairs))
    [listed], _ = list_games()
    assert len(listed.turns) == 6 and listed.turns.count(pairs[0]) == pairs.count(pairs[0])
    assert list(listed.turns) == pairs and listed.turns.index(pairs[-1]) == 5


def test_a_person_s_game_resumes_into_a_match_with_an_outside_seat():
    playing, pairs = played(8)
    resumed, told = match(user=Outside("you")), []
    resume_into(resumed, load_game(save_game(saved(playing, pairs))), told.append)
    assert resumed.game.state == playing.game.state and told[-1].state == playing.game.state and len(told) == 8


@pytest.mark.parametrize("edit", ["hash", "input"])
def test_a_save_whose_fifth_turn_was_edited_is_refused_naming_turn_5(edit):
    playing, pairs = played(12)
    path = save_game(saved(playing, pairs))
    lines = lines_of(path)
    if edit == "hash":
        lines[5]["hash"] = "0" * 16
    else:
        lines[5]["user"] = {"command": "HALT", "steps": 30}
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(SaveError, match="turn 5: state hash"):
        resume_into(match(), load_game(path))
    out = io.StringIO()
    assert replay(path, True, out) == 1 and out.getvalue().startswith("mismatch at turn 5: ")


def test_a_save_of_another_world_is_refused():
    playing, pairs = played(3)
    with pytest.raises(SaveError, match="a game of seed 4, small, normal, not of seed 5"):
        resume_into(match(seed=5), load_game(save_game(saved(playing, pairs))))


def _old_save(version: int, playing: Match, pairs: list) -> Path:
    """A save as the game wrote it before saves were replays: the inputs and the final hash."""
    head = {"format": "labyrinth-save", "version": version, "saved_at": "2026-01-01T00:00:00Z", "seed": SEED,
            "preset": PRESET, "difficulty": "normal", "minotaur": "builtin",
            "hash": playing.game.state.digest(OLD_FORMAT_STATE), "summary": "old"}  # as those releases hashed it
    inputs = [[user.model_dump(exclude_none=True), minotaur.model_dump(exclude_none=True)] for user, minotaur in pairs]
    path = saves_dir() / f"old-v{version}.json{'l' if version == 2 else ''}"
    path.parent.mkdir(parents=True, exist_ok=True)
    if version == 1:
        path.write_text(json.dumps({**head, "turns": inputs}))
    else:
        path.write_text("".join(json.dumps(line) + "\n" for line in [{**head, "turns": len(inputs)}, *inputs]))
    return path


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_save_still_loads_and_resumes(version):
    playing, pairs = played(10)
    path = _old_save(version, playing, pairs)
    [listed], problems = list_games()
    assert problems == [] and (listed.path, listed.summary, len(listed.turns)) == (path, "old", 10)
    recorded = listed.replay()
    assert [t.hash for t in recorded.turns] == [None] * 9 + [playing.game.state.digest(OLD_FORMAT_STATE)]
    resumed = match()
    resume_into(resumed, listed)
    assert resumed.game.state == playing.game.state


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_save_that_does_not_replay_is_refused_at_its_last_turn(version):
    playing, pairs = played(10)
    path = _old_save(version, playing, pairs[:9] + [pairs[0]])
    with pytest.raises(SaveError, match="turn 10: state hash"):
        resume_into(match(), load_game(path))


def test_two_hundred_long_saves_are_listed_from_their_headers(monkeypatch):
    """200 saves of 2,000 turns each: the list reads a bounded start of each file, never a
    whole one."""
    first = save_game(_looking(2_000))
    for number in range(199):
        shutil.copy(first, first.with_name(f"copy{number:03}-{first.name}"))
    size = first.stat().st_size
    read: list[int] = []
    start = games.read_start
    monkeypatch.setattr(games, "read_start", lambda path, cap: read.append(len(got := start(path, cap))) or got)
    monkeypatch.setattr(games, "read_regular", lambda *a: pytest.fail("a whole save was read to list it"))
    listed, problems = list_games()
    assert problems == [] and len(listed) == 200 and {len(g.turns) for g in listed} == {2_000}
    assert len(read) == 200 and sum(read) == 200 * HEADER_BYTES < 200 * size / 50  # 4 KiB of some 350 KB each
    monkeypatch.undo()
    assert list(listed[0].turns) == list(_looking(2_000).turns)  # read in full when first used


def _looking(turns: int) -> SavedGame:
    from labyrinth.engine import WAIT, Game, UserInput

    game = Game.new(SEED, PRESET)
    pairs = [(UserInput(command="LOOK"), WAIT)] * turns
    for user, minotaur in pairs:
        game.step(user, minotaur)
    return SavedGame(None, "2026-11-23T10:00:00Z", SEED, PRESET, "normal", "builtin", pairs, game.state.digest(),
                     "a long game")


def test_a_sleeping_avatar_whose_save_was_edited_does_not_wake():
    from labyrinth.agents.wsap.avatars import LabyrinthAvatars
    from labyrinth.engine.wsap import Action, AvatarSpec

    avatars = LabyrinthAvatars(preset="tiny")
    avatar = avatars.create_avatar("probe", AvatarSpec(name="Theseus"))
    avatars.jack_in("probe", avatar.avatar_id)
    for _ in range(6):
        avatars.act(Action("LOOK"))
    avatars.jack_out("probe")
    [path] = saves_dir().glob("*.jsonl")
    lines = lines_of(path)
    assert lines[0]["agents"] == {"user": "probe", "minotaur": "builtin"} and lines[0]["turns"] == 6
    lines[5]["hash"] = "0" * 16
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    woken = avatars.jack_in("probe", avatar.avatar_id)
    assert not woken.success and "cannot be resumed" in woken.message and "turn 5: state hash" in woken.message
