"""One turn loop (issue 12, section 2): the same stream of user input, played through every
front, gives the same game and costs the Minotaur the same calls.

A stream mixes valid commands, commands the game refuses (a GRAB with nothing in reach, a USE
without a lantern) and malformed lines (broken JSON, an unknown command, bad params). Each front
of tests/fronts.py plays it: the TUI's session (behind the typed-command parser, which keeps
malformed lines from it), the WSAP adapter in the user role, `labyrinth gsm` a line at a time,
and a game saved after a prefix and resumed for the rest. Each must play it as the turn loop
itself does: the same state digest after each turn played, the same final digest, and exactly
one Minotaur call per turn played (refused and malformed input costs none).
"""

from __future__ import annotations

import json
from typing import get_args

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from labyrinth.engine.constants import CENTRE
from labyrinth.engine.items import ITEM_ORDER, ItemName
from labyrinth.engine.schemas import USER_PARAMS, Direction

from .fronts import MINOTAUR_FRONTS, Run, gsm_run, match_run, minotaur_match_run, resume_run, tui_run, wsap_run

pytestmark = pytest.mark.slow

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
    st.builds(lambda item: {"command": "USE", "target": item}, st.sampled_from([*ITEM_ORDER, None])),
)

# Malformed: what no front takes as a command (nor the TUI's parser as a typed one). A param its
# command does not take (LOOK with steps) is left out: the engine's UserInput takes it and the WSAP
# mapping refuses it, a disagreement of the vocabulary (section 3), not of the loop.
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
presets = st.sampled_from(["tiny", "small"])
# A failure is shrunk, but not explained: tracing the lines that only failing cases ran costs minutes.
FAST = settings(max_examples=25, deadline=None, phases=[phase for phase in Phase if phase != Phase.explain])
FRONTS = {"tui": tui_run, "wsap": wsap_run, "gsm": gsm_run}


def _agree(front: Run, loop: Run) -> None:
    assert front.played == loop.played, "the state after each turn played"
    assert front.final == loop.final
    assert front.calls == len(front.played), "one Minotaur call per turn played, none for refused input"
    assert front.calls == loop.calls


@FAST
@given(stream=streams, seed=seeds, preset=presets)
def test_the_loop_asks_the_minotaur_once_per_turn_played(stream, seed, preset):
    run = match_run(stream, seed, preset)
    assert run.calls == len(run.played)


@pytest.mark.parametrize("front", FRONTS)
@FAST
@given(stream=streams, seed=seeds, preset=presets)
def test_every_front_plays_a_stream_as_the_loop_does(front, stream, seed, preset):
    _agree(FRONTS[front](stream, seed, preset), match_run(stream, seed, preset))


@FAST
@given(stream=streams, seed=seeds, preset=presets, cut=st.floats(0, 1))
def test_a_game_saved_and_resumed_plays_on_as_the_loop_does(stream, seed, preset, cut):
    _agree(resume_run(stream, seed, preset, round(cut * len(stream))), match_run(stream, seed, preset))


# The Minotaur's decisions pushed and the user asked (gsm --user, WSAP in the Minotaur's role): the
# counting user fumbles every third answer with a GRAB the game mostly refuses, so each front must
# retry it within the turn as the loop does (the pushed decision always makes a turn).
# Targets in and just around the hunting grounds (tiny and small are centred on the cube's centre): open
# cells, rock and crawlways, all near. A far target is pathed through its corridor of chunks, a tenth of a
# second each, and tests nothing more of the loop.
coords = st.builds(lambda x, y, z: {"x": CENTRE[0] + x, "y": CENTRE[1] + y, "z": CENTRE[2] + z},
                   st.integers(-18, 18), st.integers(-18, 18), st.integers(-2, 2))
decisions = st.one_of(
    st.builds(lambda name: json.dumps({"action": name}), st.sampled_from(["WAIT", "CHASE", "JUMP"])),
    st.builds(lambda where: json.dumps({"action": "PATHFIND", "target_coords": where}), coords),
    st.sampled_from([*BROKEN_JSON, '{"action": "FLY"}']),
)  # a PATHFIND without coordinates is left out, as a LOOK with steps is above: the engine plays it
# (the decision refused within the turn), the WSAP mapping refuses it (its param is required)
decision_streams = st.lists(decisions, min_size=10, max_size=30)


@pytest.mark.parametrize("front", [name for name in MINOTAUR_FRONTS if name != "loop"])
@FAST
@given(stream=decision_streams, seed=seeds, preset=presets)
def test_every_minotaur_front_plays_a_stream_as_the_loop_does(front, stream, seed, preset):
    played, loop = MINOTAUR_FRONTS[front](stream, seed, preset), minotaur_match_run(stream, seed, preset)
    assert played.played == loop.played and played.final == loop.final
    assert played.calls == loop.calls, "the user's calls, its refused retries included"
