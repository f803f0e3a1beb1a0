"""`labyrinth gsm` as a protocol: every line in gets exactly one line out, in every mode,
whatever the line holds (blank, giant, after the end), in bounded memory and at once."""

import io
import json
import re
import selectors
import subprocess
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.agents.match.runner import Match, Outside
from labyrinth.agents.registry import make_agent
from labyrinth.engine.commands import duplicate_key
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.tui.jsonlines import MAX_LINE_BYTES, _split_external, gsm_match, serve

from ..agents.wsap.test_wsap_env import Counting
from .test_cli import LABYRINTH, run

HALT = '{"command": "HALT", "steps": 40}'
CHASE = '{"action": "CHASE"}'
PAIR = '{"user": {"command": "HALT", "steps": 40}, "minotaur": {"action": "CHASE"}}'
# mode: (arguments, a valid line, how many of them end the game in DEATH)
MODES = {
    "plain": (["--seed", "2", "--minotaur", "builtin"], HALT, 8),
    "wait": (["--seed", "2", "--minotaur", "wait"], HALT, None),
    "external": (["--seed", "2", "--minotaur", "external"], PAIR, 1),
    "minotaur": (["--seed", "3", "--user", "builtin"], CHASE, 9),
}


HARMLESS = {"plain": '{"command": "LOOK"}', "wait": '{"command": "LOOK"}', "minotaur": '{"action": "WAIT"}',
            "external": '{"user": {"command": "LOOK"}, "minotaur": {"action": "WAIT"}}'}


def _status(mode: str, line: str) -> str:
    answer = json.loads(line)
    return answer["user"]["status"] if mode == "external" else answer["status"]


def _message(mode: str, line: str) -> str:
    answer = json.loads(line)
    return answer["user"]["environment"]["message"] if mode == "external" else \
        answer["message"] if mode == "minotaur" else answer["environment"]["message"]


def gsm(mode: str, lines: list[str]) -> list[str]:
    arguments, _, _ = MODES[mode]
    done = run("gsm", "--preset", "tiny", *arguments, stdin="".join(line + "\n" for line in lines))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("mode", MODES)
def test_blank_and_whitespace_lines_each_get_an_error(mode):
    valid = HARMLESS[mode]
    out = gsm(mode, [valid, "", "   ", "\t\r", valid])
    assert len(out) == 1 + 5
    assert [_status(mode, line) for line in out[2:5]] == ["ERROR"] * 3
    assert all("empty" in _message(mode, line) for line in out[2:5])
    assert _status(mode, out[5]) == "SUCCESS"


@pytest.mark.parametrize("mode", ["plain", "external", "minotaur"])
def test_after_the_end_a_bad_line_is_an_error_and_a_valid_one_the_final_state(mode):
    _, valid, to_death = MODES[mode]
    bad = ["", "not json", '{"command": "DANCE"}', '{"action": "DANCE"}', "[1]", valid]
    out = gsm(mode, [valid] * to_death + bad)
    assert len(out) == 1 + to_death + len(bad)
    assert _status(mode, out[to_death]) == "DEATH"  # the line that ended the game
    assert [_status(mode, line) for line in out[to_death + 1:]] == ["ERROR"] * 5 + ["DEATH"]


