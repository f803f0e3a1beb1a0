"""One LLM agent for every provider, either role, and any WSAP game.

The prompt: for our game a persona, then the rules and actions the game hands over
at setup (the WSAP system message, with the learning-injection slot), then the last
few turns and the current step in the WSAP step layout, so a long game never outgrows
a 4,096-token context. Every request asks for the JSON schema of the action space it
was given (one branch per action), so the same agent plays any GameAdapter; the action
in the answer is checked once, by the game, as any agent's is.

``decide`` never raises for what the model or its provider did: a reply that holds no
action, a blocked prompt, a call that failed for good all give the seed's ``noop``, its
``reasoning`` saying why, and ``failure`` keeps the error (the turn loop counts it and
plays the role's fallback, which is the same noop); the next prompt says what was wrong,
with the API's own reason when it gave one (a SAFETY or MAX_TOKENS stop). In our game a
provider that keeps failing, by errors or by answers that hold no action, is replaced by
the built-in agent for the rest of the match; a quota it cannot wait out (QuotaError) is
not a failure.

What a model wrote is kept only in part (NOTE_CHARS, ANSWER_KEPT_CHARS): a model
that writes a megabyte of reasoning cannot grow the next prompts or the replay,
and every prompt fits the context whatever is kept. Every call (plan, decision,
lesson) is counted in the side's stats it was given (count_calls_in), in exactly one of
its outcomes (side.CALL_OUTCOMES): answered (a usable reply: a decision whose action the
game can take as a command, a plan, a lesson that parsed), invalid (a reply that held
nothing usable), a provider error or a timeout (a call that failed for good); with what
it sent (the reply's Sent) and the model the API says answered. Each exchange kept for
the trajectory (a plan's, a decision's) says the same.
"""

from __future__ import annotations

import copy
import json
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from labyrinth.engine.commands import BadInput, shorten
from labyrinth.engine.presets import DEFAULT_DIFFICULTY
from labyrinth.engine.wsap import Action, ActionResult, ActionSpace, Goal, Observation
from labyrinth.engine.wsap.actions import GAME_NAME, NOOP
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.experience import Reflection

from ..base import InvalidAnswer, ModelPlayer, ProjectAgent
from ..builtin.rule_agents import RULE_AGENTS, taught
from ..learning.behaviour_lessons import Book
from ..learning.memory_manager import learning_injection
from ..match.side import SideStats
from .providers.base import (
    CHARS_PER_TOKEN,
    LESSON,
    Lesson,
    Reply,
    ResponseSchema,
    Transport,
    action_response,
    estimate_tokens,
)
from .providers.errors import ProviderError, QuotaError, TimedOut
from .providers.limits import CONTEXT_TOKENS, REPLY_TOKENS
from .providers.pacing import Waiting
from .providers.retry import Caller, patience_s
from .wsap_messages import (
    ActionParseError,
    parse_action,
    step_message,
    system_message,
)

# The prompt template's version, recorded with every side a model plays (its sent record): change it whenever
# the prompts' wording or layout changes (the persona, the system message, the step, the plan's or the lesson's
# question, the notes, what is kept of the history), so that results tell a model asked otherwise apart.
PROMPT_VERSION = "1"
OTHER_GAME = "a game"  # the name a game of others is given in the system message when the agent is told none
PERSONAS = {
    "user": "You are a careful, quick-witted explorer trapped in the labyrinth. You move quietly, listen for hooves, "
            "and keep a way out in mind.",
    "minotaur": "You are the Minotaur: patient, cunning and relentless. You listen, you guard, you strike when "
                "the intruder is near.",
}
HISTORY_TURNS = 3  # earlier turns kept in the prompt
FAILURES_BEFORE_REPLACEMENT = 5  # provider errors or answers without an action in a row (quotas aside)
NOTES_KEPT = 3
NOTE_CHARS = 200  # the most kept of one reasoning, one plan line or one NOTE: a sentence or two
ANSWER_KEPT_CHARS = 1_200  # the most kept of a reply (history, replay): a whole REPLY_TOKENS answer fits
WAITS = ("quota_waits", "quota_wait_s", "pace_waits", "pace_wait_s")  # a Caller's counts, and the side's stats'


