"""Every numeric and name setting has a range and a one-line refusal, from a flag, the environment or
the config file alike: huge and odd values of each counted or timed option are argparse's error naming
the option and its range, never a traceback (SQLite's OverflowError, a MemoryError building seeds, an
OverflowError printing when to resume); a tournament's matches in all are bounded; a model's name is
refused by one rule in arena, tournament and the config file; and a contestant at an endpoint of its
own without a key is told to set its own."""

from __future__ import annotations

import pytest

from labyrinth.agents.compete.tournament import MOST_MATCHES
from labyrinth.saves.config import config_path
from labyrinth.saves.results_db import MatchRow, ResultsDB, results_path
from labyrinth.tui.cli import main
from tests.stubs import Stub, openai_error

HUGE = "99999999999999999999999"
TOURNAMENT = ["tournament", "--users", "builtin", "--minotaurs", "wait", "--preset", "tiny"]
ARENA = ["arena", "--preset", "tiny"]
BOUNDED = [  # (command, option, the range as said)
    (["leaderboard"], "--max-turns", "a whole number from 1 to 100,000 turns"),
    (TOURNAMENT, "--max-turns", "a whole number from 1 to 100,000 turns"),
    (ARENA, "--max-turns", "a whole number from 1 to 100,000 turns"),
    (TOURNAMENT, "--games", "a whole number from 1 to 100,000 games"),
    (ARENA, "--games", "a whole number from 1 to 100,000 games"),
    (TOURNAMENT, "--repeats", "a whole number from 1 to 1,000 repeats"),
    (TOURNAMENT, "--concurrency", "a whole number from 1 to 1,000 matches at once"),
    (ARENA, "--jobs", "a whole number from 1 to 1,000 matches at once"),
    (TOURNAMENT, "--llm-rpm", "from 0.1 to 100,000 requests a minute"),
    (ARENA, "--llm-rpm", "from 0.1 to 100,000 requests a minute"),
    (ARENA, "--llm-timeout", "from 0.1 to 3,600 seconds"),
    (TOURNAMENT, "--hold-limit", "from 0.1 to 3,600 seconds"),
]
ODD = [HUGE, "1000000000", "0", "-3", "1e-300", "1e309", "nan", "inf", "2.5", "", "9" * 5000]


def one_line_error(capsys, argv: list[str]) -> str:
    """The one line a command refuses ``argv`` with (argparse's, or the command's own), exit status 2."""
    try:
        code = main(argv)
    except SystemExit as stopped:
        code = stopped.code
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    (line,) = [line for line in err.splitlines() if not line.startswith("usage:") and not line.startswith(" ")]
    assert len(line) < 400, line
    return line


@pytest.mark.parametrize(("command", "option", "words"), BOUNDED, ids=lambda v: v if isinstance(v, str) else v[0])
def test_a_huge_or_odd_value_of_each_bounded_option_is_one_line_naming_it_and_its_range(capsys, command, option,
                                                                                       words):
    refused = 0
    for value in ODD:
        if value in ("2.5",) and "whole" not in words:
            continue  # a number of seconds or requests a minute may have a fraction
        line = one_line_error(capsys, [*command, f"{option}={value}"])
        assert f"argument {option}: must be {words}, not " in line, line
        refused += 1
    assert refused >= len(ODD) - 1


def test_the_largest_turn_limit_is_taken_by_the_leaderboard_and_the_database(capsys):
    with ResultsDB(results_path()) as db:
        db.record(MatchRow("builtin", "wait", 1, "tiny", "normal", 100_000, "TIMEOUT", 20, 1.0, 0.1, None))
    assert main(["leaderboard", "--max-turns", "100000", "--json"]) == 0, capsys.readouterr().err
    assert '"matches": 1' in capsys.readouterr().out


def test_a_tournament_of_more_matches_than_it_may_play_is_refused_before_anything_is_made(capsys, monkeypatch):
    from labyrinth.tui.commands import tournament_run

    monkeypatch.setattr(tournament_run, "MOST_MATCHES", 7)  # each count within its range, their product not
    line = one_line_error(capsys, ["tournament", "--users", "builtin,random", "--minotaurs", "builtin,wait",
                                   "--games", "2", "--repeats", "1", "--preset", "tiny", "--max-turns", "3"])
    assert "2 users x 2 Minotaurs x 2 seeds x 1 repeats is 8 matches: a tournament plays at most 7" in line
    assert not results_path().exists()
    assert MOST_MATCHES == 100_000


