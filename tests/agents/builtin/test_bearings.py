"""The stone search's rows of one bearing are exactly the cells compass names so."""

from labyrinth.agents.builtin.bearings import row_spans
from labyrinth.engine.constants import WORLD_SIZE
from labyrinth.engine.geometry import compass

WORDS = ("EAST", "NORTH-EAST", "NORTH", "NORTH-WEST", "WEST", "SOUTH-WEST", "SOUTH", "SOUTH-EAST", None)


def test_every_cell_of_the_cube_lies_in_the_span_of_its_bearing_only():
    side = range(WORLD_SIZE)
    # every offset across the cube, from a corner or the other
    for at in ((0, 0, 5), (WORLD_SIZE - 1, WORLD_SIZE - 1, 5)):
        named: dict[str | None, dict[int, list[int]]] = {word: {y: [] for y in side} for word in WORDS}
        for y in side:
            for x in side:
                named[compass(x - at[0], y - at[1])][y].append(x)
        for word in (*WORDS, "ABOVE"):
            spans = row_spans(at, word, side, side)
            for y in side:
                assert named.get(word, {}).get(y, []) == list(spans[y]), (at, word, y)


def test_spans_are_clipped_to_the_ground():
    spans = row_spans((10, 10, 0), "NORTH-EAST", range(20), range(14))
    assert spans[10] == range(0) and spans[19] == range(14, 14)  # (+4..+22) beyond x 13
    assert spans[15] == range(13, 14) and spans[12] == range(11, 14)
