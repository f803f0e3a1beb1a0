"""The kernel's turn (agents/rl/kernel/turn.py) against engine.turn.advance, which is the rules: from states the
engine reaches by random valid commands on tiny and small, the next turn's state as the kernel writes it into its
row equals the engine's new state written into a row, array for array, whenever the kernel played the row; a row
it falls back on is left as it was. On tiny, with the user inside the region's margin, it plays every command
against every decision (it may fall back only when a table of draws is used up), so the test cannot pass by
falling back. Whole games of the built-in players, rows in lockstep, each fallback stepped by the engine as the
vector env once did, equal the engine's game state after every turn."""

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.engine import Game, MinotaurDecision, UserInput
from labyrinth.engine import events as ev
from labyrinth.engine.cells import FLOOR, MINOTAUR_OPEN
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.state import GameState
from labyrinth.engine.turn import advance, unexecutable

pytest.importorskip("numba", reason="the kernel is compiled by numba, the [fast] extra: `pip install -e '.[fast]'`")

from labyrinth.agents.rl.kernel.draws import JUMPS_DRAWN, PATROLS_DRAWN, RESPAWNS_DRAWN, Draws
from labyrinth.agents.rl.kernel.region import MARGIN_CHUNKS, MARGIN_LEVELS, WANTED
from labyrinth.agents.rl.kernel.sight import MARGIN
from labyrinth.agents.rl.kernel.state import SEEN_SLOTS, StateRows, rows_of
from labyrinth.agents.rl.kernel.turn import STOPS, USER_COMMANDS, Told, command_row, decision_row, play_turns
from labyrinth.agents.rl.kernel.work import (
    AMBUSH,
    KEPT,
    LEFT_REGION,
    PLAYED,
    REASONS,
    SPOTTED,
    STOPS_FULL,
    USED_UP,
    WHINE_NEAR,
)

# numba compiles the kernel once per process: on one worker, the module's tests pay it once.
pytestmark = pytest.mark.xdist_group("kernel")
seeds = st.integers(0, 2**31 - 1)
presets = st.sampled_from(["tiny", "small"])
# Every array of a row: the row's state, field for field (path rows past its length are not the state's).
ARRAYS = tuple(name for name in vars(StateRows(1, "tiny")) if name not in (
    "preset", "kinds", "origin", "path", "kept_why", "_kept_states", "box", "stages", "_low", "_high", "stage",
    "region_seed"))  # the region's, not the state's
# The RL user's commands, and MOVEs of other counts and HALTs of more seconds, which the engine takes too.
COMMANDS_OFFERED = list(USER_COMMANDS)
COMMANDS_OFFERED += [UserInput(command="MOVE", direction=d, steps=n, speed=v)
                     for d in ("NORTH", "SOUTH", "EAST", "WEST") for n in (2, 7) for v in (1, 2)]
COMMANDS_OFFERED += [UserInput(command="HALT", steps=n) for n in (3, 12)]


def valid(game: Game) -> list[UserInput]:
    """The commands the engine carries out now (agents/rl/commands.py's mask: a MOVE along a way out, a GRAB or
    USE that is not unexecutable)."""
    exits = game.world.user_exits(game.state.user)
    return [c for c in COMMANDS_OFFERED
            if (c.direction in exits if c.command == "MOVE" else unexecutable(game.state, c) is None)]


def decision(data: st.DataObject, game: Game) -> MinotaurDecision:
    """CHASE, WAIT, JUMP or a PATHFIND: to a stone, the last noise or sighting, the user, or a cell of the ground."""
    s, ground = game.state, PRESETS[game.state.preset]
    targets = [pos for _, pos in s.items] + [s.user] + [k[0] for k in (s.last_heard, s.last_seen) if k]
    targets.append((data.draw(st.integers(ground.x0, ground.x0 + ground.width - 1)),
                    data.draw(st.integers(ground.y0, ground.y0 + ground.height - 1)),
                    data.draw(st.sampled_from(ground.z_range))))
    action = data.draw(st.sampled_from(["CHASE", "CHASE", "WAIT", "JUMP", "PATHFIND"]))
    if action != "PATHFIND":
        return MinotaurDecision(action=action)
    x, y, z = data.draw(st.sampled_from(targets))
    return MinotaurDecision(action="PATHFIND", target_coords={"x": x, "y": y, "z": z})


