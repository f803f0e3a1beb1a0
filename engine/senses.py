"""What each side perceives: sight, proximity, audio direction, resonance."""

from __future__ import annotations

from dataclasses import dataclass

from .constants import CLOSE_SQ, FAINT_SQ, MINOTAUR_SIGHT, USER_SIGHT, VERY_CLOSE_SQ
from .geometry import Pos, compass, direction_3d, distance_sq
from .items import ITEM, SIGHTS
from .state import GameState
from .world import World


def in_sight(world: World, eye: Pos, target: Pos, radius: int) -> bool:
    """Line of sight on one level within ``radius`` steps; walls block it."""
    if eye[2] != target[2]:
        return False
    dx, dy = target[0] - eye[0], target[1] - eye[1]
    return dx * dx + dy * dy <= radius * radius and world.line_clear(eye, target)


def _near(a: Pos, b: Pos, radius: int) -> bool:
    """Same level and within ``radius``: the cheap test before any line of sight."""
    if a[2] != b[2]:
        return False
    dx, dy = a[0] - b[0], a[1] - b[1]
    return dx * dx + dy * dy <= radius * radius


def minotaur_active(state: GameState) -> bool:
    """CHASING_3D: neither paralyzed nor out of time. Only then it moves, sees, blocks or kills."""
    return state.paralysis == 0 and state.jump_left == 0


def user_sight(state: GameState) -> int:
    """How many steps the user sees now: its own sight and what an item's effect adds (the rows' ``sight``
    rules), at most as far as any line of sight is tabled (the Minotaur's)."""
    if not SIGHTS:  # no item of the game lends sight: the figure of every turn
        return USER_SIGHT
    return min(USER_SIGHT + sum(sight(state, item) for item, sight in SIGHTS), MINOTAUR_SIGHT)


def user_sees_minotaur(world: World, state: GameState) -> bool:
    return (_near(state.user, state.minotaur, user_sight(state)) and minotaur_active(state)
            and world.line_clear(state.user, state.minotaur))


def minotaur_sees_user(world: World, state: GameState) -> bool:
    return (_near(state.user, state.minotaur, MINOTAUR_SIGHT) and minotaur_active(state)
            and world.line_clear(state.minotaur, state.user))


def items_in_sight(world: World, state: GameState) -> list[tuple[str, Pos]]:
    user = state.user
    sight = user_sight(state)
    return [(name, pos) for name, pos in state.items if _near(user, pos, sight) and world.line_clear(user, pos)]


@dataclass(frozen=True, slots=True)
class UserView:
    """Everything the user perceives from where it stands, computed once per turn."""

    exits: list[str]
    items: list[tuple[str, Pos]]
    minotaur_in_sight: bool  # in line of sight within the user's sight, whatever its state
    proximity: str
    direction: str | None


def user_view(world: World, state: GameState) -> UserView:
    return UserView(
        exits=world.user_exits(state.user),
        items=items_in_sight(world, state),
        minotaur_in_sight=in_sight(world, state.user, state.minotaur, user_sight(state)),
        proximity=proximity(state),
        direction=audio_direction(state),
    )


# How near the hoofbeats sound, by the proximities at which they are heard: a run stops when they grow nearer, the
# built-in user grows wary, the texts say where they come from. A Minotaur out of time or frozen makes no hoofbeats
# (0), so its return nearby counts as nearer.
NEARNESS = {"FAINT": 1, "CLOSE": 2, "VERY CLOSE": 3}


def proximity(state: GameState) -> str:
    """How the user senses the Minotaur through the walls (docs/rules.md section 7)."""
    if state.paralysis:
        return "PARALYZED"
    if state.jump_left:
        return "VANISHED"
    d2 = distance_sq(state.user, state.minotaur)
    if d2 <= VERY_CLOSE_SQ:
        return "VERY CLOSE"
    if d2 <= CLOSE_SQ:
        return "CLOSE"
    if d2 <= FAINT_SQ:
        return "FAINT"
    return "NONE"


def audio_direction(state: GameState) -> str | None:
    """Where the Minotaur's sound comes from, when it is within FAINT range."""
    if distance_sq(state.user, state.minotaur) > FAINT_SQ:
        return None
    return direction_3d(state.user, state.minotaur)


_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def level_words(dz: int) -> str:
    """'on this level', 'one level above', '3 levels below'."""
    if dz == 0:
        return "on this level"
    n = abs(dz)
    word = _COUNT.get(n, str(n))
    return f"{word} level{'s' if n > 1 else ''} {'above' if dz > 0 else 'below'}"


def resonance(state: GameState) -> tuple[tuple[str, str | None, int], ...]:
    """The hum of each stone still lying in the labyrinth: (name, compass direction, levels up)."""
    ux, uy, uz = state.user
    return tuple((name, compass(x - ux, y - uy), z - uz) for name, (x, y, z) in state.items
                 if ITEM[name].needed)