class LLMAgent:
    """An agent whose decisions come from a language model through a transport. ``role`` names
    the side it plays ("user" or "minotaur" in our game; any name in another, e.g. "player");
    ``game_name`` is said in the system message (by default ours, or OTHER_GAME)."""

    blocking = True

    def __init__(self, role: str, transport: Transport, seed: int, learning_injection: str = "",
                 game_name: str | None = None, name: str | None = None) -> None:
        self.role, self.transport, self.seed, self.game_name = role, transport, seed, game_name
        self.patience_s = patience_s(transport.timeout_s)  # the runner waits this long for a decision
        self.own_name = name or transport.name  # a config contestant's name, else "provider/model"
        self.name = self.own_name
        self.learning_injection = learning_injection
        self.lessons: list[Reflection] = []
        self.book: Book | None = None  # the behaviour lessons of its role, when it learns
        self.preset = ""
        self.difficulty = DEFAULT_DIFFICULTY  # told by the seat (seated), for the built-in agent that may take over
        self.schema: ResponseSchema | None = None  # the action space's, from initialize
        self.home = False  # whether the game is ours, in this role: its persona, and the built-in stand-in
        self.system = ""
        self.history: deque[tuple[str, str]] = deque(maxlen=2 * HISTORY_TURNS)  # (user, assistant) texts
        self.note = ""  # what was wrong with the last answer, for the next prompt
        self.notes: deque[str] = deque(maxlen=NOTES_KEPT)  # its own reasoning, kept within the match
        self.failures = 0
        self.failure: InvalidAnswer | ProviderError | None = None  # why the last decision is the noop
        self.replacement: ProjectAgent | None = None  # the built-in agent, once the provider has kept failing
        self.last_exchange: dict[str, Any] | None = None  # prompt, reply, tokens, latency: for the trajectory
        self.meter: SideStats | None = None  # where every call's tokens and latency are counted
        self.usable: Callable[[Action], object] | None = None  # the game's check that an action is a command
        self._waits_counted: dict[str, float] = dict.fromkeys(WAITS, 0)  # the transport's waits counted so far
        if isinstance(calls := getattr(transport, "calls", None), Caller):  # a long wait names the contestant
            calls.who = f"{self.own_name} ({role})"
        self.description = ""
        self.action_space: ActionSpace | None = None  # from initialize

    @property
    def waiting(self) -> Waiting | None:
        """What the model's call is waiting for right now (a quota, the pace), for a front's countdown."""
        return None if self.replacement is not None else getattr(self.transport, "waiting", None)

    def held_s(self) -> float:
        """Seconds its calls have been held by a quota or the pace so far (the wait under way included):
        the turn loop waits that much longer for its answer."""
        held = getattr(getattr(self.transport, "calls", None), "held_s", None)  # the transport's Caller
        return held() if callable(held) else 0.0

    def lesson(self, what_happened: str) -> str | None:
        """The model's own two sentences on the finished game (Reflexion); None if it cannot say.
        Asked after the game, where no turn loop counts a failure: whatever the call raises is
        counted here (an exception as the side counts one in a turn), never a crash of the run."""
        if self.replacement is not None:
            return None  # the provider kept failing: do not ask it again
        ask = (f"The game is over. {what_happened}\nWhat did your behaviour teach you that holds in any labyrinth? "
               "Answer in one or two sentences of the form \"When <situation>, doing <choice> led to <result>\" "
               "(for example: when the hooves sounded close, raising the lantern led to an escape), naming no "
               f'place. Answer with JSON: {{"lesson": "..."}}')
        began = time.perf_counter()
        try:
            reply = self.transport.complete(self.system, [("user", ask)], LESSON)
        except ProviderError as exc:
            self._count("lesson", None, time.perf_counter() - began, _failed_as(exc), str(exc))
            return None
        except Exception as exc:  # noqa: BLE001 -- a bug, counted as the side counts one, the results still shown
            if self.meter is not None:
                self.meter.exceptions += 1
            self._count("lesson", None, time.perf_counter() - began, "provider_errors", f"{type(exc).__name__}: {exc}")
            return None
        seconds = time.perf_counter() - began
        try:
            text = reply.text.rsplit("</think>", 1)[-1]
            lesson = Lesson.model_validate_json(text[text.index("{"):text.rindex("}") + 1]).lesson.strip() or None
        except ValueError:  # ValidationError and a reply without an object are ValueErrors
            lesson = None
        self._count("lesson", reply, seconds, "answered" if lesson else "invalid")
        return lesson

    def count_calls_in(self, stats: SideStats, usable: Callable[[Action], object] | None = None) -> None:
        """Count every call from now on (plan, decisions, lesson) in ``stats``: the side's, so that
        its figures hold the calls made before its first turn and after its last. ``usable``: the
        game's conversion of an action into its command (BadInput if it cannot be one), which tells
        an answered decision from an invalid one as the call ends (a call that returns after its
        turn was played without it is counted all the same)."""
        self.meter, self.usable = stats, usable
        stats.prompt_version = PROMPT_VERSION

    def learn(self, lessons: Sequence[Reflection], preset: str) -> None:
        """Lessons from earlier games, at setup only: they go into the system message (and to
        the built-in agent, should it have to take over)."""
        self.lessons, self.preset = list(lessons), preset
        self.learning_injection = learning_injection(self.lessons, self.book)

    def follow(self, book: Book) -> None:
        """The behaviour lessons of its role, at setup only: the held ones go into the system
        message, before the lessons of this labyrinth's places."""
        self.book = book
        self.learning_injection = learning_injection(self.lessons, book)

    # --- WSAP agent -------------------------------------------------------------

    def seated(self, difficulty: str) -> None:
        """The game's difficulty: the model reads it in nothing, but the built-in agent that may
        take over plays by it."""
        self.difficulty = difficulty

    def initialize(self, game_description: str, action_space: ActionSpace) -> None:
        """The system message and the reply's schema, from what the game hands over; our own game
        (the role's action space) gets the role's persona too."""
        known = ROLES.get(self.role)
        self.home = known is not None and action_space == known.actions
        action_space = ActionSpace.adopted(action_space)  # another implementation's types (the reference's), as ours
        self.description, self.action_space = game_description, action_space
        told = f"{PERSONAS[self.role]}\n\n{game_description}" if self.home else game_description
        self.system = system_message(self.game_name or (GAME_NAME if self.home else OTHER_GAME), told, action_space,
                                     self.learning_injection)
        self.schema = action_response(self.role, action_space)
        if self.replacement is not None:
            self.replacement.initialize(game_description, action_space)

    def reset(self) -> None:
        """A new game of the same kind (the seed's episodes): what the last one's turns left goes
        (history, notes, failures in a row, and a built-in stand-in: the model is asked again);
        the system message, the lessons and the transport stay."""
        self.history.clear()
        self.notes.clear()
        self.note, self.failures, self.failure, self.last_exchange = "", 0, None, None
        self.replacement, self.name = None, self.own_name

    def __deepcopy__(self, memo: dict[int, Any]) -> LLMAgent:
        """A copy for another game (base.fresh_copy) that shares the transport: one SDK client,
        one connection pool, one pace of calls under the provider's quota."""
        memo[id(self.transport)] = self.transport
        memo[id(self.usable)] = self.usable  # the game's check: a function, never copied
        twin = memo[id(self)] = object.__new__(type(self))
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    def _initialized(self) -> tuple[ActionSpace, ResponseSchema]:
        """The action space and the reply's schema, which ``initialize`` sets before any call."""
        if self.action_space is None or self.schema is None:
            raise RuntimeError(f"{self.name}: asked before initialize")
        return self.action_space, self.schema

    def plan(self, goals: list[Goal]) -> list[str]:
        """A short plan, asked once at the start (empty if the provider fails)."""
        space, schema = self._initialized()
        quiet = [a.name for a in space.actions if all(p.optional for p in a.parameters)][:2]
        example = " or ".join(json.dumps(name) for name in quiet) or json.dumps(NOOP)
        ask = ("Before the game starts: in at most three short lines, what is your plan for these goals?\n"
               + "\n".join(f"- {g.description}" for g in goals)
               + f'\nAnswer with JSON: {{"action": {example}, "params": {{}}, "reasoning": "your plan"}}')
        turns, began = [("user", ask)], time.perf_counter()
        try:
            reply = self.transport.complete(self.system, turns, schema)
        except ProviderError as exc:
            self._record("plan", turns, None, time.perf_counter() - began, _failed_as(exc), exc)
            return []
        seconds = time.perf_counter() - began
        try:
            text = parse_action(reply.text).reasoning or ""
        except ActionParseError:
            text = reply.text  # a plan in prose is still a plan
        plan = [shorten(line.strip(" -"), NOTE_CHARS) for line in str(text).splitlines() if line.strip()][:3]
        self._record("plan", turns, reply, seconds, "answered" if plan else "invalid")
        return plan

    def decide(self, observation: Observation) -> Action:
        """The model's action; the seed's noop, saying why (and kept in ``failure``), when its
        reply holds none or its provider failed for good."""
        self.failure = None
        if self.replacement is not None:
            return self.replacement.decide(observation)
        prompt = self._step_text(observation)
        turns = self._fit([*self.history, ("user", prompt)])
        began = time.perf_counter()
        try:
            reply = self.transport.complete(self.system, turns, self._initialized()[1])
        except ProviderError as exc:
            self._record("decision", turns, None, time.perf_counter() - began, _failed_as(exc), exc)
            if not isinstance(exc, QuotaError):  # a quota is the account's limit, not the model failing
                self._failed()
            return self._fall_back(exc)
        seconds = time.perf_counter() - began
        self.history.append(("user", prompt))
        self.history.append(("assistant", shorten(reply.text, ANSWER_KEPT_CHARS)))
        try:
            action = self._action(reply)
        except InvalidAnswer as exc:
            self._record("decision", turns, reply, seconds, "invalid")
            self._failed()
            return self._fall_back(exc)
        self._record("decision", turns, reply, seconds, "answered" if self._usable(action) else "invalid")
        self.failures = 0
        if action.reasoning:
            self.notes.append(shorten(action.reasoning, NOTE_CHARS))
        return action

    def reflect(self, result: ActionResult) -> None:
        """Keep what went wrong for the next prompt (an action refused, or an answer replaced by
        noop); the model's notes stay within the match."""
        if not result.success:
            self.note = shorten(next(iter(result.message.splitlines()), ""), NOTE_CHARS)
        elif self.failure is not None:  # the game played the noop: the model is still told its answer was not used
            self.note = shorten(f"Your answer was not used ({self.failure}); {NOOP} was played in its place.",
                                NOTE_CHARS)
        else:
            self.note = ""
        if self.replacement is not None:
            self.replacement.reflect(result)

    # --- inside -----------------------------------------------------------------

    def _failed(self) -> None:
        """One more call in a row that gave no action (a provider error or an unusable answer);
        after FAILURES_BEFORE_REPLACEMENT the built-in agent takes over, in our game (in another
        there is none: the model keeps being asked)."""
        self.failures += 1
        if self.failures >= FAILURES_BEFORE_REPLACEMENT and self.home:
            self._replace()

    def _fall_back(self, failure: InvalidAnswer | ProviderError) -> Action:
        """The seed's noop in place of the model's answer, saying why."""
        self.failure = failure
        return Action(NOOP, {}, "fallback: " + shorten(next(iter(str(failure).splitlines()), ""), NOTE_CHARS))

    def _action(self, reply: Reply) -> Action:
        """The action the reply holds, as written; InvalidAnswer if it holds none, saying why in
        the API's words when it gave them. Whether the action is one the game accepts is checked
        once, where every agent's action is (engine.actions)."""
        if reply.blocked:
            raise InvalidAnswer(f"no {self.role} action: the provider blocked the prompt ({reply.blocked})")
        try:
            return parse_action(reply.text)
        except ActionParseError as exc:
            stopped = f"the model stopped early ({reply.cut_short}), and " if reply.cut_short else ""
            raise InvalidAnswer(f"not a valid {self.role} action: {stopped}{str(exc).splitlines()[0]}") from None

    def _step_text(self, observation: Observation) -> str:
        text = step_message(observation)
        extra = []
        if self.note:
            names = ", ".join(self.action_space.action_names()) if self.action_space else ""
            extra.append(f"NOTE on your last turn: {self.note} Valid actions: {names}.")
        if self.notes:
            extra.append("Your notes so far: " + " | ".join(self.notes))
        return "\n\n".join([*extra, text])

    def _fit(self, turns: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Drop the oldest turns until system, turns and the answer fit the context; a last turn
        that alone does not fit keeps its end (the current step and the question), cut at the front."""
        budget = CONTEXT_TOKENS - REPLY_TOKENS - estimate_tokens(self.system)
        while len(turns) > 1 and sum(estimate_tokens(t) for _, t in turns) > budget:
            turns = turns[2:] if len(turns) > 2 else turns[1:]
        role, text = turns[-1]
        if estimate_tokens(text) > budget:
            turns = [(role, _tail(text, int(max(budget, 0) * CHARS_PER_TOKEN)))]
        return turns

    def _usable(self, action: Action) -> bool:
        """Whether the game can take ``action`` as its command (always, told no check)."""
        if self.usable is None:
            return True
        try:
            self.usable(action)
        except BadInput:
            return False
        return True

    def _record(self, kind: str, turns: list[tuple[str, str]], reply: Reply | None, seconds: float, outcome: str,
                error: ProviderError | None = None) -> None:
        """The exchange for the trajectory (its reply cut to ANSWER_KEPT_CHARS, with the API's
        reason when the answer was stopped or withheld, what the request sent and the model that
        answered), and the call counted with its ``outcome`` (side.CALL_OUTCOMES; ``error``: what a
        failed call raised)."""
        sent = reply.sent if reply is not None else getattr(error, "sent", None)
        self.last_exchange = {
            "prompt_tokens_estimate": estimate_tokens(self.system) + sum(estimate_tokens(t) for _, t in turns),
            "prompt": turns[-1][1], "reply": None if reply is None else shorten(reply.text, ANSWER_KEPT_CHARS),
            "tokens_in": None if reply is None else reply.tokens_in,
            "tokens_out": None if reply is None else reply.tokens_out,
            "latency_s": round(seconds, 4), "error": None if error is None else str(error), "outcome": outcome,
            **({"sent": sent.to_dict()} if sent is not None else {}),
            **({"model_version": reply.model_version} if reply is not None and reply.model_version else {}),
        }
        if reply is not None and (reply.cut_short or reply.blocked):
            self.last_exchange.update(finish_reason=reply.finish_reason, blocked=reply.blocked)
        if reply is not None and reply.reasoning_tokens:
            self.last_exchange["reasoning_tokens"] = reply.reasoning_tokens
        self._count(kind, reply, seconds, outcome, None if error is None else str(error))

    def _count(self, kind: str, reply: Reply | None, seconds: float, outcome: str, error: str | None = None) -> None:
        """One call of ``kind`` (plan, decision, lesson) with its ``outcome`` (side.CALL_OUTCOMES), its
        tokens (from the API's usage fields), latency, waits (WAITS) and what it sent, in the side's stats.
        The time a quota or the pace held the call is a wait, not the model's latency."""
        calls = getattr(self.transport, "calls", None)  # the transport's Caller, which counts its waits
        counted = {name: getattr(calls, name, 0) for name in WAITS}
        new = {name: counted[name] - self._waits_counted[name] for name in WAITS}
        self._waits_counted = counted
        if self.meter is None:
            return
        for name in WAITS:
            setattr(self.meter, name, getattr(self.meter, name) + new[name])
        self.meter.count_call(kind, outcome, max(0.0, seconds - new["quota_wait_s"] - new["pace_wait_s"]))
        if reply is not None:
            self.meter.tokens_in += reply.tokens_in or 0
            self.meter.tokens_out += reply.tokens_out or 0
            self.meter.reasoning_tokens += reply.reasoning_tokens or 0
            self.meter.count_sent(reply.sent.to_dict() if reply.sent else None, reply.model_version)
        elif error:
            self.meter.last_error = shorten(error, NOTE_CHARS)

    def _replace(self) -> None:
        replacement = self.replacement = taught(RULE_AGENTS[self.role]["builtin"](self.seed), self.lessons,
                                                self.preset, self.book)
        replacement.seated(self.difficulty)
        if self.action_space is not None:
            replacement.initialize(self.description, self.action_space)
        self.name = f"{self.own_name} (replaced by builtin)"


def _failed_as(error: ProviderError) -> str:
    """The outcome a call that failed with ``error`` counts as: a timeout, or a provider error (a quota
    too long to wait included)."""
    return "timeouts" if isinstance(error, TimedOut) else "provider_errors"


def _tail(text: str, chars: int) -> str:
    """The end of ``text`` in at most ``chars`` characters, marked as cut, or all of it."""
    if len(text) <= chars:
        return text
    mark = "[... the start of this message is cut] "
    return mark + text[len(text) - chars + len(mark):] if chars > len(mark) else text[len(text) - chars:]


_HOLDS_TO_EVERY_MEMBER: type[ModelPlayer] = LLMAgent  # a member renamed on either side is a type error
