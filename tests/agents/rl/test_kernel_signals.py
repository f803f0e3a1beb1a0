"""The kernel's step signals (agents/rl/kernel/signals.py) against the scalar env, which is the rules: whole episodes
of the ladder's tiny and small tasks, both roles, every step's game state written into a row, and the row's masks
(both roles'), reward, terminated and truncated equal to the env's action_masks(), commands.action_mask of the
other role, and step()'s. The actions are random among the allowed ones, now and then a refused one (played as
the stand-in), a GRAB or USE allowed one time in two, and on the user's tasks often the built-in user's
(demos.Demonstrator), so that stones are grabbed and games escaped; the test counts that every kind of reward,
end and mask answer was met, so that a rule the kernel broke could not go unseen. A row falls back only where a
cell its mask reads is outside its region (the user walked off the ground's margin), and seldom. GRAB and USE of
every item, near and far, held or not, are checked apart: random play seldom reaches the lantern."""

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from labyrinth.agents.rl.commands import action_mask
from labyrinth.agents.rl.demos import Demonstrator
from labyrinth.agents.rl.gym_env import task_env
from labyrinth.engine import events as ev
from labyrinth.engine.items import ITEM_ORDER
from labyrinth.engine.wsap.roles import ROLES

pytest.importorskip("numba", reason="the kernel is compiled by numba, the [fast] extra: `pip install -e '.[fast]'`")

from labyrinth.agents.rl.kernel.region import Region
from labyrinth.agents.rl.kernel.signals import MASKS, action_masks, before_turn, step_signals, user_masks
from labyrinth.agents.rl.kernel.state import StateRows

pytestmark = pytest.mark.xdist_group("kernel")
# (task, episodes played side by side as rows, how many of their steps the built-in user decides)
TASKS = (("Labyrinth/Stones-Tiny-v1", 3, 0.8), ("Labyrinth/User-Tiny-Wait-v1", 3, 0.0),
         ("Labyrinth/User-Tiny-v1", 4, 0.7),
         ("Labyrinth/Minotaur-Tiny-v1", 4, 0.0), ("Labyrinth/Minotaur-Tiny-Random-v1", 2, 0.0),
         ("Labyrinth/User-Small-v1", 2, 0.5))


def region(rows: StateRows, row: int) -> Region:
    return Region(rows.kinds[row], (int(rows.origin[row, 0]), int(rows.origin[row, 1]), int(rows.origin[row, 2])))


def read_cells(env, role: str) -> list[tuple[int, int, int]]:
    """The cells a role's mask reads: the user's and its four neighbours; the Minotaur's targets."""
    s = env.match.game.state
    if role == "user":
        x, y, z = s.user
        return [(x, y, z), (x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z)]
    return [pos for _, pos in s.items] + [k[0] for k in (s.last_heard, s.last_seen) if k]


def check_masks(rows: StateRows, envs: list, seen: Counter) -> None:
    """Both roles' masks of every row equal commands.action_mask of its Match (the env's own role: its
    action_masks())."""
    for role, masks_of in MASKS.items():
        masks, fallback = masks_of(rows)
        assert action_masks(rows, role)[0].tolist() == masks.tolist()
        for row, env in enumerate(envs):
            seen[f"{role} checked"] += 1
            if fallback[row]:  # only where a cell the mask reads is outside the row's region
                seen[f"{role} fallback"] += 1
                assert not all(region(rows, row).contains(cell) for cell in read_cells(env, role)), (role, row)
                continue
            expected = env.action_masks() if env.role == role else action_mask(env.match, role)
            assert masks[row].dtype == expected.dtype
            assert masks[row].tolist() == expected.tolist(), (role, row, env.match.turns)
            for name, allowed in zip(env.action_names if env.role == role else [], expected, strict=False):
                seen[f"{role} {name} {'allowed' if allowed else 'masked'}"] += 1


