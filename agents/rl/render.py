"""What the RL environments draw: each learning role's window on the labyrinth and a status
line, as text ("ansi"), printed ("human"), or as a picture of coloured tiles ("rgb_array",
HxWx3 uint8, what Gymnasium's RecordVideo films).

The picture is drawn from the very characters the text shows, so the two always agree;
under the window, bars give the stamina (the Minotaur: its jump cooldown) and the turns
played, and squares the items held (the Minotaur: lying) and the cue.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from labyrinth.engine.cells import CELL_CHARS
from labyrinth.engine.constants import JUMP_COOLDOWN_TICKS, TICKS_PER_SECOND
from labyrinth.engine.geometry import Pos
from labyrinth.engine.items import ITEM_ORDER, ITEMS, LETTERS
from labyrinth.engine.wsap.perception import NOT_SEEN, labyrinth_window

from ..match.side import user_map
from .planes import RADIUS, SIDE

if TYPE_CHECKING:
    from ..match.runner import Match
    from .game import RLGame

RENDER_MODES = ("human", "ansi", "rgb_array")
TILE = 16  # pixels a cell
_SEEN = bytes.maketrans(bytes([*range(len(CELL_CHARS)), NOT_SEEN]), (CELL_CHARS + "?").encode())
_GROUND = {"#": (40, 40, 44), ".": (205, 200, 185), "=": (150, 115, 70), "^": (120, 200, 120), "v": (90, 140, 210),
           "?": (0, 0, 0)}
_MARKS = {**{item.letter: item.rgb for item in ITEMS}, "@": (255, 255, 255), "M": (150, 0, 150)}
_CUE = {"NONE": (90, 90, 90), "FAINT": (235, 205, 40), "CLOSE": (255, 140, 0), "VERY CLOSE": (220, 30, 30),
        "VANISHED": (150, 0, 150), "PARALYZED": (0, 200, 220)}
_EMPTY = (60, 60, 60)


@dataclass(frozen=True)
class Picture:
    """One role's window (rows of map characters, north first), its status line, and the figures
    the picture shows under the window."""

    rows: list[str]
    status: str
    bar: float  # stamina, or the share of the jump cooldown gone
    turns: float  # the share of max_turns played
    slots: list[bool]  # each item: held (user) or lying (Minotaur)
    cue: str  # a key of _CUE


def _marked(rows: list[str], centre: Pos, marks: list[tuple[Pos, str]]) -> list[str]:
    grid = [list(row) for row in rows]
    for (x, y, z), mark in marks:
        row, col = RADIUS - (y - centre[1]), x - centre[0] + RADIUS
        if z == centre[2] and 0 <= row < SIDE and 0 <= col < SIDE:
            grid[row][col] = mark
    return ["".join(row) for row in grid]


def _user(game: RLGame) -> Picture:
    match = game.match
    state, r = match.game.state, match.last.response
    perception = user_map(match.seats["user"])
    x, y, z = state.user
    cells = perception.remembered_area(x - RADIUS, y + RADIUS, SIDE, SIDE, z).translate(_SEEN).decode()
    rows = [cells[i:i + SIDE] for i in range(0, len(cells), SIDE)]
    marks = [(p, LETTERS[name]) for name, p in perception.items.items()]
    seen = perception.minotaur_in_sight(state)
    marks += [(seen, "M")] if seen else []
    cue = r.minotaur_cue
    held = "".join(LETTERS[name] if name in state.inventory else "-" for name in ITEM_ORDER)
    heard = " ".join(str(w) for w in (cue.proximity, cue.audio_direction, cue.temporal_status) if w)
    status = (f"turn {match.turns}/{match.max_turns}  {r.environment.game_time:g} s  stamina "
              f"{r.user_state.stamina_pct:.2f}  held {held}  Minotaur {heard}{_outcome(match)}")
    return Picture(_marked(rows, state.user, [*marks, (state.user, "@")]), status, r.user_state.stamina_pct,
                   _played(match), [name in state.inventory for name in ITEM_ORDER], cue.proximity)


def _minotaur(game: RLGame) -> Picture:
    match = game.match
    o = match.last.observation
    here = (o.position.x, o.position.y, o.position.z)
    marks = [((i.position.x, i.position.y, i.position.z), LETTERS[i.name]) for i in o.items]
    if o.user_position:
        marks.append(((o.user_position.x, o.user_position.y, o.user_position.z), "@"))
    lying = {i.name for i in o.items}
    slots = "".join(LETTERS[name] if name in lying else "-" for name in ITEM_ORDER)
    status = (f"turn {match.turns}/{match.max_turns}  {o.game_time:g} s  {o.temporal_status}  jump in "
              f"{o.cooldown_time:g} s  intruder {'in sight' if o.sees_user else 'unseen'}  lying {slots}"
              f"{_outcome(match)}")
    cooldown_s = JUMP_COOLDOWN_TICKS / TICKS_PER_SECOND
    return Picture(_marked(labyrinth_window(match.game.world, here, RADIUS), here, [*marks, (here, "M")]), status,
                   1.0 - min(o.cooldown_time / cooldown_s, 1.0), _played(match),
                   [name in lying for name in ITEM_ORDER],
                   "PARALYZED" if o.temporal_status == "PARALYZED" else "VANISHED" if o.jump_time_left else "NONE")


def _outcome(match: Any) -> str:
    return f"  {match.outcome}" if match.outcome else ""


PICTURES = {"user": _user, "minotaur": _minotaur}


def _tiles(picture: Picture) -> np.ndarray:
    """The picture: the window's tiles (a mark as a square on the floor), then bars and squares."""
    side = SIDE * TILE
    image = np.zeros((side + 2 * TILE, side, 3), np.uint8)
    inset = TILE // 4
    for r, row in enumerate(picture.rows):
        for c, char in enumerate(row):
            tile = image[r * TILE:(r + 1) * TILE, c * TILE:(c + 1) * TILE]
            tile[:] = _GROUND.get(char, _GROUND["."])
            if char in _MARKS:
                tile[inset:TILE - inset, inset:TILE - inset] = _MARKS[char]
    strip = image[side:]
    strip[:TILE // 2, :round(side * picture.bar)] = (60, 190, 90)
    strip[TILE // 2:TILE, :round(side * min(picture.turns, 1.0))] = (110, 130, 170)
    for k, (name, filled) in enumerate(zip(ITEM_ORDER, picture.slots, strict=True)):
        strip[TILE + 2:2 * TILE - 2, k * TILE + 2:(k + 1) * TILE - 2] = _MARKS[LETTERS[name]] if filled else _EMPTY
    strip[TILE + 2:2 * TILE - 2, side - TILE + 2:side - 2] = _CUE[picture.cue]
    return image


class Renderer:
    """Draws the learning roles of a game in one render mode."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def draw(self, game: RLGame, roles: list[str]) -> str | np.ndarray | None:
        pictures = {role: PICTURES[role](game) for role in roles}
        if self.mode == "rgb_array":
            images = [_tiles(p) for p in pictures.values()]
            gap = np.zeros((images[0].shape[0], TILE // 2, 3), np.uint8)
            return np.concatenate([part for image in images for part in (gap, image)][1:], axis=1)
        text = "\n".join((f"{role}:\n" if len(roles) > 1 else "") + "\n".join(p.rows) + "\n" + p.status + "\n"
                         for role, p in pictures.items())
        if self.mode == "human":
            print(text, flush=True)
            return None
        return text


def _played(match: Match) -> float:
    """The share of the turn limit played (an RL game always has one: game.checked_max_turns)."""
    assert match.max_turns is not None, "an RL game has a turn limit"
    return match.turns / match.max_turns
