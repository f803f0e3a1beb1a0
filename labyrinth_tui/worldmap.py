"""`labyrinth world`: the hunting ground's levels as text or JSON."""

from __future__ import annotations

import json
from typing import TextIO

from labyrinth.engine import PRESETS, Game

LEGEND = ("# rock  . floor  = crawlway (user only, walking)  ^ ramp up  v ramp down  "
          "@ user start  M Minotaur start  R B Y stones  L lantern")
_MARKS = {"RED STONE": "R", "BLUE STONE": "B", "YELLOW STONE": "Y", "LANTERN": "L"}


def _xyz(p: tuple[int, int, int]) -> dict[str, int]:
    return {"x": p[0], "y": p[1], "z": p[2]}


def dump(seed: int, preset: str, level: int | None, as_json: bool, out: TextIO) -> int:
    game = Game.new(seed, preset)
    bounds, state, world = PRESETS[preset], game.state, game.world
    levels = [level] if level is not None else list(bounds.z_range)
    if as_json:
        json.dump({
            "seed": seed, "preset": preset, "bounds": bounds.to_dict(),
            "user_start": _xyz(state.user), "minotaur_start": _xyz(state.minotaur),
            "items": [{"name": name, **_xyz(pos)} for name, pos in state.items],
            "levels": [{"z": z, "rows": world.level_rows(bounds, z)} for z in levels],
        }, out, separators=(",", ":"))
        out.write("\n")
        return 0
    marks = [(state.user, "@"), (state.minotaur, "M"), *((pos, _MARKS[name]) for name, pos in state.items)]
    top = bounds.y0 + bounds.height - 1
    out.write(f"Labyrinth seed {seed}, preset {preset}: x {bounds.x0}..{bounds.x0 + bounds.width - 1} "
              f"(west to east), y {top}..{bounds.y0} (north to south), levels "
              f"{bounds.z0}..{bounds.z0 + bounds.levels - 1}\n{LEGEND}\n")
    for z in levels:
        rows = [list(r) for r in world.level_rows(bounds, z)]
        for (x, y, mz), mark in marks:
            if mz == z and bounds.contains(x, y, z):
                rows[top - y][x - bounds.x0] = mark
        out.write(f"\nLevel {z}:\n" + "\n".join("".join(r) for r in rows) + "\n")
    return 0
