"""The config file checked in full as it is read: a wrong value, an unknown key or a
hostile file is one line naming the file and the field, never a traceback, and never
a timeout every model call would then fall back on."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labyrinth.agents.llm.config import provider_settings
from labyrinth.saves.config import ConfigError, config_path, read_config
from tests.command_line import labyrinth

BAD = {  # the file's text, and what the one line must name
    "timeout_huge": ("[gemini]\ntimeout_s = 1e308\n", "[gemini] timeout_s"),
    "timeout_inf": ("[gemini]\ntimeout_s = inf\n", "[gemini] timeout_s"),
    "timeout_nan": ("[mistral]\ntimeout_s = nan\n", "[mistral] timeout_s"),
    "timeout_negative": ("[ollama]\ntimeout_s = -5\n", "[ollama] timeout_s"),
    "timeout_zero": ("[ollama]\ntimeout_s = 0\n", "[ollama] timeout_s"),
    "timeout_text": ('[ollama]\ntimeout_s = "30"\n', "[ollama] timeout_s"),
    "api_key_number": ("[mistral]\napi_key = 123\n", "[mistral] api_key"),
    "model_table": ("[gemini.model]\nx = 1\n", "[gemini] model"),
    "typo": ('[gemini]\nmodle = "x"\n', "[gemini] modle: unknown key"),
    "unknown_table": ('[anthropic]\nmodel = "x"\n', "[anthropic]: unknown table"),
    "provider_not_a_table": ('gemini = "x"\n', ('[gemini]: should be a table ("[gemini]" on a line, its keys '
                                                 'below it), not a string')),  # never pydantic's name of our class
    "contestant_not_a_table": ("[contestants]\nmine = 5\n", "[contestants.mine]: should be a table"),
    "options_not_a_table": ("options = [1]\n", ('[options]: should be a table ("[options]" on a line, its keys '
                                               'below it), not an array')),
    "deep_nesting": ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deep"),
    "number_too_long": ("[gemini]\ntimeout_s = " + "9" * 5000 + "\n", "a number too long"),
    "key_too_long": ("[gemini]\n" + "k" * 5000 + " = 1\n", '[gemini] "kkkkk'),
    "not_toml": ("[gemini\n", "not valid TOML"),
    "not_utf8": (b"\xff\xfe[gemini]\n", "not UTF-8"),
}


def write(content: str | bytes) -> None:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        config_path().write_bytes(content)
    else:
        config_path().write_text(content)


@pytest.mark.parametrize("case", BAD)
def test_a_bad_config_file_is_one_line_naming_the_file_and_the_field(case):
    content, named = BAD[case]
    write(content)
    with pytest.raises(ConfigError) as error:
        read_config()
    message = str(error.value)
    assert message.startswith(str(config_path())) and named in message and "\n" not in message


def test_a_good_config_file_is_read_with_only_the_keys_it_sets():
    write('[gemini]\nmodel = "gemini-x"\ntimeout_s = 12\n[ollama]\nbase_url = "http://h:1"\n')
    assert read_config() == {"gemini": {"model": "gemini-x", "timeout_s": 12.0}, "ollama": {"base_url": "http://h:1"}}
    assert provider_settings("gemini", None, {}).timeout_s == 12.0


def test_a_config_file_saved_with_a_byte_order_mark_is_read():
    """Notepad saves UTF-8 with a byte-order mark, which TOML's reader refuses as an invalid statement."""
    write(b'\xef\xbb\xbf[gemini]\nmodel = "gemini-x"\n')
    assert read_config() == {"gemini": {"model": "gemini-x"}}


