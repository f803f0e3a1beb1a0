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

import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from engine import Game, MinotaurDecision, UserInput
from engine.actions import (
    MINOTAUR_ACTIONS,
    MINOTAUR_DESCRIPTION,
    USER_ACTIONS,
    USER_DESCRIPTION,
    to_minotaur_decision,
    to_user_input,
)
from engine.commands import BadInput
from engine.perception import MinotaurPerception, UserPerception
from engine.rewards import minotaur_reward, user_reward
from engine.turn import TurnResult
from engine.wsap import Action, ActionResult

from .base import Agent

LOOK = UserInput(command="LOOK")
WAIT = MinotaurDecision(action="WAIT")
ERROR_STREAK = 3  # ERRORs in a row before the user is given LOOK
DEFAULT_MAX_TURNS = 400
DEFAULT_TIMEOUT_S = 60.0


@dataclass
class SideStats:
    """How one side's answers went over a match."""

    decisions: int = 0
    fallbacks: int = 0  # turns played by the fallback instead of the agent
    invalid: int = 0  # answers that were not a valid action
    exceptions: int = 0
    timeouts: int = 0
    errors: int = 0  # valid commands the game answered with ERROR
    think_s: float = 0.0  # time spent in decide()

    @property
    def mean_latency_s(self) -> float:
        return self.think_s / self.decisions if self.decisions else 0.0


@dataclass
class TurnRecord:
    """One turn as played: what each side sent, why a fallback replaced it, the outcome."""

    turn: int
    user: UserInput
    minotaur: MinotaurDecision
    user_fallback: str | None
    minotaur_fallback: str | None
    result: TurnResult

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn,
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Recorder(Protocol):
    """Something that keeps a match as it is played (a replay file)."""

    def start(self, match: Match) -> None: ...
    def turn(self, record: TurnRecord) -> None: ...
    def finish(self, result: MatchResult) -> None: ...


