"""`labyrinth play`, `hotseat` and `spectate`: the game screen opened at once, without the title.
The three differ only in who plays each side, so they are one table here."""

from __future__ import annotations

import argparse
from typing import NamedTuple

from ..themes import theme_names
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
        p.add_argument("--theme", choices=theme_names(), metavar="THEME",
                       help=f"colour theme, over the config file's [options] theme: {', '.join(theme_names())}")
        parsed_by(p, run)


def run(args: argparse.Namespace) -> int:
    from ..app import run as open_app
    from ..screens.title import HUMAN, NewGame

    settings = providers(args, screen=True)
    user = getattr(args, "user", None) or HUMAN
    return open_app(NewGame(chosen_seed(args), args.preset, args.difficulty, user, args.minotaur, settings,
                            learners(args)), theme=args.theme)
