"""Terminal output of values read from files: `memory list`, `memory show`, `replay FILE` and
`doctor` print escape sequences (CSI, OSC titles and hyperlinks, C1), bidi overrides and
lone surrogates as visible escapes, and Rich markup as the brackets it is."""

import io
import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labyrinth.saves.replays import ReplayWriter
from labyrinth.tui.terminal_text import printable, say
from tests.saves.test_replays import builtin_match

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
ESC_TITLE = "\x1b]0;pwned\x07"
HYPERLINK = "\x1b]8;;https://evil.example\x07here\x1b]8;;\x07"
RED = "\x1b[31mred\x1b[0m"
C1_CLEAR = "\x9b2J"  # CSI as one C1 byte: clears the screen
BIDI = "\u202eevil\u202c"
MARKUP = "[bold red]loud[/] [link=https://evil.example]x[/link]"
BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def acts_on_a_terminal(char: str) -> bool:
    return (unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp") and char != "\n") or char in BIDI_CONTROLS


def assert_inert(text: str) -> None:
    assert not [c for c in text if acts_on_a_terminal(c)], [c for c in text if acts_on_a_terminal(c)]


def labyrinth(*args, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([LABYRINTH, *map(str, args)], check=False, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})}, encoding="utf-8",
                          errors="surrogateescape")


@given(st.text())
def test_printable_leaves_nothing_that_acts_on_a_terminal(text):
    shown, lines = printable(text), printable(text, newlines=True)
    assert_inert(shown) and "\n" not in shown
    assert_inert(lines) and lines.count("\n") == text.count("\n")
    shown.encode("utf-8")  # a lone surrogate would not even print


@given(st.text(st.characters(exclude_categories=["Cc", "Cs", "Zl", "Zp"])))
def test_printable_keeps_plain_text_as_it_is(text):
    if not BIDI_CONTROLS & set(text):
        assert printable(text) == text


def test_each_active_character_is_named_by_its_code_point():
    assert printable(f"{ESC_TITLE}|{C1_CLEAR}|{BIDI}|a\nb\tc|\ud800") == (
        "\\x1b]0;pwned\\x07|\\x9b2J|\\u202eevil\\u202c|a\\x0ab\\x09c|\\ud800")
    assert printable("a\nb", newlines=True) == "a\nb"


@pytest.mark.parametrize(("encoding", "shown"), [
    ("utf-8", "labyrinth arena: stopped \u00b7 seed 3 \\x1b[31m\n"),
    ("ascii", "labyrinth arena: stopped \\xb7 seed 3 \\x1b[31m\n"),  # findable in a path, not ascii_text's "|"
])
def test_a_message_on_stderr_is_named_and_escaped_for_the_terminal(monkeypatch, encoding, shown):
    stderr = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="strict")  # even a strict one
    monkeypatch.setattr(sys, "stderr", stderr)
    say("stopped \u00b7 seed 3 \x1b[31m", "arena")
    say("the game could not be saved")  # the program's own: no command named
    stderr.seek(0)
    assert stderr.read().splitlines(keepends=True) == [shown, "labyrinth: the game could not be saved\n"]


def write_log(tmp_path: Path, reflection: dict) -> None:
    from labyrinth.saves.experience import log_path

    log_path().parent.mkdir(parents=True, exist_ok=True)
    log_path().write_text(json.dumps({"version": 1, "reflections": [reflection]}))


def test_memory_list_and_show_print_hostile_fields_as_escapes(tmp_path):
    from tests.saves.test_experience import reflection

    # The log refuses a created_at or a preset that is not one (tests/saves/test_experience.py): what
    # free text a reflection may hold is its id, its lesson and its evidence's keys.
    write_log(tmp_path, {**reflection(1).model_dump(mode="json"), "id": f"g1{ESC_TITLE}-user", "preset": "small",
                         "key_reflection": f"{MARKUP} {HYPERLINK} {BIDI}", "evidence": {f"k{RED}": BIDI}})
    listed = labyrinth("memory", "list")
    assert listed.returncode == 0 and listed.stderr == ""
    assert listed.stdout.startswith("g1\\x1b]0;pwned\\x07-user 2026-11-21 10:00  user")
    assert "small 1" in listed.stdout and MARKUP in listed.stdout
    shown = labyrinth("memory", "show", "g1")
    assert shown.returncode == 0 and shown.stderr == ""
    assert "g1\\x1b]0;pwned\\x07-user: the user (builtin), DEATH" in shown.stdout
    assert "(small, seed 1), 2026-11-21T10:00:00Z" in shown.stdout
    assert MARKUP in shown.stdout and '"k\\u001b[31mred\\u001b[0m": "\\u202eevil\\u202c"' in shown.stdout
    assert_inert(listed.stdout + shown.stdout)