class Match:
    """One match between a user agent and a Minotaur agent."""

    def __init__(self, user: Agent, minotaur: Agent, *, seed: int, preset: str = "standard",
                 difficulty: str = "normal", max_turns: int = DEFAULT_MAX_TURNS,
                 timeout_s: float = DEFAULT_TIMEOUT_S, recorder: Recorder | None = None) -> None:
        self.user, self.minotaur = user, minotaur
        self.game = Game.new(seed, preset, difficulty)
        self.seed, self.preset, self.difficulty = seed, preset, difficulty
        self.max_turns, self.timeout_s, self.recorder = max_turns, timeout_s, recorder
        self.user_view = UserPerception(self.game.world)
        self.minotaur_view = MinotaurPerception(self.game.world)
        self.stats = {"user": SideStats(), "minotaur": SideStats()}
        self.turns = 0
        self.error_streak = 0
        self.plans: dict[str, list[str]] = {}
        response, observation = self.game.view()
        self.observations = {"user": self.user_view.observe(self.game.state, response),
                             "minotaur": self.minotaur_view.observe(self.game.state, observation)}
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="agent") \
            if user.blocking or minotaur.blocking else None
        user.initialize(USER_DESCRIPTION, USER_ACTIONS)
        minotaur.initialize(MINOTAUR_DESCRIPTION, MINOTAUR_ACTIONS)
        self.plans = {"user": self._plan(user, "user"), "minotaur": self._plan(minotaur, "minotaur")}
        if recorder:
            recorder.start(self)

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
        (user_action, user_why), (minotaur_action, minotaur_why) = self._ask_both()
        command, user_why = self._user_command(user_action, user_why)
        decision, minotaur_why = self._minotaur_decision(minotaur_action, minotaur_why)
        result = self.game.step(command, decision)
        self.turns += 1
        user_stats = self.stats["user"]
        if result.response.status == "ERROR":
            user_stats.errors += 1
            self.error_streak += 1
        else:
            self.error_streak = 0
        self._tell(result, user_why, minotaur_why)
        record = TurnRecord(self.turns, command, decision, user_why, minotaur_why, result)
        if self.recorder:
            self.recorder.turn(record)
        return record

    def result(self) -> MatchResult:
        state = self.game.state
        return MatchResult(self.seed, self.preset, self.difficulty, self.user.name, self.minotaur.name,
                           self.outcome or "TIMEOUT", self.turns, state.tick / 2,
                           self.stats["user"], self.stats["minotaur"])

    def close(self) -> None:
        if self._pool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self.recorder and self.outcome:
            self.recorder.finish(self.result())
            self.recorder = None

    # --- asking ------------------------------------------------------------

    def _plan(self, agent: Agent, role: str) -> list[str]:
        try:
            return list(agent.plan(self.observations[role].current_goals))
        except Exception as exc:  # an agent's failure is a value, never a crash
            return [f"(no plan: {type(exc).__name__}: {exc})"]

    def _ask_both(self) -> tuple[tuple[Action | None, str | None], tuple[Action | None, str | None]]:
        if self._pool is None:
            return (self._ask(self.user, "user"), self._ask(self.minotaur, "minotaur"))
        futures = [self._pool.submit(self._ask, agent, role)
                   for agent, role in ((self.user, "user"), (self.minotaur, "minotaur"))]
        answers = []
        for future, role in zip(futures, ("user", "minotaur")):
            try:
                answers.append(future.result(timeout=self.timeout_s))
            except FutureTimeout:
                self.stats[role].timeouts += 1
                answers.append((None, f"no answer within {self.timeout_s:g} s"))
        return answers[0], answers[1]

    def _ask(self, agent: Agent, role: str) -> tuple[Action | None, str | None]:
        """The agent's action, or None and why there is none."""
        stats = self.stats[role]
        began = time.perf_counter()
        try:
            action = agent.decide(self.observations[role])
        except Exception as exc:
            stats.exceptions += 1
            return None, f"the agent failed: {type(exc).__name__}: {exc}"
        finally:
            stats.decisions += 1
            stats.think_s += time.perf_counter() - began
        if not isinstance(action, Action):
            return None, f"the agent answered {type(action).__name__}, not an Action"
        return action, None

    def _user_command(self, action: Action | None, why: str | None) -> tuple[UserInput, str | None]:
        stats = self.stats["user"]
        if self.error_streak >= ERROR_STREAK:
            stats.fallbacks += 1
            return LOOK, f"{self.error_streak} ERRORs in a row"
        if action is not None:
            try:
                return to_user_input(action), None
            except BadInput as exc:
                stats.invalid += 1
                why = str(exc)
        stats.fallbacks += 1
        return LOOK, why

    def _minotaur_decision(self, action: Action | None, why: str | None) -> tuple[MinotaurDecision, str | None]:
        stats = self.stats["minotaur"]
        if action is not None:
            try:
                return to_minotaur_decision(action), None
            except BadInput as exc:
                stats.invalid += 1
                why = str(exc)
        stats.fallbacks += 1
        return WAIT, why

    def _tell(self, result: TurnResult, user_why: str | None, minotaur_why: str | None) -> None:
        """Give both agents their new observation and the feedback on their action."""
        state, response = result.state, result.response
        seconds = response.environment.time_taken
        user_obs = self.user_view.observe(state, response, result.events)
        minotaur_obs = self.minotaur_view.observe(state, result.observation, result.events)
        self.observations = {"user": user_obs, "minotaur": minotaur_obs}
        done = self.outcome is not None
        user_message = response.raw_text_output if not user_why else \
            f"Your answer was not used ({user_why}); LOOK was played instead.\n{response.raw_text_output}"
        minotaur_message = result.observation.raw_text_output if not minotaur_why else \
            f"Your answer was not used ({minotaur_why}); WAIT was played instead.\n" \
            f"{result.observation.raw_text_output}"
        for agent, role, ok, message, reward, obs in (
                (self.user, "user", response.status != "ERROR" and not user_why, user_message,
                 user_reward(result.events, seconds), user_obs),
                (self.minotaur, "minotaur", not minotaur_why, minotaur_message,
                 minotaur_reward(result.events, seconds), minotaur_obs)):
            try:
                agent.reflect(ActionResult(ok, message, reward, [], done, obs))
            except Exception:  # counted, and the match goes on
                self.stats[role].exceptions += 1
