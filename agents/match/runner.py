"""The one turn loop: every front plays its turns through a Match.

A Match seats two players. A seat is an agent that is asked (rules in
process, or a model that may block) or an Outside seat whose input is pushed
(the keyboard, the ``gsm`` pipe, a WSAP caller, a replay). A turn checks the
pushed input first (a bad or impossible command is answered at once, nobody
is asked and nothing is recorded; an impossible one of a seat with a
``stand_in``, an RL env's, is played as that instead), asks only the seats
that must be asked (both at once, in threads with one deadline, when either
may block), steps the engine, tells both seats, records the turn and, at the
end, remembers the game. An asked agent whose answer fails (raises, times out, off-schema) is
replaced for that turn by its role's fallback, and the fallback is counted.
An asked user whose command the game refuses is told so and asked again while
the other side's answer waits (so no call is thrown away); after three
refusals in a row it is given LOOK, so no match can stall.

``play_turn`` does it all in the caller's thread. A front that must stay live
(the TUI) drives the same steps itself: ``begin``, then ``ask`` (the only part
that may go to a thread) and ``answer`` until the turn is done.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from labyrinth.engine import DEFAULT_DIFFICULTY, BadInput, Game, MinotaurDecision, UserInput, parse
from labyrinth.engine.figures import seconds
from labyrinth.engine.presets import DEFAULT_PRESET
from labyrinth.engine.report import USER_REJECTED, error_report
from labyrinth.engine.schemas import Outcome, match_outcome
from labyrinth.engine.turn import TurnResult, unexecutable
from labyrinth.engine.wsap import Action
from labyrinth.engine.wsap.roles import MINOTAUR_NOOP, ROLES, USER_NOOP

from ..base import Agent, ModelPlayer
from .match_records import MatchResult, Recorder, TurnRecord, game_digest
from .side import Outside, OutsideSide, Side, SideStats

if TYPE_CHECKING:  # loaded when used (start-up: the pipe uses none): a future, when an agent is asked in a
    # thread; the lessons, the memory and the digest, when a game learns or is digested
    from concurrent.futures import Future

    from labyrinth.engine.state import GameState
    from labyrinth.saves.experience import Reflection

    from ..learning.game_digest import GameDigest
    from ..learning.memory_manager import GameMemory

__all__ = ["DEFAULT_MAX_TURNS", "MAX_TURNS", "Match", "MatchResult", "Outside", "Recorder", "Turn", "TurnRecord"]

DEFAULT_MAX_TURNS = 400
MAX_TURNS = 100_000  # the most a match may be given (--max-turns): 250 times the default, and a model's match of
# it some days of calls; a results row and the leaderboard's filter keep it in SQLite's 64-bit integer
DEFAULT_TIMEOUT_S = 60.0
MINOTAUR_REJECTED = "The turn was rejected: the Minotaur's decision is invalid."
Answer = tuple[Action | None, str | None]  # an asked seat's action, or None and why there is none
T = TypeVar("T")


class Inputs(TypedDict, total=False):
    """A turn's inputs known so far, by role."""

    user: UserInput
    minotaur: MinotaurDecision


def _put(inputs: Inputs, given: UserInput | MinotaurDecision) -> None:
    """Keep ``given`` as the input of the role that sends its kind: each role sends one kind."""
    if isinstance(given, UserInput):
        inputs["user"] = given
    else:
        inputs["minotaur"] = given


@dataclass
class Turn:
    """A turn in the making: the inputs known so far and the seats still to ask. Done once
    ``result`` is set; ``record`` is None when nothing was played (pushed input refused, or
    sent after the end)."""

    inputs: Inputs = field(default_factory=lambda: Inputs())
    whys: dict[str, str | None] = field(default_factory=dict)  # why a fallback replaced an asked answer
    asks: tuple[str, ...] = ()
    refused: list[dict[str, str]] = field(default_factory=list)  # an asked user's refused commands
    asked: set[str] = field(default_factory=set)  # the seats asked for this turn
    # Each asked model's exchanges, re-asks included.
    exchanges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    deadline: float | None = None  # set when first asking: one for the turn, retries included
    result: TurnResult | None = None
    record: TurnRecord | None = None

    @property
    def done(self) -> bool:
        return self.result is not None


