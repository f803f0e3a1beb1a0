"""`labyrinth play`, `hotseat` and `spectate`: the game screen opened at once, without the title.
The three differ only in who plays each side, so they are one table here."""

from __future__ import annotations

import argparse
from typing import NamedTuple

from . import APP
from .learn_option import add_learn_options, learners
from .options import chosen_seed, game_options, parsed_by, providers, role_option
from .provider_options import add_provider_options


class Front(NamedTuple):
    help: str
    description: str
    user: str | None  # the user's agent by default; None: the person at the keyboard
    minotaur: str


FRONTS = {
    "play": Front("play at once: you against the built-in Minotaur (or another)",
                  "Open the game screen at once: you play the user, an agent the Minotaur.", None, "builtin"),
    "hotseat": Front("play at once against the Gemini Minotaur",
                     "Open the game screen at once: you play the user against a language model's Minotaur "
                     "(Gemini unless --minotaur says otherwise). Without a Gemini key the game offers the "
                     "built-in Minotaur instead.", None, "gemini"),
    "spectate": Front("watch two agents play",
                      "Watch a match between two agents: space plays or pauses, n steps, + and - change the "
                      "speed, o shows the whole labyrinth.", "builtin", "builtin"),
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    for name, front in FRONTS.items():
        p = sub.add_parser(name, help=front.help, description=front.description)
        game_options(p)
        add_learn_options(p)
        add_provider_options(p)
        if front.user is not None:
            role_option(p, "user", front.user)
        role_option(p, "minotaur", front.minotaur)
        p.add_argument("--theme", metavar="THEME",  # checked once parsed: Textual's themes load with the game
                       help="colour theme, over the config file's [options] theme: high-contrast, colour-blind, "
                            "or one of Textual's (textual-dark, textual-light, nord, gruvbox, dracula, ...; "
                            "the game's help lists them all)")
        parsed_by(p, run, loads=(APP,))


def run(args: argparse.Namespace) -> int:
    from labyrinth.saves.games import PLAYER

    from ..app import run as open_app
    from ..screens.title import NewGame
    from ..themes import theme_names

    if args.theme is not None and args.theme not in theme_names():
        args.own_parser.error(f"argument --theme: no theme {args.theme!r} (themes: {', '.join(theme_names())})")

    settings = providers(args, screen=True)
    user = getattr(args, "user", None) or PLAYER
    return open_app(NewGame(chosen_seed(args), args.preset, args.difficulty, user, args.minotaur, settings,
                            learners(args)), theme=args.theme)