def test_an_over_long_line_is_answered_before_it_ends_and_the_next_line_is_read():
    with subprocess.Popen(LABYRINTH + ["gsm", "--seed", "1", "--preset", "tiny", "--minotaur", "wait"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as gsm_process:
        pipe_in, pipe_out = gsm_process.stdin, gsm_process.stdout
        watch = selectors.DefaultSelector()
        watch.register(pipe_out, selectors.EVENT_READ)

        def answer() -> dict:  # the guard only fails a hung test; the read itself is the synchronisation
            assert watch.select(timeout=30), "gsm did not answer"
            return json.loads(pipe_out.readline())

        assert answer()["status"] == "SUCCESS"
        pipe_in.write(b'{"command": "LOOK", "pad": "' + b"x" * (MAX_LINE_BYTES + 1))
        pipe_in.flush()
        early = answer()  # the line has not ended yet
        assert early["status"] == "ERROR" and f"{MAX_LINE_BYTES:,} bytes" in early["environment"]["message"]
        pipe_in.write(b"y" * 5_000_000 + b'"}\n{"command": "LOOK"}\n')
        pipe_in.flush()
        assert answer()["status"] == "SUCCESS"  # the rest of the giant line was dropped, not answered
        pipe_in.close()
        assert pipe_out.read() == b"" and gsm_process.wait(timeout=30) == 0


class Trickle:
    """A stdin that sends ``parts`` one read at a time (chunks of at most 64 KiB, as a pipe
    gives them), noting how many answers had been written out before each read."""

    def __init__(self, parts: list[bytes], out: "Answers") -> None:
        self.parts, self.out, self.answers_before_read = parts, out, []

    def read1(self, size: int) -> bytes:
        self.answers_before_read.append(self.out.flushed)
        return self.parts.pop(0)[:size] if self.parts else b""


class Answers:
    """A stdout that keeps only what a test needs: the answers flushed, and the longest."""

    def __init__(self) -> None:
        self.pending, self.flushed, self.longest, self.statuses = b"", 0, 0, []

    def write(self, data: bytes) -> None:
        self.pending += data

    def flush(self) -> None:
        for line in self.pending.splitlines():
            self.longest = max(self.longest, len(line))
            self.statuses.append(json.loads(line)["status"])
        self.flushed, self.pending = self.flushed + self.pending.count(b"\n"), b""


def test_a_giant_line_costs_linear_time_and_bounded_memory_and_one_short_error():
    chunk = b"z" * (1 << 16)
    parts = [b'{"command": "LOOK"}\n{"command": "HALT", "pad": "', *[chunk] * 400, b'"}\n{"command": "LOOK"}\n']
    out, match = Answers(), gsm_match(1, "tiny", minotaur="wait")
    stdin = Trickle(parts, out)
    tracemalloc.start()
    try:
        assert serve(match, stdin, out) == 0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out.statuses == ["SUCCESS", "SUCCESS", "ERROR", "SUCCESS"]  # 26 MB in, one answer for it
    assert out.longest < 4_000 and peak < 8 * MAX_LINE_BYTES
    assert stdin.answers_before_read[2] == 3  # answered once 64 KiB of it had come, 399 reads before its end


@pytest.mark.parametrize("size, answered", [(MAX_LINE_BYTES, "SUCCESS"), (MAX_LINE_BYTES + 1, "ERROR")])
def test_the_line_limit_is_exact(size, answered):
    line = '{"command": "LOOK"}'.ljust(size).encode() + b"\n"
    out = Answers()
    serve(gsm_match(1, "tiny", minotaur="wait"), Trickle([line[:1000], line[1000:]], out), out)
    assert out.statuses == ["SUCCESS", answered]


def test_a_line_that_makes_no_turn_never_asks_the_minotaur():
    minotaur = Counting(make_agent("minotaur", "builtin", 1))
    match = Match(Outside("pipe", observe=False), minotaur, seed=1, preset="tiny", max_turns=None)
    lines = ['{"command": "LOOK"}', '{"command": "GRAB", "target": "RED STONE"}', "not json", "",
             '{"command": "DANCE"}', '{"command": "USE", "target": "LANTERN"}', '{"command": "HALT", "steps": 2}']
    out = Answers()
    serve(match, Trickle(["".join(line + "\n" for line in lines).encode()], out), out)
    assert out.statuses == ["SUCCESS", "SUCCESS", *["ERROR"] * 5, "SUCCESS"]
    assert minotaur.asked == match.turns == 2


@pytest.mark.parametrize("mode", list(MODES))
def test_a_byte_order_mark_is_ignored_and_a_field_given_twice_is_refused(mode):
    line = HARMLESS[mode]
    doubled = {"plain": '{"command": "HALT", "command": "LOOK"}', "wait": '{"command": "HALT", "command": "LOOK"}',
               "minotaur": '{"action": "CHASE", "action": "WAIT"}',
               "external": line.replace('"user"', '"user": {"command": "HALT"}, "user"', 1)}[mode]
    out = gsm(mode, ["\ufeff" + line, doubled])
    assert _status(mode, out[1]) == "SUCCESS"  # the mark a Windows tool may write says nothing
    assert _status(mode, out[2]) == "ERROR" and "is given twice; send each field once" in _message(mode, out[2])


def test_the_pipe_keeps_nothing_per_turn():
    match = gsm_match(4, "tiny", minotaur="wait")
    for _ in range(50):
        match.play_turn(user='{"command": "LOOK"}', minotaur=ROLES["minotaur"].fallback)
    assert match.turns == 50 and match.played == []  # nothing to save a pipe's game with: nothing kept



@pytest.mark.parametrize("line, said", [
    ('{"user": "LOOK", "minotaur": "WAIT"}',
     '"user" must be a JSON object (a UserInput) or JSON text of one, not a string ("LOOK")'),
    ('{"user": {"command": "LOOK"}, "minotaur": "WAIT"}',
     '"minotaur" must be a JSON object (a MinotaurDecision) or JSON text of one, not a string ("WAIT")'),
    ('{"user": "[\\"LOOK\\"]", "minotaur": {"action": "WAIT"}}',
     '"user" must be a JSON object (a UserInput) or JSON text of one, not a string ("[\\"LOOK\\"]")'),
    ('{"user": {"command": "LOOK"}, "minotaur": [1]}', ('"minotaur" must be a JSON object (a MinotaurDecision), '
                                                        'not an array ([1])')),
    ('{"user": 5, "minotaur": {"action": "WAIT"}}', '"user" must be a JSON object (a UserInput), not a number (5)'),
    ('{"user": null, "minotaur": {"action": "WAIT"}}', '"user" must be a JSON object (a UserInput), not null.'),
])
def test_an_external_half_that_is_no_object_is_refused_saying_what_it_is(line, said):
    """Valid JSON whose halves are strings that hold no JSON object, or other values, is not "Not valid
    JSON": both sides hear which half is not an object, what it is, and the shape of a line."""
    out = io.BytesIO()
    serve(gsm_match(2, "tiny", minotaur="external"), io.BytesIO(f"{line}\n{HARMLESS['external']}\n".encode()), out)
    _opening, refused, played = map(json.loads, out.getvalue().splitlines())
    messages = [refused["user"]["environment"]["message"], refused["minotaur"]["message"]]
    assert refused["user"]["status"] == "ERROR" and all(message.startswith(said) for message in messages)
    assert all(message.endswith('Send {"user": {...UserInput}, "minotaur": {...MinotaurDecision}}.')
               for message in messages)
    assert played["user"]["status"] == "SUCCESS" and played["user"]["environment"]["turn"] == 1

def test_an_external_half_may_be_json_text_of_its_object_as_the_rules_say():
    """rules.md §14.1: each half is a JSON object, or a string holding one; both play the same turn."""
    lines = ['{"user": "{\\"command\\": \\"LOOK\\"}", "minotaur": "{\\"action\\": \\"WAIT\\"}"}',
             '{"user": {"command": "LOOK"}, "minotaur": {"action": "WAIT"}}']
    played = []
    for line in lines:
        out = io.BytesIO()
        serve(gsm_match(2, "tiny", minotaur="external"), io.BytesIO(f"{line}\n".encode()), out)
        played.append(json.loads(out.getvalue().splitlines()[1]))
    assert played[0]["user"]["status"] == "SUCCESS" and played[0] == played[1]


_INNER = st.lists(st.tuples(st.sampled_from(['"command"', '"comm\\u0061nd"', '"direction"', '"action"']),
                            st.sampled_from(['"LOOK"', '"a:b"', '"WAIT"', "1", '{"x": 1, "x": 2}', '{"y": ":"}'])),
                  max_size=4)


@settings(max_examples=300, deadline=None)
@given(halves=st.lists(st.tuples(st.sampled_from(['"user"', '"minotaur"', '"us\\u0065r"']), _INNER),
                       min_size=1, max_size=4))
def test_an_external_line_giving_a_field_twice_is_refused_whatever_the_shortcut(halves):
    """The external mode skips the second read when the line has no more colons than the keys it was read
    into (commands.keys_in): on any line (escaped names, colons in strings, twice-given keys at any depth),
    a line of the two halves is refused for a twice-given field exactly when the standard library's reader
    of every key finds one."""
    line = ("{" + ", ".join(f"{key}: {{" + ", ".join(f"{k}: {v}" for k, v in inner) + "}" for key, inner in halves)
            + "}").encode()
    answer = _split_external(line)
    two_halves = set(json.loads(line)) == {"user", "minotaur"}
    refused = isinstance(answer, str) and "is given twice" in answer
    assert refused == (two_halves and duplicate_key(line) is not None)


RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
# Each row of rules.md §10's table that a line at the start of seed 7 (tiny) gives, by the start of its cause:
# the mode and the line. The one row that needs a place in the labyrinth (an item within reach) is test_items.py's.
TABLE_LINES = {
    "not JSON": ("plain", "nope"),
    "JSON but not an object": ("plain", "[1]"),
    "schema violation": ("plain", '{"command": "MOVE", "direction": "NORTH", "steps": 101}'),
    "MOVE without direction": ("plain", '{"command": "MOVE"}'),
    "unknown field": ("plain", '{"command": "LOOK", "foo": 1}'),
    "GRAB, nothing in reach": ("plain", '{"command": "GRAB"}'),
    "GRAB, named item not in reach, nothing else either": ("plain", '{"command": "GRAB", "target": "LANTERN"}'),
    "USE without a lantern": ("plain", '{"command": "USE"}'),
    "USE on a stone": ("plain", '{"command": "USE", "target": "RED STONE"}'),
    "(external mode) bad Minotaur half": ("external", '{"user": {"command": "LOOK"}, "minotaur": {"action": "FLY"}}'),
    "(external mode) line not": ("external", '{"user": {"command": "LOOK"}}'),
    "a field given twice in one object": ("plain", '{"command": "LOOK", "command": "LOOK"}'),
    "(`gsm`) an empty or blank line": ("plain", ""),
    "(`gsm`) a line over 65,536 bytes": ("plain", '{"command": "LOOK", "pad": "' + "x" * 70_000 + '"}'),
}


def error_table() -> dict[str, str]:
    """rules.md §10's table: each row's cause and the first message it shows (its "{...}" stands for anything)."""
    section = RULES.read_text(encoding="utf-8").split("## 10. Errors", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ", 1) for line in section.splitlines() if line.startswith("| ") and "`" in line]
    return {cause[2:]: message.split("`")[1] for cause, message in rows}


def test_the_error_table_of_the_rules_page_is_what_gsm_says():
    """Every refusal rules.md §10 shows for a line the game's start can take is the one gsm sends, word for word:
    the page's table is the reference agent authors read, and a reworded message must change it too."""
    table = error_table()
    shown = {start: next(message for cause, message in table.items() if cause.startswith(start))
             for start in TABLE_LINES}
    for mode in ("plain", "external"):
        starts = [start for start, (m, _) in TABLE_LINES.items() if m == mode]
        arguments = ["--seed", "7", "--preset", "tiny"] + (["--minotaur", "external"] if mode == "external" else [])
        done = run("gsm", *arguments, stdin="".join(TABLE_LINES[start][1] + "\n" for start in starts))
        assert done.returncode == 0, done.stderr
        said = [_message(mode, line) for line in done.stdout.splitlines()[1:]]
        for start, message in zip(starts, said, strict=True):
            expected = re.escape(shown[start]).replace(re.escape("{...}"), ".*")
            assert re.fullmatch(expected, message), (start, shown[start], message)