class Match:
    """One game between two seats. ``user`` and ``minotaur`` are agents, which are asked, or
    Outside seats, whose input each turn pushes. ``lessons`` (what each was given from earlier
    games) is only told, in a replay's header: the agents have them already. With ``memory``
    the finished game's reflections go to the experience log. ``max_turns`` None: no limit. ``start``
    changes the first state before either side sees it (the RL ladder's frozen Minotaur)."""

    def __init__(self, user: Agent | Outside, minotaur: Agent | Outside, *, seed: int, preset: str = DEFAULT_PRESET,
                 difficulty: str = DEFAULT_DIFFICULTY, max_turns: int | None = DEFAULT_MAX_TURNS,
                 timeout_s: float = DEFAULT_TIMEOUT_S, recorder: Recorder | None = None,
                 digest: bool = False, lessons: Mapping[str, Sequence[Reflection]] | None = None,
                 memory: GameMemory | None = None, quota_stops: bool = False, keeps_inputs: bool = True,
                 start: Callable[[GameState], None] | None = None) -> None:
        self.user, self.minotaur = user, minotaur
        self.quota_stops = quota_stops  # a published match stops on a quota it cannot wait out (MatchStopped)
        self.lessons = {role: list((lessons or {}).get(role, ())) for role in ROLES}  # as given
        self.game = Game.new(seed, preset, difficulty)
        if start is not None:
            # A change to the first state before either side sees it (the RL ladder's Minotaur frozen for the
            # whole game): such a game is no longer its seed and its inputs, which a save and a lesson are.
            if recorder is not None or memory is not None:
                raise ValueError("a game with a changed start is neither recorded nor remembered")
            start(self.game.state)
        self.seed, self.preset, self.difficulty = seed, preset, difficulty
        self.max_turns, self.recorder, self.memory = max_turns, recorder, memory
        self.turns = 0
        # Every turn's inputs, which a save holds; a front that cannot save (the gsm pipe, whose game may
        # never end) keeps none (``keeps_inputs``), so that its memory does not grow turn by turn.
        self.played: list[tuple[UserInput, MinotaurDecision]] = []
        self.keeps_inputs = keeps_inputs
        self.recording_error: str | None = None
        self.memory_error: str | None = None  # why the finished game's reflections could not be written
        self.reflections: list[Reflection] = []  # the finished game's, when there is a memory
        self.digest: GameDigest | None = None
        if digest or (memory is not None and memory.log is not None):
            from ..learning.game_digest import GameDigest

            self.digest = GameDigest(self.game.world, self.game.state.user)
        self.last = self.game.opening()  # the latest turn's result (at first, the opening)
        self.seats = self._seat({"user": user, "minotaur": minotaur})
        self.sides = {role: seat for role, seat in self.seats.items() if isinstance(seat, Side)}  # the agents' (asked)
        self._threaded = any(side.agent.blocking for side in self.sides.values())
        # A turn waits as long as the slower agent may need (an LLM's retries included), so that the
        # agent's own failure is what gets counted, not the runner's deadline.
        self.timeout_s = max([timeout_s, *(side.model.patience_s for side in self.sides.values() if side.model)])
        self._busy: dict[str, Future[Answer]] = {}  # a side's call that outlived its turn
        self._record("start", self)

    @property
    def stats(self) -> dict[str, SideStats]:
        return {role: seat.stats for role, seat in self.seats.items()}

    @property
    def plans(self) -> dict[str, list[str]]:
        return {role: side.plan for role, side in self.sides.items()}

    @property
    def plan_exchanges(self) -> dict[str, dict[str, Any]]:
        """Each LLM agent's opening plan as asked and answered (prompt, reply, what was sent...), by role."""
        return {role: side.plan_exchange for role, side in self.sides.items() if side.plan_exchange}

    @property
    def blocking(self) -> bool:
        """An asked agent may wait on the outside world: a live front asks off its own thread."""
        return self._threaded

    @property
    def outcome(self) -> Outcome | None:
        """ESCAPED, DEATH, TIMEOUT, or None while the match goes on."""
        return match_outcome(self.game.state.outcome, self.turns, self.max_turns)

    def play(self) -> MatchResult:
        """Play agent against agent to the end."""
        try:
            while self.outcome is None:
                self.play_turn()
        finally:
            self.close()
        return self.result()

    def play_turn(self, **pushed: Any) -> Turn:
        """One turn in the caller's thread; ``pushed``: the input of each Outside seat, by role
        (a model, a dict or JSON text)."""
        turn = self.begin(**pushed)
        while not turn.done:
            turn = self.answer(turn, self.ask(turn))
        return turn

    def refuse(self, problem: str) -> Turn:
        """The ERROR answer to input a front could not even hand over (the gsm pipe's empty or
        over-long line): both sides are told ``problem``, nothing happens, nobody is asked."""
        return self._refuse(Turn(), problem, problem)

    # --- the steps of a turn ------------------------------------------------------

    def begin(self, **pushed: Any) -> Turn:
        """Check the pushed input; a turn that needs no more is done at once."""
        outside = {role for role, seat in self.seats.items() if not seat.asked}
        if set(pushed) != outside:
            raise TypeError(f"push the input of {sorted(outside) or 'no seat'}, not of {sorted(pushed) or 'none'}")
        turn, problems = Turn(), {}
        for role, raw in pushed.items():
            try:
                _put(turn.inputs, parse(ROLES[role].model, raw))
            except BadInput as exc:
                problems[role] = str(exc)
        if problems:
            return self._refuse(turn, problems.get("user", MINOTAUR_REJECTED),
                                f"Your decision was rejected: {problems['minotaur']}" if "minotaur" in problems
                                else USER_REJECTED)
        if self.outcome == "TIMEOUT":
            over = f"The match is over: it reached its {self.max_turns} turns."
            return self._refuse(turn, over, over)
        pushed_user, seat = turn.inputs.get("user"), self.seats["user"]
        problem = unexecutable(self.game.state, pushed_user) if pushed_user is not None and not self.outcome else None
        stand_in = seat.stand_in if problem and isinstance(seat, OutsideSide) else None
        if pushed_user is not None and problem and stand_in is not None:  # played as the seat's stand-in
            turn.refused.append({"command": pushed_user.model_dump_json(exclude_none=True), "why": problem})
            turn.inputs["user"], problem = stand_in, None
        if self.outcome or problem:
            # The final state, or the ERROR that says why: nothing happens, nobody is asked.
            turn.result = self.game.step(turn.inputs.get("user", USER_NOOP), turn.inputs.get("minotaur", MINOTAUR_NOOP))
            self._tell_outside(turn.result)
            return turn
        turn.asks = tuple(role for role in self.sides if role not in turn.inputs)
        return self.answer(turn, {}) if not turn.asks else turn

    def ask(self, turn: Turn) -> dict[str, Answer]:
        """The asked seats' answers: in the caller's thread for rules agents, else at once in
        threads with one deadline for the turn (a refused user asked again included). A side
        still busy with an earlier turn is not asked again until that call returns. The one
        step that may block."""
        sides = {role: self.sides[role] for role in turn.asks}
        if not self._threaded:
            turn.asked.update(sides)
            answers: dict[str, Answer] = {role: side.ask() for role, side in sides.items()}
            self._keep_exchanges(turn, sides)
            return answers
        if turn.deadline is None:
            turn.deadline = time.monotonic() + self.timeout_s
        asked = {role: _in_daemon_thread(side.ask) for role, side in sides.items()
                 if role not in self._busy or self._busy[role].done()}
        turn.asked.update(asked)
        held = {role: _held_s(side.agent) for role, side in sides.items()}
        answers = {}
        for role, side in sides.items():
            future = asked.get(role)
            if future is None:
                answers[role] = (None, "still busy with an earlier turn")
                continue
            try:
                answers[role] = _awaited(future, turn.deadline, _held_since(side.agent, held[role]))
                self._busy.pop(role, None)
            except TimeoutError:  # concurrent.futures' own, since Python 3.11
                side.stats.late_turns += 1  # the turn's, not a call's: the call is counted when it returns
                self._busy[role] = future
                answers[role] = (None, f"no answer within {self.timeout_s:g} s")
        self._keep_exchanges(turn, {role: sides[role] for role in asked if role not in self._busy})
        return answers

    def _keep_exchanges(self, turn: Turn, answered: Mapping[str, Side]) -> None:
        """The exchanges of the seats that answered this round, kept in the turn (a refused user's
        earlier attempts too)."""
        for role, side in answered.items():
            if side.exchange:
                turn.exchanges.setdefault(role, []).append(side.exchange)

    def answer(self, turn: Turn, answers: Mapping[str, Answer]) -> Turn:
        """Take the asked seats' answers; play the turn when every input is known. An asked
        user's command the game refuses is told to it, and it is asked again."""
        for role, answer in answers.items():
            given, turn.whys[role] = self.sides[role].command(*answer)
            _put(turn.inputs, given)
        command = turn.inputs["user"]
        problem = unexecutable(self.game.state, command) if "user" in answers else None
        if problem:
            refused = self.game.step(command, MINOTAUR_NOOP)  # an ERROR: nothing changes
            self.sides["user"].tell(refused, turn.whys["user"], done=False)
            turn.refused.append({"command": command.model_dump_json(exclude_none=True), "why": problem})
            turn.asks = ("user",)
            return turn
        self._play(turn, remember=True)
        return turn

    # --- replaying ----------------------------------------------------------------

    def replay_turn(self, user: UserInput, minotaur: MinotaurDecision) -> TurnResult:
        """A recorded turn played again (resuming a saved game): an agent in process re-lives its
        decision first, so that its memory is where it was; a model is not asked again, it only
        hears how the turn went. Nothing is remembered: the game was when it was played. Only the
        played turn is re-lived, not an asked user's refused attempts before it: the fronts that
        save (the TUI, avatars) push the user's input, which is refused before anyone is asked."""
        for side in self.sides.values():
            if not side.agent.blocking:
                side.ask()
        return self._play(Turn({"user": user, "minotaur": minotaur}), remember=False)

    # --- the end ----------------------------------------------------------------------

    def result(self) -> MatchResult:
        digest = game_digest(self.seed, self.preset, self.difficulty, self.played, self.game.state.digest()) \
            if self.keeps_inputs else ""
        return MatchResult(self.seed, self.preset, self.difficulty, self.user.name, self.minotaur.name,
                           self.outcome or "TIMEOUT", self.turns, seconds(self.game.state.tick),
                           self.seats["user"].stats, self.seats["minotaur"].stats, self.recording_error,
                           list(self.reflections), digest)

    def refine(self) -> list[Reflection]:
        """The finished game's reflections in the words of the models that played (blocking calls)."""
        if self.memory is None:
            return []
        self.reflections = self.memory.refine(self._players())
        return self.reflections

    def close(self) -> None:
        """Finish the replay when the match is over, and close it in any case."""
        if self.recorder:
            if self.outcome:
                self._record("finish", self.result())
            if self.recorder:
                self.recorder.close()
            self.recorder = None

    # --- inside -------------------------------------------------------------------------

    def _seat(self, players: Mapping[str, Agent | Outside]) -> dict[str, Side | OutsideSide]:
        """Each player's seat. An agent's seat asks it for a plan; agents that may block (models)
        are asked at once, each in a thread, so that the opening takes as long as the slower
        plan call, not the sum (each call is bounded by its own deadline, in the provider layer)."""
        world = self.game.world

        def seat(role: str, player: Agent | Outside) -> Side | OutsideSide:
            if isinstance(player, Outside):
                return player.seat(role, world, self.last)
            return Side(role, player, world, self.last, self.quota_stops)

        blocking = [role for role, player in players.items()
                    if not isinstance(player, Outside) and player.blocking]
        planning = {role: _in_daemon_thread(partial(seat, role, players[role]))
                    for role in blocking} if len(blocking) > 1 else {}
        return {role: planning[role].result() if role in planning else seat(role, player)
                for role, player in players.items()}

    def _play(self, turn: Turn, remember: bool) -> TurnResult:
        """Step the engine with both inputs, tell both seats, record, and at the end remember; the
        turn's result (also set in ``turn``)."""
        user, minotaur = turn.inputs["user"], turn.inputs["minotaur"]
        result = self.game.step(user, minotaur)
        self.turns += 1
        if self.keeps_inputs:
            self.played.append((user, minotaur))
        self.last = result
        if self.digest is not None:
            self.digest.turn(result)
        outcome = self.outcome
        done = outcome is not None
        for role, seat in self.seats.items():
            seat.tell(result, turn.whys.get(role), done, busy=role in self._busy)
        turn.result = result
        turn.record = TurnRecord(self.turns, user, minotaur, turn.whys.get("user"), turn.whys.get("minotaur"),
                                 result, turn.exchanges, turn.refused)
        self._record("turn", turn.record)
        if outcome is not None and remember and self.memory is not None and self.digest is not None:
            try:
                self.reflections = self.memory.remember(self.digest, result.state, outcome, self.turns,
                                                        self._players())
            except OSError as exc:  # a log that cannot be written costs the lessons, never the game
                self.memory_error = str(exc)
        return result

    def _refuse(self, turn: Turn, user_problem: str, minotaur_problem: str) -> Turn:
        """The ERROR answer to pushed input that is not a turn: nothing happens, during the game or
        after its end (a client must see that its input was bad)."""
        state = self.game.state
        turn.result = TurnResult(state, error_report(self.game.world, state, user_problem, minotaur_problem), ())
        self._tell_outside(turn.result)
        return turn

    def _tell_outside(self, result: TurnResult) -> None:
        for seat in self.seats.values():
            if not seat.asked:
                seat.tell(result, None, self.outcome is not None)

    def _players(self) -> dict[str, Any]:
        return {role: seat.agent for role, seat in self.seats.items()}

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


