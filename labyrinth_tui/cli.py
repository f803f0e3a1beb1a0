"""The `labyrinth` command: its parser, built from the subcommands' modules (commands/), and the
dispatch to the one chosen. Without a subcommand the game opens at its title screen."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from importlib import import_module

from labyrinth.agents.registry import ProviderNotConfigured
from labyrinth.engine.items import STONES_NAMED
from labyrinth.engine.wsap.actions import GAME_NAME
from labyrinth.saves.atomic import sweep_data_dir
from labyrinth.saves.build import look_up_early
from labyrinth.saves.config import ConfigError

from .commands import APP, SUBCOMMANDS, subcommand
from .stop_signals import exit_status, sigterm_as_ctrl_c
from .terminal_text import say


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: with every subcommand, or with those of module ``only`` alone."""
    top = argparse.ArgumentParser(
        prog="labyrinth",
        description=f"{GAME_NAME} - find {STONES_NAMED} "
                    "before the Minotaur finds you. Without a command, the game opens at its title screen.",
    )
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for name in [only] if only else SUBCOMMANDS:
        subcommand(name).add_parser(sub)
    return top


def parser_for(argv: list[str]) -> argparse.ArgumentParser:
    """The parser ``argv`` is read with: when its first word is a subcommand module's name (SUBCOMMANDS),
    that module's parsers alone, which read it as the whole parser would and load no other subcommand's
    module (start-up); else the whole (the top --help, a mistyped command, the title screen, and
    `hotseat` and `spectate`, which `play`'s module adds)."""
    return parser(argv[0] if argv and argv[0] in SUBCOMMANDS else None)


def main(argv: list[str] | None = None, loading: Callable[[], AbstractContextManager[object]] = nullcontext) -> int:
    """The command line ``argv`` carried out; its status. The modules the command goes on to import
    (``loads``, the title screen's app when no command is named) are imported first, inside
    ``loading()`` (entry.py's: with the garbage collector paused)."""
    argv = sys.argv[1:] if argv is None else argv
    args = parser_for(argv).parse_args(argv)
    args.argv = list(argv)  # as typed: a tournament's manifest keeps it
    sweep_data_dir()  # what writers killed mid-write left behind
    loads = (APP,) if args.command is None else getattr(args, "loads", ())
    if APP in loads:
        look_up_early()  # a game's first replay names its build: git answers while the app's modules load
    try:
        with sigterm_as_ctrl_c():  # a run stopped by SIGTERM keeps what it keeps on Ctrl-C (stop_signals.py)
            with loading():  # Ctrl-C while they load ends the command as it would a moment later
                for module in loads:
                    import_module(module)
            if args.command is None:
                from .app import run

                return run()
            return args.func(args)
    except (ConfigError, ProviderNotConfigured) as exc:
        say(str(exc))  # a config key can hold escapes
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (Stopped)
        return exit_status(stop)


if __name__ == "__main__":
    sys.exit(main())
