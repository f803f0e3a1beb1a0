"""Every front of the game, driven by the same lines of pushed input, with agents that count
the times they are asked: for tests/test_one_loop.py and bench/perf/calls_per_front.py.

Each driver plays ``lines`` on (seed, preset) and gives a Run: the state digest before the first
line and after each line the front was sent, and the asked agent's calls. The user's fronts push
UserInput lines (JSON) and ask the built-in Minotaur: the turn loop itself (Match, the user an
Outside seat), the TUI's PlaySession behind its typed-command parser, a PlaySession saved after a
prefix and resumed for the rest, the WSAP adapter in the user role, and `labyrinth gsm`. The
Minotaur's fronts push MinotaurDecision lines and ask the built-in user.

The fronts that take an agent by name (PlaySession and its save, which records the name; gsm) get
it as the registry's kind "counting", added to the registry's tables while a driver runs
(``counting_kind``); the others are handed a counting agent itself.

``assert_own_play`` is for any test whose claim rests on an agent's play: that no turn of it was
the fallback's.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from unittest.mock import patch

from labyrinth.agents.builtin.builtin_minotaur import BuiltinMinotaur
from labyrinth.agents.builtin.builtin_user import BuiltinUser
from labyrinth.agents.match.runner import Match, Outside
from labyrinth.agents.match.side import SideStats
from labyrinth.agents.registry import MINOTAUR_AGENTS, USER_AGENTS, make_agent
from labyrinth.agents.wsap.adapters import LabyrinthAdapter
from labyrinth.engine.wsap import Action
from labyrinth.saves.games import load_game, save_game
from labyrinth.tui.command_parser import NotACommand, parse_command
from labyrinth.tui.jsonlines import gsm_match, serve
from labyrinth.tui.session import PlaySession

COUNTING = "counting"
NO_LIMIT = 10_000  # the WSAP adapter's max_turns: more than any stream plays


class Counting:
    """Mixed into an agent class: counts the times the agent is asked to decide."""

    calls = 0

    def decide(self, observation):
        self.calls += 1
        return super().decide(observation)


class CountingMinotaur(Counting, BuiltinMinotaur):
    """The built-in Minotaur, counting its calls."""


class CountingUser(Counting, BuiltinUser):
    """The built-in user, counting its calls, that fumbles every third answer: a GRAB of the red
    stone, which the game mostly refuses, so that every front must retry it as the loop does."""

    def decide(self, observation):
        action = super().decide(observation)
        return Action("GRAB", {"target": "RED STONE"}) if self.calls % 3 == 0 else action


@contextmanager
def counting_kind() -> Iterator[list[Counting]]:
    """The registry's agent kind "counting", for either role, while the block runs; the agents made
    of it, in order."""
    made: list[Counting] = []

    def maker(kind: type[Counting]) -> Callable[[int], Counting]:
        def make(seed: int) -> Counting:
            made.append(kind(seed))
            return made[-1]
        return make

    with patch.dict(MINOTAUR_AGENTS, {COUNTING: maker(CountingMinotaur)}), \
            patch.dict(USER_AGENTS, {COUNTING: maker(CountingUser)}):
        yield made


def assert_own_play(*sides: SideStats) -> None:
    """Every turn of these sides was their agent's own: no decide (or reflect) raised, no turn was
    played by the role's fallback. Without this a test of an agent's play passes with the agent
    broken: a decide that raises still counts as a decision, and the fallback plays on."""
    for side in sides:
        assert (side.fallbacks, side.exceptions) == (0, 0), \
            f"{side.fallbacks} turns played by the fallback, {side.exceptions} exceptions"


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


# --- the user's input pushed, the Minotaur asked ----------------------------------------


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
        turn = session.begin(command)  # as the game screen drives it (background.carry_turn)
        while not turn.done:
            turn = session.answer(turn, session.match.ask(turn))
        trace.append(session.game.state.digest())


def tui_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    with counting_kind() as made:
        session = PlaySession(seed, preset, minotaur_kind=COUNTING, learning=False)
        trace = [session.game.state.digest()]
        _typed(session, lines, trace)
    return Run(trace, made[0].calls)


def resume_run(lines: Sequence[str], seed: int, preset: str, cut: int | None = None) -> Run:
    """The TUI's game saved after ``cut`` lines (half of them by default), resumed from its file,
    and played on. The resumed Minotaur re-lives each saved turn's decision, so its calls are one
    per turn of the whole game; the first one's, one per turn before the save."""
    cut = len(lines) // 2 if cut is None else cut
    with counting_kind() as made, tempfile.TemporaryDirectory() as folder:
        first = PlaySession(seed, preset, minotaur_kind=COUNTING, learning=False)
        trace = [first.game.state.digest()]
        _typed(first, lines[:cut], trace)
        assert made[0].calls == len(Run(trace, 0).played), "the first session's calls before the save"
        second = PlaySession.resume(load_game(save_game(first.to_saved(), Path(folder))), {}, learning=False)
        assert second.game.state.digest() == trace[-1]
        _typed(second, lines[cut:], trace)
    return Run(trace, made[1].calls)


