"""Observations built when read (engine/wsap/deferred.py) are the observations built at once:
read late, read in part, or never read, what an agent sees is what it would have seen. And the
shortcuts they read (ramps from the seed, the user's memory a row at a time) give what the cells do."""

from types import SimpleNamespace

import hypothesis.strategies as st
from hypothesis import given, settings

from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.engine import World
from labyrinth.engine.cells import CELL_CHARS, RAMP_DOWN, RAMP_UP
from labyrinth.engine.maze import chunk_ramp, generate_chunk
from labyrinth.engine.wsap import Observation
from labyrinth.engine.wsap.deferred import Deferred, Handed
from labyrinth.engine.wsap.perception import MAP_RADIUS, NOT_SEEN, RAMP_REACH, MinotaurPerception, UserPerception


def _match(seed: int) -> Match:
    return Match(make_agent("user", "builtin", seed, preset="small"), make_agent("minotaur", "builtin", seed,
                                                                                   preset="small"),
                 seed=seed, preset="small", max_turns=60)


def _seen(observation: Observation) -> tuple[str, str]:
    return observation.to_text(), repr(observation.details)


def test_an_observation_read_a_turn_late_is_the_one_read_at_once():
    """One match reads every observation as it comes; its twin keeps each unread and reads it
    after the next turn, when the perception's memory has moved on."""
    for seed in (1, 2):
        eager, late = _match(seed), _match(seed)
        kept: dict[str, Observation] = {}
        while eager.outcome is None:
            now = {role: _seen(side.observation) for role, side in eager.sides.items()}
            held = {role: side.observation for role, side in late.sides.items()}
            eager.play_turn()
            late.play_turn()
            assert {role: _seen(observation) for role, observation in held.items()} == now
            kept = held
        assert kept and late.game.state.to_json() == eager.game.state.to_json()


MAIN = {"status": {"a": 1}, "inventory": {}, "location": None, "nearby_entities": [], "nearby_terrain": [],
        "active_effects": [], "current_goals": [], "recent_events": [], "step": 3, "time_of_day": None}


def _counted(built: list[str], name: str, fields: dict):
    def build() -> dict:
        built.append(name)
        return fields
    return build


def test_each_half_is_built_once_and_only_when_read():
    built: list[str] = []
    observation = Deferred(_counted(built, "main", MAIN), _counted(built, "details", {"details": {"role": "user"}}))
    assert built == []
    assert observation.details == {"role": "user"} and built == ["details"]
    assert observation.step == 3 and observation.status == {"a": 1} and built == ["details", "main"]
    assert observation == Observation(**MAIN, details={"role": "user"}) and built == ["details", "main"]


def test_a_field_built_apart_is_built_only_when_it_is_read():
    built: list[str] = []
    rest = {name: value for name, value in MAIN.items() if name != "location"}
    observation = Deferred(_counted(built, "main", rest), _counted(built, "details", {"details": {}}),
                           location=_counted(built, "location", {"location": "here"}))
    assert observation.status == {"a": 1} and built == ["main"]
    assert observation.location == "here" and built == ["main", "location"]
    settled = Deferred(_counted(built, "main", rest), _counted(built, "details", {"details": {}}),
                       location=_counted(built, "location", {"location": "here"}))
    settled.settle()
    assert built[2:] == ["details", "location", "main"]
    assert settled == Observation(**{**MAIN, "location": "here"}, details={})


def test_a_perception_settles_only_what_someone_still_holds():
    built: list[str] = []
    handed = Handed()
    held = handed.hand(Deferred(_counted(built, "held", MAIN), _counted(built, "held details", {"details": {}})))
    handed.settle()
    assert sorted(built) == ["held", "held details"] and held.step == 3
    handed.hand(Deferred(_counted(built, "dropped", MAIN), _counted(built, "dropped details", {"details": {}})))
    handed.settle()  # nobody holds it: dropped unbuilt
    assert sorted(built) == ["held", "held details"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(-3, 402), st.integers(-3, 402), st.sampled_from([0, 1, 99, 198, 199]),
       st.integers(0, 12))
def test_the_ramps_near_a_place_are_the_ramps_its_cells_hold(seed, x, y, z, reach):
    """Read from where the seed puts each chunk's ramp, without generating a chunk: the world's ramps within any
    reach, and the Minotaur's perception's within RAMP_REACH, nearest first."""
    world, cells = World(seed), World(seed)

    def held(within: int) -> list[tuple[int, list]]:
        return sorted((abs(dx) + abs(dy), [x + dx, y + dy, z, CELL_CHARS[kind]])
                      for dx in range(-within, within + 1) for dy in range(-within + abs(dx), within - abs(dx) + 1)
                      if (kind := cells.cell(x + dx, y + dy, z)) in (RAMP_UP, RAMP_DOWN))

    assert sorted((abs(rx - x) + abs(ry - y), [rx, ry, rz, CELL_CHARS[kind]])
                  for (rx, ry, rz), kind in world.ramps_within((x, y, z), reach)) == held(reach)
    assert MinotaurPerception(world).ramps_near((x, y, z)) == [ramp for _, ramp in held(RAMP_REACH)]
    assert world.chunks_generated == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 49), st.integers(0, 49), st.integers(0, 199))
def test_a_chunks_ramp_is_where_the_chunk_has_it(seed, cx, cy, z):
    cells = generate_chunk(seed, cx, cy, z)
    ramps = [(i, kind) for i, kind in enumerate(cells) if kind in (RAMP_UP, RAMP_DOWN)]
    assert ramps == ([chunk_ramp(seed, cx, cy, z)] if chunk_ramp(seed, cx, cy, z) else [])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.tuples(st.sampled_from([0, 1, 2, 7, 200, 397, 398, 399]),
                                                 st.sampled_from([0, 1, 3, 200, 398, 399])), min_size=1, max_size=6))
def test_the_remembered_window_is_the_cells_seen_one_by_one(seed, stops):
    """Read a row at a time from the perception's rows, at the cube's edges too (where it sees rock outside)."""
    perception = UserPerception(World(seed))
    for x, y in stops:
        perception._look_around(SimpleNamespace(user=(x, y, 0)), ())
        window = bytes([perception.seen.get((col, row, 0), NOT_SEEN)
                        for row in range(y + MAP_RADIUS, y - MAP_RADIUS - 1, -1)
                        for col in range(x - MAP_RADIUS, x + MAP_RADIUS + 1)])
        assert perception.remembered((x, y, 0)) == window
