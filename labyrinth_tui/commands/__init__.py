"""The `labyrinth` command line, one module per subcommand. Each has ``add_parser(sub)``, which
adds its parser and names its ``run(args)`` (options.parsed_by); cli.py only dispatches. The
options several share (seed, preset, difficulty, the agents by role, the providers) are
defined once, in options.py, provider_options.py, seed_option.py and learn_option.py.

A command line whose first word names a module here builds that module's parsers alone
(cli.parser_for), so a module is imported only when its subcommand is asked for or the whole
list is (the top ``--help``, a mistyped name, the title screen). It imports only what its parser
needs, and ``run`` the rest when the command runs, a command with much of it keeping that in
NAME_run.py (arena, tournament, leaderboard, doctor, memory): `labyrinth gsm` and `play` start
without loading them (issue 29).

To add a subcommand: a module here with ``add_parser``, and its name in SUBCOMMANDS."""

from importlib import import_module
from types import ModuleType

APP = "labyrinth.tui.app"  # the game's screens: what the title and `play` open, most of their start-up's modules
# The modules, in --help's order.
SUBCOMMANDS = ("arena", "tournament", "leaderboard", "memory", "gsm", "play", "doctor", "world", "replay")


def subcommand(name: str) -> ModuleType:
    """The module of subcommand ``name`` (one of SUBCOMMANDS)."""
    return import_module(f"{__name__}.{name}")
