"""Achievements are read from the turn's events, never from the words of a message."""

from labyrinth.engine import events as ev
from labyrinth.engine.wsap.achievements import minotaur_unlocked

from ..scenes import CHASE, LOOK, WAIT, corridor, halt, move, scene

JUMP = {"action": "JUMP"}
HERE = (200, 200, 100)


def test_a_catch_at_reentry_is_an_ambush_whatever_its_words():
    reentry = ev.UserCaught(10, HERE, "was flattened", at_reentry=True)
    assert minotaur_unlocked((ev.MinotaurReentered(10, HERE), reentry)) == {"caught", "reentry_ambush"}


def test_words_that_mention_reentry_do_not_make_an_ambush():
    # Walking onto the cell where the Minotaur has just come back, in the same tick, is a plain catch.
    walked_in = ev.UserCaught(10, HERE, "walked where the Minotaur re-entered time")
    assert minotaur_unlocked((ev.MinotaurReentered(10, HERE), walked_in)) == {"caught"}


def test_the_engine_marks_a_catch_by_reentry_and_only_that_one():
    start = corridor(scene(), "NORTH", 4)
    minotaur = (start[0], start[1] + 1, 100)
    game = scene(user=start, minotaur=minotaur)
    game.step(LOOK, JUMP)
    game.step(move("NORTH", 1), WAIT)
    caught = [e for e in game.step(halt(10), WAIT).events if isinstance(e, ev.UserCaught)]
    assert [e.at_reentry for e in caught] == [True]
    assert "reentry_ambush" in minotaur_unlocked(tuple(caught))

    chased = scene(user=start, minotaur=minotaur)
    caught = [e for e in chased.step(halt(3), CHASE).events if isinstance(e, ev.UserCaught)]
    assert [e.at_reentry for e in caught] == [False]
    assert minotaur_unlocked(tuple(caught)) == {"caught"}
