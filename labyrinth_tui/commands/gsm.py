"""`labyrinth gsm`: the Game State Manager over JSON lines on stdin and stdout (jsonlines.py
serves them); with --user AGENT the pipe plays the Minotaur instead."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from typing import cast

from labyrinth.agents.registry import contestant_names

from ..terminal_text import say
from .options import chosen_seed, game_options, parsed_by, providers, role_option
from .provider_options import add_provider_options


def add_parser(sub: argparse._SubParsersAction) -> None:
    gsm = sub.add_parser("gsm", help="play over stdin/stdout, one JSON object per line",
                         description="The Game State Manager over JSON lines: each input line is a UserInput, "
                                     "each output line a GameStateResponse (the first one is the initial state). "
                                     "With --user AGENT the pipe plays the Minotaur instead: MinotaurDecision "
                                     "lines in, MinotaurObservation lines out.")
    game_options(gsm)
    role_option(gsm, "user", None,
                words=f"an agent plays the user and the pipe plays the Minotaur: {contestant_names('user')}")
    role_option(gsm, "minotaur", None, "external",
                words="who plays the Minotaur: builtin (default) or another agent "
                      f"({contestant_names('minotaur')}); wait: one that always "
                      'WAITs; external: each line carries {"user": UserInput, "minotaur": MinotaurDecision}')
    add_provider_options(gsm)
    parsed_by(gsm, run)


def run(args: argparse.Namespace) -> int:
    from ..jsonlines import Chunks, gsm_match, serve

    if args.user and args.minotaur:
        args.own_parser.error("the pipe plays one side: give --user (the pipe is the Minotaur) or --minotaur, "
                              "not both")
    settings = providers(args)
    match = gsm_match(chosen_seed(args), args.preset, args.difficulty, args.user, args.minotaur or "builtin",
                      settings)
    # A large output buffer: a bulk run then writes to the pipe in big pieces.
    with open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False) as out:
        # stdin's buffer is a BufferedReader, which reads what has arrived (read1): typeshed says BinaryIO only
        return serve(match, cast(Chunks, sys.stdin.buffer), out,
                     say=partial(say, command="gsm"))