def one_row(states: list[GameState], game: Game) -> tuple[StateRows, Draws]:
    rows = rows_of(states, [game.world] * len(states))
    draws = Draws(len(states))
    for row, state in enumerate(states):
        draws.write(row, state.seed)
    return rows, draws


def assert_row_is(rows: StateRows, row: int, state: GameState) -> None:
    """Row ``row`` holds ``state``: every array equal to ``state`` written into a row of its own."""
    expected = StateRows(1, state.preset)
    expected.write(0, state)
    for name in ARRAYS:
        np.testing.assert_array_equal(getattr(rows, name)[row], getattr(expected, name)[0], err_msg=name)
    length = expected.path_length[0]
    np.testing.assert_array_equal(rows.path[row, :length], expected.path[0, :length], err_msg="path")
    assert rows.state(row) == state


def inside(preset: str, cells: list[tuple[int, int, int]]) -> bool:
    """Every cell within sight of the user at ``cells`` lies in the region (sight.near_edge's margin)."""
    ground, reach = PRESETS[preset], MARGIN_CHUNKS * 8 - MARGIN
    return all(ground.x0 - reach <= x < ground.x0 + ground.width + reach
               and ground.y0 - reach <= y < ground.y0 + ground.height + reach
               and ground.z0 - MARGIN_LEVELS <= z < ground.z0 + ground.levels + MARGIN_LEVELS for x, y, z in cells)


def happened(events: tuple[ev.Event, ...]) -> int:
    """work.HAPPENED's bits of a turn's events: a Temporal Whine heard VERY CLOSE, the user spotted, the user
    caught by the Minotaur re-entering time on its cell."""
    bits = 0
    for e in events:
        if isinstance(e, ev.WhineHeard) and e.near:
            bits |= WHINE_NEAR
            event("a near whine")
        elif isinstance(e, ev.UserSpotted):
            bits |= SPOTTED
        elif isinstance(e, ev.UserCaught) and e.at_reentry:
            bits |= AMBUSH
            event("caught at re-entry")
    return bits


def check_turn(game: Game, before: GameState, command: UserInput, chosen: MinotaurDecision) -> int:
    """The kernel's turn from ``before`` against advance's: the same row (and the UserMoved path as its stops) when
    the kernel played it, the row untouched when it fell back, which it may do on tiny only when a table of draws
    is used up, the user strays past the region's margin or its move passes the stops' rows; why it fell back."""
    result = advance(game.world, before, command, chosen)
    rows, draws = one_row([before], game)
    stops = Told(1)
    why = play_turns(rows, command_row(command)[np.newaxis], decision_row(chosen)[np.newaxis], draws, stops)[0]
    event(f"{command.command} {chosen.action}: {REASONS[why]}")
    for what, changed in (("a lantern came back", result.state.respawns != before.respawns),
                          ("the game ended", result.state.outcome is not None),
                          ("an item newly seen", result.state.seen_items != before.seen_items),
                          ("a waypoint drawn", result.state.patrols != before.patrols)):
        if changed:
            event(f"{what}: {REASONS[why]}")
    if why == PLAYED:
        assert_row_is(rows, 0, result.state)
    else:
        assert_row_is(rows, 0, before)  # left for the engine as it was
    walked = [cell for e in result.events if isinstance(e, ev.UserMoved) for cell in e.path]
    if why == PLAYED:  # the move's stops, which the user's view looks from, and the moments the state does not keep
        assert stops.cells[0, :stops.count[0]].tolist() == [list(cell) for cell in walked]
        assert int(stops.happened[0]) == happened(result.events)
    clues = [k[0] for k in (before.last_heard, before.last_seen) if k]
    target = [(c.x, c.y, c.z) for c in [chosen.target_coords] if c]
    s = result.state
    allowed = {PLAYED} | ({STOPS_FULL} if len(walked) > STOPS else set())
    if s.jumps > JUMPS_DRAWN or s.patrols > PATROLS_DRAWN or s.respawns.get("LANTERN", 0) > RESPAWNS_DRAWN:
        allowed.add(USED_UP)
    if before.preset != "tiny" or not inside(before.preset, [before.user, *walked, *clues, *target]):
        allowed.add(LEFT_REGION)  # small's searches may leave the region (astar.py), and a user past the margin
    assert why in allowed, REASONS[why]
    return why


def play(data: st.DataObject, game: Game, turns: int) -> None:
    for _ in range(data.draw(st.integers(0, turns))):
        game.step(data.draw(st.sampled_from(valid(game))), decision(data, game))
        if game.state.outcome:
            return


