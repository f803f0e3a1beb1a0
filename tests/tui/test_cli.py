"""The command-line contracts other tools depend on: `labyrinth gsm` and `labyrinth world`."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from labyrinth.engine import PRESETS, GameStateResponse, MinotaurObservation
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.tui import cli
from labyrinth.tui.commands import SUBCOMMANDS

pytestmark = pytest.mark.slow

LABYRINTH = [str(Path(sys.executable).with_name("labyrinth"))]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(LABYRINTH + list(args), input=stdin, capture_output=True, text=True, timeout=60,
                          check=False)


def test_gsm_plain_answers_each_line_and_survives_bad_ones():
    lines = ['{"command": "LOOK"}', "", "this is not json", '{"command": "MOVE", "direction": "SIDEWAYS"}',
             '{"command": "MOVE", "direction": "north", "steps": 3}', "[1, 2]", '{"command": "HALT", "steps": 2}']
    done = run("gsm", "--seed", "7", "--preset", "tiny", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    out = [GameStateResponse.model_validate_json(line) for line in done.stdout.splitlines()]
    assert len(out) == 1 + 7  # the opening state, then one line per input line, the blank one too
    assert [r.status for r in out] == ["SUCCESS", "SUCCESS", "ERROR", "ERROR", "ERROR", "SUCCESS", "ERROR", "SUCCESS"]
    assert "empty" in out[2].environment.message and "Not valid JSON" in out[3].environment.message
    assert ('direction must be NORTH, SOUTH, EAST, WEST, UP RAMP or DOWN RAMP (got "SIDEWAYS")'
            in out[4].environment.message)
    assert out[4].environment.game_time == out[1].environment.game_time  # ERROR: no time passed
    assert out[-1].environment.turn == 3


def test_gsm_random_seed_is_printed_so_the_game_can_be_replayed():
    done = run("gsm", "--preset", "tiny")
    assert done.returncode == 0 and "--seed" in done.stderr


def test_gsm_external_pairs_both_sides_from_the_first_line():
    lines = [json.dumps({"user": {"command": "HALT", "steps": 3}, "minotaur": {"action": "CHASE"}}),
             json.dumps({"user": {"command": "LOOK"}}),
             json.dumps({"user": {"command": "LOOK"}, "minotaur": {"action": "TELEPORT"}}),
             json.dumps({"user": {"command": "LOOK"}, "minotaur": {"action": "JUMP"}})]
    done = run("gsm", "--seed", "3", "--preset", "small", "--minotaur", "external", stdin="\n".join(lines))
    assert done.returncode == 0, done.stderr
    pairs = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(pairs) == 5 and all(set(p) == {"user", "minotaur"} for p in pairs)
    for p in pairs:
        GameStateResponse.model_validate(p["user"])
        MinotaurObservation.model_validate(p["minotaur"])
    assert pairs[1]["user"]["environment"]["time_taken"] == 3.0
    assert pairs[2]["user"]["status"] == "ERROR" and '"minotaur"' in pairs[2]["user"]["environment"]["message"]
    assert pairs[3]["user"]["status"] == "ERROR" and "Minotaur's decision" in pairs[3]["user"]["environment"]["message"]
    assert "TELEPORT" in pairs[3]["minotaur"]["message"]
    assert pairs[4]["minotaur"]["temporal_status"] == "VANISHING"


def test_world_json_has_the_documented_shape():
    done = run("world", "--seed", "5", "--preset", "small", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    b = PRESETS["small"]
    assert set(data) == {"seed", "preset", "bounds", "user_start", "minotaur_start", "items", "levels"}
    assert data["bounds"] == {"x0": b.x0, "y0": b.y0, "z0": b.z0, "width": b.width, "height": b.height,
                              "levels": b.levels}
    assert [lv["z"] for lv in data["levels"]] == list(b.z_range)
    for level in data["levels"]:
        assert len(level["rows"]) == b.height and all(len(r) == b.width for r in level["rows"])
        assert set("".join(level["rows"])) <= set("#.=^v")
    u = data["user_start"]
    row = data["levels"][u["z"] - b.z0]["rows"][b.y0 + b.height - 1 - u["y"]]
    assert row[u["x"] - b.x0] != "#"
    assert sorted(i["name"] for i in data["items"]) == sorted(ITEM_ORDER)


def test_world_text_shows_a_legend_and_the_chosen_level():
    done = run("world", "--seed", "5", "--preset", "tiny", "--level", "100")
    assert done.returncode == 0, done.stderr
    assert "# rock" in done.stdout and "Level 100:" in done.stdout and "Level 99:" not in done.stdout
    assert "@" in done.stdout


@pytest.mark.parametrize("args, complaint", [
    (["world", "--level", "3", "--preset", "tiny"], "outside"),
    (["world", "--level", "abc"], '--level: must be a whole number (a level, z), not "abc"'),  # not "invalid int"
    (["gsm", "--preset", "huge"], "invalid choice"),
    (["gsm", "--seed", "abc"], "whole number"),
])
def test_bad_arguments_get_a_clear_message(args, complaint):
    done = run(*args)
    assert done.returncode == 2 and complaint in done.stderr


def test_help_lists_every_command():
    done = run("--help")
    assert done.returncode == 0
    for command in ("play", "spectate", "arena", "gsm", "world", "replay"):
        assert command in done.stdout


def test_gsm_plays_the_builtin_minotaur_by_default_and_deterministically():
    lines = "\n".join(['{"command": "HALT", "steps": 40}'] * 6) + "\n"
    builtin = [run("gsm", "--seed", "3", "--preset", "tiny", stdin=lines) for _ in range(2)]
    waiting = run("gsm", "--seed", "3", "--preset", "tiny", "--minotaur", "wait", stdin=lines)
    assert builtin[0].returncode == waiting.returncode == 0
    assert builtin[0].stdout == builtin[1].stdout
    def cues(out: str) -> list:
        return [GameStateResponse.model_validate_json(line).minotaur_cue for line in out.splitlines()]

    assert len({c.proximity for c in cues(waiting.stdout)}) == 1  # it never moved
    assert cues(builtin[0].stdout) != cues(waiting.stdout)  # the built-in one hunts


@pytest.mark.parametrize("mode", ["builtin", "external"])
def test_gsm_survives_absurd_lines(mode):
    deep, huge = "[" * 100_000, '{"command": "HALT", "steps": ' + "9" * 5000 + "}"
    lines = [deep, huge] if mode == "builtin" else [f'{{"user": {deep}}}', f'{{"user": {huge}, "minotaur": {{}}}}']
    done = run("gsm", "--seed", "1", "--preset", "tiny", "--minotaur", mode, stdin="\n".join(lines) + "\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    statuses = [(o["user"] if mode == "external" else o)["status"] for o in out]
    assert statuses == ["SUCCESS", "ERROR", "ERROR"]


def test_arena_refuses_a_replays_directory_it_cannot_write(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    done = run("arena", "--games", "1", "--preset", "tiny", "--replays", str(blocked / "replays"))
    assert done.returncode == 2 and "cannot keep replays" in done.stderr


def _read(parser, argv: list[str], capsys) -> tuple[object, str, str]:
    """What ``parser`` makes of ``argv``: its namespace (less the parser object itself; the function that
    runs the command by its code, as a parser may make it afresh), or how it exited, with what it printed."""
    try:
        args = vars(parser.parse_args(argv))
        args.pop("own_parser", None)
        args["func"] = args["func"].__code__
        read: object = args
    except SystemExit as exit:
        read = exit.code
    out, err = capsys.readouterr()
    return read, out, err


@pytest.mark.parametrize("argv", [*([name, "--help"] for name in SUBCOMMANDS),
                                  ["gsm", "--seed", "3", "--preset", "tiny", "--minotaur", "wait"],
                                  ["gsm", "--preset", "huge"], ["gsm", "--bogus"], ["play", "--seed", "2"],
                                  ["world", "--seed", "1", "--json"], ["memory", "list"], ["replay", "a.json"],
                                  ["arena", "--games", "3"], ["tournament", "--games", "x"]])
def test_a_subcommand_alone_reads_its_command_line_as_the_whole_parser(argv, capsys):
    """`labyrinth NAME ...` builds NAME's parser alone (start-up): the same namespace, help and errors as
    the parser of every subcommand gives."""
    alone = cli.parser_for(argv)
    assert _read(alone, argv, capsys) == _read(cli.parser(), argv, capsys)
    assert len(alone._subparsers._group_actions[0].choices) < len(cli.parser()._subparsers._group_actions[0].choices)
