"""Learning that carries to labyrinths never seen before: behaviour lessons drawn from a game,
merged and retired by their evidence, strategies chosen from them deterministically, place
lessons kept to their own labyrinth, memory off unchanged, and `labyrinth memory` telling them."""

from __future__ import annotations

import argparse
import io
from collections import Counter

import pytest

from labyrinth.agents.builtin.strategy import CHOICES, choose_strategy, default_strategy
from labyrinth.agents.compete.arena import ArenaSettings, run_arena
from labyrinth.agents.learning.behaviour_lessons import (
    GAME,
    MIN_EVIDENCE,
    PROMPT_LESSONS,
    Book,
    book_of,
    prompt_lessons,
)
from labyrinth.agents.learning.memory_manager import GameMemory, learning_injection, relevant
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.saves.experience import Experience
from labyrinth.tui.cli import parser as _parser
from labyrinth.tui.commands import memory as memory_cmd
from labyrinth.tui.commands.learn_option import learners
from tests.agents.learning.test_memory import played
from tests.fronts import assert_own_play
from tests.saves.test_experience import reflection


def observation(when: str, did: str, led_to: str) -> dict[str, str]:
    return {"when": when, "did": did, "led_to": led_to}


def test_a_games_record_gives_each_role_its_behaviour_lessons():
    user, minotaur = played(41)  # the user walks away from a whine, not caught within 30 s; caught later
    assert observation("whine", "walked_away", "safe") in user.evidence["behaviour"]  # no catch within 30 s
    said = {(o["when"], o["did"]) for o in user.evidence["behaviour"]}
    assert said <= {("whine", d) for d in ("walked_away", "ran_away", "stayed")} | \
        {("spotted", d) for d in ("ran", "walked", "stood")} | {("lantern", d) for d in ("near_2", "near_5", "far")}
    caught = [o for o in user.evidence["behaviour"] if o["led_to"] == "caught"]
    assert caught and all(o["when"] == "spotted" for o in caught)  # its last answers to being seen
    assert {o["when"] for o in minotaur.evidence["behaviour"]} <= {"lost_sight", "jump"}
    assert any(o["when"] == "jump" for o in minotaur.evidence["behaviour"])  # it jumped in this game
    assert "strategy" not in user.evidence  # the built-in agents did not learn here: no strategy to credit


def test_lessons_that_say_the_same_thing_merge_and_evidence_holds_or_retires_them():
    book = Book()
    for _ in range(MIN_EVIDENCE - 1):
        book.add(observation("whine", "stayed", "caught"))
    book.add({"when": "whine", "did": 3, "led_to": "caught"})  # an edited log's entry is passed over
    (lesson,) = book.lessons()
    assert lesson.status == "TENTATIVE" and lesson.cases == MIN_EVIDENCE - 1
    book.add(observation("whine", "stayed", "safe"))
    (lesson,) = book.lessons()
    assert lesson.status == "HELD" and lesson.sentence() == \
        "After a Temporal Whine, staying near led to a catch soon after in 4 of 5 cases (no catch soon after 1)."
    for _ in range(3):
        book.add(observation("whine", "stayed", "safe"))
    (lesson,) = book.lessons()
    assert lesson.status == "RETIRED" and dict(lesson.results) == {"caught": 4, "safe": 4}  # mixed: tells nothing


def test_a_model_is_told_the_situational_lessons_never_the_built_in_agents_strategy_settings():
    book = Book()
    for choice, arms in CHOICES["minotaur"].items():  # whole-game lessons, better evidenced than any other
        for arm in arms:
            for _ in range(3 * MIN_EVIDENCE):
                book.add(observation(GAME, f"{choice}={arm}", "DEATH"))
    for _ in range(MIN_EVIDENCE):
        book.add(observation("lost_sight", "waited", "caught"))
    assert len([lesson for lesson in book.lessons() if lesson.status == "HELD"]) > PROMPT_LESSONS
    assert prompt_lessons(book) == [
        "After losing sight of the intruder, waiting led to a catch soon after in 5 of 5 cases."]
    told = learning_injection([], book)
    assert "waiting led to a catch" in told and "over a whole game" not in told.lower() and "choosing" not in told


