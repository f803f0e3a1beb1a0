"""The stone search's rows of one bearing are exactly the cells compass names so."""

from labyrinth.agents.builtin.bearings import row_spans
from labyrinth.engine.geometry import compass

WORDS = ("EAST", "NORTH-EAST", "NORTH", "NORTH-WEST", "WEST", "SOUTH-WEST", "SOUTH", "SOUTH-EAST", None)


def test_every_offset_across_the_widest_ground_lies_in_the_span_of_its_bearing_only():
    reach = 400  # the cube's side: no two cells of a ground are further apart
    xs = range(-reach, reach + 1)
    for word in (*WORDS, "ABOVE"):
        spans = row_spans((0, 0, 5), word, xs, xs)
        for dy in xs:
            assert [dx for dx in xs if compass(dx, dy) == word] == list(spans[dy]), (word, dy)


def test_spans_are_clipped_to_the_ground():
    spans = row_spans((10, 10, 0), "NORTH-EAST", range(20), range(14))
    assert spans[10] == range(0) and spans[19] == range(14, 14)  # (+4..+22) beyond x 13
    assert spans[15] == range(13, 14) and spans[12] == range(11, 14)
