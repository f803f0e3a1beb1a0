"""A turn's views are built when read, and read alike whichever way they are built (report.py):
the Minotaur's plain data is its model's dump, and a view read late is the one read at once."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine import Game

MOVES = ("NORTH", "EAST", "SOUTH", "WEST", "UP RAMP", "DOWN RAMP")


def _command(rng: random.Random) -> dict:
    kind = rng.choice(("MOVE", "MOVE", "MOVE", "LOOK", "HALT", "GRAB", "USE"))
    if kind == "MOVE":
        return {"command": "MOVE", "direction": rng.choice(MOVES), "speed": rng.choice((1, 2)),
                **({"steps": rng.randint(1, 6)} if rng.random() < 0.5 else {})}
    return {"command": kind}


def _decision(rng: random.Random, game: Game) -> dict:
    action = rng.choice(("CHASE", "WAIT", "JUMP", "PATHFIND"))
    if action != "PATHFIND":
        return {"action": action}
    x, y, z = rng.choice([pos for _, pos in game.state.items] or [game.state.minotaur])
    return {"action": "PATHFIND", "target_coords": {"x": x, "y": y, "z": z}}


@settings(max_examples=20)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 2**32 - 1), preset=st.sampled_from(["tiny", "small"]))
def test_the_minotaurs_plain_data_is_its_models_dump(seed, moves, preset):
    rng, game = random.Random(moves), Game.new(seed, preset)
    results = [game.opening()]
    for _ in range(60):
        results.append(game.step(_command(rng), _decision(rng, game)))
    results += [game.step("{"), game.step({"command": "GRAB", "target": "LANTERN"})]
    for result in results:
        assert result.minotaur_fields() == result.observation.model_dump()
        assert list(result.minotaur_fields()) == list(result.observation.model_dump())  # in the same order
        dump = result.observation.model_dump()
        del dump["raw_text_output"]
        assert result.minotaur_fields(words=False) == dump  # the numbers' readers: the same, less the words


def test_a_view_read_turns_later_is_the_one_read_at_once():
    """A view's builders read the turn's own state, never the game as it is when they run."""
    early, late = Game.new(5, "small"), Game.new(5, "small")
    rng_early, rng_late = random.Random(9), random.Random(9)
    kept = []
    for _ in range(40):
        now = early.step(_command(rng_early), {"action": "CHASE"})
        now.response, now.observation  # noqa: B018 - read at once
        kept.append((now, late.step(_command(rng_late), {"action": "CHASE"})))
    for now, later in kept:
        assert later.response == now.response and later.observation == now.observation
        assert later.response.model_dump_json() == now.response.model_dump_json()
