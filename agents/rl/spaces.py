"""Each role's observation as a reinforcement-learning environment gives it: the numeric
keys of its view (user_view.py, minotaur_view.py) and, with ``text=True``, the WSAP
text an LLM agent reads. The Gymnasium and PettingZoo envs both read the spaces from
here, so that the two offer the same observation per role.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

from ..match.runner import Match, Outside
from . import minotaur_view, user_view
from .commands import STAND_IN
from .planes import PLANES

CHARSET = "".join(map(chr, range(32, 127))) + "\n"  # the WSAP text is printable ASCII in lines
# Characters: the text is bounded by construction (fixed sections, eight recent events, at most four items and
# the opponent nearby, an 11 x 11 map); played games stay under 1,600 (tests/agents/rl/test_gym_env.py checks by play).
TEXT_MAX = 8192

View = user_view.UserView | minotaur_view.MinotaurView
VIEWS: dict[str, tuple[dict[str, spaces.Space], Callable[[Match, int], View]]] = {
    "user": (user_view.SPACES, user_view.UserView),
    "minotaur": (minotaur_view.SPACES, minotaur_view.MinotaurView),
}


# Each role's plane keys' shapes before they are flattened (planes, rows, columns): for a network that convolves.
PLANE_SHAPES: dict[str, dict[str, tuple[int, int, int]]] = {"user": user_view.PLANE_SHAPES,
                                                             "minotaur": minotaur_view.PLANE_SHAPES}


def observation_space(role: str, text: bool = False) -> spaces.Dict:
    """The role's observation: its numeric keys, and the WSAP text too when ``text`` (Gymnasium's Dict orders
    the keys by name, and so does ``observe``)."""
    fields: dict[str, spaces.Space] = {"text": spaces.Text(TEXT_MAX, charset=CHARSET)} if text else {}
    return spaces.Dict({**fields, **VIEWS[role][0]})


def seat(role: str, text: bool) -> Outside:
    """The Outside seat an environment plays ``role`` from: it keeps the role's perception when
    the observation reads it (the user's numbers always, the text of either), and plays a
    command the game refuses as one second of standing still (commands.STAND_IN)."""
    return Outside("gym", observe=text or role == "user", stand_in=STAND_IN)


def view(match: Match, role: str, max_turns: int) -> View:
    """A fresh game's numeric observation of ``role``, to ``update`` after every turn."""
    return VIEWS[role][1](match, max_turns)


def observe(match: Match, role: str, numbers: View, text: bool) -> dict[str, Any]:
    """The role's observation of the Match as it stands."""
    obs: dict[str, Any] = {}
    if text:
        observation = match.seats[role].observation
        assert observation is not None, "a learner's seat observes every turn"
        obs["text"] = observation.to_text()
    obs.update(numbers.observe())
    for key in PLANES:  # built as uint8 planes (cheaper to mark), given flat in the float32 their space declares
        obs[key] = obs[key].astype(np.float32).reshape(-1)
    return {key: obs[key] for key in sorted(obs)}  # in the Dict space's order: Gymnasium sorts its keys by name


def unflat_planes(values: np.ndarray, role: str, key: str) -> np.ndarray:
    """A plane key's values (one observation's, or a batch's along the first axes) as its planes:
    (..., planes, rows, columns), rows north first, columns west first."""
    return values.reshape(*values.shape[:-1], *PLANE_SHAPES[role][key])
