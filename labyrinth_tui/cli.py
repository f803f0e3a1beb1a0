"""The `labyrinth` command line: argument parsing and dispatch only."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

from labyrinth.agents.config import PROVIDERS
from labyrinth.agents.registry import ProviderNotConfigured, contestant_names
from labyrinth.engine import DEFAULT_PRESET, DIFFICULTIES, PRESETS
from labyrinth.saves.atomic import sweep_data_dir
from labyrinth.saves.config import ConfigError

from . import arena_cmd, leaderboard_cmd, memory_cmd, tournament_cmd
from .learn_option import add_learn_options, learners
from .provider_options import add_provider_options, chosen_providers, contestant, provider_settings
from .seed_option import bounded_seed, last_seed_problem
from .terminal_text import printable


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="labyrinth",
        description="Labyrinth: The Temporal Hunt - find the RED, BLUE and YELLOW stones "
                    "before the Minotaur finds you. Without a command, the game opens at its title screen.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    arena_cmd.add_parser(sub)
    tournament_cmd.add_parser(sub)
    leaderboard_cmd.add_parser(sub)
    memory_cmd.add_parser(sub)

    def game_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--seed", type=bounded_seed, help="world seed (default: random, printed on stderr)")
        p.add_argument("--preset", choices=list(PRESETS), default=DEFAULT_PRESET, help="hunting ground size")

    def screen_game_options(p: argparse.ArgumentParser) -> None:
        game_options(p)
        p.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
        add_learn_options(p)
        add_provider_options(p)

    gsm = sub.add_parser("gsm", help="play over stdin/stdout, one JSON object per line",
                         description="The Game State Manager over JSON lines: each input line is a UserInput, "
                                     "each output line a GameStateResponse (the first one is the initial state). "
                                     "With --user AGENT the pipe plays the Minotaur instead: MinotaurDecision "
                                     "lines in, MinotaurObservation lines out.")
    game_options(gsm)
    gsm.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
    gsm.add_argument("--user", type=contestant("user"), metavar="AGENT",
                     help=f"an agent plays the user and the pipe plays the Minotaur: {contestant_names('user')}")
    gsm.add_argument("--minotaur", type=contestant("minotaur", "external"), metavar="AGENT",
                     help="who plays the Minotaur: builtin (default) or another agent "
                          f"({contestant_names('minotaur')}); wait: one that always "
                          'WAITs; external: each line carries {"user": UserInput, "minotaur": MinotaurDecision}')
    add_provider_options(gsm)

    play = sub.add_parser("play", help="play at once: you against the built-in Minotaur (or another)",
                          description="Open the game screen at once: you play the user, an agent the Minotaur.")
    screen_game_options(play)
    play.add_argument("--minotaur", type=contestant("minotaur"), default="builtin", metavar="AGENT",
                      help=f"the Minotaur: {contestant_names('minotaur')} (default: builtin)")

    hotseat = sub.add_parser("hotseat", help="play at once against the Gemini Minotaur",
                             description="Open the game screen at once: you play the user against a language "
                                         "model's Minotaur (Gemini unless --minotaur says otherwise). Without "
                                         "a Gemini key the game offers the built-in Minotaur instead.")
    screen_game_options(hotseat)
    hotseat.add_argument("--minotaur", type=contestant("minotaur"), default="gemini", metavar="AGENT",
                         help=f"the Minotaur: {contestant_names('minotaur')} (default: gemini)")

    spectate = sub.add_parser("spectate", help="watch two agents play",
                              description="Watch a match between two agents: space plays or pauses, n steps, "
                                          "+ and - change the speed, o shows the whole labyrinth.")
    screen_game_options(spectate)
    spectate.add_argument("--user", type=contestant("user"), default="builtin", metavar="AGENT",
                          help=f"the user: {contestant_names('user')} (default: builtin)")
    spectate.add_argument("--minotaur", type=contestant("minotaur"), default="builtin", metavar="AGENT",
                          help=f"the Minotaur: {contestant_names('minotaur')} (default: builtin)")

    doctor = sub.add_parser("doctor", help="check the LLM providers, the data paths and the packages",
                            description="Show which LLM providers are configured (never their keys), check "
                                        "each endpoint with a cheap call that spends no tokens, and print the "
                                        "data paths and where each package was imported from.")
    doctor.add_argument("--offline", action="store_true", help="do not call the endpoints")
    add_provider_options(doctor)

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
    how = replay.add_mutually_exclusive_group()
    how.add_argument("--verify", action="store_true", help="re-run the recorded inputs and compare hashes")
    how.add_argument("--summary", action="store_true",
                     help="the game's story: outcome, figures, the explored map of each level, the last messages "
                          "(what the game-over screen saves next to the replay)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    sweep_data_dir()  # what writers killed mid-write left behind
    if args.command is None:
        from .app import run

        return run()
    if args.command == "world" and args.level is not None and args.level not in PRESETS[args.preset].z_range:
        b = PRESETS[args.preset]
        args.own_parser.error(f"level {args.level} is outside the {args.preset} hunting ground "
                              f"(levels {b.z0} to {b.z0 + b.levels - 1})")
    if hasattr(args, "games") and (problem := last_seed_problem(args.seed, args.games)):
        args.own_parser.error(problem)
    if args.command == "gsm" and args.user and args.minotaur:
        parser.error("gsm: the pipe plays one side: give --user (the pipe is the Minotaur) or --minotaur, not both")
    try:
        if args.command == "replay":
            from .replay_cmd import replay

            return replay(args.file, args.verify, sys.stdout, summary=args.summary)
        if args.command == "memory":
            return memory_cmd.run(args)
        if args.command == "leaderboard":
            return leaderboard_cmd.run(args)
        if args.command == "doctor":
            from .doctor import doctor

            return doctor(args, not args.offline, sys.stdout)
        # Only the providers in use are read: a broken config file must not stop a game without a model.
        tui = args.command in ("play", "spectate", "hotseat")  # the form may pick any provider later
        providers = provider_settings(args, PROVIDERS if tui else chosen_providers(args), skip_broken=tui)
        if args.command == "arena":
            return arena_cmd.run(args, providers)
        if args.command == "tournament":
            return tournament_cmd.run(args, providers)
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        if args.seed is None:
            print(f"labyrinth: seed {seed} (pass --seed {seed} to play this labyrinth again)", file=sys.stderr)
        if args.command == "gsm":
            return _gsm(args, seed, providers)
        if args.command in ("play", "spectate", "hotseat"):
            from .app import run
            from .screens.title import HUMAN, NewGame

            user = args.user if args.command == "spectate" else HUMAN
            return run(NewGame(seed, args.preset, args.difficulty, user, args.minotaur, providers,
                               learners(args)))
        from .worldmap import dump

        return dump(seed, args.preset, args.level, args.json, sys.stdout)
    except (ConfigError, ProviderNotConfigured) as exc:
        print(f"labyrinth: {printable(str(exc))}", file=sys.stderr)  # a config key can hold escapes
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


def _gsm(args: argparse.Namespace, seed: int, providers) -> int:
    from .jsonlines import gsm_match, serve

    match = gsm_match(seed, args.preset, args.difficulty, args.user, args.minotaur or "builtin", providers)
    # A large output buffer: a bulk run then writes to the pipe in big pieces.
    with open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False) as out:
        return serve(match, sys.stdin.buffer, out,
                     say=lambda line: print(f"labyrinth gsm: {printable(line)}", file=sys.stderr, flush=True))


if __name__ == "__main__":
    sys.exit(main())