RANGES = {  # a value of each number a table holds, out of range or of another kind: the range its one line says
    ("openai", "timeout_s", '"30"'): "from 0.1 to 3,600 seconds",
    ("openai", "rpm", "[1]"): "from 0.1 to 100,000 requests a minute",
    ("contestants.c", "temperature", "2.5"): "from 0 to 2",
    ("contestants.c", "temperature", '"0.5"'): "from 0 to 2",
    ("contestants.c", "max_tokens", "99.0"): "a whole number from 16 to 100,000 tokens",
    ("contestants.c", "max_tokens", "100001"): "a whole number from 16 to 100,000 tokens",
    ("contestants.c", "price_in", "-1"): "from 0 to 10,000 US dollars per million tokens",
    ("contestants.c", "price_out", "nan"): "from 0 to 10,000 US dollars per million tokens",
}


def contestant_or_provider(table: str, lines: str) -> str:
    """A config file of one table: a provider's, or a contestant's (which names its provider)."""
    return f"[{table}]\n" + ('provider = "openai"\n' if table.startswith("contestants.") else "") + lines


@pytest.mark.parametrize(("table", "key", "value"), list(RANGES))
def test_every_number_of_a_table_is_refused_in_one_line_naming_its_range(table, key, value):
    write(contestant_or_provider(table, f"{key} = {value}\n"))
    with pytest.raises(ConfigError) as error:
        read_config()
    assert f"[{table}] {key}: must be {RANGES[table, key, value]}, not {value}" in str(error.value)


def test_the_numbers_at_their_edges_are_taken():
    write(contestant_or_provider("contestants.c", "temperature = 2\nmax_tokens = 16\nprice_in = 0\nprice_out = 1e4\n"
                                                  "timeout_s = 3600\nrpm = 0.1\n"))
    assert read_config()["contestants"]["c"] == {"provider": "openai", "temperature": 2.0, "max_tokens": 16,
                                                 "price_in": 0.0, "price_out": 10000.0, "timeout_s": 3600.0,
                                                 "rpm": 0.1}


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), -5.0, 0.0, 1e308])
def test_a_bad_timeout_on_the_command_line_is_refused(timeout):
    with pytest.raises(ConfigError, match="--llm-timeout"):
        provider_settings("ollama", {"timeout_s": timeout}, {}, {})


ESCAPES = ('[gemini]\n"\\u001b]0;pwned\\u0007\\u001b[31mRED" = 1\n', "unknown key")


@pytest.mark.parametrize("case", ["timeout_inf", "api_key_number", "deep_nesting", "escapes"])
def test_the_command_line_says_it_in_one_line(case):
    write(BAD.get(case, ESCAPES)[0])
    done = labyrinth("arena", "--games", "1", "--preset", "tiny", "--minotaur", "ollama")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and str(config_path()) in done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr  # a key's escapes are shown, not obeyed


TOML_VALUES = st.one_of(st.integers(-10**20, 10**20), st.floats(), st.booleans(), st.text(max_size=10),
                        st.lists(st.integers(), max_size=3))


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(provider=st.sampled_from(["gemini", "mistral", "ollama", "openai", "other"]),
       key=st.sampled_from(["model", "base_url", "api_key", "timeout_s", "other"]), value=TOML_VALUES)
def test_any_value_is_accepted_as_it_should_be_or_refused_in_one_line(provider, key, value):
    try:
        settings_ = provider_settings(provider if provider != "other" else "gemini", None, {},
                                      {provider: {key: value}})
    except ConfigError as exc:
        assert "\n" not in str(exc)
    else:
        assert 0 < settings_.timeout_s <= 3600 and isinstance(settings_.model, str)


@pytest.mark.parametrize("command", ["play", "arena", "gsm"])
@pytest.mark.parametrize("timeout", ["nan", "inf", "-5", "1e308", "soon"])
def test_a_bad_llm_timeout_flag_is_refused_by_every_command_before_anything_starts(command, timeout):
    from labyrinth.tui.cli import parser as _parser

    with pytest.raises(SystemExit) as exit_:
        _parser().parse_args([command, "--llm-timeout", timeout])
    assert exit_.value.code == 2
