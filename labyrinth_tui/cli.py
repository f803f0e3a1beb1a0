"""The `labyrinth` command line: argument parsing and dispatch only."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

from agents.registry import MINOTAUR_AGENTS, USER_AGENTS
from engine import DEFAULT_PRESET, DIFFICULTIES, PRESETS

from . import arena_cmd


def _seed(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be an integer, not {value!r}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="labyrinth",
        description="Labyrinth: The Temporal Hunt - find the RED, BLUE and YELLOW stones "
                    "before the Minotaur finds you. Without a command, the game opens at its title screen.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    arena_cmd.add_parser(sub)

    def game_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--seed", type=_seed, help="world seed (default: random, printed on stderr)")
        p.add_argument("--preset", choices=list(PRESETS), default=DEFAULT_PRESET, help="hunting ground size")

    gsm = sub.add_parser("gsm", help="play over stdin/stdout, one JSON object per line",
                         description="The Game State Manager over JSON lines: each input line is a UserInput, "
                                     "each output line a GameStateResponse (the first one is the initial state).")
    game_options(gsm)
    gsm.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
    gsm.add_argument("--minotaur", choices=["external", *MINOTAUR_AGENTS], default="builtin",
                     help="who plays the Minotaur: builtin (default) or another agent; wait: one that always "
                          'WAITs; external: each line carries {"user": UserInput, "minotaur": MinotaurDecision}')

    play = sub.add_parser("play", help="play at once: you against the built-in Minotaur",
                          description="Open the game screen at once: you play the user, an agent the Minotaur.")
    game_options(play)
    play.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
    play.add_argument("--minotaur", choices=list(MINOTAUR_AGENTS), default="builtin")

    spectate = sub.add_parser("spectate", help="watch two agents play",
                              description="Watch a match between two agents: space plays or pauses, n steps, "
                                          "+ and - change the speed, o shows the whole labyrinth.")
    game_options(spectate)
    spectate.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
    spectate.add_argument("--user", choices=list(USER_AGENTS), default="builtin")
    spectate.add_argument("--minotaur", choices=list(MINOTAUR_AGENTS), default="builtin")

    world = sub.add_parser("world", help="print the hunting ground's levels as text or JSON")
    game_options(world)
    world.add_argument("--level", type=int, help="only this level (z)")
    world.add_argument("--json", action="store_true", help="JSON instead of text")
    world.set_defaults(own_parser=world)  # so that a check made after parsing can complain as argparse does

    replay = sub.add_parser("replay", help="show a recorded match, or verify it against the engine",
                            description="Show a replay file: header, outcome, fallbacks and one line per turn. "
                                        "With --verify, re-run its inputs through a fresh game and check every "
                                        "turn's state hash (exit 1 at the first difference, 2 for a bad file).")
    replay.add_argument("file", type=Path, metavar="FILE", help="a replay (.jsonl)")
    replay.add_argument("--verify", action="store_true", help="re-run the recorded inputs and compare hashes")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from .app import run

        return run()
    if args.command == "world" and args.level is not None and args.level not in PRESETS[args.preset].z_range:
        b = PRESETS[args.preset]
        args.own_parser.error(f"level {args.level} is outside the {args.preset} hunting ground "
                              f"(levels {b.z0} to {b.z0 + b.levels - 1})")
    try:
        if args.command == "arena":
            return arena_cmd.run(args)
        if args.command == "replay":
            from .replay_cmd import replay

            return replay(args.file, args.verify, sys.stdout)
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        if args.seed is None:
            print(f"labyrinth: seed {seed} (pass --seed {seed} to play this labyrinth again)", file=sys.stderr)
        if args.command == "gsm":
            return _gsm(args, seed)
        if args.command in ("play", "spectate"):
            from .app import run
            from .screens.title import HUMAN, NewGame

            user = HUMAN if args.command == "play" else args.user
            return run(NewGame(seed, args.preset, args.difficulty, user, args.minotaur))
        from .worldmap import dump

        return dump(seed, args.preset, args.level, args.json, sys.stdout)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


def _gsm(args: argparse.Namespace, seed: int) -> int:
    from engine import Game

    from .jsonlines import serve

    game = Game.new(seed, args.preset, args.difficulty)
    minotaur = None
    if args.minotaur not in ("external", "wait"):  # "wait" is the engine's own WAIT: no agent needed
        from agents.registry import make_agent
        from agents.side import Side

        _, observation = game.view()
        minotaur = Side("minotaur", make_agent("minotaur", args.minotaur, seed), game.world, game.state, observation)
    # A large output buffer: a bulk run then writes to the pipe in big pieces.
    with open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False) as out:
        return serve(game, args.minotaur == "external", sys.stdin.buffer, out, minotaur)


if __name__ == "__main__":
    sys.exit(main())
