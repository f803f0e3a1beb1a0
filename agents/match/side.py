"""One role of a game played by an agent: what it perceives, how its answers
are timed, checked and replaced by the fallback, and the feedback it gets.

The turn loop (runner.py's Match) holds a Side for each seat an agent fills
(it is asked), and an OutsideSide for a seat played from outside (the keyboard,
a pipe, a WSAP caller: its input is pushed).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from labyrinth.engine import MinotaurDecision, UserInput
from labyrinth.engine.commands import BadInput
from labyrinth.engine.turn import TurnResult
from labyrinth.engine.world import World
from labyrinth.engine.wsap import Action, ActionResult
from labyrinth.engine.wsap.perception import UserPerception
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.results_terms import SideRecord

from ..base import Agent, ModelPlayer, ProjectAgent, RuleAgent
from ..llm.providers.errors import QuotaError

ERROR_STREAK = 3  # the user's ERRORs in a row before it is given LOOK
# What became of a model call: each lands in exactly one, so calls = answered + invalid + provider_errors + timeouts.
CALL_OUTCOMES = ("answered", "invalid", "provider_errors", "timeouts")
CALL_KINDS = ("plan", "decision", "lesson")


@dataclass
class SideStats:
    """How one side's answers went over a match. A model's calls (the plan, every decision, a
    refused user's re-asks included, the lesson after the game) each land in one of CALL_OUTCOMES;
    a rule agent makes none (its answers the game cannot take are its ``invalid``)."""

    decisions: int = 0
    fallbacks: int = 0  # turns played by the fallback instead of the agent
    invalid: int = 0  # model calls whose reply held nothing usable (no action, blocked, cut off, a lesson that did
    # not parse, an action the game cannot take as a command); a rule agent's: its actions that are no command
    exceptions: int = 0  # decide() or reflect() raised
    provider_errors: int = 0  # model calls that failed for good other than by time (HTTP errors, unreachable, a body
    # not the API's, a quota too long to wait)
    timeouts: int = 0  # model calls that failed because they took too long
    late_turns: int = 0  # turns whose answer missed the match's deadline (the late call counts when it returns)
    errors: int = 0  # valid commands the game answered with ERROR
    think_s: float = 0.0  # time spent in decide()
    calls: int = 0  # an LLM agent's model calls: every decision's, the plan's and the lesson's
    plan_calls: int = 0  # of those, the opening plan's
    lesson_calls: int = 0  # and the lesson's after the game
    answered: int = 0  # of those, the calls whose reply was usable
    answer_s: float = 0.0  # the time the answered calls took (never the time a quota or the pace held them)
    quota_waits: int = 0  # quota answers (429) waited out, one each
    quota_wait_s: float = 0.0  # the time those waits held the calls
    tokens_in: int = 0  # from the LLM API's usage fields, when there are any, for all those calls
    tokens_out: int = 0  # reasoning included
    reasoning_tokens: int = 0  # of tokens_out, those spent thinking before the answer
    replaced: bool = False  # the agent's provider kept failing and the built-in agent took over
    last_error: str | None = None  # the last call's failure, one line (never a key)
    prompt_version: str = ""  # the model's prompt template (llm_agent.PROMPT_VERSION); "" for a rule agent
    sent: list[dict[str, Any]] = field(default_factory=list)  # each distinct request of the calls the API answered
    # (base.Sent.to_dict without its dropped: parameters, output mode, where the system text went), with its "calls"
    model_versions: list[str] = field(default_factory=list)  # the models the API says answered, as first seen
    dropped: dict[str, str] = field(default_factory=dict)  # the contestant's settings those requests left out: why
    pace_waits: int = 0  # starts the endpoint's pace held: --llm-rpm, the spread after a 429, another call's 429
    pace_wait_s: float = 0.0

    def count_call(self, kind: str, outcome: str, seconds: float) -> None:
        """One model call of ``kind`` (CALL_KINDS) that ended with ``outcome`` (CALL_OUTCOMES); ``seconds``:
        the model's time, counted for an answered call only."""
        if kind not in CALL_KINDS or outcome not in CALL_OUTCOMES:
            raise ValueError(f"no call of kind {kind!r} ending {outcome!r}")
        self.calls += 1
        self.plan_calls += kind == "plan"
        self.lesson_calls += kind == "lesson"
        setattr(self, outcome, getattr(self, outcome) + 1)
        if outcome == "answered":
            self.answer_s += seconds

    def count_sent(self, sent: dict[str, Any] | None, model_version: str | None) -> None:
        """What a call the API answered sent (base.Sent.to_dict) and the model it says answered: each distinct
        request kept once with how many calls sent it, the settings left out with their reason."""
        if sent is not None:
            request = {key: value for key, value in sent.items() if key != "dropped"}
            same = next((known for known in self.sent if {k: v for k, v in known.items() if k != "calls"} == request),
                        None)
            if same is None:
                self.sent.append({**request, "calls": 1})
            else:
                same["calls"] += 1
            for setting, why in sent.get("dropped", {}).items():
                self.dropped.setdefault(setting, why)
        if model_version is not None and model_version not in self.model_versions:
            self.model_versions.append(model_version)

    def sent_record(self) -> str:
        """What this side's model was sent, as a results row keeps it (JSON; {} for a rule agent): the prompt's
        version, each distinct request, the models that answered, the settings left out."""
        if not self.prompt_version:
            return "{}"
        return json.dumps({"prompt_version": self.prompt_version, "requests": self.sent,
                           "model_versions": self.model_versions, "dropped": self.dropped}, sort_keys=True)

    def record(self, settings: str = "{}") -> SideRecord:
        """These counts as a results row keeps them; ``settings``: the model's as asked, as JSON ({} for a
        rule agent)."""
        return SideRecord(settings, decisions=self.decisions, fallbacks=self.fallbacks, invalid=self.invalid,
                          provider_errors=self.provider_errors, refused=self.errors, exceptions=self.exceptions,
                          timeouts=self.timeouts, late_turns=self.late_turns, calls=self.calls,
                          plan_calls=self.plan_calls, lesson_calls=self.lesson_calls, answered=self.answered,
                          answer_s=round(self.answer_s, 4), quota_waits=self.quota_waits,
                          quota_wait_s=round(self.quota_wait_s, 3), tokens_in=self.tokens_in,
                          tokens_out=self.tokens_out, reasoning_tokens=self.reasoning_tokens, replaced=self.replaced,
                          last_error=self.last_error, sent=self.sent_record(), pace_waits=self.pace_waits,
                          pace_wait_s=round(self.pace_wait_s, 3))


class MatchStopped(Exception):
    """A model's quota asks for a longer wait than a match may be held, or its endpoint has answered
    nothing but quota answers for the hold budget (retry.HOLD_BUDGET_FACTOR): a match whose results are
    published stops here, unfinished, rather than play its turns by the fallback. Its message names the
    contestant and its role; ``wait_s``: the wait asked for, when known."""

    def __init__(self, message: str, wait_s: float | None = None) -> None:
        super().__init__(message)
        self.wait_s = wait_s


class Side:
    """An agent in one role ("user" or "minotaur") of a game: a seat that is asked. With
    ``quota_stops``, a quota wait longer than the hold stops the match (MatchStopped) instead of
    playing the turn by the fallback."""

    asked = True

    def __init__(self, role: str, agent: Agent, world: World, opening: TurnResult, quota_stops: bool = False) -> None:
        self.role, self.agent, self.quota_stops = role, agent, quota_stops
        self.knowledge = ROLES[role]
        self.perception = self.knowledge.perception(world)
        self.stats = SideStats()
        self.error_streak = 0
        self.last_action: Action | None = None  # the agent's last answer, reasoning and all (for displays)
        self.exchange: dict[str, Any] | None = None  # an LLM agent's last prompt and reply (for the trajectory)
        self.plan_exchange: dict[str, Any] | None = None  # an LLM agent's opening plan's prompt and reply
        self.observation = self.perception.observe(opening)
        if isinstance(agent, ProjectAgent):  # the game's difficulty, which a rule agent (or its stand-in) plays by
            agent.seated(opening.state.difficulty)
        # A model's agent counts its calls here, each with its outcome as the call ends: its check of an action
        # is the game's own conversion into a command.
        self.model = agent if isinstance(agent, ModelPlayer) else None
        if self.model is not None:
            self.model.count_calls_in(self.stats, self.knowledge.to_engine)
        try:
            agent.initialize(self.knowledge.description, self.knowledge.actions)
            if self.model is not None:
                self.model.last_exchange = None
            self.plan = list(agent.plan(self.observation.current_goals))
        except Exception as exc:  # noqa: BLE001 - an agent's failure is a value, never a crash: it is counted
            self.stats.exceptions += 1
            self.plan = [f"(no plan: {type(exc).__name__}: {exc})"]
        self.plan_exchange = None if self.model is None else self.model.last_exchange

    def ask(self) -> tuple[Action | None, str | None]:
        """The agent's action for the current observation, or None and why there is none."""
        self.exchange = None
        if self.error_streak >= ERROR_STREAK:
            return None, f"{self.error_streak} ERRORs in a row"  # not asked: the answer would be overruled
        began = time.perf_counter()
        if self.model is not None:  # it keeps its last exchange with its model, for the trajectory
            self.model.last_exchange = None
        try:
            action = self.agent.decide(self.observation)
        except Exception as exc:  # noqa: BLE001 - as the plan's: the agent's failure is counted, the fallback played
            self.stats.exceptions += 1
            return None, f"the agent failed: {type(exc).__name__}: {exc}"
        finally:
            self.stats.decisions += 1
            self.stats.think_s += time.perf_counter() - began
            self._account()
        failure = None if self.model is None else self.model.failure  # why a model's agent answered noop
        if failure is not None:  # the agent counted the call's outcome (count_calls_in)
            if isinstance(failure, QuotaError) and self.quota_stops:  # named as the contestant it is, and its role
                raise MatchStopped(f"{self.agent.name} ({self.role}): {failure}", failure.wait_s)
            return None, str(failure)
        if not isinstance(action, Action):
            return None, f"the agent answered {type(action).__name__}, not an Action"
        self.last_action = action
        return action, None

    def _account(self) -> None:
        """An LLM agent's last exchange, and whether its provider was replaced (its calls' tokens and
        time it counts itself, into these stats: count_calls_in)."""
        if self.model is not None:
            self.exchange, self.stats.replaced = self.model.last_exchange, self.model.replacement is not None

    def command(self, action: Action | None, why: str | None) -> tuple[UserInput | MinotaurDecision, str | None]:
        """The engine input for ``action``, or the fallback and why it was used."""
        if action is not None:
            try:
                return self.knowledge.to_engine(action), None
            except BadInput as exc:
                if self.model is None:  # a model's call was counted invalid as it ended (count_calls_in)
                    self.stats.invalid += 1
                why = str(exc)
        self.stats.fallbacks += 1
        return self.knowledge.fallback, why

    def tell(self, result: TurnResult, why: str | None, done: bool, busy: bool = False) -> None:
        """The new observation, and the feedback on the action this side sent (``why``: the
        reason its answer was replaced by the fallback). An agent still answering an earlier
        turn (``busy``) is not disturbed: its next question will hold the new observation."""
        role = self.knowledge
        refused = role.refused(result)
        if refused:
            self.stats.errors += 1
            self.error_streak += 1
        else:
            self.error_streak = 0
        del self.observation  # let go first: a perception builds an observation it handed out only if still held
        self.observation = self.perception.observe(result)
        if busy or _keeps_nothing(self.agent):
            return
        ok, text = not refused, role.view(result).raw_text_output
        if why:
            ok, text = False, (f"Your answer was not used ({why}); {role.fallback.model_dump_json(exclude_none=True)} "
                               f"was played in its place (the result below is that one's).\n{text}")
        try:
            self.agent.reflect(ActionResult(ok, text, role.reward(result), [], done, self.observation))
        except Exception:  # noqa: BLE001 - counted, and the game goes on
            self.stats.exceptions += 1


def _keeps_nothing(agent: Agent) -> bool:
    """Whether ``agent``'s reflect is RuleAgent's, which keeps nothing: it is not handed the turn's
    result, whose words (the role's view's text) would be built for nobody."""
    return getattr(agent.reflect, "__func__", None) is RuleAgent.reflect  # a wrapper's delegated reflect too


class Outside:
    """A seat played from outside: its input is pushed to the turn loop (the keyboard, the gsm
    pipe, a WSAP caller's ``act``, a replay's record), never asked for. It is told every turn
    like an agent's side; with ``observe`` it keeps the role's observation, for a front that
    shows it (the TUI's map, a WSAP caller). With ``stand_in`` a user command the game refuses
    is played as that input instead (a reinforcement-learning env's 1-second HALT, so that every
    step is a turn); without, it is answered with an ERROR and nothing happens."""

    blocking = False

    def __init__(self, name: str, observe: bool = True, stand_in: UserInput | None = None) -> None:
        self.name, self.observe, self.stand_in = name, observe, stand_in

    def seat(self, role: str, world: World, opening: TurnResult) -> OutsideSide:
        return OutsideSide(role, self, world, opening)


class OutsideSide:
    """The turn loop's view of an Outside seat: its counts and, when kept, its observation."""

    asked = False

    def __init__(self, role: str, outside: Outside, world: World, opening: TurnResult) -> None:
        self.role, self.agent, self.knowledge = role, outside, ROLES[role]
        self.stand_in = outside.stand_in
        self.stats = SideStats()
        self.plan: list[str] = []
        self.exchange: dict[str, Any] | None = None
        self.perception = self.knowledge.perception(world) if outside.observe else None
        self.observation = self.perception.observe(opening) if self.perception else None

    def tell(self, result: TurnResult, why: str | None, done: bool, busy: bool = False) -> None:
        """Count the input (refused or played) and, when kept, update the observation."""
        self.stats.decisions += 1
        if self.knowledge.refused(result):
            self.stats.errors += 1
        if self.perception is not None:
            self.observation = None  # let go first, as Side.tell does
            self.observation = self.perception.observe(result)


def user_map(seat: Side | OutsideSide) -> UserPerception:
    """The user's seat's perception, the map the user has seen: a user's knowledge makes a
    UserPerception, and each user's seat keeps one (an agent's always; an Outside seat's unless
    it is told not to observe, which only a replay's Minotaur is)."""
    perception = seat.perception
    assert isinstance(perception, UserPerception), "the user's seat keeps no map"
    return perception
