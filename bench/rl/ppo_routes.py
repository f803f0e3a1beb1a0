"""Routes for the policy bench/rl/train_ppo.py trains (``--routes``): the built-in user escapes because it
plans, over its own map of the cells it has seen, the shortest ways to where a stone may lie, to the
edge of what it knows, and to an item it saw. A feed-forward policy over an egocentric window and a
coarse map cannot plan them: the way to a cell twenty steps off may start by walking away from it.
Routes hands it the first step of each such way, and how far it goes, worked out as the built-in
user works them out (its UserMap's breadth-first search, its StoneSearch's candidates).

Only what the user knows goes in: the cells its perception has seen, the items it saw lying, where
its view's StoneSearch says each stone may still lie; never where the stones really are. Like
ShortMemory it is a training-side wrapper, worn wherever the policy is fed (train_ppo.py's ``fed``).
"""

from __future__ import annotations

from itertools import islice
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from labyrinth.agents.builtin.builtin_user import SEARCH_LIMIT
from labyrinth.agents.builtin.stone_search import LEVEL_GAP
from labyrinth.agents.builtin.usermap import Searched, UserMap, path_to, step_word
from labyrinth.agents.rl.user_view import DIRECTIONS
from labyrinth.engine.cells import CELL_CHARS
from labyrinth.engine.geometry import Pos
from labyrinth.engine.items import STONES

ROUTES = "routes"
GOALS = ("stone_may_lie", "frontier", "item")
ROUTE_SPAN = 64  # steps: a route's length is read as a fraction of it (1 for any longer one)
_STEP = {word: i for i, word in enumerate(DIRECTIONS)}
_WIDTH = len(DIRECTIONS) + 2  # a goal's numbers: its first step one-hot, found, length


class Routes(gym.Wrapper):
    """The observation plus ``routes`` (len(GOALS) * (len(DIRECTIONS) + 2),): for each goal, in GOALS'
    order, the first step of the shortest known route to it, one-hot over DIRECTIONS (the MOVE
    commands' words, ramps included; all zeros when the goal is here), 1 if a goal was found, and the
    route's length / ROUTE_SPAN, clipped to 1. All zeros for a goal not found. The goals:

    - ``stone_may_lie``: the nearest place where a stone not held may lie. Those places are nearly
      always cells not seen yet (a cell seen empty is no longer one), so the route ends on a known
      cell that is one, or on the frontier cell from which the straight-line remainder to one (a
      level counting LEVEL_GAP) added to the route is least; the length is that sum. None before
      a hum is heard.
    - ``frontier``: the nearest open known cell with an unseen side, other than here (exploring).
    - ``item``: the nearest item seen lying that the user would fetch: a stone, or a lantern when it
      holds none.

    The map is a UserMap the wrapper feeds from the cells the view's perception has seen since the
    last step, in the order seen; the search is bounded by the built-in user's SEARCH_LIMIT cells and
    stops once no farther cell can change a goal (about 0.17 ms a step on tiny, a twentieth of a
    training step's time).
    The map and the count of cells fed are the wrapper's own attributes: they pickle and copy with
    the env (which replays its game to the same perception)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        base = env.observation_space
        assert isinstance(base, spaces.Dict) and getattr(env.unwrapped, "role", None) == "user"
        self.extra = spaces.Box(0.0, 1.0, (len(GOALS) * _WIDTH,), dtype=np.float32)
        self.observation_space = spaces.Dict({**base.spaces, ROUTES: self.extra})
        self.map = UserMap()
        self.fed = 0  # how many of the perception's seen cells the map holds
        self.places: tuple[set[Pos], ...] = ()  # the candidate sets ``spots`` was worked out from
        self.spots = np.zeros((0, 3), np.int64)  # their places, as rows of x, y, z

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self.map, self.fed, self.places, self.spots = UserMap(), 0, (), np.zeros((0, 3), np.int64)
        return self._routing(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._routing(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        inner: Any = self.env  # a LabyrinthEnv, or a wrapper of one that passes its masks on
        return inner.action_masks()

    def _routing(self, obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        routed = {**obs, ROUTES: self.routes()}
        return {key: routed[key] for key in self.observation_space.spaces}  # in the space's order, as the env's

    def routes(self) -> np.ndarray:
        """The ``routes`` key now (a new array: one handed out never changes)."""
        found, goals = self.plan()
        out = np.zeros((len(GOALS), _WIDTH), np.float32)
        for row, goal in zip(out, goals, strict=True):
            if goal is not None:
                cell, length = goal
                path = path_to(found, cell)
                if len(path) > 1:
                    row[_STEP[step_word(path[0], path[1])]] = 1.0
                row[-2], row[-1] = 1.0, min(length / ROUTE_SPAN, 1.0)
        return out.ravel()

    def plan(self) -> tuple[Searched, list[tuple[Pos, int] | None]]:
        """The map brought up to date with what the user has seen, searched from where it stands: the
        search, and by GOALS each goal's cell and the length its route counts (None: not found)."""
        game = cast(Any, self.env.unwrapped).game  # a LabyrinthEnv's (checked at __init__)
        view, state = game.views["user"], game.match.game.state
        seen = view.perception.seen
        if len(seen) > self.fed:
            fresh = list(islice(reversed(seen.items()), len(seen) - self.fed))  # the cells seen since, last first
            self.map.learn([(*pos, CELL_CHARS[kind]) for pos, kind in reversed(fresh)])
            self.fed = len(seen)
        held, here = set(state.inventory), state.user
        goals: list[tuple[Pos, int] | None] = [None] * len(GOALS)
        if here not in self.map.cells:
            return {}, goals
        places = tuple(cells for name, cells in view.search.candidates.items() if name not in held)
        items = {pos for name, pos in view.perception.items.items()
                 if (name in STONES and name not in held) or (name == "LANTERN" and "LANTERN" not in held)}
        gaps = self._gaps(places)
        found = self.map.reach(here, SEARCH_LIMIT)
        best = np.inf  # the least route + remainder to a stone's place so far
        frontier = self.map.frontier
        for cell, (dist, _) in found.nearest_first():
            if dist < best and (gap := gaps.get(cell)) is not None and dist + gap < best:
                best, goals[0] = dist + gap, (cell, dist + gap)
            if goals[1] is None and cell in frontier and cell != here:
                goals[1] = (cell, dist)
            if goals[2] is None and cell in items:
                goals[2] = (cell, dist)
            if (dist >= best or not gaps) and goals[1] is not None and (goals[2] is not None or not items):
                break  # nothing farther can be nearer a stone's place, and the other two are found
        return found, goals

    def _gaps(self, places: tuple[set[Pos], ...]) -> dict[Pos, int]:
        """The goal cells of ``stone_may_lie``: each known place a stone may lie in (0), and each
        frontier cell with its straight-line steps to the nearest place. The places are read into
        an array only when the search replaced a set (it never changes one in place)."""
        if len(places) != len(self.places) or any(a is not b for a, b in zip(places, self.places, strict=True)):
            self.places = places
            self.spots = np.array([p for cells in places for p in cells], np.int64).reshape(-1, 3)
        if not len(self.spots):
            return {}
        cells = self.map.cells
        gaps = {p: 0 for cells_ in self.places for p in cells_ if p in cells}
        frontier = [p for p in self.map.frontier if p not in gaps]
        if frontier:
            at = np.array(frontier, np.int64)
            d = np.abs(at[:, None, :] - self.spots[None, :, :])
            steps = (d[..., 0] + d[..., 1] + LEVEL_GAP * d[..., 2]).min(axis=1)
            gaps.update(zip(frontier, steps.tolist(), strict=True))
        return gaps
