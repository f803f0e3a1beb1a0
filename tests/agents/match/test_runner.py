"""The turn loop with deliberately broken agents: every failure becomes a
counted fallback, no match can stall, the seats that must be asked are asked at
once, and a refused user's retries share the turn's one deadline."""

import json
import threading

import pytest

from labyrinth.agents.base import RuleAgent
from labyrinth.agents.builtin.naive import RandomWalker, Waiter
from labyrinth.agents.match.runner import Match
from labyrinth.engine.wsap import Action
from tests.fronts import assert_own_play


class Scripted(RuleAgent):
    """Answers from a list (cycled); an exception in the list is raised."""

    def __init__(self, answers, name="scripted", blocking=False):
        self.answers, self.name, self.blocking, self.i = answers, name, blocking, 0
        self.results = []

    def decide(self, observation):
        answer = self.answers[self.i % len(self.answers)]
        self.i += 1
        if isinstance(answer, Exception):
            raise answer
        return answer

    def reflect(self, result):
        self.results.append(result)


def test_a_raising_agent_is_replaced_by_the_fallback_and_counted():
    user = Scripted([RuntimeError("boom"), Action("HALT", {"steps": 2})])
    minotaur = Scripted([ValueError("no"), Action("WAIT")])
    result = Match(user, minotaur, seed=1, preset="tiny", max_turns=6).play()
    assert result.outcome == "TIMEOUT" and result.turns == 6
    assert (result.user.exceptions, result.user.fallbacks) == (3, 3)
    assert (result.minotaur.exceptions, result.minotaur.fallbacks) == (3, 3)
    failed = user.results[0]
    assert not failed.success and "boom" in failed.message and "LOOK" in failed.message


@pytest.mark.parametrize("answer, why", [
    ("MOVE NORTH", "not an Action"),
    (Action("FLY"), "Unknown action"),
    (Action("MOVE", {"direction": "SIDEWAYS"}), "SIDEWAYS"),
    (Action("MOVE", {"direction": "NORTH", "colour": "red"}), "takes no \"colour\""),
])
def test_off_schema_answers_fall_back_to_look(answer, why):
    match = Match(Scripted([answer]), Waiter(0), seed=1, preset="tiny", max_turns=3)
    record = match.play_turn().record
    assert record.user.command == "LOOK" and why in record.user_fallback
    assert match.stats["user"].fallbacks == 1


@pytest.mark.parametrize("answer", [
    Action("F" * 1_000_000),
    Action("MOVE", {"direction": "NORTH", "k" * 1_000_000: 1}),
    Action("MOVE", {"direction": "N" * 1_000_000}),
])
def test_a_giant_answer_is_refused_with_a_short_reason(answer):
    """A model's megabyte is never echoed back: it would go into the next prompt and the replay."""
    match = Match(Scripted([answer]), Waiter(0), seed=1, preset="tiny", max_turns=3)
    record = match.play_turn().record
    assert record.user.command == "LOOK" and len(record.user_fallback) < 400


def test_a_user_stuck_on_errors_gets_look_after_three():
    """A refused command is told to the user, who is asked again within the same turn while the
    Minotaur's answer waits: after three refusals it is given LOOK, and the Minotaur was asked once."""
    grab_nothing = Action("GRAB", {"target": "RED STONE"})  # never within reach at the start
    minotaur = Waiter(0)
    match = Match(Scripted([grab_nothing]), minotaur, seed=1, preset="tiny", max_turns=8)
    first = match.play_turn().record
    assert [json.loads(r["command"])["command"] for r in first.refused] == ["GRAB"] * 3
    assert first.user.command == "LOOK" and first.user_fallback == "3 ERRORs in a row"
    assert match.stats["user"].errors == 3 and match.stats["minotaur"].decisions == 1
    assert match.game.state.tick > 0, "time went on: the match did not stall"
    second = match.play_turn().record  # the streak ended with the LOOK: the user is asked again
    assert second.user.command == "LOOK" and len(second.refused) == 3