def write_config(text: str) -> None:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(text)


@pytest.mark.parametrize("argv", [[*ARENA, "--user", "openai"], ["tournament", "--users", "openai", "--minotaurs",
                                                                 "builtin", "--preset", "tiny"]])
def test_a_pace_below_the_floor_in_the_config_file_is_one_line(capsys, argv):
    write_config("[openai]\nrpm = 1e-300\n")
    assert "[openai] rpm: must be from 0.1 to 100,000 requests a minute, not 1e-300" in one_line_error(capsys, argv)


SPACE = "holds a space, a comma or a character that cannot be shown"


@pytest.mark.parametrize("command", ["arena", "tournament"])
def test_a_models_name_with_a_space_is_refused_alike_by_arena_tournament_and_the_config_file(capsys, monkeypatch,
                                                                                            command):
    role = ["--user"] if command == "arena" else ["--minotaurs", "builtin", "--users"]
    line = one_line_error(capsys, [command, *role, "openai/gpt 4o"])
    assert f'{role[-1]}: the openai model in "openai/gpt 4o" {SPACE}' in line  # naming the option, as argparse does
    monkeypatch.setenv("LABYRINTH_OPENAI_MODEL", "gpt 4o")  # `tournament --users openai` raised a traceback
    line = one_line_error(capsys, [command, *role, "openai", "--preset", "tiny"])
    assert f"the openai model from $LABYRINTH_OPENAI_MODEL {SPACE}" in line
    monkeypatch.delenv("LABYRINTH_OPENAI_MODEL")
    write_config('[contestants.spaced]\nprovider = "openai"\nmodel = "gpt 4o"\n')
    line = one_line_error(capsys, [command, *role, "spaced", "--preset", "tiny"])
    assert f"[contestants.spaced] model: the model's name {SPACE}" in line


@pytest.mark.parametrize("command", ["arena", "tournament"])
def test_a_contestant_at_its_own_endpoint_without_a_key_is_told_to_set_its_own(capsys, monkeypatch, command):
    monkeypatch.setenv("GEMINI_API_KEY", "provider-key-set")
    monkeypatch.setenv("MISTRAL_API_KEY", "provider-key-set")
    write_config('[contestants.far-gemini]\nprovider = "gemini"\nbase_url = "http://127.0.0.1:9"\n'
                 '[contestants.far-mistral]\nprovider = "mistral"\nbase_url = "http://127.0.0.1:9"\n'
                 'api_key_env = "FAR_MISTRAL_KEY"\n')
    role = ["--user"] if command == "arena" else ["--minotaurs", "builtin", "--users"]
    for name, told in (("far-gemini", "set api_key or api_key_env under [contestants.far-gemini]"),
                       ("far-mistral", ("set $FAR_MISTRAL_KEY (its api_key_env), or api_key under "
                                        "[contestants.far-mistral]"))):
        line = one_line_error(capsys, [command, *role, name, "--preset", "tiny"])
        assert told in line and str(config_path()) in line
        assert "set GEMINI_API_KEY" not in line and "set MISTRAL_API_KEY" not in line


@pytest.mark.parametrize("command", ["arena", "tournament"])
def test_a_contestant_whose_key_variable_is_unset_is_told_to_set_it_not_given_the_providers(capsys, monkeypatch,
                                                                                           command):
    """A contestant naming api_key_env brings its own key: with the variable unset, the provider's key (perhaps
    another account's) was spent in its place, and without that one it was told to set GEMINI_API_KEY."""
    monkeypatch.setenv("GEMINI_API_KEY", "provider-key-set")
    monkeypatch.delenv("WORK_GEMINI_KEY", raising=False)
    write_config('[contestants.work-gemini]\nprovider = "gemini"\napi_key_env = "WORK_GEMINI_KEY"\n')
    role = ["--user"] if command == "arena" else ["--minotaurs", "builtin", "--users"]
    line = one_line_error(capsys, [command, *role, "work-gemini", "--preset", "tiny"])
    assert ("work-gemini (gemini) has no key: set $WORK_GEMINI_KEY (its api_key_env), or api_key under "
            f"[contestants.work-gemini] in {config_path()}") in line
    # a provider that needs no key (Ollama) was played keyless, to fail at its first call with a 401
    write_config('[contestants.hosted]\nprovider = "ollama"\nbase_url = "http://127.0.0.1:9"\n'
                 'api_key_env = "HOSTED_OLLAMA_KEY"\n')
    line = one_line_error(capsys, [command, *role, "hosted", "--preset", "tiny"])
    assert "hosted (ollama at an endpoint of its own) has no key: set $HOSTED_OLLAMA_KEY (its api_key_env)" in line


