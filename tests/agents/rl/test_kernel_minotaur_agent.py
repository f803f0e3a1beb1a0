"""The built-in Minotaur in numba (agents/rl/kernel/minotaur_agent.py) against BuiltinMinotaur, which is the rules of
its play: whole games on tiny and small, the built-in user or a random walker against the Python agent, and at every
turn the kernel's decision (from the row the engine's state is written into, and the kernel's own memory of the
game) equals the Python agent's, and so do its memory and its random stream after it. A row the kernel does not
decide is handed to the Python agent, whose memory is loaded back; the fallbacks are few."""

import math
import random

import numpy as np
import pytest

from labyrinth.agents.builtin.builtin_minotaur import BuiltinMinotaur
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.engine.constants import TICKS_PER_SECOND
from labyrinth.engine.geometry import pos_of
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.report import MinotaurReport
from labyrinth.engine.state import GameState
from labyrinth.engine.wsap import Action
from labyrinth.engine.wsap.perception import MinotaurPerception

pytest.importorskip("numba", reason="the kernel is compiled by numba, the [fast] extra: `pip install -e '.[fast]'`")

from labyrinth.agents.rl.kernel import minotaur_agent as ma
from labyrinth.agents.rl.kernel.state import rows_of
from labyrinth.agents.rl.kernel.work import KEPT, PLANS, PLAYED, REASONS, UNPORTED

pytestmark = pytest.mark.xdist_group("kernel")


def row_of(action: Action) -> list[int]:
    """An Action of the agent as the kernel's decision row (turn.decision_row's layout)."""
    c = action.parameters.get("target_coords")
    return [PLANS.index(action.name), c is not None, *((c["x"], c["y"], c["z"]) if c else (0, 0, 0))]


def assert_memory(memory: ma.MinotaurMemory, row: int, agent: BuiltinMinotaur, where: str) -> None:
    held = ma.MinotaurMemory(1)
    held.load(0, agent)
    for name in ("floats", "ints", "tactics", "rng", "ported"):
        assert np.array_equal(getattr(memory, name)[row], getattr(held, name)[0]), f"{where}: {name} differs"


def branches(action: Action, agent: BuiltinMinotaur) -> set[str]:
    """What a decision shows of the branches the agent went through (the test asserts it went through them)."""
    shown = {action.name}
    if action.name == "PATHFIND" and agent.prowl is not None:
        shown.add("prowl")
    if agent.guard is not None and agent.post != agent.guard:
        shown.add("ramp ambush")
    if agent.taken is not None:
        shown.add("item taken")
    if agent.followed >= 0:
        shown.add("clue followed")
    if agent.face_to_face > 0:
        shown.add("face to face")
    return shown


def play(preset: str, difficulty: str, games: list[tuple[str, int]], max_turns: int
         ) -> tuple[int, int, set[str], set[str]]:
    """Games (user agent, seed) in lockstep, a row each, the Minotaur's decisions checked at every turn."""
    minotaurs = [BuiltinMinotaur(seed) for _, seed in games]
    matches = [Match(make_agent("user", user, seed, preset=preset), minotaur, seed=seed, preset=preset,
                     difficulty=difficulty, max_turns=max_turns) for (user, seed), minotaur in zip(games, minotaurs)]
    chosen: list[list[Action]] = [[] for _ in games]
    for made, minotaur in zip(chosen, minotaurs):
        decide = minotaur.decide

        def recorded(observation, decide=decide, made=made):
            made.append(decide(observation))
            return made[-1]
        minotaur.decide = recorded  # type: ignore[method-assign]
    rows = rows_of([m.game.state for m in matches], [m.game.world for m in matches])
    memory = ma.MinotaurMemory(len(games))
    for row, minotaur in enumerate(minotaurs):
        memory.load(row, minotaur)
        assert memory.ported[row]
    perceptions = [MinotaurPerception(m.game.world) for m in matches]
    out = np.zeros((len(games), ma.DECISION), dtype=np.int64)
    decided = fell = 0
    reasons: set[str] = set()
    shown: set[str] = set()
    while any(m.outcome is None for m in matches):
        asked = np.array([m.outcome is None for m in matches])
        for row, m in enumerate(matches):
            if asked[row]:
                rows.write(row, m.game.state)
                for _, pos in m.game.state.items:  # the stones' ramps as the observation tells them
                    found = np.zeros(3, dtype=np.int64)
                    near = perceptions[row].ramps_near(pos)
                    got = ma._nearest_ramp(rows.kinds[row], rows.origin[row], *pos, found)
                    assert got == (1 if near else 0) and (not near or tuple(found) == tuple(near[0][:3])), pos
        why = ma.decide_rows(rows, memory, asked, out)
        for row, m in enumerate(matches):
            if not asked[row]:
                continue
            before = len(chosen[row])
            m.play_turn()
            if len(chosen[row]) == before:  # the game ended without asking it
                continue
            where = f"{preset} {difficulty} {games[row]}, turn {m.game.state.turn}"
            if why[row] != PLAYED:
                assert why[row] != UNPORTED, where
                fell += 1
                reasons.add(REASONS[why[row]])
                memory.load(row, minotaurs[row])  # the Python agent decided: the kernel goes on from its memory
                continue
            decided += 1
            shown |= branches(chosen[row][-1], minotaurs[row])
            assert out[row].tolist() == row_of(chosen[row][-1]), where
            assert_memory(memory, row, minotaurs[row], where)
    return decided, fell, reasons, shown


