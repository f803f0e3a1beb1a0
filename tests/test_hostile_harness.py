"""bench/hostile/hostile.py (hostile_watch.py) judges what it throws: its inputs repeat by seed, its watchdog ends a
call that would hang, and its decoy sees a file outside the data directory touched."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "hostile"))

import hostile_inputs
import hostile_watch


def test_inputs_repeat_by_seed_and_change_with_it():
    one = list(hostile_inputs.typed_commands(7, 200))
    assert one == list(hostile_inputs.typed_commands(7, 200))
    assert one != list(hostile_inputs.typed_commands(8, 200))
    assert (list(hostile_inputs.gsm_lines(7, 40, "external", 100))
            == list(hostile_inputs.gsm_lines(7, 40, "external", 100)))
    assert all(c.isdigit() and not c.isascii() for c in hostile_inputs.UNICODE_DIGITS)


def test_the_decoy_sees_a_deletion_a_change_a_new_file_and_a_new_mtime(tmp_path):
    decoy = hostile_watch.Decoy(tmp_path / "decoy")
    before = decoy.snapshot()
    assert decoy.changes(before) == []
    (decoy.root / "victim.txt").unlink()
    (decoy.root / "victim.json").write_text("{}")
    (decoy.root / "new").write_text("")
    os.utime(decoy.root / "inner" / "notes.md", ns=(0, 0))  # the same words, only the time changed
    assert decoy.changes(before) == ["inner/notes.md", "new", "victim.json", "victim.txt"]
    decoy.reset()
    assert (decoy.root / "victim.txt").read_text() == "keep me\n" and not (decoy.root / "new").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO is POSIX's")
def test_the_watchdog_ends_a_read_of_a_fifo_nobody_writes(tmp_path, monkeypatch):
    fifo = tmp_path / "log"
    os.mkfifo(fifo)
    tally = hostile_watch.Tally("fifo")
    monkeypatch.setattr(hostile_watch, "HANG_S", 0.3)
    hostile_watch.call(tally, "FIFO", fifo.read_bytes, (OSError,))
    assert (tally.tried, tally.hangs, tally.crashes) == (1, 1, 0)


def test_an_escaping_exception_is_a_crash_and_a_refusal_is_not():
    tally = hostile_watch.Tally("parse")
    hostile_watch.call(tally, "bad", lambda: int("²"), (KeyError,))
    hostile_watch.call(tally, "refused", lambda: {}["x"], (KeyError,))
    assert (tally.tried, tally.crashes) == (2, 1) and tally.failures[0].startswith("crash: bad: ValueError")


def test_the_settings_judge_wants_one_line_naming_the_variable_and_never_a_key_or_a_long_value():
    import hostile_settings as settings

    url = settings.Case("URL of 120 KB", "mistral", "MISTRAL_BASE_URL", "http://h/" + "a" * 120_000, True)
    named = "labyrinth: the mistral endpoint from $MISTRAL_BASE_URL (\"http://h/aaa…\") is 120,009 characters long\n"
    assert settings.problems(url, "arena", 2, named) == []
    assert settings.problems(url, "arena", 2, "labyrinth: the endpoint is too long\n") == [
        "the refusal does not name MISTRAL_BASE_URL: labyrinth: the endpoint is too long"]
    assert "a refusal of 2 lines" in settings.problems(url, "arena", 2, named + "labyrinth: and again\n")
    assert settings.problems(url, "doctor --offline", 0, "  mistral  model m, endpoint http://h\n") == [
        "not refused by doctor --offline"]
    assert "the whole value (120,009 characters) is printed" in settings.problems(url, "arena", 2, named + url.value)
    key = settings.Case("random", "gemini", "GOOGLE_API_KEY", "sk-a-key-of-mine", None)
    assert settings.problems(key, "doctor", 0, "  gemini   model g, key from GOOGLE_API_KEY\n") == []
    assert settings.problems(key, "doctor", 0, f"sent {key.value}\n") == ["a key is printed"]
    assert settings.problems(key, "doctor", 0, f"sent {settings.CANARY}\n") == ["a key is printed"]
    assert settings.problems(key, "doctor", 0, "\x1b]0;pwned\x07\n") == [
        "a terminal control character is printed (U+0007, U+001B)"]
    assert settings.environment(key, {p: "http://h" for p in settings.PROVIDERS})["GOOGLE_API_KEY"] == key.value
    assert "GEMINI_API_KEY" not in settings.environment(key, {p: "http://h" for p in settings.PROVIDERS})


def test_the_long_pipe_counts_each_turn_answered_and_reads_the_memory_at_its_end():
    import hostile_pipe

    memory, tally = {}, hostile_watch.Tally("pipe")
    labyrinth = str(Path(sys.executable).with_name("labyrinth"))
    hostile_pipe.way(labyrinth, 1, 3_000, dict(os.environ), memory, lambda tally: False)(tally)
    assert (tally.tried, tally.crashes, tally.hangs, tally.wrong, tally.failures) == (3_000, 0, 0, 0, [])
    assert list(memory) == [3_000] and 10 < memory[3_000] < 500


def test_the_workers_judge_counts_each_replay_gone_and_each_attempt_no_row_names(tmp_path):
    """hostile_workers.py: a file seen while workers ran and gone, or a row's replay missing, is a replay
    deleted; a file no row names, or `played` adding up to more than the rows, a match played twice."""
    import hostile_workers as workers

    from labyrinth.agents.compete.arena import ArenaSettings
    from labyrinth.saves.replays import ReplayWriter
    from labyrinth.saves.results_db import MatchRow

    assert workers.cases(1) == workers.cases(1) != workers.cases(2)
    rules = workers.Rules(users=("builtin",), minotaurs=("wait",), games=2, first_seed=5, preset="tiny", max_turns=6,
                          concurrency=1)
    case = workers.Case("two", (workers.Worker(), workers.Worker()), rules)
    folder, rows = tmp_path / "tournament", []
    for seed in (5, 6):
        writer = ReplayWriter(folder)
        result = ArenaSettings("builtin", "wait", "tiny", "normal", 6).play(seed, lambda _, writer=writer: writer)
        rows.append(MatchRow("builtin", "wait", seed, "tiny", "normal", 6, result.outcome, result.turns,
                             result.game_time, replay=str(writer.path)))
    (folder / "unfinished.jsonl").write_text("")
    watch = workers.Watch(folder)
    watch.look()

    def judged(played: list) -> dict[str, int]:
        outcome = workers.Outcome(case)
        workers.judge(outcome, rows, [{"played": n} for n in played], folder, watch, None)
        return {kind: len(found) for kind, found in outcome.problems.items() if found}

    (folder / "unfinished.jsonl").unlink()  # an attempt seen as it was written, gone
    assert judged([1, 1]) == {"deleted": 1}
    assert judged([2, 1]) == {"deleted": 1, "wrong": 1}  # a match played twice
    Path(rows[0].replay).unlink()  # a row's replay
    (folder / "second.jsonl").write_text("")  # an attempt no row names
    assert judged([1, 1]) == {"deleted": 2, "wrong": 1}


def test_the_keys_judge_sees_a_key_where_it_was_not_given():
    import hostile_keys as keys

    secrets = {"the key": "key-AAAAAAAA", "the secret": "inurl-BBBBBBBB"}
    home = {"headers": {"X-Goog-Api-Key": "key-AAAAAAAA", "Accept": "*/*"}, "path": "/v1?key=inurl-BBBBBBBB",
            "body": None}
    assert keys.leaks(home, secrets, {"key-AAAAAAAA", "inurl-BBBBBBBB"}) == []  # given both
    assert keys.leaks(home, secrets, set()) == ["header X-Goog-Api-Key holds the key", "path holds the secret"]
    placeholder = {"headers": {"Authorization": "Bearer no-key"}, "path": "/", "body": {"messages": ["inurl-BBBBBBBB"]}}
    assert keys.leaks(placeholder, secrets, set()) == ["body holds the secret"]  # no key, but a prompt holds none
    assert keys.leaks(placeholder, secrets, set(), strict=True)[0] == "header Authorization"  # a redirect's target
    assert keys.appearances(b"... inurl-BBBBBBBB ...", secrets) == ["the secret"]


def test_the_bounds_judge_reads_a_value_as_the_command_line_or_toml_does_and_wants_the_range_said():
    import hostile_bounds as bounds
    import hostile_settings as settings

    games = bounds.OPTIONS[1]
    values = ("100000", "100001", "1_000", "\u0663", "\u00b2", " 7 ", "1e3", "")
    assert [bounds.number_case(games, "arena", v).refuse for v in values] == [False, True, False, False, True, False,
                                                                               True, True]
    temperature = bounds.Setting("[contestants.bench] temperature", "config", "temperature", bounds.CONFIG_READERS,
                                 bounds.TEMPERATURE)
    in_toml = ("2", "nan", "\u0661", "1.5")  # float() reads the Arabic-Indic 1, TOML does not
    assert [bounds.number_case(temperature, "doctor", v).refuse for v in in_toml] == [False, True, True, False]
    assert bounds.number_case(temperature, "doctor", "3").said == "from 0 to 2"
    assert not bounds.name_case(bounds.NAMES[4], "arena", "").refuse  # an empty variable is one not set
    argparse_said = ("usage: labyrinth arena [-h]\n                       [--games GAMES]\nlabyrinth arena: error: "
                     "argument --games: must be a whole number from 1 to 100,000 games, not 0\n")
    assert settings.refusal_problems(argparse_said, 2, ("--games", "from 1 to 100,000"), "arena", True) == []
    assert settings.refusal_problems(argparse_said, 2, ("--games", "from 1 to 1,000"), "arena", True) == [
        ("the refusal does not name --games and from 1 to 1,000: labyrinth arena: error: argument --games: must be a "
         "whole number from 1 to 100,000 games, not 0")]
    assert settings.refusal_problems("", 0, ("--games",), "arena", True) == ["not refused by arena"]
    doctor_said = ("  openai   cannot be read: the config file is broken (below)\n\nFiles:\n"
                   "  config file     /c/config.toml (BROKEN: /c/config.toml: [openai] timeout_s: must be from 0.1 "
                   "to 3,600 seconds, not 0)\n")  # a broken file is said once, on its own line
    assert settings.refusal_problems(doctor_said, 1, ("timeout_s", "from 0.1 to 3,600"), "doctor", True,
                                     "openai") == []