@pytest.mark.parametrize(("name", "roles"), [("builtin", "the user's and the Minotaur's"), ("wait", "the Minotaur's")])
def test_a_contestant_named_as_a_rule_agent_is_said_and_never_played_the_others_are(capsys, name, roles):
    """``--minotaur wait`` plays the rule agent: a [contestants.wait] table was taken without a word, played
    as the user and never as the Minotaur. It is played for neither, and said where it is named, by doctor."""
    import io

    from labyrinth.agents.registry import configured_contestants
    from labyrinth.tui import cli
    from labyrinth.tui.commands import doctor_run

    write_config(f'[contestants.{name}]\nprovider = "openai"\nmodel = "m"\n[contestants.mine]\nprovider = "openai"\n')
    told = f"[contestants.{name}]: {name!r} is a rule agent's name ({roles}), which plays that agent, not this table"
    assert list(configured_contestants()) == ["mine"]  # the title screen's list: the others stay
    if name == "wait":  # as the user, where no rule agent has the name: said, not "no user agent called"
        assert told in one_line_error(capsys, [*ARENA, "--user", name])
    out = io.StringIO()
    assert doctor_run.run(cli.parser_for(["doctor"]).parse_args(["doctor", "--offline"]), out) == 1
    files = out.getvalue().split("Files:\n", 1)[1]
    assert "config.toml (present)" in files and told in files and "BROKEN" not in out.getvalue()


def test_a_quota_wait_past_any_date_stops_a_tournament_in_words(capsys):
    """A server may ask for any wait: the resume time of one past any date was an OverflowError."""
    stub = Stub(lambda request: (429, openai_error(429, "slow down"), {"Retry-After": "1e300"}))
    try:
        code = main(["tournament", "--users", "openai", "--minotaurs", "builtin", "--preset", "tiny", "--games", "1",
                     "--openai-url", stub.url + "/v1", "--max-turns", "4"])
    finally:
        stub.close()
    err = capsys.readouterr().err
    assert code == 3 and "Traceback" not in err, err
    assert "the quota asks for a wait of 1e+300 s, past any date: run the same command again once it allows" in err


HAND_EDITED = {"huge-second-seed": {"seeds": [1, 2**70]}, "huge-seed": {"seeds": [2**70]},
               "text-seed": {"seeds": [1, "2"]}, "float-seed": {"seeds": [1.5]}, "unknown-preset": {"preset": "nope"},
               "unknown-difficulty": {"difficulty": 3}}


def test_a_reruns_design_is_bounded_as_its_options_are(capsys):
    """A hand-edited database's run: its seeds, ground and difficulty, as its turns and repeats, are refused in one
    line naming the run (a seed beyond SQLite's integers was an OverflowError; one of text a crash building the
    seeds; an unknown preset a traceback from the first match)."""
    import json
    import sqlite3

    assert main([*TOURNAMENT, "--games", "2", "--max-turns", "3", "--json"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    with sqlite3.connect(results_path()) as db:
        run_id, text = db.execute("SELECT run_id, manifest FROM runs").fetchone()
    for edited in HAND_EDITED.values():
        with sqlite3.connect(results_path()) as db:
            db.execute("UPDATE runs SET manifest = ?", (json.dumps({**json.loads(text), **edited}),))
        line = one_line_error(capsys, ["tournament", "--rerun", run_id])
        assert f"the manifest of run {run_id} is damaged" in line and next(iter(edited)).rstrip("s") in line, line