# What whole games show (a JUMP, and a hard Minotaur's reading of items, are rare in them: the test of memories
# put to it below goes through those).
GUARDING = {"WAIT", "CHASE", "PATHFIND", "prowl", "ramp ambush", "clue followed", "face to face"}
HUNTING = {"CHASE", "face to face"}


@pytest.mark.parametrize(("preset", "difficulty", "games", "max_turns", "branches_shown"), [
    ("tiny", "normal", [("builtin", 1), ("builtin", 3), ("builtin", 4), ("random", 7), ("random", 8),
                        ("random", 9)], 250, GUARDING),
    ("small", "normal", [("builtin", 2), ("builtin", 5), ("random", 11), ("random", 12)], 250, GUARDING),
    ("tiny", "hard", [("builtin", 6), ("builtin", 10), ("random", 13), ("random", 14)], 200, HUNTING),
])
def test_the_kernels_decisions_are_the_built_in_minotaurs(preset, difficulty, games, max_turns, branches_shown):
    decided, fell, reasons, shown = play(preset, difficulty, games, max_turns)
    print(f"{preset} {difficulty}: {decided} decisions of the kernel, {fell} fell back {sorted(reasons)}; "
          f"shown {sorted(shown)}")
    assert branches_shown <= shown, f"the games never went through {branches_shown - shown}"
    assert decided > 20 and fell <= decided // 50, f"{fell} of {decided + fell} decisions fell back: {reasons}"


def test_an_agent_playing_what_is_not_ported_or_a_kept_row_is_left_to_python():
    match = Match(make_agent("user", "builtin", 1, preset="tiny"), BuiltinMinotaur(1), seed=1, preset="tiny")
    rows = rows_of([match.game.state] * 2, [match.game.world] * 2)
    learnt, kept = BuiltinMinotaur(1), BuiltinMinotaur(1)
    learnt.last_stones.append((0, 0, 0))
    memory = ma.MinotaurMemory(2)
    memory.load(0, learnt)
    memory.load(1, kept)
    rows.kept[1] = True
    before = (memory.floats.copy(), memory.ints.copy(), memory.rng.copy())
    out = np.full((2, ma.DECISION), -7, dtype=np.int64)
    why = ma.decide_rows(rows, memory, np.ones(2, dtype=np.bool_), out)
    assert why.tolist() == [UNPORTED, KEPT] and not memory.ported[0] and memory.ported[1]
    assert (out == -7).all() and all(np.array_equal(a, b) for a, b in
                                     zip(before, (memory.floats, memory.ints, memory.rng), strict=True))


def test_memory_goes_back_into_the_agent_as_it_was():
    agent = BuiltinMinotaur(3)
    agent.seated("hard")
    agent.guard, agent.post, agent.prowl, agent.followed = (1, 2, 3), (4, 5, 6), None, 12.5
    agent.taken, agent.lying = (7.0, (8, 9, 1)), {(1, 1, 1), (0, 5, 2)}
    agent.rng.random()
    memory = ma.MinotaurMemory(1)
    memory.load(0, agent)
    other = BuiltinMinotaur(4)
    memory.store(0, other)
    for name in ("guard", "post", "prowl", "followed", "taken", "lying", "face_to_face", "guard_until"):
        assert getattr(other, name) == getattr(agent, name), name
    assert other.rng.getstate() == agent.rng.getstate()


class Told:
    """An observation as the built-in Minotaur reads it: its ``details`` (perception's, from the report's fields)."""

    def __init__(self, perception: MinotaurPerception, state: GameState) -> None:
        fields = MinotaurReport(perception.world, state, "SUCCESS", "").fields(words=False)
        self.details = {"role": "minotaur", "observation": fields,
                        "ramps_by_item": {i["name"]: perception.ramps_near(pos_of(i["position"]))
                                          for i in fields["items"]}}