def hostile_replay(folder: Path) -> Path:
    """A real replay whose header and fallback reasons carry escapes, bidi and markup, under a
    file name that carries them too."""
    with ReplayWriter(folder) as writer:
        builtin_match(3, writer, max_turns=3).play()
    lines = [json.loads(line) for line in writer.path.read_text().splitlines()]
    lines[0] |= {"created_at": f"2026{ESC_TITLE}", "agents": {"user": f"{MARKUP}{RED}", "minotaur": BIDI},
                 "lessons": {"minotaur": [{"id": f"g2{C1_CLEAR}", "text": f"{MARKUP} {HYPERLINK}"}]}}
    lines[2]["fallback"] = {"user": None, "minotaur": f"{HYPERLINK}{BIDI}"}
    path = folder / f"{RED}{BIDI}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_replay_prints_hostile_names_headers_and_reasons_as_escapes(tmp_path):
    done = labyrinth("replay", hostile_replay(tmp_path))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("\\x1b[31mred\\x1b[0m\\u202eevil\\u202c.jsonl\n  recorded 2026\\x1b]0;pwned\\x07: ")
    assert f"  user {MARKUP}\\x1b[31mred\\x1b[0m vs Minotaur \\u202eevil\\u202c\n" in done.stdout
    assert f"lesson offered to the Minotaur: {MARKUP}" in done.stdout
    assert "[Minotaur fallback: \\x1b]8;;https://evil.example\\x07here\\x1b]8;;\\x07\\u202eevil\\u202c]" in done.stdout
    assert_inert(done.stdout)


def test_replay_errors_quoting_the_file_print_escapes(tmp_path):
    path = tmp_path / f"{ESC_TITLE}.jsonl"
    path.write_text(json.dumps({"type": f"header{RED}"}) + "\n")
    done = labyrinth("replay", path)
    assert done.returncode == 2 and done.stderr.startswith("labyrinth replay: ") and done.stderr.count("\n") == 1
    assert_inert(done.stderr)


def test_doctor_prints_hostile_config_values_and_paths_as_escapes(tmp_path):
    config = tmp_path / "config" / "labyrinth" / "config.toml"
    config.parent.mkdir(parents=True)
    # JSON's string escapes are TOML's: the file holds the controls as \\u001b, tomllib reads them back
    config.write_text(f"[ollama]\nbase_url = {json.dumps('http://localhost:9/' + BIDI)}\n")
    data = tmp_path / f"data{C1_CLEAR}{BIDI}"
    env = {"XDG_DATA_HOME": str(data), "GEMINI_API_KEY": "k", "LABYRINTH_GEMINI_MODEL": f"g{ESC_TITLE}"}
    done = labyrinth("doctor", "--offline", env=env)
    assert done.returncode == 1 and done.stderr == ""  # a model it cannot read is a problem
    # a model's name that cannot be shown is refused by its one rule, naming where it came from, not quoted
    assert "gemini   cannot be read: the gemini model from $LABYRINTH_GEMINI_MODEL holds a space" in done.stdout
    assert "pwned" not in done.stdout
    # an endpoint that cannot be a URL (a bidi control in it): its line says so, quoting it inert
    assert "ollama   cannot be read: the ollama endpoint from the config file" in done.stdout
    assert "localhost:9/\\u202eevil\\u202c" in done.stdout
    assert "data\\x9b2J\\u202eevil\\u202c" in done.stdout
    assert_inert(done.stdout)
    # a hostile name in the config file: the file is refused in one line naming the table and key
    config.write_text(f"[mistral]\napi_key = \"k\"\nmodel = {json.dumps(HYPERLINK + MARKUP)}\n")
    done = labyrinth("doctor", "--offline", env=env)
    assert "[mistral] model: the model's name holds a space" in done.stdout and "evil.example" not in done.stdout
    assert_inert(done.stdout)
