"""Hypothesis strategies: any user command (valid or not) and any Minotaur decision."""

from hypothesis import strategies as st

from labyrinth.engine.items import ITEM_ORDER

DIRECTIONS = ["NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP"]
TARGETS = [*ITEM_ORDER, None]

moves = st.builds(lambda d, n, v: {"command": "MOVE", "direction": d, "steps": n, "speed": v},
                  st.sampled_from(DIRECTIONS), st.integers(1, 30), st.sampled_from([1, 2]))
others = st.one_of(
    st.just({"command": "LOOK"}),
    st.builds(lambda n: {"command": "HALT", "steps": n}, st.integers(1, 40)),
    st.builds(lambda t: {"command": "GRAB", "target": t}, st.sampled_from(TARGETS)),
    st.builds(lambda t: {"command": "USE", "target": t}, st.sampled_from(TARGETS)),
)
garbage = st.one_of(
    st.text(max_size=20),
    st.just('{"command": "MOVE"}'),
    st.just('{"command": "FLY", "direction": "UP"}'),
    st.builds(lambda n: {"command": "MOVE", "direction": "NORTH", "steps": n},
              st.integers(-5, 0) | st.integers(101, 500)),
    st.just({"command": "LOOK", "colour": "red"}),
)
user_commands = st.one_of(moves, moves, moves, others, others, garbage)

coords = st.builds(lambda x, y, z: {"x": x, "y": y, "z": z},
                   st.integers(170, 230), st.integers(170, 230), st.integers(96, 104))
decisions = st.one_of(
    st.just({"action": "CHASE"}), st.just({"action": "CHASE"}), st.just({"action": "WAIT"}),
    st.just({"action": "JUMP"}),
    st.builds(lambda c: {"action": "PATHFIND", "target_coords": c}, coords | st.none()),
)
turns = st.lists(st.tuples(user_commands, decisions), min_size=1, max_size=25)
