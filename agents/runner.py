"""The match runner: two agents, one game, turn by turn until ESCAPED, DEATH
or TIMEOUT.

Each turn both agents are asked from the same state, at the same time when
either may block (an LLM call), and their answers are validated. An agent
that raises, times out or answers off-schema is replaced for that turn by the
fallback (LOOK for the user, WAIT for the Minotaur), and the fallback is
counted. A user whose commands come back as ERROR three times in a row gets
LOOK, so no match can stall.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from labyrinth.engine import Game, MinotaurDecision, UserInput
from labyrinth.engine.figures import seconds
from labyrinth.engine.turn import TurnResult
from labyrinth.engine.wsap import Action
from labyrinth.saves.experience import Reflection

from .base import Agent
from .game_digest import GameDigest
from .side import Side, SideStats

DEFAULT_MAX_TURNS = 400
DEFAULT_TIMEOUT_S = 60.0


@dataclass
class TurnRecord:
    """One turn as played: what each side sent, why a fallback replaced it, the outcome."""

    turn: int
    user: UserInput
    minotaur: MinotaurDecision
    user_fallback: str | None
    minotaur_fallback: str | None
    result: TurnResult
    exchanges: dict[str, dict] = field(default_factory=dict)  # an LLM side's prompt, reply, tokens, latency

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, **({"exchanges": self.exchanges} if self.exchanges else {}),
                "user": self.user.model_dump(exclude_none=True),
                "minotaur": self.minotaur.model_dump(exclude_none=True),
                "fallback": {"user": self.user_fallback, "minotaur": self.minotaur_fallback},
                "status": self.result.response.status,
                "hash": self.result.state.digest()}


@dataclass
class MatchResult:
    seed: int
    preset: str
    difficulty: str
    user_agent: str
    minotaur_agent: str
    outcome: str  # ESCAPED, DEATH or TIMEOUT
    turns: int
    game_time: float
    user: SideStats = field(default_factory=SideStats)
    minotaur: SideStats = field(default_factory=SideStats)
    recording_error: str | None = None  # why the replay stopped early, if it did
    reflections: list[Reflection] = field(default_factory=list)  # the lessons drawn, when memory is on

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "reflections": [r.model_dump(mode="json") for r in self.reflections]}


class Recorder(Protocol):
    """Something that keeps a match as it is played (a replay file)."""

    def start(self, match: Match) -> None: ...
    def turn(self, record: TurnRecord) -> None: ...
    def finish(self, result: MatchResult) -> None: ...
    def close(self) -> None: ...


class Match:
    """One match between a user agent and a Minotaur agent; ``lessons``, what each was given
    from earlier games, is only told (in a replay's header), the agents have them already."""

    def __init__(self, user: Agent, minotaur: Agent, *, seed: int, preset: str = "standard",
                 difficulty: str = "normal", max_turns: int = DEFAULT_MAX_TURNS,
                 timeout_s: float = DEFAULT_TIMEOUT_S, recorder: Recorder | None = None,
                 digest: bool = False, lessons: Mapping[str, Sequence[Reflection]] | None = None) -> None:
        self.user, self.minotaur = user, minotaur
        self.lessons = {role: list((lessons or {}).get(role, ())) for role in ("user", "minotaur")}  # as given
        self.game = Game.new(seed, preset, difficulty)
        self.seed, self.preset, self.difficulty = seed, preset, difficulty
        self.max_turns, self.recorder = max_turns, recorder
        self.turns = 0
        self.recording_error: str | None = None
        self.digest = GameDigest(self.game.world, self.game.state.user) if digest else None  # for reflections
        response, observation = self.game.view()
        self.sides = {"user": Side("user", user, self.game.world, self.game.state, response),
                      "minotaur": Side("minotaur", minotaur, self.game.world, self.game.state, observation)}
        self._threaded = user.blocking or minotaur.blocking
        # A turn waits as long as the slower agent may need (an LLM's retries included), so that the
        # agent's own failure is what gets counted, not the runner's deadline.
        self.timeout_s = max(timeout_s, *(getattr(agent, "patience_s", 0.0) for agent in (user, minotaur)))
        self._busy: dict[str, Future] = {}  # a side's call that outlived its turn
        self._record("start", self)

    @property
    def stats(self) -> dict[str, SideStats]:
        return {role: side.stats for role, side in self.sides.items()}

    @property
    def plans(self) -> dict[str, list[str]]:
        return {role: side.plan for role, side in self.sides.items()}

    @property
    def outcome(self) -> str | None:
        """ESCAPED, DEATH, TIMEOUT, or None while the match goes on."""
        if self.game.state.outcome:
            return self.game.state.outcome
        return "TIMEOUT" if self.turns >= self.max_turns else None

    def play(self) -> MatchResult:
        try:
            while self.outcome is None:
                self.play_turn()
        finally:
            self.close()
        return self.result()

    def play_turn(self) -> TurnRecord:
        """Ask both agents, step the game, tell both what happened."""
        user, minotaur = self.sides["user"], self.sides["minotaur"]
        user_answer, minotaur_answer = self._ask_both()
        command, user_why = user.command(*user_answer)
        decision, minotaur_why = minotaur.command(*minotaur_answer)
        result = self.game.step(command, decision)
        self.turns += 1
        if self.digest is not None:
            self.digest.turn(result)
        done = self.outcome is not None
        user.tell(result, user_why, done)
        minotaur.tell(result, minotaur_why, done)
        exchanges = {role: side.exchange for role, side in self.sides.items() if side.exchange}
        record = TurnRecord(self.turns, command, decision, user_why, minotaur_why, result, exchanges)
        self._record("turn", record)
        return record

    def result(self) -> MatchResult:
        return MatchResult(self.seed, self.preset, self.difficulty, self.user.name, self.minotaur.name,
                           self.outcome or "TIMEOUT", self.turns, seconds(self.game.state.tick),
                           self.sides["user"].stats, self.sides["minotaur"].stats, self.recording_error)

    def close(self) -> None:
        """Finish the replay when the match is over, and close it in any case."""
        if self.recorder:
            if self.outcome:
                self._record("finish", self.result())
            if self.recorder:
                self.recorder.close()
            self.recorder = None

    def _record(self, what: str, item: Any) -> None:
        """Keep the replay going; a failure to write stops the recording, never the match."""
        if self.recorder is None:
            return
        try:
            getattr(self.recorder, what)(item)
        except OSError as exc:
            self.recording_error = f"the replay stopped at turn {self.turns}: {exc}"
            recorder, self.recorder = self.recorder, None
            try:
                recorder.close()
            except OSError:
                pass  # already failing: the error above says so

    def _ask_both(self) -> tuple[tuple[Action | None, str | None], tuple[Action | None, str | None]]:
        """Both sides' answers: in the caller's thread for rules agents, else at once in
        threads with one deadline for the turn. A side still busy with an earlier turn
        is not asked again until that call returns."""
        if not self._threaded:
            return self.sides["user"].ask(), self.sides["minotaur"].ask()
        deadline = time.monotonic() + self.timeout_s
        asked = {role: _in_daemon_thread(side.ask) for role, side in self.sides.items()
                 if role not in self._busy or self._busy[role].done()}
        answers = []
        for role, side in self.sides.items():
            future = asked.get(role)
            if future is None:
                answers.append((None, "still busy with an earlier turn"))
                continue
            try:
                answers.append(future.result(timeout=max(0.0, deadline - time.monotonic())))
                self._busy.pop(role, None)
            except FutureTimeout:
                side.stats.timeouts += 1
                self._busy[role] = future
                answers.append((None, f"no answer within {self.timeout_s:g} s"))
        return answers[0], answers[1]


def _in_daemon_thread(call: Callable[[], Any]) -> Future:
    """``call()`` in a thread of its own. A daemon thread, unlike a pool's: a model still
    answering when the program ends (the player quit) must not hold up the exit."""
    future: Future = Future()

    def run() -> None:
        future.set_running_or_notify_cancel()
        try:
            future.set_result(call())
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
            future.set_exception(exc)

    threading.Thread(target=run, daemon=True).start()
    return future
