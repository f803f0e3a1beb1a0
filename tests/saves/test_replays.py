"""Replays: written line by line while a real match is played, read back,
re-run through a fresh engine, and refused or trimmed when damaged."""

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from labyrinth.agents.builtin.naive import RandomWalker, Waiter
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.engine.state import STATE_VERSION
from labyrinth.saves import replays as saved_replays
from labyrinth.saves.build import build_id
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replay_list import summarize
from labyrinth.saves.replays import ReplayError, ReplayWriter, first_mismatch, read_replay
from tests.command_line import labyrinth


def builtin_match(seed: int, recorder: ReplayWriter, **options) -> Match:
    return Match(make_agent("user", "builtin", seed), make_agent("minotaur", "builtin", seed),
                 seed=seed, preset="small", recorder=recorder, **options)


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_lines(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# one worker builds the module's fixture, once
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("recorded-match")]

@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, object]:
    """A whole builtin-vs-builtin match on "small", long enough to cut and tamper with:
    the first seed that lasts 60 turns (the agents' play changes as they are tuned)."""
    folder = tmp_path_factory.mktemp("replays")
    for seed in range(1, 40):
        with ReplayWriter(folder) as writer:
            result = builtin_match(seed, writer).play()
        if result.turns >= 60:  # the tests below cut and tamper with turns up to 57
            return writer.path, result
    pytest.fail("no builtin match on small lasted 60 turns")


def test_each_line_is_on_disk_as_soon_as_its_turn_is_played(tmp_path):
    with ReplayWriter(tmp_path) as writer:
        match = builtin_match(7, writer, max_turns=30)
        header, = lines_of(writer.path)
        assert header["type"] == "header" and header["format"] == "labyrinth-replay" and header["version"] == 2
        assert (header["state_version"], header["build"]) == (STATE_VERSION, build_id())
        assert [header[key] for key in ("seed", "preset", "difficulty", "max_turns")] == [7, "small", "normal", 30]
        assert header["agents"] == {"user": "builtin", "minotaur": "builtin"}
        assert header["initial_hash"] == match.game.state.digest()
        datetime.fromisoformat(header["created_at"])
        played = [match.play_turn().record, match.play_turn().record]
        assert lines_of(writer.path)[1:] == [{"type": "turn", **record.to_dict()} for record in played]
        result = match.play()
    lines = lines_of(writer.path)
    assert [line["type"] for line in lines] == ["header"] + ["turn"] * result.turns + ["final"]
    assert [line["turn"] for line in lines[1:-1]] == list(range(1, result.turns + 1))
    assert lines[-2]["hash"] == match.game.state.digest()
    final = result.to_dict()
    assert lines[-1] == {"type": "final", "outcome": final["outcome"], "turns": final["turns"],
                         "game_time": final["game_time"],
                         "stats": {"user": final["user"], "minotaur": final["minotaur"]}}


def test_a_whole_match_reads_back_and_verifies(recorded):
    path, result = recorded
    replay = read_replay(path)
    header = replay.header
    assert (header.seed, header.user_agent, header.minotaur_agent) == (result.seed, "builtin", "builtin")
    assert len(replay.turns) == result.turns and replay.end.outcome == result.outcome
    assert replay.notes == []
    assert first_mismatch(replay) is None


class Stumbler(RandomWalker):
    """A user that fails every third decision, so the runner's fallback plays instead."""

    name = "stumbler"

    def decide(self, observation):
        self.asked = getattr(self, "asked", 0) + 1
        if self.asked % 3 == 0:
            raise RuntimeError("lost its footing")
        return super().decide(observation)


def test_fallbacks_are_recorded_with_their_reasons_and_still_verify(tmp_path):
    with ReplayWriter(tmp_path) as writer:
        Match(Stumbler(4), Waiter(4), seed=4, preset="small", max_turns=12, recorder=writer).play()
    replay = read_replay(writer.path)
    reasons = [turn.user_fallback for turn in replay.turns]
    assert reasons[2::3] == ["the agent failed: RuntimeError: lost its footing"] * 4
    assert all(reason is None for i, reason in enumerate(reasons) if i % 3 != 2)
    assert all(turn.user.command == "LOOK" for turn in replay.turns[2::3])
    assert replay.end.outcome == "TIMEOUT" and replay.end.stats["user"]["fallbacks"] == 4
    assert first_mismatch(replay) is None


