"""Every kind of event has its words in each role's table, and no event stops a text being told.

The tables (engine/event_words.py) match over events.AnyEvent, which the type checker holds them to
(tests/test_types.py); these tests hold AnyEvent to the event classes and walk every class and both roles.
"""

import dataclasses
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine import events as ev
from labyrinth.engine import initial_state
from labyrinth.engine.event_words import minotaur_words, user_words
from labyrinth.engine.item_rules import take_item
from labyrinth.engine.items import ITEMS
from labyrinth.engine.narrative import _action_text
from labyrinth.engine.report import CommandSummary
from labyrinth.engine.schemas import UserInput
from labyrinth.engine.world import World


def _kinds(cls: type[ev.Event]) -> set[type[ev.Event]]:
    """The event classes a turn can make below ``cls``: those no other class refines (Acted only groups some).
    A slotted dataclass is a second class made from the first: the module's name is the one made."""
    below = [sub for sub in cls.__subclasses__() if getattr(ev, sub.__name__) is sub]
    return set().union(*map(_kinds, below)) if below else {cls}


EVENT_KINDS = sorted(_kinds(ev.Event), key=lambda cls: cls.__name__)
PLAYING = initial_state(1, "tiny")
STATES = (PLAYING, dataclasses.replace(PLAYING, outcome="DEATH"), dataclasses.replace(PLAYING, paralysis=3))


def test_the_tables_union_names_every_kind_of_event():
    assert set(get_args(ev.AnyEvent)) == set(EVENT_KINDS)


@pytest.mark.parametrize("kind", EVENT_KINDS, ids=lambda kind: kind.__name__)
@settings(max_examples=8, deadline=None)
@given(data=st.data(), state=st.sampled_from(STATES))
def test_every_event_has_words_or_none_for_both_roles(kind, data, state):
    event = data.draw(st.from_type(kind))
    for words in (user_words, minotaur_words):
        told = words(event, state)
        assert told is None or isinstance(told, str)
    if isinstance(event, ev.Acted):  # the user's line for its GRAB or USE
        assert user_words(event, state)


def test_a_grab_or_use_whose_event_has_no_words_is_still_told():
    world = World(PLAYING.seed)
    for command in (UserInput(command="GRAB", target="RED STONE"), UserInput(command="USE")):
        assert _action_text(world, PLAYING, command, CommandSummary(), ()).startswith("You ")


def test_an_item_with_no_grab_of_its_own_is_taken_by_its_own_name():
    torch = dataclasses.replace(ITEMS[-1], name="TORCH")
    event = take_item(PLAYING, torch, PLAYING.user)
    assert user_words(event, PLAYING) == "You take the TORCH."
