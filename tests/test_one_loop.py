"""One turn loop (issue 12, section 2): the same stream of user input, played through every
front, gives the same game and costs the Minotaur the same calls.

A stream mixes valid commands, commands the game refuses (a GRAB with nothing in reach, a USE
without a lantern) and malformed lines (broken JSON, an unknown command, bad params). Each front
plays it: the turn loop itself (Match with the user pushed from outside), the TUI's PlaySession
(behind the typed-command parser, which keeps malformed lines from it), the WSAP adapter in the
user role, `labyrinth gsm` a line at a time, and a game saved after a prefix and resumed for the
rest. Every front must give the same state digests after each turn it played, the same final
digest, and exactly one Minotaur call per turn played: refused and malformed input costs none.

The Minotaur is the built-in one, counting its calls. The fronts that take a Minotaur by name
(PlaySession, and its save, which records the name) get it as the registry's kind "counting",
added to the registry's table for the duration of one example (``counting_kind``); the others are
handed the agent itself, made through the same kind.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import get_args
from unittest.mock import patch

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from labyrinth.agents.adapters import LabyrinthAdapter
from labyrinth.agents.builtin_minotaur import BuiltinMinotaur
from labyrinth.agents.registry import MINOTAUR_AGENTS, make_agent
from labyrinth.agents.runner import Match, Outside
from labyrinth.agents.side import Side
from labyrinth.engine import Game
from labyrinth.engine.schemas import STONES, USER_PARAMS, Direction, ItemName
from labyrinth.engine.wsap import Action
from labyrinth.saves.games import load_game, save_game
from labyrinth.tui.command_parser import NotACommand, parse_command
from labyrinth.tui.jsonlines import serve
from labyrinth.tui.session import PlaySession

COUNTING = "counting"
NO_LIMIT = 10_000  # the WSAP adapter's max_turns: more than any stream plays
PRESETS = ("tiny", "small")

# --- the counting Minotaur ------------------------------------------------------------


class CountingMinotaur(BuiltinMinotaur):
    """The built-in Minotaur, counting the times it is asked to decide."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def decide(self, observation):
        self.calls += 1
        return super().decide(observation)


@contextmanager
def counting_kind() -> Iterator[list[CountingMinotaur]]:
    """The registry's Minotaur kind "counting" while the block runs; the agents made of it, in order."""
    made: list[CountingMinotaur] = []

    def make(seed: int) -> CountingMinotaur:
        made.append(CountingMinotaur(seed))
        return made[-1]

    with patch.dict(MINOTAUR_AGENTS, {COUNTING: make}):
        yield made


# --- input streams --------------------------------------------------------------------

# Valid commands: those of the schemas' one definition that are always carried out (a GRAB or a
# USE may be refused, engine/turn.py's unexecutable), each param drawn from its field's values.
PARAM_VALUES = {"direction": st.sampled_from(get_args(Direction)), "steps": st.integers(1, 12),
                "speed": st.sampled_from([1, 2])}
REFUSABLE = ("GRAB", "USE")


@st.composite
def valid_commands(draw) -> dict:
    command = draw(st.sampled_from([name for name in USER_PARAMS if name not in REFUSABLE]))
    fields = {"command": command}
    for param in USER_PARAMS[command]:
        if param.required or draw(st.booleans()):
            fields[param.field] = draw(PARAM_VALUES[param.field])
    return fields


# Refused: a GRAB of an item that is seldom in reach, a USE without a lantern (or of a stone,
# which can never be used). Now and then a GRAB succeeds: it is then a turn like any other.
refused_commands = st.one_of(
    st.builds(lambda item: {"command": "GRAB", "target": item}, st.sampled_from([*get_args(ItemName), None])),
    st.builds(lambda item: {"command": "USE", "target": item}, st.sampled_from(["LANTERN", *STONES, None])),
)

# Malformed: what no front takes as a command (nor the TUI's parser as a typed one).
BROKEN_JSON = ['{"command": "MOVE", "direction": "NORTH"', '{"command": }', "[]", "null", "", "{}", '"LOOK"',
               '{"command": "LOOK"}}']
bad_params = st.one_of(
    st.just({"command": "MOVE"}),  # no direction
    st.builds(lambda n: {"command": "MOVE", "direction": "EAST", "steps": n}, st.sampled_from([0, -3, 101, 1000])),
    st.builds(lambda v: {"command": "MOVE", "direction": "WEST", "speed": v}, st.sampled_from([0, 3])),
    st.builds(lambda d: {"command": "MOVE", "direction": d}, st.sampled_from(["SIDEWAYS", "UP", 7])),
    st.builds(lambda key: {"command": "LOOK", key: "red"}, st.sampled_from(["colour", "cmd"])),
    st.just({"command": "GRAB", "target": "SWORD"}),
    st.just({"command": "HALT", "steps": 0}),
)
malformed_lines = st.one_of(
    st.sampled_from(BROKEN_JSON),
    st.builds(lambda name: json.dumps({"command": name}), st.sampled_from(["FLY", "RUN", "REST", "PATHFIND", "GRABS"])),
    bad_params.map(json.dumps),
)
KINDS = {"valid": valid_commands().map(json.dumps), "refused": refused_commands.map(json.dumps),
         "malformed": malformed_lines}
# Half valid, a quarter each refused and malformed (one_of would weigh each flattened branch alike).
lines = st.sampled_from(["valid", "valid", "refused", "malformed"]).flatmap(KINDS.__getitem__)
streams = st.lists(lines, min_size=20, max_size=60)
seeds = st.integers(1, 40)
# A failure is shrunk, but not explained: tracing the lines that only failing cases ran costs minutes.
FAST = settings(max_examples=25, deadline=None, phases=[phase for phase in Phase if phase != Phase.explain])


