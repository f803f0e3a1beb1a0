"""`labyrinth world`: the hunting ground's levels as text or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from labyrinth.engine import PRESETS, Game
from labyrinth.engine.commands import excerpt
from labyrinth.engine.geometry import cell_of
from labyrinth.engine.items import KIND_MARKS, LETTERS

from .options import chosen_seed, game_options, parsed_by

LEGEND = ("# rock  . floor  = crawlway (user only, walking)  ^ ramp up  v ramp down  "
          f"@ user start  M Minotaur start  {'  '.join(KIND_MARKS)}")


def add_parser(sub: argparse._SubParsersAction) -> None:
    world = sub.add_parser("world", help="print the hunting ground's levels as text or JSON")
    game_options(world, difficulty=False)
    world.add_argument("--level", type=level, help="only this level (z)")
    world.add_argument("--json", action="store_true", help="JSON instead of text")
    parsed_by(world, run)


def level(value: str) -> int:
    """The argparse type of --level: a whole number, said in words otherwise (the preset, chosen by another
    option, holds it to its own levels once parsed: run())."""
    try:
        return int(value)
    except ValueError:  # not a whole number, or one of more than 4,300 digits
        raise argparse.ArgumentTypeError(f"must be a whole number (a level, z), not {excerpt(value)}") from None


def run(args: argparse.Namespace) -> int:
    if args.level is not None and args.level not in PRESETS[args.preset].z_range:
        b = PRESETS[args.preset]
        args.own_parser.error(f"level {args.level} is outside the {args.preset} hunting ground "
                              f"(levels {b.z0} to {b.last[2]})")
    return dump(chosen_seed(args), args.preset, args.level, args.json, sys.stdout)


def dump(seed: int, preset: str, level: int | None, as_json: bool, out: TextIO) -> int:
    game = Game.new(seed, preset)
    bounds, state, world = PRESETS[preset], game.state, game.world
    levels = [level] if level is not None else list(bounds.z_range)
    if as_json:
        json.dump({
            "seed": seed, "preset": preset, "bounds": bounds.to_dict(),
            "user_start": cell_of(state.user), "minotaur_start": cell_of(state.minotaur),
            "items": [{"name": name, **cell_of(pos)} for name, pos in state.items],
            "levels": [{"z": z, "rows": world.level_rows(bounds, z)} for z in levels],
        }, out, separators=(",", ":"))
        out.write("\n")
        return 0
    marks = [(state.user, "@"), (state.minotaur, "M"), *((pos, LETTERS[name]) for name, pos in state.items)]
    last_x, top, last_z = bounds.last
    out.write(f"Labyrinth seed {seed}, preset {preset}: x {bounds.x0}..{last_x} "
              f"(west to east), y {top}..{bounds.y0} (north to south), levels "
              f"{bounds.z0}..{last_z}\n{LEGEND}\n")
    for z in levels:
        rows = [list(r) for r in world.level_rows(bounds, z)]
        for (x, y, mz), mark in marks:
            if mz == z and bounds.contains(x, y, z):
                rows[top - y][x - bounds.x0] = mark
        out.write(f"\nLevel {z}:\n" + "\n".join("".join(r) for r in rows) + "\n")
    return 0