def test_a_tampered_hash_is_named_by_its_turn(recorded, tmp_path):
    lines = lines_of(recorded[0])
    lines[40]["hash"] = "0" * 16
    mismatch = first_mismatch(read_replay(write_lines(tmp_path / "tampered.jsonl", lines)))
    assert mismatch.turn == 40 and "0000000000000000" in mismatch.detail


def test_a_tampered_input_is_caught_at_its_turn(recorded, tmp_path):
    lines = lines_of(recorded[0])
    turn = next(line["turn"] for line in lines[1:-1] if line["user"]["command"] == "LOOK")
    lines[turn]["user"] = {"command": "HALT", "steps": 30}
    assert first_mismatch(read_replay(write_lines(tmp_path / "tampered.jsonl", lines))).turn == turn


def test_a_tampered_outcome_is_caught(recorded, tmp_path):
    lines = lines_of(recorded[0])
    other = "DEATH" if lines[-1]["outcome"] == "ESCAPED" else "ESCAPED"
    lines[-1]["outcome"] = other
    mismatch = first_mismatch(read_replay(write_lines(tmp_path / "tampered.jsonl", lines)))
    assert other in mismatch.detail


@pytest.mark.parametrize(("limit", "found"), [
    (10, None), (None, "no outcome (the game goes on after turn 10, with no turn limit), recorded TIMEOUT"),
    (50, "no outcome (the game goes on after turn 10, of at most 50), recorded TIMEOUT")])
def test_a_timeout_verifies_only_at_the_headers_limit(recorded, tmp_path, limit, found):
    """A match ends TIMEOUT when it reaches its limit: one recorded before it is a tampered header or ending."""
    lines = lines_of(recorded[0])
    cut = [{**lines[0], "max_turns": limit}, *lines[1:11], {**lines[-1], "outcome": "TIMEOUT", "turns": 10}]
    replay = read_replay(write_lines(tmp_path / "cut.jsonl", cut))
    mismatch = first_mismatch(replay)
    assert (mismatch.detail.split(" (recorded by")[0] if mismatch else None) == found
    if mismatch is not None:  # every turn played back: the story and the player show them all
        from labyrinth.tui.story import story

        assert mismatch.ending and "(It plays back as recorded every turn, but not to its ending: " in story(replay)


def test_a_story_says_its_outcome_is_only_recorded_when_the_game_does_not_play_back_to_it(recorded, tmp_path):
    from labyrinth.tui.story import story

    told = story(read_replay(recorded[0]))
    assert "\nOutcome: " in told and "plays back as recorded only" not in told
    lines = lines_of(recorded[0])
    lines[40]["hash"] = "0" * 16
    told = story(read_replay(write_lines(tmp_path / "tampered.jsonl", lines)))
    assert "\nRecorded outcome (not played back): " in told and "plays back as recorded only to turn 39" in told


def test_an_unfinished_recording_past_its_limit_still_loads(recorded, tmp_path):
    """A save has no final line, and an avatar's woken under a lower limit was saved past it by earlier builds:
    it loads (jack_in says why it cannot go on), where a finished match past its limit is refused."""
    lines = lines_of(recorded[0])
    replay = read_replay(write_lines(tmp_path / "save.jsonl", [{**lines[0], "max_turns": 3}, *lines[1:11]]))
    assert len(replay.turns) == 10 and replay.end is None


def test_another_world_is_caught_before_the_first_turn(recorded, tmp_path):
    lines = lines_of(recorded[0])
    lines[0]["seed"] += 1000
    assert first_mismatch(read_replay(write_lines(tmp_path / "other.jsonl", lines))).turn == 0


def test_a_crash_mid_line_keeps_every_complete_turn(recorded, tmp_path):
    text = recorded[0].read_bytes()
    cut = text.index(b'"turn":21,')  # inside turn 21's line: turns 1 to 20 are complete
    replay = read_replay(write_bytes(tmp_path / "crashed.jsonl", text[:cut]))
    assert [turn.turn for turn in replay.turns] == list(range(1, 21))
    assert replay.end is None and replay.notes == ["line 22 was cut off mid-write and is ignored"]
    assert first_mismatch(replay) is None