@settings(max_examples=50, deadline=None)
@given(seed=seeds, preset=presets, data=st.data())
def test_a_turn_from_a_state_reached_by_play_is_the_engines(seed, preset, data):
    game = Game.new(seed, preset)
    play(data, game, 30)
    command = data.draw(st.sampled_from(valid(game) or [UserInput(command="LOOK")]))
    check_turn(game, game.state, command, decision(data, game))


@settings(max_examples=80, deadline=None)
@given(seed=seeds, preset=presets, data=st.data())
def test_timers_that_run_out_and_patrols_are_the_engines(seed, preset, data):
    """States a few ticks before the lantern comes back (its place drawn from the row's words, or past them),
    the paralysis ends, the Minotaur re-enters time (where the user stands, at times) or may JUMP again, or with
    the Minotaur at its waypoint and its clues spent, so that CHASE draws a new one (from the words, or past
    them): what random play from a new game seldom reaches."""
    game = Game.new(seed, preset)
    play(data, game, 10)
    s = game.state.clone()
    s.items = tuple(item for item in s.items if item[0] != "LANTERN")
    s.inventory = tuple(name for name in s.inventory if name != "LANTERN")
    s.timers = {"LANTERN": data.draw(st.integers(1, 6))}
    again = data.draw(st.integers(0, RESPAWNS_DRAWN))
    s.respawns = {"LANTERN": again} if again else {}
    s.paralysis, s.jump_left = data.draw(st.integers(0, 4)), data.draw(st.integers(0, 5))
    s.jump_cooldown = data.draw(st.integers(0, 3))
    if s.jump_left and data.draw(st.booleans()) and game.world.cell(*s.user) in MINOTAUR_OPEN:
        s.minotaur = s.user
    patrol = data.draw(st.booleans())
    if patrol:  # at its waypoint, anywhere on the ground (a maze cell: open), its clues spent: CHASE draws anew
        ground = PRESETS[preset]
        s.minotaur = (ground.x0 + 2 * data.draw(st.integers(0, ground.width // 2 - 1)),
                      ground.y0 + 2 * data.draw(st.integers(0, ground.height // 2 - 1)),
                      data.draw(st.sampled_from(ground.z_range)))
        s.waypoint, s.goal, s.path, s.searched_until = s.minotaur, None, (), s.tick
        s.patrols = data.draw(st.integers(1, PATROLS_DRAWN + 1))
    game.state = s
    command = data.draw(st.sampled_from(valid(game) or [UserInput(command="LOOK")]))
    check_turn(game, s, command, MinotaurDecision(action="CHASE") if patrol else decision(data, game))


@settings(max_examples=60, deadline=None)
@given(seed=seeds, preset=presets, data=st.data())
def test_a_turn_on_a_partial_region_is_the_engines_or_falls_back_untouched(seed, preset, data):
    """A game's start lays only the first stage of its region (StateRows.lay_region, the other chunks UNLAID): a
    turn that needs a cell of a chunk not laid falls back, untouched, wherever the kernel reads cells (the user's
    moves and sight, the Minotaur's walk and A*), and with the next stage laid (lay_more) it is played again, until
    it is the engine's turn or the region is whole. The user, the Minotaur or both are put on open cells anywhere
    in the first two stages, so that turns reach past what is laid."""
    game = Game.new(seed, preset)
    play(data, game, 20)
    before = game.state.clone()
    stages = StateRows(1, preset).stages
    for figure in data.draw(st.sampled_from([("user",), ("minotaur",), ("user", "minotaur")])):
        area = data.draw(st.sampled_from(stages[:2]))
        x, y = (data.draw(st.integers(area.x0, area.x0 + area.width - 1)),
                data.draw(st.integers(area.y0, area.y0 + area.height - 1)))
        z = data.draw(st.sampled_from(area.z_range))
        x, y = next((x + dx, y + dy) for dx in range(-8, 9) for dy in range(-8, 9)
                    if game.world.cell(x + dx, y + dy, z) == FLOOR)
        setattr(before, figure, (x, y, z))
        event(f"{figure} placed")
    if before.user == before.minotaur:
        before.minotaur = game.state.minotaur
    game.state = before
    command = data.draw(st.sampled_from(valid(game) or [UserInput(command="LOOK")]))
    chosen = decision(data, game)
    result = advance(game.world, before, command, chosen)
    rows, draws = StateRows(1, preset), Draws(1)
    rows.write(0, before)
    rows.lay_region(0, game.world, whole=False)
    draws.write(0, before.seed)
    assert rows.partial[0] and (rows.kinds[0] >= WANTED).any()
    while True:
        why = play_turns(rows, command_row(command)[np.newaxis], decision_row(chosen)[np.newaxis], draws)[0]
        event(f"stage {rows.stage[0]}: {REASONS[why]}")
        if why == PLAYED:
            assert_row_is(rows, 0, result.state)
            return
        assert_row_is(rows, 0, before)
        if not rows.lay_more(np.ones(1, dtype=np.bool_))[0]:
            assert not (rows.kinds[0] >= WANTED).any()  # whole, and the turn needs what no region holds
            return


def test_rows_of_a_batch_are_each_their_own_game():
    """Rows of different games, one call: each row's state is its own game's next; a row kept aside (a state
    past the rows) falls back, untouched, without touching the others."""
    games = [Game.new(seed, "tiny") for seed in (11, 12, 13)]
    commands = [UserInput(command="MOVE", direction=d, speed=2) for d in ("NORTH", "EAST", "WEST")]
    for game in games:
        for _ in range(4):
            game.step(valid(game)[0], MinotaurDecision(action="CHASE"))
    states = [g.state for g in games]
    states[2] = states[2].clone()  # more seen items than the rows hold: the state is kept whole, its row flagged
    states[2].seen_items = tuple(("RED STONE", (x, 0, 0)) for x in range(SEEN_SLOTS + 1))
    rows = rows_of(states, [g.world for g in games])
    assert rows.kept[2]
    draws = Draws(3)
    for row, state in enumerate(states):
        draws.write(row, state.seed)
    chase = MinotaurDecision(action="CHASE")
    wanted = [c if c.direction in g.world.user_exits(g.state.user) else UserInput(command="LOOK")
              for g, c in zip(games, commands, strict=True)]
    why = play_turns(rows, np.stack([command_row(c) for c in wanted]),
                     np.stack([decision_row(chase)] * 3), draws)
    assert why[2] == KEPT and rows.state(2) == states[2]
    for row in (0, 1):
        assert why[row] == PLAYED
        assert_row_is(rows, row, advance(games[row].world, states[row], wanted[row], chase).state)


@pytest.mark.parametrize(("preset", "seeds"), [("tiny", (1, 3, 4)), ("small", (2, 5))])
def test_whole_built_in_games_through_kernel_turns_equal_the_engines(preset, seeds):
    """Games in lockstep, a row each; a row the kernel falls back on is stepped by the engine, as
    a game the kernel gives up is played on. Most turns are the kernel's."""
    matches = [Match(make_agent("user", "builtin", seed, preset=preset),
                     make_agent("minotaur", "builtin", seed, preset=preset), seed=seed, preset=preset, max_turns=250)
               for seed in seeds]
    rows = rows_of([m.game.state for m in matches], [m.game.world for m in matches])
    draws = Draws(len(matches))
    for row, seed in enumerate(seeds):
        draws.write(row, seed)
    played = fell = 0
    reasons: set[str] = set()
    while any(m.outcome is None for m in matches):
        before = [rows.state(row) for row in range(len(matches))]
        inputs = []
        for m in matches:
            turn = m.play_turn() if m.outcome is None else None
            done = turn is not None and turn.record is not None
            inputs.append((turn.inputs["user"], turn.inputs["minotaur"]) if done else None)
        idle = (UserInput(command="LOOK"), MinotaurDecision(action="WAIT"))  # an ended game: its row is left
        why = play_turns(rows, np.stack([command_row((i or idle)[0]) for i in inputs]),
                         np.stack([decision_row((i or idle)[1]) for i in inputs]), draws)
        for row, m in enumerate(matches):
            if inputs[row] is None:
                continue
            if why[row] != PLAYED:  # the row read back, played by the engine, written back
                fell += 1
                reasons.add(REASONS[why[row]])
                rows.write(row, advance(m.game.world, before[row], *inputs[row]).state)
            else:
                played += 1
            assert rows.state(row) == m.game.state, f"seed {seeds[row]}, turn {m.game.state.turn}"
    assert played > 20 * fell, f"{fell} of {played + fell} turns fell back: {reasons}"
