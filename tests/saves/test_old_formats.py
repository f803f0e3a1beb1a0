"""Files of every released format, each written by its release (fixtures/README.md says which commit wrote
each): every replay verifies, or says exactly why it cannot; every save loads, is listed, resumes into a
Match and plays on. A new state field (the user's wounds, with its row in the migrations table) keeps
yesterday's save resuming and its replays verifying; a replay holding only its header says that its
initial state was all there was to check; a recording of a newer state version says it cannot be checked."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from labyrinth.agents.match.resume import resume_into
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.engine import Game
from labyrinth.engine.state import STATE_VERSION
from labyrinth.saves.build import build_id
from labyrinth.saves.games import SavedGame, SaveError, list_games, load_game, save_game, saves_dir
from labyrinth.saves.replays import ReplayWriter, first_mismatch, hashed_at, read_replay
from labyrinth.tui.commands.replay import show

from ..new_field import WoundsState, wounds_engine  # noqa: F401 (a fixture)

FIXTURES = Path(__file__).parent.parent / "fixtures"
OLDER_RULES = ("(recorded by a release that did not name its build: if its rules differ from this one's, the same "
               "inputs play another game)")


def checked_at(version: int, turns: int, now: int) -> str:
    """What --verify says of a finished recording of ``turns`` turns whose hashes are of an older state
    ``version``."""
    return (f"verified: {turns} turns, hashes and the outcome match (recorded at state version {version}, this is "
            f"{now}: each hash checked on the fields version {version} held)")


# What `labyrinth replay FILE --verify` says of each, and its exit status.
REPLAYS = {
    "replay-5d2acc1.jsonl": ((f"mismatch at turn 55: state hash 21ddf4673a7e9d6d, recorded 2f7b9ec948c649a0 "
                              f"{OLDER_RULES}"), 1),  # turns 1 to 54 agree at state version 0; then its rules
    "replay-f65a52f.jsonl": (checked_at(0, 62, STATE_VERSION), 0),
    "replay-4c09b2b.jsonl": (checked_at(1, 40, STATE_VERSION), 0),
    "replay-before-sent.jsonl": (checked_at(1, 3, STATE_VERSION), 0),
    "replay-05106cc.jsonl": (checked_at(1, 6, STATE_VERSION), 0),
}
SAVES = ("save-ada196d.json", "save-1991e17.jsonl", "save-1f2b261.jsonl", "save-05106cc.jsonl")
SAVED = "fccbe41dac3af680"  # each save's hash after its 20 turns (seed 4, small), as state version 1 computed it


def verified(path: Path) -> tuple[str, int]:
    out = io.StringIO()
    status = show(path, True, out)
    return out.getvalue().strip(), status


def match(seed: int = 4, preset: str = "small") -> Match:
    return Match(make_agent("user", "builtin", seed), make_agent("minotaur", "builtin", seed), seed=seed,
                 preset=preset, max_turns=None)


def listed(name: str) -> SavedGame:
    """The fixture ``name`` as the list of saves shows it."""
    saves_dir().mkdir(parents=True)
    shutil.copyfile(FIXTURES / name, saves_dir() / name)
    [game], problems = list_games()
    assert problems == [] and game.path == saves_dir() / name
    return game


@pytest.mark.parametrize("name", REPLAYS)
def test_every_released_replay_verifies_or_says_why_it_cannot(name):
    assert read_replay(FIXTURES / name).notes == []
    assert verified(FIXTURES / name) == REPLAYS[name]


def test_the_first_replays_are_told_by_their_initial_hash_as_of_state_version_0():
    for name, version in [("replay-5d2acc1.jsonl", 0), ("replay-f65a52f.jsonl", 0), ("replay-4c09b2b.jsonl", 1)]:
        header = read_replay(FIXTURES / name).header
        assert (header.state_version, header.build) == (None, None)  # format 1 did not say
        assert hashed_at(header, Game.new(header.seed, header.preset, header.difficulty).state) == version


@pytest.mark.parametrize("name", SAVES)
def test_every_released_save_loads_resumes_and_plays_on(name):
    game = listed(name)
    assert (game.seed, game.preset, len(game.turns), game.digest, game.finished) == (4, "small", 20, SAVED, False)
    resumed = match()
    resume_into(resumed, game)
    assert resumed.turns == 20 and resumed.game.state.digest(1) == SAVED
    resumed.play_turn()
    assert resumed.turns == 21


@pytest.mark.usefixtures("wounds_engine")
@pytest.mark.parametrize("name", SAVES)
def test_a_new_state_field_keeps_yesterday_s_save_resuming_and_playing_on(name):
    game = listed(name)
    resumed = match()
    resume_into(resumed, game)  # each of its 20 hashes checked as state version 1 computed it
    state = resumed.game.state
    assert isinstance(state, WoundsState) and state.wounds == 0
    assert state.digest(1) == SAVED != state.digest()
    resumed.play_turn()
    again = save_game(SavedGame(game.path, "2026-11-30T10:00:00Z", 4, "small", "normal", "builtin",
                                list(resumed.played), resumed.game.state.digest(), "saved by the wounds' release"))
    assert json.loads(again.read_text().partition("\n")[0])["state_version"] == STATE_VERSION + 1
    later = match()
    resume_into(later, load_game(again))
    assert later.game.state == resumed.game.state


@pytest.mark.usefixtures("wounds_engine")
def test_a_new_state_field_keeps_yesterday_s_replays_verifying():
    now = STATE_VERSION + 1
    for name, version, turns in [("replay-05106cc.jsonl", 1, 6), ("replay-f65a52f.jsonl", 0, 62)]:
        assert verified(FIXTURES / name) == (checked_at(version, turns, now), 0)


def test_a_replay_holding_only_its_header_says_only_its_initial_state_was_checked(tmp_path):
    header = json.loads((FIXTURES / "replay-05106cc.jsonl").read_text().partition("\n")[0])
    alone = tmp_path / "alone.jsonl"
    alone.write_text(json.dumps(header) + "\n")
    assert verified(alone) == (("verified: no turn recorded, so only the initial state's hash was checked, and it "
                                f"matches (recorded at state version 1, this is {STATE_VERSION}: each hash checked on "
                                "the fields version 1 held)"), 0)
    alone.write_text(json.dumps({**header, "initial_hash": "0" * 16}) + "\n")
    said, status = verified(alone)
    assert status == 1 and said.startswith("mismatch at turn 0: the initial state hashes to ")


def test_a_recording_of_a_newer_state_version_says_it_cannot_be_checked_here(tmp_path):
    path = save_game(SavedGame(None, "2026-11-30T10:00:00Z", 4, "small", "normal", "builtin", [],
                               Game.new(4, "small").state.digest(), "a save of a later release"))
    lines = path.read_text().splitlines()
    path.write_text("\n".join([json.dumps({**json.loads(lines[0]), "state_version": STATE_VERSION + 1}), *lines[1:]])
                    + "\n")
    assert verified(path) == ((f"cannot verify: its hashes are of state version {STATE_VERSION + 1}, newer than "
                               f"this Labyrinth's {STATE_VERSION}: only a release that knows that version can check "
                               "them"), 1)
    with pytest.raises(SaveError, match="cannot be resumed here: its hashes are of state version"):
        resume_into(match(), load_game(path))


def test_a_difference_in_a_replay_of_another_build_names_both_builds(tmp_path):
    with ReplayWriter(tmp_path) as writer:
        Match(make_agent("user", "builtin", 1), make_agent("minotaur", "builtin", 1), seed=1, preset="tiny",
              max_turns=5, recorder=writer).play()
    lines = [json.loads(line) for line in writer.path.read_text().splitlines()]
    lines[0]["build"], lines[3]["hash"] = "0.0.9+g0123456789ab", "0" * 16
    writer.path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    mismatch = first_mismatch(read_replay(writer.path))
    assert mismatch is not None and mismatch.turn == 3
    assert mismatch.detail.endswith(f"(recorded by build 0.0.9+g0123456789ab, this is {build_id()}: if their rules "
                                    "differ, the same inputs play another game)")