def test_a_crash_between_lines_is_an_unfinished_match_without_notes(recorded, tmp_path):
    lines = recorded[0].read_text().splitlines(keepends=True)
    replay = read_replay(write_bytes(tmp_path / "crashed.jsonl", "".join(lines[:11]).encode()))
    assert len(replay.turns) == 10 and replay.end is None and replay.notes == []
    assert first_mismatch(replay) is None


def damaged(lines: list[dict], how: str) -> bytes:
    """The recorded lines, damaged in one of the ways a reader must refuse."""
    header, turns, final = lines[0], lines[1:-1], lines[-1]
    plain = [json.dumps(line) for line in lines]
    cases = {
        "empty": [],
        "garbage": ["\x00\xffnot json at all"],
        "array": ["[1, 2, 3]"],
        "other header": [json.dumps({"type": "header", "format": "something-else"})],
        "newer version": [json.dumps({**header, "version": 99})],
        "no state version": [json.dumps({key: value for key, value in header.items() if key != "state_version"})],
        "negative state version": [json.dumps({**header, "state_version": -1})],
        "unknown preset": [json.dumps({**header, "preset": "huge"})],
        "corrupt middle line": plain[:5] + ["{this is not json"] + plain[6:],
        "turn skipped": plain[:5] + plain[6:],
        "bad input": plain[:3] + [json.dumps({**turns[2], "user": {"command": "FLY"}})] + plain[4:],
        "final miscounts": plain[:-1] + [json.dumps({**final, "turns": 3})],
        "line after final": plain + [json.dumps(turns[0])],
        "huge game time": plain[:-1] + [json.dumps({**final, "game_time": 10 ** 400})],
        "negative game time": plain[:-1] + [json.dumps({**final, "game_time": -1})],
        "unknown outcome": plain[:-1] + [json.dumps({**final, "outcome": "CAUGHT"})],
        "no turn allowed": [json.dumps({**header, "max_turns": 0})] + plain[1:],
        "turn past the limit": [json.dumps({**header, "max_turns": 3})] + plain[1:],
    }
    return "".join(line + "\n" for line in cases[how]).encode("utf-8", "surrogateescape")