def action_of(line: str, name: str) -> Action:
    """The WSAP action a line means: its field ``name`` is the action's name, the others the params;
    a line that is no such object is sent as the action's name, which no mapping knows."""
    try:
        data = json.loads(line)
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get(name), str):
        return Action(line)
    return Action(data[name], {key: value for key, value in data.items() if key != name})


def wsap_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    with counting_kind():
        adapter = LabyrinthAdapter("user", seed, preset, opponent=make_agent("minotaur", COUNTING, seed),
                                   max_turns=NO_LIMIT)
        trace = [adapter.game.state.digest()]
        for line in lines:
            adapter.act(action_of(line, "command"))
            trace.append(adapter.game.state.digest())
    return Run(trace, adapter.opponent.agent.calls)  # the game's copy of the agent given (base.fresh_copy)


def _gsm(lines: Sequence[str], seed: int, preset: str, asked: str) -> Run:
    """`labyrinth gsm` as the command line makes it, the ``asked`` role played by the registry's
    counting agent and the other by the pipe, in process, fed one line per read as a person typing
    would; the state's digest at each read (before the first line, and after each answer). The one
    place that knows how to call ``serve``."""
    with counting_kind() as made:
        match = gsm_match(seed, preset, **{asked: COUNTING})
        trace: list[str] = []
        waiting = [line.encode() + b"\n" for line in lines]

        class Typed:
            def read1(self, size: int = -1) -> bytes:
                trace.append(match.game.state.digest())
                return waiting.pop(0) if waiting else b""

        out = io.BytesIO()
        assert serve(match, Typed(), out) == 0
    assert len(out.getvalue().splitlines()) == 1 + len(lines), "one answer per line"
    return Run(trace, made[0].calls)


def gsm_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    return _gsm(lines, seed, preset, "minotaur")


USER_FRONTS: dict[str, Callable[..., Run]] = {"loop": match_run, "tui": tui_run, "resume": resume_run,
                                              "wsap": wsap_run, "gsm": gsm_run}


# --- the Minotaur's decision pushed, the user asked ---------------------------------------


def minotaur_match_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    user = CountingUser(seed)
    match = Match(user, Outside("pipe"), seed=seed, preset=preset, max_turns=None)
    trace = [match.game.state.digest()]
    for line in lines:
        match.play_turn(minotaur=line)
        trace.append(match.game.state.digest())
    return Run(trace, user.calls)


def minotaur_wsap_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    adapter = LabyrinthAdapter("minotaur", seed, preset, opponent=CountingUser(seed), max_turns=NO_LIMIT)
    trace = [adapter.game.state.digest()]
    for line in lines:
        adapter.act(action_of(line, "action"))
        trace.append(adapter.game.state.digest())
    return Run(trace, adapter.opponent.agent.calls)  # the game's copy of the agent given (base.fresh_copy)


def minotaur_gsm_run(lines: Sequence[str], seed: int, preset: str) -> Run:
    return _gsm(lines, seed, preset, "user")


MINOTAUR_FRONTS: dict[str, Callable[..., Run]] = {"loop": minotaur_match_run, "wsap": minotaur_wsap_run,
                                                  "gsm": minotaur_gsm_run}