def test_a_strategy_is_chosen_deterministically_from_the_seed_and_the_log_and_follows_the_evidence():
    book = Book()
    for _ in range(30):
        book.add(observation(GAME, "listening=shorter", "ESCAPED"))
        book.add(observation(GAME, "listening=as built", "DEATH"))
        book.add(observation(GAME, "listening=longer", "DEATH"))
    assert choose_strategy("user", 7, book) == choose_strategy("user", 7, book)
    picks = Counter(choose_strategy("user", seed, book)["listening"] for seed in range(40))
    assert picks["shorter"] >= 38  # evidence exploited
    assert len({choose_strategy("user", seed, book)["lantern"] for seed in range(40)}) == 2  # no evidence: explored
    assert choose_strategy("user", 7, None) == choose_strategy("user", 7, Book()) == default_strategy("user")
    assert all(default_strategy(role)[c] == arms[0] for role in CHOICES for c, arms in CHOICES[role].items())


def test_the_strategy_recorded_is_the_one_played():
    """A place lesson that raised the lantern early is the early arm played; the Minotaur that never
    guards (hard) records no guarding choices: a game credits only the arms it played."""
    from labyrinth.agents.builtin.builtin_minotaur import BuiltinMinotaur
    from labyrinth.agents.builtin.builtin_user import BuiltinUser

    died = reflection(7, preset="tiny",
                      evidence={"death": {"lantern_held": True, "position": [1, 1, 0], "time_s": 5.0}})
    user = BuiltinUser(7)
    user.learn([died], "tiny")
    user.follow(Book())
    assert user.lantern_early and user.strategy["lantern"] == CHOICES["user"]["lantern"][1]
    unlearnt = BuiltinUser(7)
    unlearnt.follow(Book())
    assert not unlearnt.lantern_early and unlearnt.strategy == default_strategy("user")
    book = Book()
    for _ in range(MIN_EVIDENCE):
        book.add(observation(GAME, "rounds=stone to stone", "DEATH"))
    for difficulty, choices in (("normal", set(CHOICES["minotaur"])), ("hard", {"jumping"})):
        minotaur = BuiltinMinotaur(3)
        minotaur.follow(book)
        minotaur.seated(difficulty)
        assert set(minotaur.strategy) == choices


def test_a_hard_game_teaches_the_hard_games_only():
    """Its reflections say it was hard, credit no guarding choice, and the books of normal games
    never count it (nor hard books a normal game)."""
    hard_log = tuple(reflection(n, role="minotaur", preset="tiny", difficulty="hard",
                                evidence={"behaviour": [observation(GAME, "rounds=stone to stone", "DEATH")]})
                     for n in range(MIN_EVIDENCE))
    assert book_of(hard_log, "minotaur", "tiny", "normal").lessons() == []
    assert book_of(hard_log, "minotaur", "tiny", "hard").outcomes("rounds=stone to stone")["DEATH"] == MIN_EVIDENCE
    assert book_of(hard_log, "minotaur", "tiny").lessons()  # every difficulty: as a person is shown them
    played_hard = ArenaSettings(preset="tiny", difficulty="hard", max_turns=30, memory=True, lessons=hard_log,
                                learners=("minotaur",)).play(9)
    user, minotaur = played_hard.reflections
    assert user.difficulty == minotaur.difficulty == "hard" and set(minotaur.evidence["strategy"]) == {"jumping"}
    assert not [o for o in minotaur.evidence["behaviour"] if o["did"].startswith(("guarding=", "rounds="))]
    Experience().add(list(hard_log))
    assert GameMemory(Experience(), 9, "tiny", "normal").books["minotaur"].lessons() == [] and \
        GameMemory(Experience(), 9, "tiny", "hard").books["minotaur"].lessons()


# The final state's hash of games played by the built-in agents without behaviour learning (the
# built-in user's search as of ac0db57, a branch that never had it): memory off must play them exactly so.
BEFORE = [("standard", 3, "ESCAPED", 168, "b9e82ad0d9a1aed5"), ("standard", 11, "DEATH", 193, "a48b9b8cb9872ac8"),
          ("small", 7, "DEATH", 141, "f1845a6a0dd520fe")]


