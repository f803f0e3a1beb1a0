"""A run (a MOVE without a count) follows its corridor (docs/rules.md, MOVE and decision 16): round a
bend with one way on, to the first junction, ramp or item, by hand-found scenes of the standard ground."""

from labyrinth.engine.cells import FLOOR
from labyrinth.engine.geometry import HORIZONTAL, SIDEWAYS
from labyrinth.engine.presets import PRESETS

from ..scenes import WAIT, move, scene

FAR = (176, 176, 98)  # a corner of the standard ground, out of everyone's senses


def _corridor_cell(world, pos) -> bool:
    """Plain floor with exactly two ways out: a corridor's cell, straight or a bend."""
    return world.cell(*pos) == FLOOR and len(world.user_exits(pos)) == 2


def _bend(game) -> tuple[tuple, str, str]:
    """A corridor cell, the way to a bend one step ahead, and the way on from the bend: both cells plain
    corridor, the bend's way on a corridor too, no item or ramp about."""
    world, b = game.world, PRESETS["standard"]
    for y in range(b.y0 + 4, b.y0 + b.height - 4):
        for x in range(b.x0 + 4, b.x0 + b.width - 4):
            start = (x, y, 100)
            if not _corridor_cell(world, start):
                continue
            for heading, (dx, dy) in HORIZONTAL.items():
                bend = (x + dx, y + dy, 100)
                if heading not in world.user_exits(start) or not _corridor_cell(world, bend):
                    continue
                ways_on = [side for side in SIDEWAYS[heading] if side in world.user_exits(bend)]
                if heading not in world.user_exits(bend) and len(ways_on) == 1:
                    sx, sy = HORIZONTAL[ways_on[0]]
                    if _corridor_cell(world, (bend[0] + sx, bend[1] + sy, 100)):
                        return start, heading, ways_on[0]
    raise LookupError("no bend")


def test_a_run_turns_at_a_bend_with_one_way_on_and_says_so():
    start, heading, onward = _bend(scene())
    result = scene(user=start, minotaur=FAR).step(move(heading), WAIT)
    moved = next(e for e in result.events if e.kind == "UserMoved")
    dx, dy = HORIZONTAL[heading]
    bend = (start[0] + dx, start[1] + dy, 100)
    sx, sy = HORIZONTAL[onward]
    assert moved.path[:2] == (bend, (bend[0] + sx, bend[1] + sy, 100))  # round the corner, not stopped at it
    assert f"You walk {heading}, then {onward}" in result.response.raw_text_output
    exact = scene(user=start, minotaur=FAR).step(move(heading, 100), WAIT)
    assert exact.response.environment.steps_moved == 1  # a count goes straight: the bend's wall stops it


def test_a_run_never_turns_back_nor_stops_in_a_plain_corridor():
    """Every cell a run went on from had one way on (its bend followed) and no side passage."""
    start, heading, _ = _bend(scene())
    result = scene(user=start, minotaur=FAR).step(move(heading), WAIT)
    moved = next(e for e in result.events if e.kind == "UserMoved")
    world = scene().world
    for at in moved.path[:-1]:
        assert len(world.user_exits(at)) == 2, f"the run went on from a junction at {at}"
    assert len(set(moved.path)) == len(moved.path)  # never back over its own steps
    assert result.response.environment.stop_reason in ("ARRIVED", "COLLISION", "ITEM_SIGHTED")