# --- the fronts -----------------------------------------------------------------------
# Each plays ``lines`` on (seed, preset) and gives a Run: the state digest before the first line and
# after each line it was sent, and the Minotaur's calls.


@dataclass
class Run:
    trace: list[str]
    calls: int

    @property
    def played(self) -> list[str]:
        """The digest after each turn played (a refused line leaves the state as it was)."""
        return [after for before, after in zip(self.trace, self.trace[1:]) if after != before]

    @property
    def final(self) -> str:
        return self.trace[-1]


def match_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    """The turn loop itself: the user's line pushed as it is."""
    with counting_kind() as made:
        match = Match(Outside("you"), make_agent("minotaur", COUNTING, seed), seed=seed, preset=preset,
                      max_turns=None)
        trace = [match.game.state.digest()]
        for line in lines:
            match.play_turn(user=line)
            trace.append(match.game.state.digest())
    assert match.turns == len(Run(trace, 0).played)
    return Run(trace, made[0].calls)


def _typed(session: PlaySession, lines: Sequence[str], trace: list[str]) -> None:
    """Lines typed into the TUI: what the command parser refuses never reaches the session."""
    for line in lines:
        try:
            command = parse_command(line)
        except NotACommand:
            continue
        session.play(command)
        trace.append(session.game.state.digest())


def tui_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    with counting_kind() as made:
        session = PlaySession(seed, preset, minotaur_kind=COUNTING, learning=False)
        trace = [session.game.state.digest()]
        _typed(session, lines, trace)
    return Run(trace, made[0].calls)


def resume_run(lines: Sequence[str], seed: int, preset: str, cut: int) -> Run:
    """The TUI's game saved after ``cut`` lines, resumed from its file, and played on. The resumed
    Minotaur re-lives each saved turn's decision, so its calls are one per turn of the whole game;
    the first one's, one per turn before the save."""
    with counting_kind() as made, tempfile.TemporaryDirectory() as folder:
        first = PlaySession(seed, preset, minotaur_kind=COUNTING, learning=False)
        trace = [first.game.state.digest()]
        _typed(first, lines[:cut], trace)
        assert made[0].calls == len(Run(trace, 0).played), "the first session's calls before the save"
        second = PlaySession.resume(load_game(save_game(first.to_saved(), Path(folder))), {}, learning=False)
        assert second.game.state.digest() == trace[-1]
        _typed(second, lines[cut:], trace)
    return Run(trace, made[1].calls)


def action_of(line: str) -> Action:
    """The WSAP action a line means: its command is the action's name, its other fields the params;
    a line that is no such object is sent as the action's name, which no mapping knows."""
    try:
        data = json.loads(line)
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("command"), str):
        return Action(line)
    return Action(data["command"], {key: value for key, value in data.items() if key != "command"})


def wsap_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    with counting_kind() as made:
        adapter = LabyrinthAdapter("user", seed, preset, opponent=make_agent("minotaur", COUNTING, seed),
                                   max_turns=NO_LIMIT)
        trace = [adapter.game.state.digest()]
        for line in lines:
            adapter.act(action_of(line))
            trace.append(adapter.game.state.digest())
    return Run(trace, made[0].calls)


def gsm_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    """`labyrinth gsm` in process, fed one line per read as a person typing would: the state's digest
    is taken at each read, i.e. before the first line and after each answer."""
    with counting_kind() as made:
        game = Game.new(seed, preset)
        _, observation = game.view()
        minotaur = Side("minotaur", make_agent("minotaur", COUNTING, seed), game.world, game.state, observation)
        trace: list[str] = []
        waiting = [line.encode() + b"\n" for line in lines]

        class Typed:
            def read1(self, size: int = -1) -> bytes:
                trace.append(game.state.digest())
                return waiting.pop(0) if waiting else b""

        out = io.BytesIO()
        assert serve(game, False, Typed(), out, minotaur) == 0
    assert len(out.getvalue().splitlines()) == 1 + len(lines), "one answer per line"
    return Run(trace, made[0].calls)


FRONTS: dict[str, Callable[..., Run]] = {"tui": tui_run, "wsap": wsap_run, "gsm": gsm_run}


# --- the properties -------------------------------------------------------------------


def _agree(front: Run, reference: Run) -> None:
    assert front.played == reference.played, "the state after each turn played"
    assert front.final == reference.final
    assert front.calls == len(front.played), "one Minotaur call per turn played, none for refused input"
    assert front.calls == reference.calls


@FAST
@given(stream=streams, seed=seeds, preset=st.sampled_from(PRESETS))
def test_the_loop_asks_the_minotaur_once_per_turn_played(stream, seed, preset):
    run = match_run(stream, seed, preset)
    assert run.calls == len(run.played)


@pytest.mark.parametrize("front", FRONTS)
@FAST
@given(stream=streams, seed=seeds, preset=st.sampled_from(PRESETS))
def test_every_front_plays_a_stream_as_the_loop_does(front, stream, seed, preset):
    _agree(FRONTS[front](stream, seed, preset), match_run(stream, seed, preset))


@FAST
@given(stream=streams, seed=seeds, preset=st.sampled_from(PRESETS), cut=st.floats(0, 1))
def test_a_game_saved_and_resumed_plays_on_as_the_loop_does(stream, seed, preset, cut):
    _agree(resume_run(stream, seed, preset, round(cut * len(stream))), match_run(stream, seed, preset))
