"""Calls per front (issue 12, section 2): one fixed stream of input played through every
front, and what each made of it: the turns played, the calls to each agent, the final state
hash, the wall time. One turn loop means one row of figures, repeated.

The user's stream: 200 lines, 100 valid commands, 50 the game refuses (a GRAB with nothing in
reach, a USE without a lantern, a USE of a stone) and 50 malformed, shuffled by the seed; the
Minotaur is the built-in one, asked. The Minotaur's stream: 150 valid decisions and 50 malformed;
the user is the built-in one, asked. The fronts are tests/fronts.py's. Under each table's title
the line the game ended on, if it ended before the stream did: the lines after it answer a
finished game, and are no turns. Like run.py it prints and asserts nothing;
tests/test_one_loop.py asserts.

    .venv/bin/python bench/perf/calls_per_front.py [--seed 5] [--preset standard]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.fronts, the fronts' drivers

from labyrinth.agents.match.runner import Match, Outside
from labyrinth.engine.items import STONES, ItemName
from labyrinth.engine.presets import DEFAULT_PRESET
from labyrinth.engine.schemas import USER_PARAMS, Direction
from labyrinth.engine.wsap.roles import ROLES
from labyrinth.saves.games import PLAYER
from tests.fronts import MINOTAUR_FRONTS, USER_FRONTS, CountingMinotaur, CountingUser, Run

MALFORMED_USER = ['{"command": "MOVE", "direction": "NORTH"', '{"command": }', "[]", "null", "", '{"command": "FLY"}',
                  '{"command": "MOVE"}', '{"command": "MOVE", "direction": "EAST", "steps": 0}',
                  '{"command": "MOVE", "direction": "WEST", "speed": 3}', '{"command": "LOOK", "colour": "red"}']
MALFORMED_MINOTAUR = ['{"action": "CHASE"', "[]", "", '{"action": "FLY"}', '{"action": "WAIT", "colour": "red"}',
                      '{"action": "PATHFIND", "target_coords": {"x": 1}}']


def user_stream(rng: random.Random, valid: int = 100, refused: int = 50, malformed: int = 50) -> list[str]:
    """Valid commands drawn from the schemas' definition (GRAB and USE aside: those are the refused
    ones), commands the game refuses, and malformed lines; shuffled."""
    commands = [name for name in USER_PARAMS if name not in ("GRAB", "USE")]
    values = {"direction": lambda: rng.choice(get_args(Direction)), "steps": lambda: rng.randint(1, 12),
              "speed": lambda: rng.choice((1, 2))}
    lines = []
    for _ in range(valid):
        command = rng.choice(commands)
        fields = {"command": command}
        fields |= {p.field: values[p.field]() for p in USER_PARAMS[command] if p.required or rng.random() < 0.5}
        lines.append(json.dumps(fields))
    for number in range(refused):
        lines.append(json.dumps({"command": "GRAB", "target": rng.choice(get_args(ItemName))} if number % 2 else
                                {"command": "USE", "target": rng.choice(("LANTERN", *STONES))}))
    lines += [rng.choice(MALFORMED_USER) for _ in range(malformed)]
    rng.shuffle(lines)
    return lines


def minotaur_stream(rng: random.Random, valid: int = 150, malformed: int = 50) -> list[str]:
    lines = [json.dumps({"action": rng.choice(("CHASE", "CHASE", "WAIT", "JUMP"))}) for _ in range(valid)]
    lines += [rng.choice(MALFORMED_MINOTAUR) for _ in range(malformed)]
    rng.shuffle(lines)
    return lines


def table(title: str, fronts: dict[str, Callable[..., Run]], lines: Sequence[str], seed: int, preset: str,
          asked: str) -> None:
    """One row per front; ``asked``: the role whose agent is asked (the other's input is pushed)."""
    print(f"\n{title}: {len(lines)} lines, seed {seed}, {preset}")
    print(ending(lines, seed, preset, ROLES[asked].other))
    print(f"{'front':<8} {'turns':>6} {'Minotaur calls':>15} {'user calls':>11} {'final hash':>17} {'wall ms':>8}")
    for name, run_front in fronts.items():
        began = time.perf_counter()
        run = run_front(lines, seed, preset)
        wall = (time.perf_counter() - began) * 1e3
        calls = {asked: f"{run.calls}", ROLES[asked].other: "-"}
        print(f"{name:<8} {len(run.played):>6} {calls['minotaur']:>15} {calls['user']:>11} {run.final:>17} "
              f"{wall:>8.1f}", flush=True)


def ending(lines: Sequence[str], seed: int, preset: str, pushed: str) -> str:
    """Where the game ends, played by the loop (every front plays as it does, tests/test_one_loop.py): a game
    that ends early answers the rest of the stream as a finished game, and the table would time no turns there."""
    asked = CountingMinotaur(seed) if pushed == "user" else CountingUser(seed)
    seats = {"user": Outside(PLAYER), "minotaur": asked} if pushed == "user" else {"user": asked,
                                                                                 "minotaur": Outside("pipe")}
    match = Match(seats["user"], seats["minotaur"], seed=seed, preset=preset, max_turns=None)
    for number, line in enumerate(lines, 1):
        match.play_turn(**{pushed: line})
        if match.outcome is not None:
            return (f"the game ended at line {number} of {len(lines)} ({match.outcome}, turn {match.turns}): "
                    f"the last {len(lines) - number} lines answer a finished game")
    return f"the game lasts the whole stream: no outcome after {len(lines)} lines, {match.turns} turns"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5)  # both tables' games last the whole stream (printed)
    parser.add_argument("--preset", default=DEFAULT_PRESET)
    args = parser.parse_args()
    table("The user's input pushed, the built-in Minotaur asked", USER_FRONTS,
          user_stream(random.Random(f"{args.seed}:user-stream")), args.seed, args.preset, "minotaur")
    table("The Minotaur's input pushed, the built-in user asked", MINOTAUR_FRONTS,
          minotaur_stream(random.Random(f"{args.seed}:minotaur-stream")), args.seed, args.preset, "user")
    print("\nresume: saved after the first 100 lines and resumed; its Minotaur re-lives the saved turns' decisions.")


if __name__ == "__main__":
    main()
