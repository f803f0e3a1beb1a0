"""The `labyrinth` command: its parser, built from the subcommands' modules (commands/), and the
dispatch to the one chosen. Without a subcommand the game opens at its title screen."""

from __future__ import annotations

import argparse
import sys

from labyrinth.agents.registry import ProviderNotConfigured
from labyrinth.engine.items import STONES_NAMED
from labyrinth.saves.atomic import sweep_data_dir
from labyrinth.saves.config import ConfigError

from .commands import SUBCOMMANDS
from .terminal_text import printable


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="labyrinth",
        description=f"Labyrinth: The Temporal Hunt - find {STONES_NAMED} "
                    "before the Minotaur finds you. Without a command, the game opens at its title screen.",
    )
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for command in SUBCOMMANDS:
        command.add_parser(sub)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    sweep_data_dir()  # what writers killed mid-write left behind
    if args.command is None:
        from .app import run

        return run()
    try:
        return args.func(args)
    except (ConfigError, ProviderNotConfigured) as exc:
        print(f"labyrinth: {printable(str(exc))}", file=sys.stderr)  # a config key can hold escapes
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
