"""Hunting grounds: the boxes, centred on the cube's centre, where a game is played.

Extents are multiples of 16 so that every box starts on a chunk border and
holds whole chunks: each level of a box is then connected inside the box.
The rules allow the x-y extents +-50 %; ``small`` uses 32 (not 24) for that reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from .constants import CENTRE

DIFFICULTIES = ("normal", "hard")
DEFAULT_DIFFICULTY = "normal"  # a game's, unless one is chosen


@dataclass(frozen=True, slots=True)
class Bounds:
    """A box of the cube: x in [x0, x0 + width), y in [y0, y0 + height), z in [z0, z0 + levels)."""

    x0: int
    y0: int
    z0: int
    width: int
    height: int
    levels: int

    def contains(self, x: int, y: int, z: int) -> bool:
        return (self.x0 <= x < self.x0 + self.width and self.y0 <= y < self.y0 + self.height
                and self.z0 <= z < self.z0 + self.levels)

    @property
    def z_range(self) -> range:
        return range(self.z0, self.z0 + self.levels)

    @property
    def last(self) -> tuple[int, int, int]:
        """The box's last cell on each axis: its largest x, y and z, inside it."""
        return self.x0 + self.width - 1, self.y0 + self.height - 1, self.z0 + self.levels - 1

    def to_dict(self) -> dict[str, int]:
        return {"x0": self.x0, "y0": self.y0, "z0": self.z0,
                "width": self.width, "height": self.height, "levels": self.levels}


def _centred(extent: int, levels: int) -> Bounds:
    cx, cy, cz = CENTRE
    return Bounds(cx - extent // 2, cy - extent // 2, cz - levels // 2, extent, extent, levels)


PRESETS: dict[str, Bounds] = {
    "tiny": _centred(16, 2),
    "small": _centred(32, 3),
    "standard": _centred(48, 5),
    "large": _centred(96, 9),
    "full": _centred(400, 200),
}
DEFAULT_PRESET = "standard"


def unknown_preset(name: object) -> str | None:
    """Why no game is played on this preset, or None (the name cut short: it may come from a corrupt file)."""
    return (None if isinstance(name, str) and name in PRESETS
            else f"unknown preset {str(name)[:20]!r}: choose one of {', '.join(PRESETS)}")


def unknown_difficulty(name: object) -> str | None:
    """Why no game is played at this difficulty, or None."""
    return (None if isinstance(name, str) and name in DIFFICULTIES
            else f"unknown difficulty {str(name)[:20]!r}: choose one of {', '.join(DIFFICULTIES)}")


def unknown_setting(preset: object, difficulty: object) -> str | None:
    """Why no game has this preset and difficulty, or None: the one check that a new game, a saved state, a save's
    and a replay's header, a lesson, an avatar, a tournament's manifest and a task each make of a setting they were
    given, so all say the same."""
    return unknown_preset(preset) or unknown_difficulty(difficulty)