def play(task_id: str, episodes: int, demonstrated: float, seed: int, seen: Counter) -> None:
    envs = [task_env(task_id) for _ in range(episodes)]
    rng = np.random.default_rng(seed)
    demonstrators = [Demonstrator(env) if env.role == "user" else None for env in envs]
    for row, env in enumerate(envs):
        env.reset(seed=seed + row)
    rows = StateRows(episodes, envs[0].preset)
    for row, env in enumerate(envs):
        rows.lay_region(row, env.match.game.world)
        rows.write(row, env.match.game.state)
    live = list(range(episodes))
    while live:
        check_masks(rows, envs, seen)
        before = before_turn(rows)
        rewards, ends, cuts = {}, {}, {}
        for row in live:
            env, demonstrator = envs[row], demonstrators[row]
            mask = env.action_masks()
            takes = [a for a in np.flatnonzero(mask) if env.action_names[a].startswith(("grab_", "use_"))]
            if takes and rng.random() < 0.5:  # the lantern too, which the built-in user leaves
                action = int(rng.choice(takes))
            elif demonstrator is not None and rng.random() < demonstrated:
                action = demonstrator.action()
            elif rng.random() < 0.05:
                action = int(rng.integers(len(mask)))  # perhaps a refused one: the stand-in is played
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            _, rewards[row], ends[row], cuts[row], _ = env.step(action)
            rows.write(row, env.match.game.state)
            events = env.match.last.events
            seen["stone"] += sum(isinstance(e, ev.StoneGrabbed) for e in events)
            seen["escape"] += any(isinstance(e, ev.UserEscaped) for e in events)
            seen["catch"] += any(isinstance(e, ev.UserCaught) for e in events)
            seen["refused"] += env.game.refused is not None
        turns = np.array([env.match.turns for env in envs])
        reward, terminated, truncated, fallback = step_signals(before, rows, turns, envs[0].max_turns, envs[0].role)
        assert not fallback.any()
        for row in live:
            assert reward[row] == rewards[row], (task_id, row, envs[row].match.turns, reward[row], rewards[row])
            assert terminated[row] == ends[row] and truncated[row] == cuts[row], (task_id, row)
            assert reward[row] == ROLES[envs[row].role].reward(envs[row].match.last)
            seen["terminated"] += ends[row]
            seen["truncated"] += cuts[row]
        live = [row for row in live if not (ends[row] or cuts[row])]
    check_masks(rows, envs, seen)  # the mask of the last state too (the info of the last step holds it)


def test_signals_equal_the_env_over_whole_episodes() -> None:
    seen: Counter = Counter()
    for number, (task_id, episodes, demonstrated) in enumerate(TASKS):
        play(task_id, episodes, demonstrated, 1000 * number + 7, seen)
    for role in MASKS:
        assert seen[f"{role} fallback"] <= seen[f"{role} checked"] // 10, f"the {role}'s mask falls back often"
    for what in ("stone", "escape", "catch", "refused", "terminated", "truncated"):
        assert seen[what], f"no {what} met: the test would not see that rule broken"
    answered = ("move_up_ramp", "move_down_ramp", "grab_red_stone", "move_north_walk_1")
    for name in answered:
        assert seen[f"user {name} allowed"] and seen[f"user {name} masked"], name
    for name in ("jump", "pathfind_last_noise", "pathfind_last_sighting", "pathfind_red_stone"):
        assert seen[f"minotaur {name} allowed"] and seen[f"minotaur {name} masked"], name


def test_a_row_outside_its_region_or_kept_falls_back() -> None:
    env = task_env("Labyrinth/User-Tiny-v1")
    env.reset(seed=3)
    rows = StateRows(3, "tiny")
    state = env.match.game.state
    for row in range(3):
        rows.lay_region(row, env.match.game.world)
        rows.write(row, state)
    rows.user[1] = rows.origin[1]  # the region's corner: the cells west and south of it are outside
    rows.kept[2] = True
    for masks_of in MASKS.values():
        assert masks_of(rows)[1].tolist() in ([False, True, True], [False, False, True])
    assert user_masks(rows)[1].tolist() == [False, True, True]
    before = before_turn(rows)
    assert step_signals(before, rows, np.zeros(3, dtype=np.int64), 400, "user")[3].tolist() == [False, False, True]


def test_grab_and_use_masks_of_every_item_near_and_held() -> None:
    """GRAB and USE as the user's mask allows them, each item laid on the user's cell, beside it, a step too far, on
    the level above, and held or not: row for row commands.action_mask's (for the lantern, which random play
    seldom reaches)."""
    env = task_env("Labyrinth/User-Tiny-v1")
    env.reset(seed=11)
    game = env.match.game
    x, y, z = game.state.user
    places = [(x, y, z), (x + 1, y, z), (x, y - 1, z), (x + 1, y + 1, z), (x + 2, y, z), (x, y, z + 1)]
    states = []
    for name in ITEM_ORDER:
        for place in places:
            for held in ((), ("LANTERN",), (name,)):
                others = tuple(item for item in game.state.items if item[0] != name)
                lying = tuple(sorted(((name, place), *others), key=lambda item: ITEM_ORDER.index(item[0])))
                states.append(replace(game.state, items=lying, inventory=tuple(n for n in ITEM_ORDER if n in held)))
    rows = StateRows(len(states), "tiny")
    for row, state in enumerate(states):
        rows.lay_region(row, game.world)
        rows.write(row, state)
    masks, fallback = user_masks(rows)
    assert not fallback.any()
    allowed = Counter()
    for row, state in enumerate(states):
        game.state = state
        expected = action_mask(env.match, "user")
        assert masks[row].tolist() == expected.tolist(), state
        allowed.update(name for name, a in zip(env.action_names, expected, strict=True) if a)
    assert allowed["grab_lantern"] and allowed["use_lantern"] and allowed["grab_yellow_stone"]