@pytest.mark.parametrize("how, message", [
    ("empty", "empty file"), ("garbage", "not a Labyrinth replay: line 1: not valid JSON"),
    ("array", "line 1: expected a JSON object"), ("other header", "not a replay header"),
    ("newer version", "version 99"), ("no state version", "'state_version' is missing"),
    ("negative state version", "'state_version' is -1"), ("unknown preset", "unknown preset 'huge'"),
    ("corrupt middle line", "line 6: not valid JSON"), ("turn skipped", "line 6: expected turn 5, got turn 6"),
    ("bad input", "line 4: turn 3: Invalid UserInput"), ("final miscounts", "says 3 turns"),
    ("line after final", "after the final line"), ("huge game time", "'game_time' is not a time"),
    ("negative game time", "'game_time' is not a time"),
    ("unknown outcome", "outcome 'CAUGHT' is none of ESCAPED, DEATH, TIMEOUT"),
    ("no turn allowed", "'max_turns' is 0, not a number of turns"),
    ("turn past the limit", "line 5: a turn past the header's limit of 3 turns"),
])
def test_damaged_files_are_refused_with_one_line_naming_the_place(recorded, tmp_path, how, message):
    path = write_bytes(tmp_path / "damaged.jsonl", damaged(lines_of(recorded[0]), how))
    with pytest.raises(ReplayError) as caught:
        read_replay(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("how, problem", [
    ("empty", "empty, or no complete first line"), ("garbage", "line 1: not valid JSON"),
    ("array", "line 1: expected a JSON object"), ("unknown preset", "line 1: unknown preset 'huge'"),
    ("unknown outcome", "line {last}: the final line's outcome 'CAUGHT'"), ("final miscounts", "line {last}: "),
    ("turn past the limit", "line 5: a turn past the header's limit of 3 turns"),  # the loader's words and line
])
def test_the_replay_list_names_the_line_that_makes_a_file_unreadable(recorded, tmp_path, how, problem):
    """The Replays screen lists each file by its header and final line alone; what it says of a damaged one
    names the line, counted from 1 (the header), as the loader's messages count them."""
    lines = lines_of(recorded[0])
    summary = summarize(write_bytes(tmp_path / "damaged.jsonl", damaged(lines, how)))
    said = f"not a Labyrinth replay: {problem.format(last=len(lines))}"
    assert summary.header is None and summary.problem.startswith(said), summary.problem


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME is the Linux convention")
def test_replays_go_to_the_user_data_directory_by_default(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert replays_dir() == tmp_path / "labyrinth" / "replays"
    with ReplayWriter() as writer:
        builtin_match(5, writer, max_turns=3).play()
    assert writer.path.parent == tmp_path / "labyrinth" / "replays" and len(read_replay(writer.path).turns) == 3


def test_names_sort_by_time_say_what_was_played_and_never_collide(tmp_path, monkeypatch):
    monkeypatch.setattr(saved_replays, "_now", lambda: datetime(2026, 11, 21, 6, 30, 12, tzinfo=UTC))

    class Remote(Waiter):
        name = "ollama/qwen3:8b"

    paths = []
    for _ in range(3):
        with ReplayWriter(tmp_path) as writer:
            Match(make_agent("user", "random", 7), Remote(7), seed=7, preset="small", max_turns=1, recorder=writer)
        paths.append(writer.path.name)
    stem = "20261121-063012-small-seed7-random-vs-ollama_qwen3_8b"
    assert paths == [f"{stem}.jsonl", f"{stem}-2.jsonl", f"{stem}-3.jsonl"]
    assert read_replay(tmp_path / paths[0]).header.minotaur_agent == "ollama/qwen3:8b"


# --- `labyrinth replay` --------------------------------------------------------


def test_cli_summary_shows_header_outcome_fallbacks_and_every_turn(recorded):
    path, result = recorded
    done = labyrinth("replay", path)
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout.splitlines()
    for part in (f"seed {result.seed}, preset small, difficulty normal", "user builtin vs Minotaur builtin",
                 f"outcome {result.outcome} after {result.turns} turns", "fallbacks: user 0, Minotaur 0"):
        assert part in done.stdout
    turn_lines = [line for line in out if line[:5].strip().isdigit() and line[:5] != line[:5].lstrip()]
    assert [int(line.split()[0]) for line in turn_lines] == list(range(1, result.turns + 1))
    first = read_replay(path).turns[0]
    assert turn_lines[0].split()[1] == first.user.command and turn_lines[0].endswith(first.status)


def test_cli_verify_passes_on_a_true_replay(recorded):
    done = labyrinth("replay", recorded[0], "--verify")
    said = f"verified: {recorded[1].turns} turns, hashes and the outcome match\n"
    assert (done.returncode, done.stdout) == (0, said)


def test_cli_verify_names_the_first_tampered_turn(recorded, tmp_path):
    lines = lines_of(recorded[0])
    lines[57]["hash"] = "f" * 16
    done = labyrinth("replay", write_lines(tmp_path / "tampered.jsonl", lines), "--verify")
    assert done.returncode == 1 and done.stdout.startswith("mismatch at turn 57:")


def test_cli_verify_on_a_crashed_match_checks_its_complete_turns_and_notes_the_rest(recorded, tmp_path):
    text = recorded[0].read_bytes()
    path = write_bytes(tmp_path / "crashed.jsonl", text[:text.index(b'"turn":31,') + 5])
    done = labyrinth("replay", path, "--verify")
    assert done.returncode == 0 and done.stdout == "verified: 30 turns, hashes match\n"
    assert "line 32 was cut off" in done.stderr


@pytest.mark.parametrize("content", [b"\x89PNG\r\n\x1a\n garbage", None])
def test_cli_bad_or_missing_file_is_one_line_and_exit_2(tmp_path, content):
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_bytes(content)
    for args in (("replay", path), ("replay", path, "--verify")):
        done = labyrinth(*args)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith("labyrinth replay: ") and done.stderr.count("\n") == 1
        assert "Traceback" not in done.stderr


def test_the_lessons_each_agent_was_given_are_in_the_header_and_the_summary(tmp_path):
    from tests.saves.test_experience import reflection

    lesson = reflection(3, role="minotaur", outcome="ESCAPED", key_reflection="Guard the [RED] stone.")
    with ReplayWriter(tmp_path) as writer:
        builtin_match(3, writer, max_turns=5, lessons={"minotaur": [lesson]}).play()
    header = read_replay(writer.path).header
    assert header.lessons == {"minotaur": [{"id": "g3-minotaur", "text": "Guard the [RED] stone."}]}
    done = labyrinth("replay", writer.path)
    assert "  lesson offered to the Minotaur: Guard the [RED] stone.  (g3-minotaur)\n" in done.stdout
    assert "lesson offered to the user" not in done.stdout
    assert labyrinth("replay", writer.path, "--verify").returncode == 0
    with ReplayWriter(tmp_path) as writer:
        builtin_match(3, writer, max_turns=5).play()
    assert "lessons" not in lines_of(writer.path)[0] and read_replay(writer.path).header.lessons == {}


@pytest.mark.parametrize("lessons", [{"user": ["walk"]}, ["walk"], {"intruder": []}, {"user": [{"id": 1}]}])
def test_damaged_lessons_in_a_header_are_left_out_with_a_note_and_the_replay_still_verifies(recorded, tmp_path,
                                                                                           lessons):
    lines = lines_of(recorded[0])
    path = write_lines(tmp_path / "lessons.jsonl", [{**lines[0], "lessons": lessons}, *lines[1:]])
    replay = read_replay(path)
    assert replay.header.lessons == {} and replay.notes == [
        "the header's lessons are not a list of {id, text} per role and are left out"]
    assert labyrinth("replay", path, "--verify").returncode == 0


def test_a_lesson_with_control_characters_is_shown_on_one_line(recorded, tmp_path):
    lines = lines_of(recorded[0])
    text = "Line one.\nIgnore this: \x1b[31mred\x1b[0m."
    path = write_lines(tmp_path / "escapes.jsonl",
                       [{**lines[0], "lessons": {"user": [{"id": "g1-user", "text": text}]}}, *lines[1:]])
    done = labyrinth("replay", path)
    assert "  lesson offered to the user: Line one. Ignore this: [31mred [0m.  (g1-user)\n" in done.stdout
    assert "\x1b" not in done.stdout


def test_the_arena_records_the_lessons_it_gave_each_agent(tmp_path):
    from labyrinth.agents.compete.arena import ArenaSettings
    from tests.saves.test_experience import reflection

    lessons = (reflection(3, role="user", preset="small", key_reflection="Avoid the ramp."),
               reflection(4, role="user", preset="small", key_reflection="An older game elsewhere."),
               reflection(3, role="minotaur", outcome="DEATH", preset="small", key_reflection="Not a lesson: it won."))
    settings = ArenaSettings(preset="small", max_turns=5, memory=True, lessons=lessons)
    settings.play(3, lambda seed: ReplayWriter(tmp_path))
    [path] = tmp_path.iterdir()
    # a place lesson of another labyrinth (seed 4) is not given in this one
    assert read_replay(path).header.lessons == {"user": [{"id": "g3-user", "text": "Avoid the ramp."}]}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
def test_a_story_is_written_beside_its_replay_and_never_into_a_fifo_or_a_folder_standing_there(tmp_path):
    from labyrinth.saves.paths import StorageError
    from labyrinth.saves.replays import write_story

    replay = tmp_path / "game.jsonl"
    assert write_story(replay, "told\n") == tmp_path / "game.txt" and (tmp_path / "game.txt").read_text() == "told\n"
    os.mkfifo(tmp_path / "piped.txt")  # opened, it would hang the writer until a reader came
    (tmp_path / "folder.txt").mkdir()
    for name in ("piped", "folder"):
        with pytest.raises(StorageError, match="not a file"):
            write_story(tmp_path / f"{name}.jsonl", "told\n")
    assert (tmp_path / "folder.txt").is_dir() and not (tmp_path / "piped.txt").is_file()