@pytest.mark.parametrize(("preset", "seed", "outcome", "turns", "digest"), BEFORE)
def test_memory_off_plays_exactly_as_before(preset, seed, outcome, turns, digest):
    match = Match(make_agent("user", "builtin", seed), make_agent("minotaur", "builtin", seed), seed=seed,
                  preset=preset)
    result = match.play()
    assert (result.outcome, result.turns, match.game.state.digest(1)) == (outcome, turns, digest)  # at state version 1


def test_a_dare_called_off_when_the_hooves_sound_close_is_learnt_and_changes_the_game():
    """The user's 'daring' choice: a book whose evidence favours calling a dare off when the hooves
    sound close (and today's arm of every other choice) has it played and recorded; it plays otherwise
    than today's arm (on standard seed 1 it escapes where today's play is caught); the same seed and
    book give the same game; and its lesson reads as a sentence."""
    wary = CHOICES["user"]["daring"][1]
    book = Book()
    for choice, arms in CHOICES["user"].items():
        for arm in arms:
            won = arm == (wary if choice == "daring" else arms[0])
            for _ in range(100):
                book.add(observation(GAME, f"{choice}={arm}", "ESCAPED" if won else "DEATH"))

    def play(book: Book) -> tuple[dict, tuple]:
        user = make_agent("user", "builtin", 1, preset="standard", book=book)
        match = Match(user, make_agent("minotaur", "builtin", 1), seed=1, preset="standard")
        result = match.play()
        return user.strategy, (result.outcome, result.turns, match.game.state.digest())

    strategy, learnt = play(book)
    assert strategy == {**default_strategy("user"), "daring": wary}
    assert play(book) == (strategy, learnt)
    today, as_today = play(Book())  # no evidence yet: today's play, the dare held whatever it hears
    assert today == default_strategy("user") and as_today[0] == "DEATH" and learnt[0] == "ESCAPED"
    assert "Over a whole game, choosing 'not when the hooves sound close' for daring led to an escape in 100 of " \
        "100 cases." in [lesson.sentence() for lesson in book.lessons()]


def test_learning_is_deterministic_for_a_seed_and_a_log_and_carries_to_new_labyrinths():
    first = run_arena(ArenaSettings(preset="tiny", max_turns=60, memory=True), range(1, 5))
    log = tuple(r for result in first.results for r in result.reflections)
    off = ArenaSettings(preset="tiny", max_turns=60)  # an empty log: the first games play as without memory
    without_memory = run_arena(off, range(1, 5)).results
    assert [(r.outcome, r.turns) for r in first.results] == [(r.outcome, r.turns) for r in without_memory]
    learning = ArenaSettings(preset="tiny", max_turns=60, memory=True, lessons=log, learners=("user",))
    again = [run_arena(learning, range(50, 56)) for _ in range(2)]
    assert [(r.outcome, r.turns, r.reflections[0].evidence) for r in again[0].results] == \
        [(r.outcome, r.turns, r.reflections[0].evidence) for r in again[1].results]
    played_strategies = [r.reflections[0].evidence["strategy"] for r in again[0].results]  # the user's reflection
    assert len({tuple(s.values()) for s in played_strategies}) > 1  # the lessons of seeds 1-4 steer seeds 50-55
    assert all("strategy" not in r.reflections[1].evidence for r in again[0].results)  # the Minotaur did not learn
    # The log and the games it steers were the agents' play: a fallback's would be as deterministic.
    assert_own_play(*(side for summary in (first, *again) for r in summary.results for side in (r.user, r.minotaur)))