def test_both_are_asked_at_once_and_a_slow_agent_times_out():
    """Overlap is proved by a meeting, not a stopwatch: each side's decide waits at a barrier
    that opens only when the other side's decide is running too."""
    meeting, inside = threading.Barrier(2, timeout=30), []

    class Meeting(Scripted):
        def decide(self, observation):
            inside.append(threading.current_thread().name)
            meeting.wait()  # BrokenBarrierError, a counted exception, if the other is not asked meanwhile
            return super().decide(observation)

    match = Match(Meeting([Action("HALT")], blocking=True), Meeting([Action("WAIT")], blocking=True), seed=1,
                  preset="tiny", max_turns=1, timeout_s=60)
    record = match.play_turn().record
    assert (record.user.command, record.user_fallback, record.minotaur_fallback) == ("HALT", None, None)
    assert len(set(inside)) == 2  # the two calls, in two threads

    answer = threading.Event()

    class Held(Scripted):
        def decide(self, observation):
            answer.wait(30)  # an answer that comes only after the deadline has passed
            return super().decide(observation)

    late = Match(Held([Action("HALT")], blocking=True), Waiter(0), seed=1, preset="tiny", max_turns=1,
                 timeout_s=0.1)
    record = late.play_turn().record
    answer.set()
    assert record.user.command == "LOOK" and "no answer within 0.1 s" in record.user_fallback
    assert (late.stats["user"].late_turns, late.stats["user"].timeouts) == (1, 0)  # a late turn, no call made
    late.close()


def test_a_match_ends_with_an_outcome_and_says_so():
    result = Match(RandomWalker(3), Waiter(3), seed=3, preset="tiny", max_turns=25).play()
    assert result.outcome in ("ESCAPED", "DEATH", "TIMEOUT") and result.turns <= 25
    assert result.user.decisions == result.turns
    assert_own_play(result.user, result.minotaur)  # decisions count a decide that raised: the random walk was its own


def test_a_failing_replay_stops_recording_not_the_match():
    class Broken:
        closed = False

        def start(self, match):
            pass

        def turn(self, record):
            raise OSError("disk full")

        def finish(self, result):
            raise AssertionError("never reached: recording stopped")

        def close(self):
            Broken.closed = True

    result = Match(RandomWalker(1), Waiter(1), seed=1, preset="tiny", max_turns=5, recorder=Broken()).play()
    assert result.turns == 5 and "disk full" in result.recording_error


def test_a_hung_agent_is_not_asked_again_until_it_answers():
    release = threading.Event()
    calls = []

    class Hung(Scripted):
        def decide(self, observation):
            calls.append(1)
            release.wait(5)
            return super().decide(observation)

    match = Match(Hung([Action("HALT")], blocking=True), Waiter(0), seed=1, preset="tiny", max_turns=3,
                  timeout_s=0.1)
    whys = [match.play_turn().record.user_fallback for _ in range(3)]
    assert len(calls) == 1
    assert whys[0] == "no answer within 0.1 s" and whys[1:] == ["still busy with an earlier turn"] * 2
    release.set()
    match.close()


class Planning(RuleAgent):
    """An agent that blocks (a model, say) and whose plan call meets the other side's at a barrier:
    the plans come back only if both are asked at the same time. It LOOKs or WAITs."""

    blocking = True

    def __init__(self, barrier: threading.Barrier, action: str) -> None:
        self.barrier, self.action = barrier, action

    def decide(self, observation):
        return Action(self.action)

    def plan(self, goals):
        self.barrier.wait(timeout=10)  # BrokenBarrierError (no plan) if the other is asked after this one
        return [f"planned in {threading.current_thread().name}"]


def test_two_blocking_agents_are_asked_for_their_plans_at_the_same_time():
    barrier = threading.Barrier(2)
    match = Match(Planning(barrier, "LOOK"), Planning(barrier, "WAIT"), seed=1, preset="tiny", max_turns=2)
    plans = match.plans
    assert all(plan[0].startswith("planned in") for plan in plans.values()) and plans["user"] != plans["minotaur"]
    assert match.play().turns == 2


def test_a_games_digest_tells_copies_from_other_games():
    """The same agents on the same seed play the same game (one digest); another seed, or another
    move anywhere, is another game."""
    def digest(seed, answers):
        return Match(Scripted(answers), Waiter(1), seed=seed, preset="tiny", max_turns=8).play().digest

    walk = [Action("MOVE", {"direction": "NORTH"}), Action("LOOK")]
    first = digest(3, walk)
    assert len(first) == 16 and first == digest(3, walk)
    assert first != digest(4, walk)
    assert first != digest(3, [Action("MOVE", {"direction": "NORTH"}), Action("HALT", {"steps": 2})])