def _held_s(agent: Any) -> float:
    """Seconds the agent's calls have been held by a quota or a pace (0 for an agent without)."""
    return agent.held_s() if isinstance(agent, ModelPlayer) else 0.0


def _held_since(agent: Any, before: float) -> Callable[[], float]:
    """Seconds the agent's calls have been held since they had been held ``before`` seconds."""
    return lambda: _held_s(agent) - before


def _awaited(future: Future[T], deadline: float, held_s: Callable[[], float]) -> T:
    """``future``'s result by ``deadline``, which moves on by the time ``held_s`` says the call has
    been held (a quota's wait is not the model's slowness); TimeoutError past it."""
    while True:
        try:
            return future.result(timeout=max(0.0, deadline + held_s() - time.monotonic()))
        except TimeoutError:
            if time.monotonic() >= deadline + held_s():
                raise


def _in_daemon_thread(call: Callable[[], T]) -> Future[T]:
    """``call()`` in a thread of its own. A daemon thread, unlike a pool's: a model still
    answering when the program ends (the player quit) must not hold up the exit."""
    from concurrent.futures import Future

    future: Future[T] = Future()

    def run() -> None:
        future.set_running_or_notify_cancel()
        try:
            future.set_result(call())
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
            future.set_exception(exc)

    threading.Thread(target=run, daemon=True).start()
    return future