def test_place_lessons_never_reach_another_labyrinth_but_behaviour_lessons_do():
    log = [reflection(3, key_reflection="Avoid (192, 211) level 101.",
                      evidence={"behaviour": [observation("whine", "stayed", "caught")] * MIN_EVIDENCE}),
           reflection(4, preset="small", key_reflection="Avoid (20, 21) level 101.")]
    assert relevant(log, "user", 3, "standard") == [log[0]]
    assert relevant(log, "user", 4, "standard") == [] and relevant(log, "user", 3, "small") == []
    assert ArenaSettings(memory=True, lessons=tuple(log)).for_seed(5).lessons == ()
    elsewhere = learning_injection(relevant(log, "user", 5, "standard"), book_of(log, "user", "standard"))
    assert "in any labyrinth" in elsewhere and "staying near led to a catch soon after in 5 of 5" in elsewhere
    assert "192" not in elsewhere and "seed 3" not in elsewhere
    assert "Avoid (192, 211)" in learning_injection(relevant(log, "user", 3, "standard"))


def test_only_the_roles_that_learn_get_lessons_and_the_command_line_names_them():
    Experience().add([reflection(3, evidence={"behaviour": [observation("whine", "stayed", "caught")]})])
    memory = GameMemory(Experience(), 3, "standard", "normal", learners=("minotaur",))
    assert memory.lessons["user"] == [] and memory.books["user"] is None and memory.books["minotaur"] is not None
    assert GameMemory(Experience(), 3, "standard", "normal").lessons["user"]
    assert GameMemory(None, 3, "standard", "normal").books == {"user": None, "minotaur": None}
    parse = _parser().parse_args
    assert learners(parse(["arena"])) == ()  # the same arguments print the same results
    assert learners(parse(["play"])) == learners(parse(["spectate"])) == ("user", "minotaur")  # games learn
    assert learners(parse(["arena", "--learn", "user"])) == ("user",)
    assert learners(parse(["tournament", "--users", "builtin", "--minotaurs", "builtin", "--no-memory"])) == ()
    assert learners(parse(["spectate", "--learn", "minotaur"])) == ("minotaur",)
    assert learners(parse(["play", "--learn", "none"])) == learners(parse(["hotseat", "--no-memory"])) == ()


def test_memory_show_and_lessons_tell_the_behaviour_lessons_as_sentences_with_their_evidence():
    user, _ = played(41)
    Experience().add([user])
    out = io.StringIO()
    assert memory_cmd.run(argparse.Namespace(memory_action="show", id=user.id), out) == 0
    shown = out.getvalue()
    assert "about behaviour, in any labyrinth:" in shown
    assert "After a Temporal Whine, walking away led to no catch soon after in 1 of 1 cases." in shown
    out = io.StringIO()
    assert memory_cmd.run(argparse.Namespace(memory_action="lessons", role="user", preset="standard"), out) == 0
    assert out.getvalue().startswith("The user, from 1 game on standard:\n") and "tentative" in out.getvalue()


class Scribe:
    """A transport that answers every call with one lesson, and keeps what it was asked."""

    name, timeout_s = "scribe/m", 5.0

    def __init__(self) -> None:
        self.asked: list[tuple[str, list]] = []

    def complete(self, system, turns, schema):
        from labyrinth.agents.llm.providers.base import Reply

        self.asked.append((system, turns))
        return Reply('{"lesson": "When the hooves sounded close, raising the lantern led to an escape."}', 1, 1)


def test_a_model_is_given_the_held_behaviour_lessons_and_asked_for_its_own_in_the_same_form():
    from labyrinth.agents.learning.memory_manager import in_own_words
    from labyrinth.agents.llm.llm_agent import LLMAgent

    user, _ = played(41)
    old = reflection(2, evidence={"n": 2})  # a reflection of a log written before behaviour lessons: read, no lessons
    book = book_of([user, old] * MIN_EVIDENCE, "user", "standard")
    agent = make_agent("user", "builtin", 5)
    model = LLMAgent("user", Scribe(), 5)
    model.learn([old], "standard")
    model.follow(book)
    assert "in any labyrinth" in model.learning_injection and "walking away led to no catch soon after in 5 of 5" \
        in model.learning_injection and agent.strategy is None
    told = in_own_words(user, model)
    (_, turns), = model.transport.asked
    assert 'of the form "When <situation>, doing <choice> led to <result>"' in turns[-1][1]
    assert f"What you did: {book_of([user], 'user', 'standard').lessons()[0].sentence()}" in turns[-1][1]
    assert told.source == "model" and told.key_reflection.startswith("When the hooves sounded close")