def put_memory(agent: BuiltinMinotaur, state: GameState, rand: random.Random) -> None:
    """A memory the agent could hold at ``state``, drawn to reach every branch: a recent face-to-face, followed
    clues, a guard, post and prowl by the stones or near it, an item taken, the items' places a moment ago."""
    now, here = state.tick / TICKS_PER_SECOND, state.minotaur
    ground = PRESETS[state.preset]
    stones = [pos for _, pos in state.items] or [here]
    near = (here[0] + rand.randint(-3, 3), here[1] + rand.randint(-3, 3), here[2])
    anywhere = (rand.randrange(ground.x0, ground.x0 + ground.width),
                rand.randrange(ground.y0, ground.y0 + ground.height), rand.choice(ground.z_range))
    clues = [k[1] / TICKS_PER_SECOND for k in (state.last_seen, state.last_heard) if k]
    agent.face_to_face = rand.choice([-math.inf, now - rand.uniform(0, 15), now])
    agent.followed = rand.choice([-1.0, now - rand.uniform(0, 200), *clues])
    agent.guard = rand.choice([None, rand.choice(stones), anywhere])
    agent.post = None if agent.guard is None else rand.choice([agent.guard, near, here])
    agent.guard_until = rand.choice([0.0, math.inf, now + rand.uniform(-60, 60)]) if agent.guard else 0.0
    agent.prowl = rand.choice([None, None, here, anywhere])
    # taken at the time of a clue too: the first of the latest clues is the one _likely_next reads
    agent.taken = rand.choice([None, (rand.choice([now - rand.uniform(0, 300), *clues]), rand.choice([*stones, near]))])
    if agent.tactics.reads_items:
        lying = {pos for _, pos in state.items}
        gone = lying - set(stones[:2])  # two places gone at once: the greatest is the one taken
        agent.lying = rand.choice([None, lying, gone | {near, anywhere}, gone, lying - {stones[0]}])
    for _ in range(rand.randrange(3)):
        agent.rng.random()


@pytest.mark.parametrize(("preset", "difficulty", "seeds"), [("tiny", "normal", (21, 24, 25)),
                                                            ("small", "normal", (22,)), ("tiny", "hard", (23, 26, 27))])
def test_memories_put_to_it_decide_as_the_built_in_minotaur(preset, difficulty, seeds):
    """From every state of random walkers' games, memories drawn to go through every branch: the same decision,
    memory and stream."""
    shown: set[str] = set()
    checked = sum(put_in_a_game(preset, difficulty, seed, shown) for seed in seeds)
    print(f"{preset} {difficulty}: {checked} memories put; shown {sorted(shown)}")
    wanted = {"WAIT", "CHASE", "PATHFIND", "JUMP", "clue followed", "frozen"}
    wanted |= {"prowl", "ramp ambush"} if difficulty == "normal" else {"item taken"}
    assert wanted <= shown, f"never went through {wanted - shown}"


def put_in_a_game(preset: str, difficulty: str, seed: int, shown: set[str]) -> int:
    """One game's states, six memories put to each; how many were checked (``shown``: the branches gone through)."""
    match = Match(make_agent("user", "random", seed, preset=preset), BuiltinMinotaur(seed), seed=seed,
                  preset=preset, difficulty=difficulty, max_turns=150)
    rows = rows_of([match.game.state], [match.game.world])
    perception, rand = MinotaurPerception(match.game.world), random.Random(seed)
    out = np.zeros((1, ma.DECISION), dtype=np.int64)
    checked = 0
    while match.outcome is None:
        for k in range(6):
            state = match.game.state
            if k == 5:  # frozen by the lantern, or out of time
                state = state.clone()
                state.paralysis, state.jump_left = rand.choice([(3, 0), (0, 5), (0, 0)])
            rows.write(0, state)
            agent = BuiltinMinotaur(seed)
            agent.seated(difficulty)
            put_memory(agent, state, rand)
            memory = ma.MinotaurMemory(1)
            memory.load(0, agent)
            why = ma.decide_rows(rows, memory, np.ones(1, dtype=np.bool_), out)
            action = agent.decide(Told(perception, state))  # type: ignore[arg-type]
            where = f"{preset} {difficulty} {seed}, turn {state.turn}"
            assert why[0] == PLAYED, where
            assert out[0].tolist() == row_of(action), where
            assert_memory(memory, 0, agent, where)
            shown |= branches(action, agent)
            if state.paralysis or state.jump_left:
                shown.add("frozen")
            checked += 1
        match.play_turn()
    return checked
